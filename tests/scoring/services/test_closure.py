"""matches.scoring.services.closure: a league game's scorepad closes once its fixture
is no longer open for entry (submitted, disputed, confirmed, void) or its season is
locked. Every scoring write is refused then, with words that name the fixture, and
changes nothing; a scheduled or postponed fixture's game is scored as before, and a
casual match asks nothing of leagues."""

from __future__ import annotations

import importlib
import inspect
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import rules
from matches.leagues.selectors import (
    SCOREPAD_CLOSED,
    SCOREPAD_CLOSED_LOCKED,
    SCOREPAD_CLOSED_VOID,
    fixture_game_score,
    scorepad_closure,
)
from matches.leagues.services import (
    fixture_confirm,
    fixture_dispute,
    fixture_game_start,
    fixture_redate,
    fixture_resolve,
    fixture_submit,
    fixture_void,
    season_lock,
)
from matches.models import DeletedMatch, Fixture, FixtureStatus, Match, MatchStatus, RoundMode
from matches.scoring.selectors.play import can_restore, match_record
from matches.scoring.services import lifecycle as lifecycle_services
from matches.scoring.services import play as scoring_services
from matches.scoring.services.closure import MATCH_WRITES, ScorepadClosed
from tests.support.helpers import (
    A,
    LeagueNight,
    T,
    league_night,
    site_admin,
    snapshot,
    two_player_all_fives,
)

pytestmark = pytest.mark.django_db

E = rules.ScoringEnd.parse


# -- how a night closes, and what the refusal says ------------------------------------


def submitted(night: LeagueNight) -> None:
    fixture_submit(fixture=night.fixture, by=night.home_captain)


def confirmed(night: LeagueNight) -> None:
    submitted(night)
    fixture_confirm(fixture=night.fixture, by=night.away_captain)


def disputed(night: LeagueNight) -> None:
    submitted(night)
    fixture_dispute(fixture=night.fixture, by=night.away_captain,
                             message="Bob had 5-5, not Ann")


def resolved(night: LeagueNight) -> None:
    disputed(night)
    fixture_resolve(fixture=night.fixture, by=night.admin)


def voided(night: LeagueNight) -> None:
    fixture_void(fixture=night.fixture, by=night.admin)


def locked(night: LeagueNight) -> None:
    season_lock(season=night.fixture.division.season, by=night.admin)


def confirmed_then_locked(night: LeagueNight) -> None:
    confirmed(night)
    locked(night)


def counted_in(status: str) -> str:
    return SCOREPAD_CLOSED % {"home": "Royal Oak A", "away": "Bowes Dragons",
                              "status": status}


LOCKED = SCOREPAD_CLOSED_LOCKED % {"season": "Monday League"}
# a night is sent once its games are finished: these close a finished game
SENT: dict[str, tuple[Callable[[LeagueNight], None], str]] = {
    "submitted": (submitted, counted_in("submitted, awaiting the away captain")),
    "confirmed": (confirmed, counted_in("confirmed")),
    "disputed": (disputed, counted_in("disputed")),
    "resolved": (resolved, counted_in("confirmed")),
    "confirmed, season locked": (confirmed_then_locked, LOCKED),
}
# these close a game wherever it stands (the fixture still scheduled)
ANY_TIME: dict[str, tuple[Callable[[LeagueNight], None], str]] = {
    "void": (voided, SCOREPAD_CLOSED_VOID % {"home": "Royal Oak A", "away": "Bowes Dragons"}),
    "season locked": (locked, LOCKED),
}


# -- every scoring write, each from a table where it is legal -------------------------


def started(night: LeagueNight) -> None:
    scoring_services.round_start(match=night.match, starter=0)


def opened(night: LeagueNight) -> None:  # Ann opens with 5-5: 10 (the game, if to 10)
    started(night)
    scoring_services.event_record(match=night.match, action=rules.Play(0, T("5-5")))


def boneyard_drawn(night: LeagueNight) -> None:  # Bob can only pass
    opened(night)
    scoring_services.draw_record(match=night.match, seat=1, tiles=24)


def called_round(night: LeagueNight) -> None:
    scoring_services.round_start(match=night.match, starter=0, mode=RoundMode.CALLED)


def gone_out(night: LeagueNight) -> None:  # Ann goes out: the round waits for its count
    opened(night)
    for seat, tile in ((1, "0-5"), (0, "5-6")):
        scoring_services.event_record(match=night.match,
                              action=rules.Play(seat, T(tile), A("5-5:5")))


def abandoned(night: LeagueNight) -> None:
    opened(night)
    lifecycle_services.match_abandon(match=night.match)


