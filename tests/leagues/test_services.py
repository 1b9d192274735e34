"""matches.leagues.services: who may do what to an entrant and a fixture, checked by the
services themselves (the pages' flags ask the same selectors)."""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.utils import timezone

from matches import rules
from matches.clubs.services import club_create, membership_remove, player_add
from matches.core import resends
from matches.cups.services import cup_create
from matches.leagues.selectors import division_table, scorepad_closure
from matches.leagues.services import (
    CAPTAIN_OUTSIDE,
    OWN_FIXTURE,
    PLAYERS_UNKNOWN,
    WRONG_STATUS,
    PaperGame,
    adjustment_add,
    adjustment_remove,
    entrant_add,
    entrant_captain_set,
    entrant_remove,
    entrant_rename,
    entrant_squad_change,
    fixture_add,
    fixture_confirm,
    fixture_correct,
    fixture_dispute,
    fixture_game_start,
    fixture_games_enter,
    fixture_redate,
    fixture_reinstate,
    fixture_resolve,
    fixture_submit,
    fixture_void,
    fixture_walkover,
    fixtures_generate,
    season_corrections_choose,
    season_create,
    season_lock,
)
from matches.models import (
    ChangeKind,
    Division,
    Entrant,
    Fixture,
    FixtureChangeKind,
    FixtureStatus,
    Match,
    MatchStatus,
    Membership,
    Player,
    Season,
)
from matches.scoring.services.closure import ScorepadClosed
from matches.scoring.services.lifecycle import match_resume
from matches.scoring.services.play import event_record, round_start
from tests.support.helpers import (
    T,
    fixture_state,
    league_night,
    league_night_at,
    paper_games,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name)
            for name in ("admin", "oak", "bowes", "member", "stranger")}


@pytest.fixture
def division(people) -> Division:
    club = club_create(name="Teesdale", by=people["admin"])
    for name in ("oak", "bowes"):
        Membership.objects.create(club=club, user=people[name], role="captain")
    Membership.objects.create(club=club, user=people["member"], role="member")
    return season_create(club=club, by=people["admin"], name="Monday League",
                                  game="fives-and-threes",
                                  starts_on=datetime.date(2026, 9, 7)).divisions.get()


def test_entrant_add_takes_its_captain_by_a_members_username(division, people):
    entrant = entrant_add(division=division, by=people["admin"], name="Black Bull",
                                   captain_username="member")
    assert entrant.captain == people["member"]


@pytest.mark.parametrize("username", ["stranger", "nobody"])
def test_entrant_add_refuses_a_username_outside_the_club_alike_whether_or_not_it_exists(
        division, people, username):
    with pytest.raises(ValidationError) as refused:
        entrant_add(division=division, by=people["admin"], name="Black Bull",
                             captain_username=username)
    assert refused.value.message_dict == {"captain": [CAPTAIN_OUTSIDE % {"name": username}]}
    assert not division.entrants.exists()


def test_entrant_add_takes_its_squad_by_the_clubs_players_names(division, people):
    club = division.season.club
    ann = player_add(club=club, name="Ann Dale", by=people["admin"])
    bob = player_add(club=club, name="Bob Hay", by=people["admin"])
    entrant = entrant_add(division=division, by=people["admin"], name="Black Bull",
                                   player_names=[" bob  hay", "ann dale", " "])
    assert list(entrant.players.order_by("name")) == [ann, bob]


def test_entrant_add_refuses_names_that_are_not_the_clubs_players(division, people):
    player_add(club=division.season.club, name="Ann Dale", by=people["admin"])
    with pytest.raises(ValidationError) as refused:
        entrant_add(division=division, by=people["admin"], name="Black Bull",
                             player_names=["Ann Dale", "Nobody", "Somebody"])
    assert refused.value.message_dict == {
        "players": [PLAYERS_UNKNOWN % {"names": "Nobody, Somebody"}]}


def night_of(people, game="fives-and-threes", **season_format) -> Fixture:
    """Royal Oak v Bowes in a ``game`` season whose nights are ``season_format`` (as the
    season form makes it), each captain's squad of two."""
    club = club_create(name="Night Club", by=people["admin"])
    for name in ("oak", "bowes"):
        Membership.objects.create(club=club, user=people[name], role="captain")
    season = season_create(club=club, by=people["admin"], name="Nights",
                                    game=game, starts_on=datetime.date(2026, 9, 7),
                                    **season_format)
    division = season.divisions.get()
    home, away = (entrant_add(
        division=division, by=people["admin"], name=name, captain=people[captain],
        players=[player_add(club=club, name=f"{name} {n}", by=people["admin"])
                 for n in (1, 2)])
        for name, captain in (("Royal Oak", "oak"), ("Bowes", "bowes")))
    return Fixture.objects.create(division=division, week=1, home=home, away=away)


def unchanged(fixture: Fixture) -> tuple[object, ...]:
    fixture.refresh_from_db()
    return (fixture.status, fixture.home_games, fixture.away_games, fixture.changes.count(),
            sorted(fixture.games.values_list("number", "home_score", "away_score")))


