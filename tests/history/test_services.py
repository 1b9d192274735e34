"""matches.history.services: ratings (openskill) from a club's finished matches, in the
order played."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.clubs.services import club_create
from matches.history.selectors import club_ratings
from matches.history.services import ratings_recompute
from matches.leagues.services import (
    PaperGame,
    entrant_add,
    fixture_correct,
    fixture_game_start,
    fixture_games_enter,
    fixture_resolve,
    fixture_submit,
    fixture_void,
    fixture_walkover,
    fixtures_csv_import,
    season_create,
)
from matches.models import Match, Player, Rating, RatingStep
from matches.scoring.services.lifecycle import match_delete
from matches.scoring.services.play import event_record, event_undo, match_create, round_start
from tests.support.helpers import T, night, paper_league, won_at_once

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(django_user_model):
    owner = django_user_model.objects.create_user("owner")
    club = club_create(name="Oak", by=owner)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        Player.objects.create(club=club, name=name)
    return club


def league_match(club, names: list[str], *, winner: int, when: int) -> Match:
    """``winner``'s side wins at once, ``when`` hours into the season; club players sit."""
    return won_at_once(names, opener=winner, played_at=night(7, when), players_of=club)


def table(club) -> list[tuple[str, float, int]]:
    return [(r.player.name, round(r.ordinal, 6), r.matches)
            for r in club_ratings(club, "all-fives")]


def test_a_finished_club_match_rates_its_players_and_the_winner_goes_up(club):
    league_match(club, ["Ann", "Bob"], winner=0, when=1)
    ratings = {r.player.name: r for r in Rating.objects.all()}
    assert ratings["Ann"].ordinal > ratings["Bob"].ordinal
    assert ratings["Ann"].matches == 1 and ratings["Ann"].provisional
    assert [step.number for step in ratings["Ann"].steps.all()] == [1]


def test_partnerships_rate_as_teams(club):
    league_match(club, ["Ann", "Bob", "Cat", "Dan"], winner=1, when=1)  # Bob and Dan won
    ratings = {r.player.name: r.ordinal for r in Rating.objects.all()}
    assert ratings["Bob"] == ratings["Dan"] > ratings["Ann"] == ratings["Cat"]


def test_ratings_do_not_depend_on_the_order_matches_were_stored(club):
    games = [(["Ann", "Bob"], 0, 3), (["Bob", "Cat"], 1, 1), (["Cat", "Ann"], 0, 2),
             (["Dan", "Ann"], 1, 4)]
    for names, winner, when in games:
        league_match(club, names, winner=winner, when=when)
    assert ratings_recompute(club=club, game="all-fives") == 4
    first = table(club)
    Match.objects.all().delete()
    # stored the other way round, as results of past nights typed in late would be
    for names, winner, when in reversed(games):
        league_match(club, names, winner=winner, when=when)
    assert ratings_recompute(club=club, game="all-fives") == 4
    assert table(club) == first
    # the order played decides: the same results played in another order rate otherwise
    Match.objects.all().delete()
    for names, winner, when in games:
        league_match(club, names, winner=winner, when=10 - when)
    ratings_recompute(club=club, game="all-fives")
    assert table(club) != first


def test_undoing_the_winning_tile_takes_the_match_out_of_the_ratings(club):
    first = league_match(club, ["Ann", "Bob"], winner=0, when=1)
    league_match(club, ["Ann", "Cat"], winner=1, when=2)
    event_undo(match=first)  # the result is gone: the match is in play again
    assert {r.player.name: r.matches for r in Rating.objects.all()} == {"Ann": 1, "Cat": 1}


def test_casual_matches_are_never_rated(club):
    match = match_create(game="all-fives", players=["Ann", "Bob"],
                                  options={"target": 10, "hand_size": 2})
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    assert not Rating.objects.exists()