def _restore(night: LeagueNight) -> Any:
    night.match.refresh_from_db()
    return scoring_services.match_restore(match=night.match, to_version=night.match.version - 1,
                                  user=night.admin)


Write = tuple[Callable[[LeagueNight], None], Callable[[LeagueNight], Any]]
WRITES: dict[str, Write] = {
    "round start": (lambda night: None,
                    lambda night: scoring_services.round_start(match=night.match, starter=0)),
    "placement": (started, lambda night: scoring_services.placement_record(
        match=night.match, seat=0, tile=T("5-5"))),
    "draw": (opened, lambda night: scoring_services.draw_record(match=night.match, seat=1,
                                                                tiles=1)),
    "pass": (boneyard_drawn, lambda night: scoring_services.pass_record(match=night.match, seat=1)),
    "call": (called_round, lambda night: scoring_services.event_record(
        match=night.match, action=rules.Call(0, (E("5-5"),)))),
    "settlement": (gone_out, lambda night: scoring_services.round_settle(match=night.match,
                                                                 pips=(0, 9))),
    "undo": (opened, lambda night: scoring_services.event_undo(match=night.match)),
    "restore": (opened, _restore),
    "abandon": (opened, lambda night: lifecycle_services.match_abandon(match=night.match)),
    "resume": (abandoned, lambda night: lifecycle_services.match_resume(match=night.match)),
    "names": (lambda night: None, lambda night: lifecycle_services.seats_rename(
        match=night.match, names=["Ann", "Bob"])),
}


def fixture_state(fixture: Fixture) -> tuple[Any, ...]:
    fixture.refresh_from_db()
    return (fixture.status, fixture.home_games, fixture.away_games, fixture.changes.count(),
            sorted(fixture.games.values_list("number", "home_score", "away_score",
                                             "match")))


def assert_refused(night: LeagueNight, write: Callable[[LeagueNight], Any],
                   words: str) -> None:
    """``write`` is refused with ``words``, and the match and its fixture are as they were."""
    before, fixture_before = snapshot(night.match), fixture_state(night.fixture)
    with pytest.raises(ScorepadClosed) as refused:
        write(night)
    assert str(refused.value) == words
    assert snapshot(night.match) == before
    assert fixture_state(night.fixture) == fixture_before


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("closer", list(SENT))
def test_every_scoring_write_on_a_sent_nights_game_is_refused_and_changes_nothing(
        closer, write):
    night = league_night(target=10)
    opened(night)  # Ann's 5-5 wins the game 10–0
    close, words = SENT[closer]
    close(night)

    assert_refused(night, WRITES[write][1], words)


@pytest.mark.parametrize("write", list(WRITES))
@pytest.mark.parametrize("closer", list(ANY_TIME))
def test_every_scoring_write_on_a_voided_or_locked_game_in_play_is_refused(closer, write):
    night = league_night()
    prepare, act = WRITES[write]
    prepare(night)
    close, words = ANY_TIME[closer]
    close(night)

    assert_refused(night, act, words)


@pytest.mark.parametrize("write", [name for name in WRITES if name != "names"])
@pytest.mark.parametrize("postponed", [False, True], ids=["scheduled", "postponed"])
def test_every_scoring_write_on_an_open_nights_game_is_made(postponed, write):
    night = league_night()
    if postponed:
        fixture_redate(fixture=night.fixture, by=night.home_captain, date=None,
                                postponed=True)
    prepare, act = WRITES[write]
    prepare(night)
    night.match.refresh_from_db()
    version = night.match.version

    change = act(night)

    night.match.refresh_from_db()
    assert change.version == night.match.version == version + 1
    assert fixture_state(night.fixture)[0] == (FixtureStatus.POSTPONED if postponed
                                              else FixtureStatus.SCHEDULED)


def test_a_resent_tap_of_a_sent_night_answers_with_what_it_recorded():
    """The tap that won the game, recorded before the night was sent and sent again (its
    answer was lost), answers with the change it made, as any resent tap does."""
    night = league_night(target=10)
    started(night)
    night.match.refresh_from_db()
    key, version = uuid.uuid4(), night.match.version
    first = scoring_services.placement_record(match=night.match, seat=0, tile=T("5-5"),
                                      version=version, key=key)
    submitted(night)
    before = snapshot(night.match)

    again = scoring_services.placement_record(match=night.match, seat=0, tile=T("5-5"),
                                      version=version, key=key)

    assert again.replayed and again.pk == first.pk
    assert snapshot(night.match) == before