def test_a_night_of_three_singles_is_sent_only_with_every_game_scored(people):
    fixture = night_of(people, fixture_format="games", singles=3)
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, 40), (20, 61)]))
    before = unchanged(fixture)

    with pytest.raises(ValidationError) as refused:
        fixture_submit(fixture=fixture, by=people["oak"])

    assert refused.value.messages == [
        "The night is not finished: game 3 has no score yet (a night of 3 games)."]
    assert refused.value.params == {"n": 3}  # the page marks game 3's row
    assert unchanged(fixture) == before and before[0] == FixtureStatus.SCHEDULED
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, 40), (20, 61), (61, 0)]))
    sent = fixture_submit(fixture=fixture, by=people["oak"])
    assert (sent.status, sent.home_games, sent.away_games) == (FixtureStatus.SUBMITTED, 2, 1)


def squads(fixture: Fixture) -> tuple[list[Player], list[Player]]:
    """The home and the away squad, by name."""
    return (list(fixture.home.players.order_by("name")),
            list(fixture.away.players.order_by("name")))


def test_a_game_beyond_the_night_is_refused_however_it_comes(people):
    fixture = night_of(people, fixture_format="games", singles=2, pairs=1)
    oak = people["oak"]
    home, away = squads(fixture)
    before = unchanged(fixture)
    message = ["Game 4 is not a game of the night: it has at most 3."]

    for write in (
            lambda: fixture_games_enter(fixture=fixture, by=oak, games=[
                None, None, None, PaperGame(61, 4, home[:1], away[:1])]),
            lambda: fixture_game_start(fixture=fixture, by=oak, number=4,
                                                home_players=home[:1], away_players=away[:1])):
        with pytest.raises(ValidationError) as refused:
            write()
        assert refused.value.messages == message

    assert unchanged(fixture) == before and not Match.objects.exists()
    fixture_games_enter(fixture=fixture, by=oak,
                        games=[None, None, PaperGame(61, 4, home, away)])  # the pairs game
    assert fixture.games.get().number == 3


def test_a_race_is_sent_once_a_side_has_its_games_and_not_with_games_after(people):
    fixture = night_of(people, fixture_format="race", race_to=2)
    oak = people["oak"]
    for scores, message in (
            ([(61, 40), (3, 61)], "neither side has won 2 games yet (1-1)"),
            ([(61, 40), (61, 3), (5, 61)], "game 3 comes after the race to 2 was won in "
                                           "game 2")):
        fixture_games_enter(fixture=fixture, by=oak, games=paper_games(fixture, scores))
        before = unchanged(fixture)
        with pytest.raises(ValidationError) as refused:
            fixture_submit(fixture=fixture, by=oak)
        assert refused.value.messages == [f"The night is not finished: {message}."]
        assert unchanged(fixture) == before

    fixture_games_enter(fixture=fixture, by=oak,
        games=paper_games(fixture, [(61, 40), (3, 61), (5, 61)]))
    sent = fixture_submit(fixture=fixture, by=oak)
    assert (sent.status, sent.home_games, sent.away_games) == (FixtureStatus.SUBMITTED, 1, 2)


def test_the_league_may_settle_a_night_cut_short(people):
    """Only the captains' submission waits for the whole night: an admin's resolution
    is the league's word on a night that could not be finished."""
    fixture = night_of(people, fixture_format="games", singles=3)
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, 40), (61, 20), (61, 30)]))
    fixture_submit(fixture=fixture, by=people["oak"])
    fixture_dispute(fixture=fixture, by=people["bowes"], message="game 3 not played")
    with pytest.raises(ValidationError, match="Game 4 is not a game of the night"):
        fixture_resolve(fixture=fixture, by=people["admin"],
                                 games=paper_games(fixture, [(61, 40), (61, 20), (61, 1), (61, 2)]))

    resolved = fixture_resolve(fixture=fixture, by=people["admin"],
                                        games=paper_games(fixture, [(61, 40), (61, 20)]))

    assert (resolved.status, resolved.home_games, resolved.away_games) == (
        FixtureStatus.CONFIRMED, 2, 0)


def test_a_keyed_in_score_no_game_of_the_season_can_end_with_is_refused_naming_the_game(
        people):
    fixture = night_of(people, fixture_format="games", singles=2, pairs=1)
    oak, players = people["oak"], list(Player.objects.order_by("name"))
    home, away = [p for p in players if p.name.startswith("Royal")], \
        [p for p in players if p.name.startswith("Bowes")]
    fixture_games_enter(fixture=fixture, by=oak, games=paper_games(fixture, [(61, 40)]))
    before = unchanged(fixture)
    past = ("Game 2: Fives and Threes is won exactly on the target 61 (an award that would "
            "pass it does not count), so 64 is past it.")
    short = "Game 3: neither side has reached the target 61, so 40-50 is not a final score."
    both = ("Game 2: both sides are at or past the target 61: Fives and Threes ends as soon "
            "as one side reaches it (61-62).")

    for write, message, number in (
            (lambda: fixture_games_enter(fixture=fixture, by=oak, games=paper_games(fixture, [
                (61, 40), (64, 20), (40, 50)])), past, 2),
            (lambda: fixture_games_enter(fixture=fixture, by=oak, games=paper_games(fixture, [
                (61, 40), None, (40, 50)])), short, 3),
            (lambda: fixture_games_enter(fixture=fixture, by=oak, games=[
                None, PaperGame(61, 62, home[:1], away[:1])]), both, 2),
            (lambda: fixture_games_enter(fixture=fixture, by=oak, games=[
                None, None, PaperGame(40, 50, home, away)]), short, 3)):
        with pytest.raises(ValidationError) as refused:
            write()
        assert refused.value.messages == [message]
        assert refused.value.params == {"n": number}  # the page marks its row
        assert refused.value.code == "score"

    assert unchanged(fixture) == before
    fixture_games_enter(fixture=fixture, by=oak,
        games=paper_games(fixture, [(61, 40), (12, 61), (61, 60)]))
    fixture_submit(fixture=fixture, by=oak)
    fixture_dispute(fixture=fixture, by=people["bowes"], message="game 3 was 58-65")
    with pytest.raises(ValidationError, match="'Game 3: Fives and Threes is won exactly"):
        fixture_resolve(fixture=fixture, by=people["admin"],
                                 games=paper_games(fixture, [(61, 40), (12, 61), (58, 65)]))
    assert unchanged(fixture)[0] == FixtureStatus.DISPUTED


