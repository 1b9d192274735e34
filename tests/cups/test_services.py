"""The cups' writes through the real services: a cup made with its season and
division, its entrants, seeds and draws (reproducible from the seed), a cup played from
its draw to its final through the leagues' sign-off (confirmed, a walkover, a dispute
resolved) with each winner going through by itself, level ties, round-by-round draws,
the plate, round dates and the finals night, the correction rule and an admin's reset."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError

from matches.cups import services as cups
from matches.cups.models import MAX_SEED, Cup, CupLog, CupLogKind, CupRound, CupTie
from matches.cups.selectors import cup_format, cup_shown, rules_cup
from matches.leagues.services import (
    CUP_ENTRANT_STAYS,
    CUP_NO_ROUND_ROBIN,
    PaperGame,
    entrant_remove,
    fixture_confirm,
    fixture_correct,
    fixture_dispute,
    fixture_games_enter,
    fixture_resolve,
    fixture_submit,
    fixture_walkover,
    fixtures_generate,
)
from matches.models import Fixture, FixtureStatus, Membership, SeasonKind
from matches.rules import cup as cup_rules
from tests.support.cups import AWAY_WIN, HOME_WIN, STARTS, a_cup

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_a_cup_is_made_with_its_season_its_division_and_a_seed_of_its_own():
    folk = a_cup(FOUR)
    season = folk.cup.season
    assert season.kind == SeasonKind.CUP
    assert season.corrections_confirmed_again is False
    assert [d.name for d in season.divisions.all()] == ["Entrants"]
    assert sorted(e.name for e in season.divisions.get().entrants.all()) == FOUR
    assert 0 <= folk.cup.draw_seed <= MAX_SEED
    assert folk.cup.drawn is None
    assert list(CupLog.objects.values_list("kind", flat=True)) == [CupLogKind.CREATED]


def test_only_a_club_admin_makes_a_cup():
    folk = a_cup([])
    captain = User.objects.create_user("captain")
    Membership.objects.create(club=folk.club, user=captain, role="captain")
    with pytest.raises(PermissionDenied, match="Only a club admin or above can do that."):
        cups.cup_create(club=folk.club, by=captain, name="Other", starts_on=STARTS,
                        game="all-fives")
    assert Cup.objects.count() == 1


def test_a_walkover_gives_more_games_to_the_side_there():
    folk = a_cup([])
    with pytest.raises(ValidationError) as refused:
        cups.cup_create(club=folk.club, by=folk.admin, name="Bad", starts_on=STARTS,
                        game="all-fives", walkover=(0, 0))
    assert "walkover_winner" in refused.value.message_dict
    assert Cup.objects.count() == 1


def test_a_deciding_game_is_refused_where_a_tie_can_end_level():
    folk = a_cup([])
    with pytest.raises(ValidationError) as refused:
        cups.cup_create(club=folk.club, by=folk.admin, name="Even", starts_on=STARTS,
                        game="all-fives", fixture_format="games", singles=2,
                        level_tie="deciding_game")
    assert refused.value.message_dict["level_tie"] == [str(cups.DECIDER_UNSUPPORTED)]
    odd = cups.cup_create(club=folk.club, by=folk.admin, name="Odd", starts_on=STARTS,
                          game="all-fives", fixture_format="games", singles=3,
                          level_tie="deciding_game")
    assert odd.level_tie == "deciding_game"


def test_entrants_are_added_until_the_cup_is_drawn():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_entrant_add(cup=folk.cup, by=folk.admin, name="Eve")
    assert refused.value.messages == [str(cups.ALREADY_DRAWN)]
    assert folk.cup.season.divisions.get().entrants.count() == 4


def test_a_random_draw_follows_from_the_seed_shown_and_makes_the_first_round_fixtures():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    cup = folk.refreshed()
    ids = [str(e.pk) for e in folk.cup.season.divisions.get().entrants.order_by("name")]
    again = cup_rules.draw(ids, cup_format(cup), seed=cup.draw_seed)
    assert rules_cup(cup) == again
    # 5 entrants: 8 places, 3 byes; one tie of round 1 is played, the others go through
    ties = cup_rules.bracket(again, {}).rounds[0]
    played = [tie for tie in ties if not tie.bye]
    assert len(played) == 1
    fixture = Fixture.objects.get(week=1)
    assert (str(fixture.home_id), str(fixture.away_id)) == (played[0].home, played[0].away)
    assert fixture.status == FixtureStatus.SCHEDULED
    # two byes meeting in round 2 make its fixture at once; the other waits on the tie
    waiting = cup_rules.bracket(again, {}).rounds[1]
    known = [tie for tie in waiting if tie.home and tie.away]
    assert Fixture.objects.filter(week=2).count() == len(known)
    assert CupLog.objects.filter(kind=CupLogKind.DRAWN, user=folk.admin).exists()


def test_a_cup_is_drawn_once():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError, match="drawn already"):
        cups.cup_draw(cup=folk.cup, by=folk.admin)


def test_a_seeded_draw_keeps_the_seeds_apart_and_gives_them_the_byes():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"], draw_method="seeded")
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                       seeds=[folk.entrant("Ann"), folk.entrant("Bob")])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = cup_shown(folk.refreshed()).rounds[0].ties
    byes = {tie.home.name for tie in first if tie.bye and tie.home is not None}
    assert byes == {"Ann", "Bob"}
    top_half = {side.name for tie in first[:2] for side in (tie.home, tie.away) if side}
    assert ("Ann" in top_half) != ("Bob" in top_half)


def test_seeds_are_refused_in_a_cup_not_seeded_and_checked_by_the_rules():
    folk = a_cup(FOUR)
    with pytest.raises(ValidationError) as refused:
        cups.cup_seeds_set(cup=folk.cup, by=folk.admin, seeds=[folk.entrant("Ann")])
    assert refused.value.messages == [str(cups.NOT_SEEDED)]
    folk.cup.draw_method = "seeded"
    folk.cup.save()
    with pytest.raises(ValidationError) as twice:
        cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                           seeds=[folk.entrant("Ann"), folk.entrant("Ann")])
    assert twice.value.message_dict["seeds"] == ['Seed 2 "Ann" is already seed 1.']
    assert Cup.objects.get().seeds == []


def test_a_draw_by_hand_takes_the_pairs_and_names_an_entrant_drawn_twice():
    folk = a_cup(["Ann", "Bob", "Cy"], draw_method="by_hand")
    ann, bob, cy = (folk.entrant(name) for name in ("Ann", "Bob", "Cy"))
    with pytest.raises(ValidationError) as refused:
        cups.cup_draw(cup=folk.cup, by=folk.admin, pairs=[[bob, None], [cy, bob]])
    assert refused.value.message_dict["pairs"] == ['Pair 2: "Bob" is already drawn in pair 1.']
    assert Cup.objects.get().drawn is None and not Fixture.objects.exists()
    cups.cup_draw(cup=folk.cup, by=folk.admin, pairs=[[bob, None], [cy, ann]])
    assert folk.tie_sides(1, 2) == ("Cy", "Ann")


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


def test_a_level_tie_is_decided_on_points_and_refused_when_those_are_level_too():
    folk = a_cup(["Ann", "Bob"], fixture_format="games", singles=2)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    home, away = list(fixture.home.players.all()), list(fixture.away.players.all())
    captain = folk.captain(fixture.home)
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(40, 60, home, away)])
    with pytest.raises(ValidationError) as refused:
        fixture_submit(fixture=fixture, by=captain)
    assert refused.value.messages == [
        "Tie 1 of round 1 is level at 1-1 in games and 100-100 in points: a deciding game is "
        f"needed. {cups.NO_DECIDER_YET}"]
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED
    fixture_games_enter(fixture=fixture, by=captain, games=[
        PaperGame(60, 40, home, away), PaperGame(45, 60, home, away)])
    fixture_submit(fixture=fixture, by=captain)
    fixture_confirm(fixture=fixture, by=folk.captain(fixture.away))
    assert cup_shown(folk.refreshed()).winner == fixture.home  # 105 points to 100


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


def test_a_round_is_dated_and_postponed_its_fixtures_following_and_the_log_saying_so():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    day, later = STARTS + datetime.timedelta(days=7), STARTS + datetime.timedelta(days=14)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=1, date=day)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=1, date=later)
    assert set(Fixture.objects.values_list("date", flat=True)) == {later}
    assert CupRound.objects.get(number=1).date == later
    assert list(CupLog.objects.filter(kind=CupLogKind.ROUND_DATED)
                .values_list("details", flat=True)) == [
        f"round 1: — → {day.isoformat()}", f"round 1: {day.isoformat()} → {later.isoformat()}"]
    with pytest.raises(ValidationError) as refused:
        cups.cup_round_date(cup=folk.cup, by=folk.admin, number=3, date=later)
    assert refused.value.message_dict["number"] == ["The cup has no round 3."]


def test_the_finals_night_dates_the_final_at_its_venue():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=STARTS, venue="  ")
    assert refused.value.message_dict["venue"] == [str(cups.FINALS_VENUE_NEEDED)]
    finals = STARTS + datetime.timedelta(days=28)
    cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=finals, venue="The Royal Oak")
    cup = folk.refreshed()
    assert (cup.finals_on, cup.finals_venue) == (finals, "The Royal Oak")
    assert CupRound.objects.get(number=2).date == finals
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    assert folk.fixture(2, 1).date == finals


def flip(folk, fixture: Fixture, reason: str = "the sheet was misread"):  # noqa: ANN001, ANN201
    return fixture_correct(fixture=fixture, by=folk.admin, scores=[AWAY_WIN],
                           reason=reason)


def test_a_correction_changes_a_winner_while_the_next_tie_is_unplayed():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN)
    folk.play(second, HOME_WIN)
    old_final = folk.fixture(2, 1)
    assert old_final.home == first.home
    flip(folk, first)
    new_final = folk.fixture(2, 1)
    assert new_final.home == first.away and new_final.away == second.home
    assert not Fixture.objects.filter(pk=old_final.pk).exists()  # unplayed: made anew


def test_once_the_next_tie_is_played_a_correction_of_the_winner_is_refused():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = folk.fixture(1, 1)
    folk.play(first, HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    folk.play(folk.fixture(2, 1), HOME_WIN)
    with pytest.raises(ValidationError) as refused:
        flip(folk, first)
    assert refused.value.messages == [
        "Tie 1 of round 1: its winner can change only while tie 1 of round 2 is unplayed, "
        "or by an admin who resets the ties after it."]
    first.refresh_from_db()
    assert (first.home_games, first.away_games) == (1, 0)
    assert not first.corrections.exists()
    fixture_correct(fixture=first, by=folk.admin, scores=[(60, 55)], reason="typo")  # same winner


def test_an_admin_resets_the_ties_after_one_on_purpose_and_the_log_keeps_why():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = folk.fixture(1, 1)
    folk.play(first, HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    played_final = folk.play(folk.fixture(2, 1), HOME_WIN)
    with pytest.raises(ValidationError) as no_reason:
        cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1, reason=" ")
    assert no_reason.value.message_dict["reason"] == [str(cups.RESET_NEEDS_WHY)]
    captain = folk.captain(first.home)
    with pytest.raises(PermissionDenied):
        cups.cup_ties_reset(cup=folk.cup, by=captain, round=1, position=1, reason="x")
    reset = cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1,
                                reason="Ann's result was keyed in the wrong way round")
    assert [str(key) for key in reset] == ["tie 1 of round 2"]
    played_final.refresh_from_db()
    assert played_final.status == FixtureStatus.VOID  # kept, with its games and log
    log = CupLog.objects.get(kind=CupLogKind.RESET)
    assert log.user == folk.admin
    assert log.details == "Ann's result was keyed in the wrong way round (tie 1 of round 2)"
    flip(folk, first)
    final = folk.fixture(2, 1)
    assert final.pk != played_final.pk and final.home == first.away


def test_a_reset_with_nothing_after_the_tie_is_refused():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError, match="Nothing follows tie 1 of round 1"):
        cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1, reason="x")
    assert not CupLog.objects.filter(kind=CupLogKind.RESET).exists()


def test_league_only_writes_refuse_a_cup_season():
    folk = a_cup(FOUR)
    division = folk.cup.season.divisions.get()
    with pytest.raises(ValidationError) as generate:
        fixtures_generate(division=division, by=folk.admin)
    assert generate.value.messages == [str(CUP_NO_ROUND_ROBIN)]
    with pytest.raises(ValidationError) as remove:
        entrant_remove(entrant=folk.entrant("Ann"), by=folk.admin)
    assert remove.value.messages == [str(CUP_ENTRANT_STAYS) % {"name": "Ann"}]
    assert not Fixture.objects.exists() and division.entrants.count() == 4