def test_the_rating_table_page(club):
    league_match(club, ["Ann", "Bob"], winner=1, when=1)
    page = Client().get(reverse("matches:club_ratings", kwargs={
        "slug": club.slug, "game": "all-fives"})).content.decode()
    assert page.index("Bob") < page.index("Ann") and "provisional" in page
    assert Client().get(reverse("matches:club_ratings", kwargs={
        "slug": club.slug, "game": "chess"})).status_code == 404
    assert "Ratings" in Client().get(club.get_absolute_url()).content.decode()


def test_partners_with_the_same_rating_share_their_rank(club):
    league_match(club, ["Ann", "Bob", "Cat", "Dan"], winner=1, when=1)  # Bob and Dan won
    page = Client().get(reverse("matches:club_ratings", kwargs={
        "slug": club.slug, "game": "all-fives"})).content.decode()

    ranks = {name: page.split(f'data-player="{name}"><td>')[1].split("<")[0]
             for name in ("Ann", "Bob", "Cat", "Dan")}

    assert ranks == {"Bob": "1=", "Dan": "1=", "Ann": "3=", "Cat": "3="}


def test_deleting_a_match_rebuilds_the_ratings_without_it(club):
    first = league_match(club, ["Ann", "Bob"], winner=0, when=1)
    league_match(club, ["Ann", "Cat"], winner=0, when=2)
    match_delete(match=first)
    assert {r.player.name: r.matches for r in Rating.objects.all()} == {"Ann": 1, "Cat": 1}
    match_delete(match=Match.objects.get())
    assert not Match.objects.exists() and not Rating.objects.exists()


def test_the_rating_table_runs_a_fixed_number_of_queries(club, django_assert_max_num_queries):
    url = reverse("matches:club_ratings", kwargs={"slug": club.slug, "game": "all-fives"})
    league_match(club, ["Ann", "Bob"], winner=0, when=1)
    with django_assert_max_num_queries(6):
        Client().get(url)
    for when in range(2, 8):
        league_match(club, ["Cat", "Dan"] if when % 2 else ["Bob", "Cat"], winner=0,
                     when=when)
    with django_assert_max_num_queries(6):
        assert Client().get(url).status_code == 200


def test_a_paper_game_with_its_players_is_rated_as_one_result_of_home_against_away(
        club, django_user_model):
    owner = django_user_model.objects.get(username="owner")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    league = paper_league(club, owner, squads={"Oak": [ann, bob], "Bowes": [cat, dan]})
    fixture = league.fixture(1)

    fixture_games_enter(fixture=fixture, by=owner, games=[
        PaperGame(61, 40, [ann], [cat]), None, PaperGame(58, 61, [ann, bob], [cat, dan])])

    ratings = {r.player.name: r for r in Rating.objects.filter(game="fives-and-threes")}
    assert {name: r.matches for name, r in ratings.items()} == {
        "Ann": 2, "Bob": 1, "Cat": 2, "Dan": 1}
    # Bob only lost (with Ann), Dan only won (with Cat)
    assert ratings["Bob"].ordinal < ratings["Ann"].ordinal
    assert ratings["Dan"].ordinal > ratings["Bob"].ordinal
    steps = RatingStep.objects.filter(rating=ratings["Ann"]).order_by("number")
    assert [(s.match, s.fixture_game and s.fixture_game.number) for s in steps] == [
        (None, 1), (None, 3)]
    # the same result on the scorepad rates the same: a paper game is one result
    scorepad = club_create(name="Pad", by=owner)
    for name in ("Ann", "Bob", "Cat", "Dan"):
        Player.objects.create(club=scorepad, name=name)
    won_at_once(["Ann", "Cat"], opener=0, played_at=night(7), players_of=scorepad)
    won_at_once(["Ann", "Cat", "Bob", "Dan"], opener=1, played_at=night(8),
                players_of=scorepad)
    played = {r.player.name: round(r.ordinal, 9) for r in
              Rating.objects.filter(club=scorepad)}
    assert played == {name: round(r.ordinal, 9) for name, r in ratings.items()}