def test_a_keyed_in_score_is_held_to_its_line_ups_target(people, django_user_model):
    """All Fives plays to 250 one a side and to 200 a pair a side."""
    fixture = night_of(people, game="all-fives", fixture_format="games", singles=1, pairs=1)
    oak = people["oak"]
    home, away = squads(fixture)

    with pytest.raises(ValidationError) as refused:
        fixture_games_enter(fixture=fixture, by=oak,
                            games=[PaperGame(200, 150, home[:1], away[:1])])
    assert refused.value.messages == [
        "Game 1: neither side has reached the target 250, so 200-150 is not a final score."]
    with pytest.raises(ValidationError, match="'Game 1: All Fives scores go in fives"):
        fixture_games_enter(fixture=fixture, by=oak,
                            games=[PaperGame(201, 150, home, away)])

    fixture_games_enter(fixture=fixture, by=oak, games=[
        PaperGame(200, 150, home, away),  # the pairs game
        PaperGame(95, 265, home[:1], away[:1])])  # 95 + 170 pips
    assert sorted(fixture.games.values_list("number", "home_score")) == [(1, 200), (2, 95)]


@pytest.mark.parametrize(("season_format", "errors"), [
    ({"fixture_format": "games", "singles": 30, "pairs": 11},
     {"pairs": ["A fixture night has at most 40 games."]}),
    ({"fixture_format": "race", "race_to": 21},
     {"race_to": ["A race is to at most 20 games (it may take twice as many, less one)."]}),
])
def test_a_season_whose_nights_could_not_be_stored_is_refused(people, season_format, errors):
    club = club_create(name="Long Nights", by=people["admin"])
    with pytest.raises(ValidationError) as refused:
        season_create(club=club, by=people["admin"], name="Too long",
                               game="all-fives", starts_on=datetime.date(2026, 9, 7),
                               **season_format)
    assert refused.value.message_dict == errors
    assert not club.seasons.exists()


def test_a_games_line_up_fits_the_nights_singles_and_pairs_in_any_order(people):
    fixture = night_of(people, fixture_format="games", singles=2, pairs=1)
    oak = people["oak"]
    home, away = squads(fixture)
    fixture_game_start(fixture=fixture, by=oak, number=3, home_players=home[:1],
                                away_players=away[:1])
    before = unchanged(fixture)

    for games, message in (
            ([PaperGame(61, 1, home[:1], away[:1]), PaperGame(61, 2, home[1:], away[1:])],
             "Game 2 has to be a pairs game: the night's singles (2) have their players "
             "already."),
            ([PaperGame(61, 1, home[:1], away[:1]), PaperGame(61, 2, [home[0], home[0]], away)],
             "Game 2: Royal Oak 1 is chosen twice; a pair is two different players.")):
        with pytest.raises(ValidationError) as refused:
            fixture_games_enter(fixture=fixture, by=oak, games=games)
        assert refused.value.messages == [message]
        assert (refused.value.params or {}).get("n") == 2

    assert unchanged(fixture) == before
    fixture_games_enter(fixture=fixture, by=oak, games=[
        PaperGame(61, 1, home[:1], away[:1]), PaperGame(61, 2, home, away)])
    # game 1 may be keyed in again with another line-up: its own does not count against it
    fixture_games_enter(fixture=fixture, by=oak, games=[
        PaperGame(61, 3, home[1:], away[1:]), PaperGame(61, 2, home, away)])
    assert sorted(fixture.games.values_list("number", "home_score")) == [
        (1, 61), (2, 61), (3, None)]
    assert list(fixture.games.get(number=1).home_players.all()) == home[1:]


@pytest.mark.parametrize(("kind", "names", "message"), [
    ("single", ["Ann Dale", "Bob Hay"], "A single player's squad is that one player."),
    ("pair", ["Ann Dale", "Bob Hay", "Cy Lund"], "A pair's squad is its two players."),
])
def test_a_single_or_a_pair_has_no_more_players_than_it_is(division, people, kind, names,
                                                            message):
    for name in ("Ann Dale", "Bob Hay", "Cy Lund"):
        player_add(club=division.season.club, name=name, by=people["admin"])
    with pytest.raises(ValidationError) as refused:
        entrant_add(division=division, by=people["admin"], name="Ann & co",
                             kind=kind, player_names=names)
    assert refused.value.message_dict == {"players": [message]}
    assert not division.entrants.exists()
    pair = entrant_add(division=division, by=people["admin"], name="Ann & Bob",
                                kind="pair", player_names=["Ann Dale", "bob hay", "ANN DALE"])
    assert pair.players.count() == 2  # a name given twice is one player