def test_a_confirmed_games_result_stays_with_its_fixture_and_the_season_lock_holds_it():
    """The defect: on a confirmed 10–0 game, Undo and playing on made the other player
    the winner on the match page and in the ratings, while the fixture and the table
    counted 10–0; a locked season's games took Undo and Restore too."""
    night = league_night(target=10)
    opened(night)  # Ann's 5-5 wins it: 10–0
    confirmed(night)
    game = night.fixture.games.get()
    assert (game.home_score, game.away_score) == (10, 0)

    for write in (lambda: scoring_services.event_undo(match=night.match),
                  lambda: _restore(night),
                  lambda: scoring_services.round_start(match=night.match, starter=1)):
        with pytest.raises(ScorepadClosed, match="A league admin resolves the fixture"):
            write()
    locked(night)
    with pytest.raises(ScorepadClosed) as refused:
        scoring_services.event_undo(match=night.match)

    assert str(refused.value) == LOCKED
    night.match.refresh_from_db()
    assert (night.match.status, night.match.winner_side) == (MatchStatus.FINISHED, 0)
    assert fixture_game_score(game) == (10, 0)


def test_an_earlier_game_of_the_season_no_longer_in_a_fixture_is_open_until_the_lock():
    """An abandoned game played again: the first match stays, unlinked; it holds no
    fixture's score, so only the season's lock closes it."""
    night = league_night(target=10)
    started(night)
    scoring_services.event_record(match=night.match, action=rules.Play(0, T("1-2")))  # no score
    lifecycle_services.match_abandon(match=night.match)
    again = fixture_game_start(fixture=night.fixture, by=night.home_captain,
                                        number=1,
                                        home_players=list(night.fixture.home.players.all()),
                                        away_players=list(night.fixture.away.players.all()))
    scoring_services.event_undo(match=again.match)
    scoring_services.round_start(match=again.match, starter=0)
    scoring_services.event_record(match=again.match, action=rules.Play(0, T("5-5")))  # Ann: 10–0
    confirmed(night)

    assert scorepad_closure(again.match) is not None
    assert scorepad_closure(night.match) is None
    lifecycle_services.match_resume(match=night.match)
    locked(night)
    assert_refused(night, lambda night: scoring_services.event_undo(match=night.match), LOCKED)


# -- what it costs -----------------------------------------------------------------------


def _league_statements(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries
            if "matches_season" in query["sql"] or "matches_fixture" in query["sql"]]


def test_a_casual_matchs_write_asks_nothing_of_leagues():
    match = two_player_all_fives()

    with CaptureQueriesContext(connection) as queries:
        scoring_services.round_start(match=match, starter=0)
        scoring_services.event_record(match=match, action=rules.Play(0, T("5-5")))
        scoring_services.event_undo(match=match)

    assert _league_statements(queries) == []


def test_an_open_league_games_write_asks_once_whether_its_scorepad_is_closed():
    night = league_night()

    with CaptureQueriesContext(connection) as queries:
        scoring_services.round_start(match=night.match, starter=0)

    assert len(_league_statements(queries)) == 1


# -- the one list of writes on a match (MATCH_WRITES) ---------------------------

# what each listed write needs besides the match and who makes it; on a closed game the
# closure is asked before anything else, so they need not make a legal action. A write
# listed with only optional arguments needs no entry here.
ARGUMENTS: dict[str, Callable[[LeagueNight], dict[str, Any]]] = {
    "round_start": lambda night: {"starter": 1},
    "event_record": lambda night: {"action": rules.Play(1, T("0-5"), A("5-5:5"))},
    "placement_record": lambda night: {"seat": 1, "tile": T("0-5"), "at": A("5-5:5")},
    "draw_record": lambda night: {"seat": 1, "tiles": 1},
    "pass_record": lambda night: {"seat": 1},
    "match_restore": lambda night: {"to_version": night.match.version - 1},
    "seats_rename": lambda night: {"names": ["Bob", "Ann"]},
    "actions_record": lambda night: {"actions": [rules.StartRound(1, rules.RoundMode.TRACKED)]},
}

# public services that take a match and are not writes on it, and why
NOT_WRITES_ON_A_MATCH = {
    "match_rematch": "reads the match and starts another, casual one",
    "grant_create": "a phone that may score: every write it makes is refused on a closed game",
    "scorer_link_rotate": "a new shared scorer's link: as grant_create",
    "match_for_club": "a match just started for a league's game: its club and seats' players",
}


