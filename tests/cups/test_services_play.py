"""A cup played through the leagues' sign-off (confirmed, a walkover, a dispute
resolved), each winner going through by itself once the result counts; a level tie
decided on points or refused; rounds drawn one by one; the plate."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.cups import services as cups
from matches.cups.models import CupLog, CupLogKind, CupTie
from matches.cups.selectors import cup_shown
from matches.leagues.selectors import needs_you
from matches.leagues.services import (
    PaperGame,
    fixture_confirm,
    fixture_dispute,
    fixture_game_start,
    fixture_games_enter,
    fixture_resolve,
    fixture_submit,
    fixture_walkover,
    fixtures_confirm_due,
    season_lock,
)
from matches.models import Fixture, FixtureStatus, Player, Rating
from tests.support.cups import AWAY_WIN, HOME_WIN, Cupfolk, a_cup

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_a_cup_played_to_its_final_through_the_fixture_sign_off():
    """Tie 1 confirmed, tie 2 a walkover, the final disputed then resolved by the league:
    each winner goes through by itself once the result counts."""
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN, confirm=False)
    assert CupTie.objects.get(round=2).fixture is None  # submitted: not counted yet
    assert folk.winners() == {}
    fixture_confirm(fixture=first, by=folk.captain(first.away))
    assert folk.winners() == {"tie 1 of round 1": first.home.name}
    fixture_walkover(fixture=second, by=folk.admin, side="away")
    assert folk.winners()["tie 2 of round 1"] == second.away.name
    final = folk.fixture(2, 1)
    assert (final.home, final.away) == (first.home, second.away)
    folk.play(final, AWAY_WIN, confirm=False)
    fixture_dispute(fixture=final, by=folk.captain(final.away), message="we won it")
    assert cup_shown(folk.refreshed()).winner is None
    fixture_resolve(fixture=final, by=folk.admin, games=[PaperGame(
        *HOME_WIN, home_players=list(final.home.players.all()),
        away_players=list(final.away.players.all()))])
    shown = cup_shown(folk.refreshed())
    assert shown.winner == final.home
    walkover_tie = shown.rounds[0].ties[1]
    assert walkover_tie.walkover and walkover_tie.score == (0, 1)


def a_night_of_two(**options: Any) -> tuple[Cupfolk, Fixture, list[Player], list[Player]]:
    """A drawn cup of two whose tie is a night of two singles (it can end level)."""
    folk = a_cup(["Ann", "Bob"], fixture_format="games", singles=2, **options)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    return folk, fixture, list(fixture.home.players.all()), list(fixture.away.players.all())


def test_a_level_tie_is_decided_on_points_then_by_a_deciding_game_if_those_are_level():
    folk, fixture, home, away = a_night_of_two()
    assert folk.cup.season.decider and folk.cup.season.night.deciding_game == 3
    captain = folk.captain(fixture.home)
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(40, 60, home, away)])
    with pytest.raises(ValidationError) as refused:
        fixture_submit(fixture=fixture, by=captain)
    assert refused.value.messages == [
        "Tie 1 of round 1 is level at 1-1 in games and 100-100 in points: a deciding game is "
        "needed."]
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED
    # the deciding game, the night's third, goes to the away side
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(40, 60, home, away),
        PaperGame(20, 60, home, away)])
    fixture_submit(fixture=fixture, by=captain)
    fixture_confirm(fixture=fixture, by=folk.captain(fixture.away))
    fixture.refresh_from_db()
    assert (fixture.home_games, fixture.away_games) == (1, 2)
    shown = cup_shown(folk.refreshed())
    assert shown.winner == fixture.away
    assert shown.rounds[0].ties[0].score == (1, 2)


def test_a_tie_level_in_games_but_not_in_points_takes_no_deciding_game():
    folk, fixture, home, away = a_night_of_two()
    captain = folk.captain(fixture.home)
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(45, 60, home, away),
        PaperGame(60, 20, home, away)])
    with pytest.raises(ValidationError) as refused:
        fixture_submit(fixture=fixture, by=captain)
    assert refused.value.messages == [
        "Tie 1 of round 1 is decided on points (105-100): it needs no deciding game."]
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(45, 60, home, away)])
    fixture_submit(fixture=fixture, by=captain)
    fixture_confirm(fixture=fixture, by=folk.captain(fixture.away))
    assert cup_shown(folk.refreshed()).winner == fixture.home  # 105 points to 100


def test_a_cup_decided_by_a_deciding_game_needs_one_after_any_level_night():
    folk, fixture, home, away = a_night_of_two(level_tie="deciding_game")
    captain = folk.captain(fixture.home)
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(45, 60, home, away)])
    with pytest.raises(ValidationError) as refused:
        fixture_submit(fixture=fixture, by=captain)
    assert refused.value.messages == [
        "Tie 1 of round 1 is level at 1-1 in games: the cup decides a level tie by a "
        "deciding game, which the result does not give."]
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(60, 45, home, away),
        PaperGame(60, 20, home, away)])
    with pytest.raises(ValidationError) as refused:
        fixture_submit(fixture=fixture, by=captain)
    assert refused.value.messages == [
        "Tie 1 of round 1 is not level (2-0 in games): a deciding game is played only in a "
        "level tie."]
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(45, 60, home, away),
        PaperGame(60, 20, home, away)])
    fixture_submit(fixture=fixture, by=captain)
    fixture_confirm(fixture=fixture, by=folk.captain(fixture.away))
    assert cup_shown(folk.refreshed()).winner == fixture.home


def test_the_deciding_game_is_played_one_or_two_a_side_whatever_the_night_s_games():
    """A night of two pairs games: its deciding game may be a singles game."""
    folk = a_cup(["Ann", "Bob"], fixture_format="games", pairs=2)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    assert fixture.division.season.night.deciding_game == 3
    fixture_game_start(fixture=fixture, by=folk.captain(fixture.home), number=3,
                       home_players=list(fixture.home.players.all())[:1],
                       away_players=list(fixture.away.players.all())[:1])
    game = fixture.games.get()
    assert game.number == 3 and game.match is not None
    assert game.match.seats.count() == 2
    with pytest.raises(ValidationError) as refused:
        fixture_game_start(fixture=fixture, by=folk.captain(fixture.home), number=4,
                           home_players=list(fixture.home.players.all())[:1],
                           away_players=list(fixture.away.players.all())[:1])
    assert refused.value.messages == ["Game 4 is not a game of the night: it has at most 3."]


def test_round_by_round_the_next_round_is_drawn_once_the_round_before_is_finished():
    folk = a_cup(FOUR, draw_timing="round_by_round")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_round_draw(cup=folk.cup, by=folk.admin)
    assert refused.value.messages == [
        "Tie 1 of round 1 has no winner yet: round 1 finishes before the next is drawn."]
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN)
    folk.play(second, HOME_WIN)
    assert not CupTie.objects.filter(round=2).exists()  # the secretary draws it
    cups.cup_round_draw(cup=folk.cup, by=folk.admin)
    final = folk.fixture(2, 1)
    assert {final.home, final.away} == {first.home, second.home}
    assert CupLog.objects.filter(kind=CupLogKind.ROUND_DRAWN, details="round 2").exists()


def test_the_plate_takes_the_first_round_losers():
    folk = a_cup(FOUR, plate=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError):
        cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN)
    folk.play(second, AWAY_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    plate_final = folk.fixture(1, 1, plate=True)
    assert {plate_final.home, plate_final.away} == {first.away, second.home}
    folk.play(plate_final, HOME_WIN)
    assert cup_shown(folk.refreshed()).plate_winner == plate_final.home


def test_a_locked_cup_takes_no_more_draws_dates_or_resets():
    """Its plate drawn, played and locked: the admin's writes on the cup are refused,
    and the plate's draw is not taken back and drawn again."""
    folk = a_cup(FOUR, plate=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN)
    folk.play(second, AWAY_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    season_lock(season=folk.cup.season, by=folk.admin)
    plate_final = folk.fixture(1, 1, plate=True)
    for write in (
            lambda: cups.cup_plate_undraw(cup=folk.cup, by=folk.admin, reason="again"),
            lambda: cups.cup_plate_draw(cup=folk.cup, by=folk.admin),
            lambda: cups.cup_round_draw(cup=folk.cup, by=folk.admin),
            lambda: cups.cup_round_date(cup=folk.cup, by=folk.admin, number=2,
                                        date=datetime.date(2026, 12, 1)),
            lambda: cups.cup_finals_set(cup=folk.cup, by=folk.admin,
                                        date=datetime.date(2026, 12, 1), venue="Oak"),
            lambda: cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1,
                                        reason="again")):
        with pytest.raises(ValidationError) as refused:
            write()
        assert refused.value.messages == [
            "The season is locked: its results can no longer change."]
    assert folk.fixture(1, 1, plate=True) == plate_final
    assert not CupLog.objects.filter(kind=CupLogKind.PLATE_UNDRAWN).exists()