def test_a_player_plays_for_one_entrant_of_a_division(division, people):
    club = division.season.club
    for name in ("Ann Dale", "Bob Hay", "Cy Lund"):
        player_add(club=club, name=name, by=people["admin"])
    entrant_add(division=division, by=people["admin"], name="Royal Oak",
                         player_names=["Ann Dale", "Bob Hay"])

    with pytest.raises(ValidationError) as refused:
        entrant_add(division=division, by=people["admin"], name="Bowes",
                             player_names=["Cy Lund", "bob hay", "ann dale"])

    assert refused.value.message_dict == {"players": [
        "Already in another squad of this division: Ann Dale (Royal Oak), Bob Hay "
        "(Royal Oak)."]}
    assert division.entrants.count() == 1
    other = season_create(club=club, by=people["admin"], name="Summer League",
                                   game="all-fives", starts_on=datetime.date(2027, 4, 5))
    entrant_add(division=other.divisions.get(), by=people["admin"], name="Bowes",
                         player_names=["Ann Dale"])  # another season's division: free


def test_a_squad_takes_a_signing_and_lets_a_player_go_one_squad_a_division_still(
        division, people):
    club = division.season.club
    for name in ("Ann Dale", "Bob Hay", "Cy Lund", "Di Moss"):
        player_add(club=club, name=name, by=people["admin"])
    oak = entrant_add(division=division, by=people["admin"], name="Royal Oak",
                      player_names=["Ann Dale", "Bob Hay"])
    entrant_add(division=division, by=people["admin"], name="Bowes", player_names=["Cy Lund"])
    with pytest.raises(PermissionDenied):
        entrant_squad_change(entrant=oak, by=people["oak"], add=["Di Moss"])

    entrant_squad_change(entrant=oak, by=people["admin"], add=["di moss", " Ann  Dale "])
    assert sorted(oak.players.values_list("name", flat=True)) == [
        "Ann Dale", "Bob Hay", "Di Moss"]
    for change, message in (
            ({"add": ["Cy Lund"]}, "Already in another squad of this division: Cy Lund (Bowes)."),
            ({"add": ["Ed Nye"]}, "Not the club's players: Ed Nye. Add them on the club page "
                                  "first."),
            ({"drop": ["Cy Lund"]}, "Not in Royal Oak's squad: Cy Lund.")):
        with pytest.raises(ValidationError) as refused:
            entrant_squad_change(entrant=oak, by=people["admin"], **change)
        assert refused.value.message_dict == {"players": [message]}
    entrant_squad_change(entrant=oak, by=people["admin"], drop=["Bob Hay"])
    assert sorted(oak.players.values_list("name", flat=True)) == ["Ann Dale", "Di Moss"]
    single = entrant_add(division=division, by=people["admin"], name="Bob", kind="single",
                         player_names=["Bob Hay"])
    with pytest.raises(ValidationError) as too_many:
        entrant_squad_change(entrant=single, by=people["admin"], add=["Ann Dale"])
    assert too_many.value.message_dict == {"players": [
        "A single player's squad is that one player."]}


def test_a_player_out_of_the_squad_stays_in_the_games_kept_with_them(people):
    """A signing leaves: the nights already keyed in with them are saved again as they
    were, and only a new game refuses them."""
    fixture = night_of(people, fixture_format="games", singles=2, pairs=0)
    home, away = squads(fixture)
    games = [PaperGame(61, 40, home[:1], away[:1]), None]
    fixture_games_enter(fixture=fixture, by=people["oak"], games=games)
    entrant_squad_change(entrant=fixture.home, by=people["admin"], drop=[home[0].name])

    fixture_games_enter(fixture=fixture, by=people["oak"],
                        games=[*games[:1], PaperGame(61, 12, home[1:], away[1:])])
    assert list(fixture.games.get(number=1).home_players.all()) == home[:1]
    page = Client()
    page.force_login(people["oak"])
    shown = page.get(fixture.get_absolute_url()).content.decode()
    assert f'<option value="{home[0].pk}" selected>' in shown  # game 1 as it was kept
    with pytest.raises(ValidationError) as refused:
        fixture_games_enter(fixture=fixture, by=people["oak"], games=[
            *games[:1], PaperGame(61, 12, home[:1], away[1:])])
    assert refused.value.messages == [
        f"Game 2: {home[0].name} is not in {fixture.home.name}'s squad."]


def test_a_captain_is_set_by_a_members_username_or_none(division, people):
    oak = entrant_add(division=division, by=people["admin"], name="Royal Oak",
                      captain=people["oak"])
    with pytest.raises(PermissionDenied):
        entrant_captain_set(entrant=oak, by=people["oak"], captain_username="bowes")
    with pytest.raises(ValidationError) as outside:
        entrant_captain_set(entrant=oak, by=people["admin"], captain_username="stranger")
    assert outside.value.message_dict == {"captain": [
        "stranger is not a member of the club: invite them first, so that they can open "
        "their fixtures."]}
    assert entrant_captain_set(entrant=oak, by=people["admin"],
                               captain_username=" bowes ").captain == people["bowes"]
    assert entrant_captain_set(entrant=oak, by=people["admin"],
                               captain_username="").captain is None