def test_a_paper_game_without_players_is_not_rated_and_a_game_taken_out_goes(
        club, django_user_model):
    owner = django_user_model.objects.get(username="owner")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    league = paper_league(club, owner, optional=True,
                          squads={"Oak": [ann, bob], "Bowes": [cat, dan]})
    fixture = league.fixture(1)

    fixture_games_enter(fixture=fixture, by=owner, games=[PaperGame(61, 40)])
    assert not Rating.objects.exists()

    fixture_games_enter(fixture=fixture, by=owner, games=[PaperGame(61, 40, [ann], [cat])])
    assert sorted(Rating.objects.values_list("player__name", "matches")) == [
        ("Ann", 1), ("Cat", 1)]
    before = Rating.objects.get(player=ann).ordinal

    fixture_games_enter(fixture=fixture, by=owner, games=[
        PaperGame(61, 40, [ann], [cat]), PaperGame(61, 50, [ann], [dan])])
    assert Rating.objects.get(player=ann).ordinal > before

    fixture_games_enter(fixture=fixture, by=owner, games=[PaperGame(61, 40)])
    assert not Rating.objects.exists()  # rebuilt from the results, none with players


def test_a_resolution_that_corrects_a_paper_games_players_rebuilds_the_ratings(
        club, django_user_model):
    owner = django_user_model.objects.get(username="owner")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    league = paper_league(club, owner, squads={"Oak": [ann, bob], "Bowes": [cat, dan]})
    fixture = league.fixture(1)
    rest = [PaperGame(20, 61, [bob], [dan]), PaperGame(61, 30, [ann, bob], [cat, dan])]
    fixture_games_enter(fixture=fixture, by=owner,
                        games=[PaperGame(61, 40, [ann], [cat]), *rest])
    fixture_submit(fixture=fixture, by=owner)
    assert sorted(Rating.objects.values_list("player__name", "matches")) == [
        ("Ann", 2), ("Bob", 2), ("Cat", 2), ("Dan", 2)]

    fixture_resolve(fixture=fixture, by=owner,
                    games=[PaperGame(61, 40, [bob], [cat]), *rest])  # Bob played game 1

    assert sorted(Rating.objects.values_list("player__name", "matches")) == [
        ("Ann", 1), ("Bob", 3), ("Cat", 2), ("Dan", 2)]


def test_a_spreadsheet_row_that_replaces_paper_games_rebuilds_the_ratings(
        club, django_user_model):
    owner = django_user_model.objects.get(username="owner")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    league = paper_league(club, owner, squads={"Oak": [ann, bob], "Bowes": [cat, dan]})
    fixture = league.fixture(1)
    fixture_games_enter(fixture=fixture, by=owner, games=[PaperGame(61, 40, [ann], [cat])])
    assert Rating.objects.count() == 2

    fixtures_csv_import(division=fixture.division, by=owner, text=(
        "date,home,away,home_games,away_games,games,status\n"
        "2026-09-07,Oak,Bowes,2,1,61-40 61-12 58-61,\n"))

    assert fixture.games.count() == 3 and not Rating.objects.exists()


@pytest.fixture
def night_played(club, django_user_model):
    """Fixture 1 of a paper league, its three games keyed in with their players and
    sent: every player rated twice."""
    owner = django_user_model.objects.get(username="owner")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    league = paper_league(club, owner, squads={"Oak": [ann, bob], "Bowes": [cat, dan]})
    fixture = league.fixture(1)
    fixture_games_enter(fixture=fixture, by=owner, games=[
        PaperGame(61, 40, [ann], [cat]), PaperGame(20, 61, [bob], [dan]),
        PaperGame(61, 30, [ann, bob], [cat, dan])])
    fixture_submit(fixture=fixture, by=owner)
    assert sorted(Rating.objects.values_list("player__name", "matches")) == [
        ("Ann", 2), ("Bob", 2), ("Cat", 2), ("Dan", 2)]
    return fixture