def test_where_submitted_results_count_the_winner_goes_through_on_sending_and_stays():
    """A cup counting submitted results: the winner goes through when the result is
    sent, and the site's own confirmation a day later changes nothing."""
    folk = a_cup(["Ann", "Bob", "Cy", "Dee"], count_submitted=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = folk.play(folk.fixture(1, 1), HOME_WIN, confirm=False)
    assert folk.winners() == {"tie 1 of round 1": first.home.name}
    folk.play(folk.fixture(1, 2), HOME_WIN, confirm=False)
    final = folk.fixture(2, 1)
    assert final.home == first.home
    assert fixtures_confirm_due(now=timezone.now() + datetime.timedelta(hours=25)) == 2
    first.refresh_from_db()
    assert first.status == FixtureStatus.CONFIRMED
    assert folk.fixture(2, 1).pk == final.pk


def test_a_plate_drawn_round_by_round_has_its_next_round_drawn_by_the_secretary():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"], plate=True,
                 draw_timing="round_by_round")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    for position in range(1, 5):
        folk.play(folk.fixture(1, position), HOME_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    assert not cup_shown(folk.refreshed()).plate_round_drawable
    losers = set()
    for position in (1, 2):
        played = folk.play(folk.fixture(1, position, plate=True), AWAY_WIN)
        losers.add(played.home)
    assert cup_shown(folk.refreshed()).plate_round_drawable
    cups.cup_round_draw(cup=folk.cup, by=folk.admin, plate=True)
    plate_final = folk.fixture(2, 1, plate=True)
    assert not {plate_final.home, plate_final.away} & losers
    assert CupLog.objects.filter(kind=CupLogKind.ROUND_DRAWN, details="plate round 2").exists()


def test_a_cups_games_count_in_the_clubs_ratings_and_its_players_records():
    """A tie's games are fixture games like a league's: once its result counts, its
    players are rated, and the player's page counts the game under the cup."""
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    tie = folk.fixture(1, 1)
    folk.play(tie, HOME_WIN)
    winner, loser = (Player.objects.get(club=folk.club, name=entrant.name)
                     for entrant in (tie.home, tie.away))

    rated = {rating.player: rating for rating in Rating.objects.filter(club=folk.club)}
    assert set(rated) == {winner, loser}
    assert rated[winner].ordinal > rated[loser].ordinal
    assert rated[winner].matches == rated[loser].matches == 1
    client = Client()
    client.force_login(folk.admin)
    page = client.get(reverse("matches:club_player", kwargs={
        "slug": folk.club.slug, "pk": winner.pk})).content.decode()
    assert folk.cup.season.name in page


def test_a_ties_result_waits_on_the_away_captains_home_page_as_a_league_fixtures_does():
    """Cup nights are told as league nights are: the result sent waits for the away
    captain to confirm; a dispute, for both captains and the club's admin."""
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    tie = folk.play(folk.fixture(1, 1), HOME_WIN, confirm=False)
    today = folk.cup.season.starts_on
    home, away = folk.captain(tie.home), folk.captain(tie.away)

    assert needs_you(user=away, today=today).to_confirm == [tie]
    assert needs_you(user=home, today=today).to_confirm == []
    fixture_dispute(fixture=tie, by=away, message="we won the last hand")
    for user in (home, away, folk.admin):
        assert needs_you(user=user, today=today).disputes == [tie]
    client = Client()
    client.force_login(away)
    assert tie.get_absolute_url() in client.get(reverse("matches:home")).content.decode()