def test_a_member_who_leaves_captains_no_side_of_a_running_season(division, people):
    """The sign-off and the league's e-mails go by an entrant's captain: one taken out of
    the club must no longer act for a side, nor hear of its nights."""
    oak = entrant_add(division=division, by=people["admin"], name="Royal Oak",
                      captain=people["oak"])
    bowes = entrant_add(division=division, by=people["admin"], name="Bowes",
                        captain=people["bowes"])
    fixture = Fixture.objects.create(division=division, week=1, home=oak, away=bowes)
    done = season_create(club=division.season.club, by=people["admin"], name="Last year",
                         game="all-fives", starts_on=datetime.date(2025, 9, 1))
    last_year = entrant_add(division=done.divisions.get(), by=people["admin"], name="Oak",
                            captain=people["oak"])
    season_lock(season=done, by=people["admin"])

    membership_remove(membership=Membership.objects.get(user=people["oak"]),
                      by=people["admin"])

    oak.refresh_from_db()
    last_year.refresh_from_db()
    assert oak.captain is None and last_year.captain == people["oak"]
    with pytest.raises(PermissionDenied):
        fixture_redate(fixture=fixture, by=people["oak"], date=datetime.date(2026, 9, 14))
    bowes.refresh_from_db()
    assert bowes.captain == people["bowes"]  # another's captaincy stays


def test_an_entrant_added_by_mistake_goes_with_its_unplayed_fixtures(division, people):
    for name in ("Royal Oak", "Bowes", "Dupe squad"):
        entrant_add(division=division, by=people["admin"], name=name)
    fixtures_generate(division=division, by=people["admin"], legs=2)
    dupe = division.entrants.get(name="Dupe squad")
    with pytest.raises(PermissionDenied):
        entrant_remove(entrant=dupe, by=people["oak"])

    gone = entrant_remove(entrant=dupe, by=people["admin"])

    assert gone == 4  # home and away against each of the two others
    assert sorted(division.entrants.values_list("name", flat=True)) == ["Bowes", "Royal Oak"]
    assert division.fixtures.count() == 2


@pytest.mark.parametrize("history", ["played", "keyed", "adjusted"])
def test_an_entrant_that_has_played_stays(division, people, history):
    oak, bowes = (entrant_add(division=division, by=people["admin"], name=name)
                  for name in ("Royal Oak", "Bowes"))
    fixture = Fixture.objects.create(division=division, week=1, home=oak, away=bowes)
    if history in ("played", "keyed"):
        # entrants with no squads: a season where the players of paper games are optional
        Season.objects.filter(pk=division.season_id).update(paper_players_optional=True)
        fixture_games_enter(fixture=fixture, by=people["admin"],
                            games=paper_games(fixture, [(61, 40)], with_players=False))
    if history == "played":
        fixture_submit(fixture=fixture, by=people["admin"])
    if history == "adjusted":
        adjustment_add(entrant=bowes, by=people["admin"], points=-1, reason="late")

    with pytest.raises(ValidationError) as refused:
        entrant_remove(entrant=bowes, by=people["admin"])

    assert refused.value.messages == [
        "Bowes has fixtures played, settled or begun, or points adjusted: it stays in the "
        "table. If it has withdrawn, make its remaining fixtures void."]
    assert division.entrants.count() == 2 and division.fixtures.count() == 1


@pytest.mark.parametrize("settled", ["walkover", "void"])
def test_an_entrant_with_a_fixture_settled_without_games_stays(division, people, settled):
    """A walkover or a voiding has no games: the fixture's status alone says it is no
    longer open for entry."""
    oak, bowes = (entrant_add(division=division, by=people["admin"], name=name)
                  for name in ("Royal Oak", "Bowes"))
    fixture = Fixture.objects.create(division=division, week=1, home=oak, away=bowes)
    if settled == "walkover":
        fixture_walkover(fixture=fixture, by=people["admin"], side="home")
    else:
        fixture_void(fixture=fixture, by=people["admin"])

    with pytest.raises(ValidationError, match="Bowes has fixtures played, settled or begun"):
        entrant_remove(entrant=bowes, by=people["admin"])

    assert division.entrants.count() == 2 and division.fixtures.count() == 1


def test_a_walkover_abandons_a_game_still_being_played_on_the_scorepad():
    """The walkover takes the game off the fixture: its phones stop scoring a game no
    fixture counts (one finished later would count in the ratings as a club match)."""
    night = league_night()
    round_start(match=night.match, starter=0)
    event_record(match=night.match, action=rules.Play(0, T("5-5")))  # Ann 10 of 61
    fixture_walkover(fixture=night.fixture, by=night.admin, side="away")

    match = Match.objects.get(pk=night.match.pk)
    assert match.status == MatchStatus.ABANDONED and not night.fixture.games.exists()
    abandon = match.changes.order_by("-version")[0]
    assert (abandon.kind, abandon.user, abandon.version) == (
        ChangeKind.ABANDON, night.admin, match.version)
    with pytest.raises(ScorepadClosed):
        event_record(match=match, action=rules.Play(1, T("1-2")))
    # stopped for good: not resumed, and its pages say why
    closure = scorepad_closure(match)
    assert closure is not None and closure.reason == (
        "A league admin awarded Royal Oak A v Bowes Dragons as a walkover: this game was "
        "taken off the night and stopped for good.")
    with pytest.raises(ScorepadClosed):
        match_resume(match=match)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.ABANDONED