def test_a_walkover_over_a_played_night_takes_its_games_out_of_the_ratings(
        club, night_played):
    owner = night_played.division.season.club.memberships.get().user
    fixture_walkover(fixture=night_played, by=owner, side="home")

    assert not Rating.objects.exists()


def test_correcting_a_paper_games_score_rebuilds_the_ratings(club, night_played):
    owner = night_played.division.season.club.memberships.get().user
    before = {r.player.name: r.ordinal for r in Rating.objects.all()}

    # game 3 went the other way: 30-61, the away pair won it
    fixture_correct(fixture=night_played, by=owner,
                    scores=[(61, 40), (20, 61), (30, 61)],
                    home_players=[[club.players.get(name="Ann")], [club.players.get(name="Bob")],
                                  list(club.players.filter(name__in=["Ann", "Bob"]))],
                    away_players=[[club.players.get(name="Cat")], [club.players.get(name="Dan")],
                                  list(club.players.filter(name__in=["Cat", "Dan"]))],
                    reason="game 3 written the wrong way round")

    after = {r.player.name: r.ordinal for r in Rating.objects.all()}
    assert after["Ann"] < before["Ann"] and after["Cat"] > before["Cat"]
    assert after == {r.player.name: r.ordinal for r in _rebuilt(club)}


@pytest.mark.parametrize("step", ["resolve", "void"])
def test_a_step_that_changes_no_counted_game_does_not_rebuild_the_ratings(
        club, night_played, step):
    # a void fixture's games were played: they stay in the ratings (only the league's
    # table leaves the fixture out)
    owner = night_played.division.season.club.memberships.get().user
    def steps() -> list[int]:
        return list(RatingStep.objects.order_by("pk").values_list("pk", flat=True))
    first = steps()

    if step == "resolve":
        fixture_resolve(fixture=night_played, by=owner)  # confirmed as sent
    else:
        fixture_void(fixture=night_played, by=owner)

    assert steps() == first  # the same rows: not deleted and made again


def _rebuilt(club) -> list[Rating]:
    ratings_recompute(club=club, game="fives-and-threes")
    return list(Rating.objects.select_related("player"))


def test_a_pairs_game_the_league_corrected_rates_each_pair_as_one_side(club, django_user_model):
    # Fives and Threes has no partnerships: a pairs game is four sides on the scorepad,
    # home in the even seats (Ann, Bob) and away in the odd (Cat, Dan)
    owner = django_user_model.objects.get(username="owner")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    season = season_create(club=club, by=owner, name="Pairs", game="fives-and-threes",
                           starts_on=datetime.date(2026, 9, 7), fixture_format="games",
                           singles=0, pairs=1, options={"target": 4})
    division = season.divisions.get()
    oak, bowes = (entrant_add(division=division, by=owner, name=name, players=players,
                              captain=owner)
                  for name, players in (("Oak", [ann, bob]), ("Bowes", [cat, dan])))
    fixture = division.fixtures.create(week=1, home=oak, away=bowes)
    match = fixture_game_start(fixture=fixture, by=owner, number=1, home_players=[ann, bob],
                               away_players=[cat, dan]).match
    round_start(match=match, starter=3)
    event_record(match=match, action=rules.Play(3, T("6-6")))  # 12 → 4: Dan wins it
    fixture_submit(fixture=fixture, by=owner)
    played = {r.player.name: r.ordinal for r in Rating.objects.filter(club=club)}
    assert played["Dan"] > played["Cat"]  # as played, four sides, Dan first

    fixture_correct(fixture=fixture, by=owner, scores=[(4, 0)], reason="Bob had 6-6")

    ratings = {r.player.name: r.ordinal for r in Rating.objects.filter(club=club)}
    assert ratings["Ann"] == ratings["Bob"] > ratings["Cat"] == ratings["Dan"]