def call_write(name: str, night: LeagueNight, **who: Any) -> Any:
    """Call the listed write ``name`` on the night's game, as ``who`` (where it takes
    ``grant`` or ``user``)."""
    write = MATCH_WRITES[name]
    parameters = inspect.signature(write).parameters
    arguments = ARGUMENTS[name](night) if name in ARGUMENTS else {}
    needed = [parameter for parameter, spec in parameters.items()
              if spec.default is inspect.Parameter.empty and parameter != "match"
              and parameter not in arguments]
    if needed:
        pytest.fail(f"{name} needs {needed}: give them in ARGUMENTS")
    arguments.update({role: actor for role, actor in who.items() if role in parameters})
    return write(match=night.match, **arguments)


CLOSERS = {name: SENT[name] for name in ("submitted", "confirmed", "disputed")} | ANY_TIME


@pytest.mark.parametrize("closer", list(CLOSERS))
@pytest.mark.parametrize("name", sorted(MATCH_WRITES))
def test_every_listed_write_on_a_closed_game_is_refused_and_changes_nothing(name, closer):
    """Each write on a match, made by those who may make it (the phone that started the
    game, a site admin), on a finished game once its fixture is sent, voided or its
    season locked: refused with the closure's words; the match and its fixture as they
    were."""
    night = league_night(target=10)
    opened(night)  # Ann's 5-5 wins the game 10–0
    close, words = CLOSERS[closer]
    close(night)
    night.match.refresh_from_db()

    assert_refused(night, lambda night: call_write(name, night, grant=night.grant,
                                                   user=site_admin()), words)
    assert not DeletedMatch.objects.exists()


def test_every_public_service_that_takes_a_match_is_a_listed_write_or_said_why_not():
    """A new write on a match must be marked ``match_write`` (and so refused on a closed
    game, and tested above), or named here with the reason it is not a write on it.
    Services take their arguments by keyword; helpers that take a match first
    (``write_begin``, ``change_log``) serve the listed writes."""
    modules = [importlib.import_module(f"matches.{name}") for name in (
        "scoring.services.play", "scoring.services.lifecycle", "scoring.services.closure",
        "history.services", "leagues.services", "clubs.services", "records.services",
        "records.backup", "accounts.services")]
    taking_a_match = {
        name for module in modules for name, function in vars(module).items()
        if inspect.isfunction(function) and not name.startswith("_")
        and function.__module__ == module.__name__
        and (match := inspect.signature(function).parameters.get("match")) is not None
        and match.kind == inspect.Parameter.KEYWORD_ONLY}

    assert taking_a_match - set(NOT_WRITES_ON_A_MATCH) == set(MATCH_WRITES)
    assert set(NOT_WRITES_ON_A_MATCH) <= taking_a_match  # (no stale excuse)


@pytest.mark.parametrize("closer", ["submitted", "confirmed"])
@pytest.mark.parametrize("actor", ["home captain", "starting phone", "club owner",
                                   "site admin"])
def test_nobody_deletes_a_sent_nights_game(actor, closer):
    """The defect: the home captain deleted a submitted fixture's game, the club's owner
    a confirmed one's; the fixture kept a score whose evidence was gone."""
    night = league_night(target=10)
    opened(night)
    close, words = SENT[closer]
    close(night)
    grant, user = {"home captain": (None, night.home_captain),
                   "starting phone": (night.grant, None),
                   "club owner": (None, night.admin),
                   "site admin": (None, site_admin())}[actor]
    assert can_restore(night.match, grant=grant, user=user)

    assert_refused(night, lambda night: lifecycle_services.match_delete_recorded(
        match=night.match, grant=grant, user=user), words)
    assert not DeletedMatch.objects.exists()


def test_an_open_nights_game_is_still_deleted_by_its_starting_phone():
    night = league_night()
    opened(night)

    lifecycle_services.match_delete_recorded(match=night.match, grant=night.grant)

    assert not Match.objects.filter(pk=night.match.pk).exists()
    assert DeletedMatch.objects.get().public_id == night.match.public_id


def test_a_closed_games_record_imported_again_is_a_new_casual_match_and_changes_nothing():
    """A record import never overwrites a stored match: the closed game's record (as a
    deleted match keeps it) comes back as a match of its own, in no league."""
    night = league_night(target=10)
    opened(night)
    confirmed(night)
    before, fixture_before = snapshot(night.match), fixture_state(night.fixture)

    copy = scoring_services.match_import(document=match_record(night.match))

    assert copy.pk != night.match.pk and copy.season_id is None
    assert scorepad_closure(copy) is None
    assert snapshot(night.match) == before
    assert fixture_state(night.fixture) == fixture_before