def test_a_void_taken_back_opens_the_night_again_with_its_games():
    """A confirmed night made void by mistake: taken back, it is scheduled with its
    scorepad game as played and open again; sent and confirmed, it counts once more."""
    night = league_night_at(FixtureStatus.CONFIRMED)
    fixture = night.fixture
    counted = division_table(fixture.division, fixture.division.season).rows
    fixture_void(fixture=fixture, by=night.admin)
    assert scorepad_closure(night.match) is not None
    assert division_table(fixture.division, fixture.division.season).rows != counted
    with pytest.raises(PermissionDenied):
        fixture_reinstate(fixture=fixture, by=night.home_captain)

    fixture_reinstate(fixture=fixture, by=night.admin)
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games, fixture.walkover) == (
        FixtureStatus.SCHEDULED, None, "")
    assert fixture.games.get().match == night.match and scorepad_closure(night.match) is None
    assert fixture.changes.order_by("-pk")[0].what == "no longer void: open for its games again"
    with pytest.raises(ValidationError, match="This fixture is scheduled: that cannot be done"):
        fixture_reinstate(fixture=fixture, by=night.admin)
    fixture_submit(fixture=fixture, by=night.home_captain)
    fixture_confirm(fixture=fixture, by=night.away_captain)
    assert division_table(fixture.division, fixture.division.season).rows == counted


def test_a_season_with_a_result_waiting_for_its_sign_off_is_not_locked():
    night = league_night_at(FixtureStatus.DISPUTED)
    season = night.fixture.division.season
    with pytest.raises(ValidationError) as refused:
        season_lock(season=season, by=night.admin)
    assert refused.value.messages == [
        "1 result waits for the away captain or the league (sent or disputed): settle it "
        "before the season is locked, or it would wait for good."]
    season.refresh_from_db()
    assert not season.locked
    fixture_resolve(fixture=night.fixture, by=night.admin)
    assert season_lock(season=season, by=night.admin).locked


def test_a_season_or_cup_sent_twice_is_made_once(division, people):
    """A double tap on the form: the second is refused by name, in any case, and a cup
    of a season's name too (the club's lists could not tell them apart)."""
    club = division.season.club
    with pytest.raises(ValidationError) as again:
        season_create(club=club, by=people["admin"], name=" monday  LEAGUE ",
                      game="all-fives", starts_on=datetime.date(2026, 9, 7))
    assert again.value.message_dict == {"name": [
        "The club has a season or cup called monday LEAGUE already: give this one a name "
        "of its own (its year, say)."]}
    with pytest.raises(ValidationError, match="called Monday League already"):
        cup_create(club=club, by=people["admin"], name="Monday League", game="all-fives",
                   starts_on=datetime.date(2026, 9, 7))
    assert club.seasons.count() == 1
    season_create(club=club_create(name="Bowes", by=people["admin"]), by=people["admin"],
                  name="Monday League", game="all-fives",
                  starts_on=datetime.date(2026, 9, 7))  # another club's: its own name


def test_a_void_taken_back_without_a_date_is_postponed_again():
    night = league_night_at(FixtureStatus.POSTPONED)
    fixture_void(fixture=night.fixture, by=night.admin)
    fixture_reinstate(fixture=night.fixture, by=night.admin)
    night.fixture.refresh_from_db()
    assert (night.fixture.status, night.fixture.date) == (FixtureStatus.POSTPONED, None)
    assert [c.kind for c in night.fixture.changes.order_by("pk")][-2:] == [
        "reinstated", "postponed"]


def test_a_fixture_added_by_hand_is_the_league_admins_between_two_of_the_division(
        division, people):
    oak, bowes = (entrant_add(division=division, by=people["admin"], name=name)
                  for name in ("Royal Oak", "Bowes"))
    elsewhere = season_create(club=division.season.club, by=people["admin"], name="Cup",
                              game="all-fives", starts_on=datetime.date(2026, 9, 7))
    stranger = entrant_add(division=elsewhere.divisions.get(), by=people["admin"], name="Far")
    night = datetime.date(2026, 9, 14)
    for who in ("oak", "member"):
        with pytest.raises(PermissionDenied):
            fixture_add(division=division, by=people[who], home=oak, away=bowes, date=night)
    with pytest.raises(ValidationError) as outside:
        fixture_add(division=division, by=people["admin"], home=stranger, away=bowes,
                    date=night)
    assert outside.value.message_dict == {"home": ["Choose an entrant of Division 1."]}
    Season.objects.filter(pk=division.season.pk).update(locked=True)
    division.season.refresh_from_db()
    with pytest.raises(ValidationError, match="locked"):
        fixture_add(division=division, by=people["admin"], home=oak, away=bowes, date=night)
    assert not division.fixtures.exists()


def test_an_entrant_is_renamed_and_keeps_its_fixtures(division, people):
    oak, bowes = (entrant_add(division=division, by=people["admin"], name=name)
                  for name in ("Royal Oak", "Bowes"))
    Fixture.objects.create(division=division, week=1, home=oak, away=bowes)

    renamed = entrant_rename(entrant=bowes, by=people["admin"],
                                      name="  Bowes   Dragons ")

    assert renamed.name == "Bowes Dragons" and renamed.home_fixtures.count() == 0
    assert renamed.away_fixtures.get().home == oak
    with pytest.raises(ValidationError) as refused:
        entrant_rename(entrant=bowes, by=people["admin"], name="royal oak")
    assert refused.value.messages == [
        "This division already has an entrant of that name (in any case)."]
    bowes.refresh_from_db()
    assert bowes.name == "Bowes Dragons"


# -- the sign-off: only a submitted result, only by the other side's captain --------------

NOT_AWAITING = [status for status in FixtureStatus.values if status != FixtureStatus.SUBMITTED]
SIGN_OFF = {
    "confirm": lambda night, by: fixture_confirm(fixture=night.fixture, by=by),
    "dispute": lambda night, by: fixture_dispute(fixture=night.fixture, by=by,
                                                          message="Not what we played"),
}


@pytest.mark.parametrize("action", list(SIGN_OFF))
@pytest.mark.parametrize("status", NOT_AWAITING)
def test_a_result_not_awaiting_confirmation_is_neither_confirmed_nor_disputed(status, action):
    """Every status but submitted, from the model: the away captain is refused, saying
    the fixture's status, and nothing changes (without the check, a disputed result was
    confirmed past the league admin, and a scheduled one broke a database constraint)."""
    night = league_night_at(status)
    before = fixture_state(night.fixture)

    with pytest.raises(ValidationError) as refused:
        SIGN_OFF[action](night, night.away_captain)

    assert refused.value.code == "wrong_status"
    assert refused.value.messages == [WRONG_STATUS % {
        "status": FixtureStatus(status).label.lower()}]
    assert fixture_state(night.fixture) == before


@pytest.mark.parametrize("action", list(SIGN_OFF))
def test_a_captain_of_both_sides_neither_confirms_nor_disputes_their_own_result(action):
    """A member who captains the home and the away entrant sent the result: they are the
    side that sent it, so the own-result refusal answers (not "only the away captain")."""
    night = league_night_at(FixtureStatus.SUBMITTED)
    Entrant.objects.filter(pk=night.fixture.away_id).update(captain=night.home_captain)
    before = fixture_state(night.fixture)

    with pytest.raises(PermissionDenied) as refused:
        SIGN_OFF[action](night, night.home_captain)

    assert str(refused.value) == str(OWN_FIXTURE)
    assert fixture_state(night.fixture) == before


def test_paper_games_are_keyed_in_with_who_played_them(people):
    fixture = night_of(people, fixture_format="games", singles=1, pairs=1)
    home, away = squads(fixture)

    fixture_games_enter(fixture=fixture, by=people["oak"], games=[
        PaperGame(61, 40, home[1:], away[:1]), PaperGame(20, 61, home, away)])

    games = {g.number: g for g in fixture.games.all()}
    assert (games[1].home_score, games[1].away_score) == (61, 40)
    assert (list(games[1].home_players.all()), list(games[1].away_players.all())) == (
        home[1:], away[:1])
    assert sorted(games[2].home_players.all(), key=lambda p: p.name) == home
    assert sorted(games[2].away_players.all(), key=lambda p: p.name) == away


@pytest.mark.parametrize(("line_up", "message"), [
    (lambda home, away: ([away[0]], away[:1]),
     "Game 2: Bowes 1 is not in Royal Oak's squad."),
    (lambda home, away: (home[:1], [home[1]]),
     "Game 2: Royal Oak 2 is not in Bowes's squad."),
    (lambda home, away: ([home[1], home[1]], away),
     "Game 2: Royal Oak 2 is chosen twice; a pair is two different players."),
    (lambda home, away: (home[:1], away),
     "Game 2: a game is one player a side, or a pair a side."),
    (lambda home, away: (home[:1], []),
     "Game 2: a game is one player a side, or a pair a side."),
    (lambda home, away: ([], []), "Game 2: choose who played it for each side."),
])
def test_a_paper_games_line_up_is_refused_naming_the_game_and_the_player(people, line_up,
                                                                         message):
    fixture = night_of(people, fixture_format="games", singles=2, pairs=1)
    home, away = squads(fixture)
    fixture_games_enter(fixture=fixture, by=people["oak"],
                        games=[PaperGame(61, 1, home[:1], away[:1])])
    before = unchanged(fixture)
    home_players, away_players = line_up(home, away)

    with pytest.raises(ValidationError) as refused:
        fixture_games_enter(fixture=fixture, by=people["oak"], games=[
            PaperGame(61, 1, home[:1], away[:1]),
            PaperGame(61, 2, home_players, away_players)])

    assert refused.value.messages == [message]
    assert (refused.value.params or {}).get("n") == 2  # the page marks game 2's row
    assert unchanged(fixture) == before
    assert list(fixture.games.get(number=1).home_players.all()) == home[:1]


def test_a_paper_game_without_players_is_kept_only_where_the_season_says_so(people):
    fixture = night_of(people, fixture_format="games", singles=2,
                       paper_players_optional=True)
    home, away = squads(fixture)

    fixture_games_enter(fixture=fixture, by=people["oak"], games=[
        PaperGame(61, 40), PaperGame(30, 61, home[:1], away[:1])])

    games = {g.number: g for g in fixture.games.all()}
    assert (games[1].home_score, list(games[1].home_players.all())) == (61, [])
    assert (games[2].home_score, list(games[2].home_players.all())) == (30, home[:1])
    # a player chosen for one side only is still refused: half a line-up says nothing
    with pytest.raises(ValidationError, match="Game 1: a game is one player a side"):
        fixture_games_enter(fixture=fixture, by=people["oak"],
                            games=[PaperGame(61, 40, home[:1], [])])


def test_a_night_of_singles_refuses_a_pair(people):
    fixture = night_of(people, fixture_format="games", singles=2)
    home, away = squads(fixture)

    with pytest.raises(ValidationError) as refused:
        fixture_games_enter(fixture=fixture, by=people["oak"],
                            games=[PaperGame(61, 40, home, away)])

    assert refused.value.messages == [
        "Game 1 has to be a singles game: the night has no pairs games."]
    assert not fixture.games.exists()


def test_a_resolution_keeps_the_corrected_games_players(people):
    fixture = night_of(people, fixture_format="games", singles=2)
    home, away = squads(fixture)
    fixture_games_enter(fixture=fixture, by=people["oak"], games=[
        PaperGame(61, 40, home[:1], away[:1]), PaperGame(61, 30, home[:1], away[:1])])
    fixture_submit(fixture=fixture, by=people["oak"])
    fixture_dispute(fixture=fixture, by=people["bowes"], message="game 2 was Bowes 2's")
    with pytest.raises(ValidationError, match="Game 2: Bowes 2 is not in Royal Oak's"):
        fixture_resolve(fixture=fixture, by=people["admin"], games=[
            PaperGame(61, 40, home[:1], away[:1]), PaperGame(61, 30, away[1:], away[1:])])

    resolved = fixture_resolve(fixture=fixture, by=people["admin"], games=[
        PaperGame(61, 40, home[:1], away[:1]), PaperGame(30, 61, home[:1], away[1:])])

    assert (resolved.status, resolved.home_games, resolved.away_games) == (
        FixtureStatus.CONFIRMED, 1, 1)
    assert list(fixture.games.get(number=2).away_players.all()) == away[1:]


def test_an_adjustment_is_taken_back_by_a_league_admin_alone(division, people):
    oak = entrant_add(division=division, by=people["admin"], name="Royal Oak")
    fine = adjustment_add(entrant=oak, by=people["admin"], points=-2, reason="No-show")
    for who in ("oak", "member", "stranger"):
        with pytest.raises(PermissionDenied):
            adjustment_remove(adjustment=fine, by=people[who])
    assert oak.adjustments.count() == 1
    adjustment_remove(adjustment=fine, by=people["admin"])
    assert not oak.adjustments.exists()



def test_a_step_sent_again_that_changes_nothing_is_neither_logged_nor_told(
        division, people, django_capture_on_commit_callbacks):
    """A postponement, a re-date to the night's own date or a walkover sent twice each
    logged a second change ("postponed → postponed") and e-mailed the captains again."""
    oak = entrant_add(division=division, by=people["admin"], name="Royal Oak",
                      captain=people["oak"])
    bowes = entrant_add(division=division, by=people["admin"], name="Bowes",
                        captain=people["bowes"])
    fixture = Fixture.objects.create(division=division, week=1, home=oak, away=bowes,
                                     date=datetime.date(2026, 9, 7))
    steps = [
        lambda: fixture_redate(fixture=fixture, by=people["oak"], date=None, postponed=True),
        lambda: fixture_redate(fixture=fixture, by=people["oak"],
                               date=datetime.date(2026, 9, 14)),
        lambda: fixture_walkover(fixture=fixture, by=people["admin"], side="home"),
    ]
    for logged, step in enumerate(steps, start=1):
        with django_capture_on_commit_callbacks(execute=False) as first:
            step()
        with django_capture_on_commit_callbacks(execute=False) as again:
            step()
        assert fixture.changes.count() == logged
        assert len(first) == 1 and again == []


def test_an_adjustment_sent_twice_is_made_once(division, people):
    """A double tap took four points where the league took two; the same made again
    later, or with another reason, is one more."""
    oak = entrant_add(division=division, by=people["admin"], name="Royal Oak")
    first = adjustment_add(entrant=oak, by=people["admin"], points=2, reason="dbl")
    again = adjustment_add(entrant=oak, by=people["admin"], points=2, reason="dbl ")
    assert again == first and oak.adjustments.count() == 1
    adjustment_add(entrant=oak, by=people["admin"], points=2, reason="another")
    oak.adjustments.update(made_at=timezone.now() - resends.SENT_AGAIN_WITHIN)
    adjustment_add(entrant=oak, by=people["admin"], points=2, reason="dbl")
    assert sorted(oak.adjustments.values_list("reason", flat=True)) == [
        "another", "dbl", "dbl"]


@pytest.mark.parametrize("confirmed_again", [False, True])
def test_a_correction_of_who_played_alone_is_logged_and_counts(people, confirmed_again):
    """Its score and status as they were, a correction of a game's players is still a
    change: logged (and told), the ratings rebuilt, the away captain's day started again
    where the season sends corrections back (a step that changes nothing is not logged)."""
    fixture = night_of(people, fixture_format="games", singles=1, pairs=0)
    home, away = squads(fixture)
    fixture_games_enter(fixture=fixture, by=people["oak"],
                        games=[PaperGame(61, 4, home[:1], away[:1])])
    fixture_submit(fixture=fixture, by=people["oak"])
    if confirmed_again:
        season_corrections_choose(season=fixture.division.season, by=people["admin"],
                                  confirmed_again=True)
    else:
        fixture_confirm(fixture=fixture, by=people["bowes"])
    fixture.refresh_from_db()
    submitted_at, logged = fixture.submitted_at, fixture.changes.count()

    with mock.patch("matches.leagues.services._results_changed") as rebuilt:
        fixture_correct(fixture=fixture, by=people["admin"], scores=[(61, 4)],
                        home_players=[home[1:]], away_players=[away[:1]],
                        reason="the other Oak player played it")

    fixture.refresh_from_db()
    assert list(fixture.games.get().home_players.all()) == home[1:]
    assert fixture.changes.count() == logged + 1
    assert [change.kind for change in fixture.changes.all()][-1] == FixtureChangeKind.CORRECTED
    assert rebuilt.call_count == 1
    assert (fixture.submitted_at != submitted_at) is confirmed_again
