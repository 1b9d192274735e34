"""The fixture sign-off, page against service: for every status, every action and every
kind of person (and a locked season), the fixture's page offers the action
(``FixtureRights``' flag) exactly when its service accepts it; the site's own action
(confirming a result left alone) is never offered to a person, and the site takes it
exactly when the table lets it. All ask the one table (matches/rules/signoff.py); this
holds them to it, exhaustively."""

from __future__ import annotations

import ast
import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from matches import rules
from matches.leagues import services
from matches.leagues.selectors import fixture_for_viewer, fixture_rights
from matches.leagues.services import (
    PaperGame,
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
    fixtures_confirm_due,
    fixtures_csv_import,
)
from matches.models import (
    Entrant,
    Fixture,
    FixtureGame,
    FixtureStatus,
    Membership,
    Season,
)
from matches.rules import signoff
from matches.scoring.services.play import event_record, round_start
from tests.support.helpers import LeagueNight, T, fixture_state, league_night_at

pytestmark = pytest.mark.django_db

Write = Callable[[Fixture, User], Any]
# the actions that no button of the fixture's page takes: the league's record keyed in
# from a spreadsheet (the division's import, tests/leagues/test_services.py), and the
# site's own confirming of a result left alone (below)
OFF_PAGE = {signoff.Action.RECORD, signoff.Action.AUTO_CONFIRM}
# each action as its service takes it, with what the service needs besides the guard
SERVICES: dict[signoff.Action, Write] = {
    signoff.Action.ENTER: lambda f, by: fixture_games_enter(fixture=f, by=by,
                                                                     games=[]),
    signoff.Action.REDATE: lambda f, by: fixture_redate(
        fixture=f, by=by, date=f.division.season.starts_on),
    signoff.Action.POSTPONE: lambda f, by: fixture_redate(fixture=f, by=by,
                                                                   date=None, postponed=True),
    signoff.Action.SUBMIT: lambda f, by: fixture_submit(fixture=f, by=by),
    signoff.Action.CONFIRM: lambda f, by: fixture_confirm(fixture=f, by=by),
    signoff.Action.DISPUTE: lambda f, by: fixture_dispute(fixture=f, by=by,
                                                                   message="Not so"),
    signoff.Action.RESOLVE: lambda f, by: fixture_resolve(fixture=f, by=by),
    signoff.Action.WALKOVER: lambda f, by: fixture_walkover(fixture=f, by=by,
                                                                     side="home"),
    signoff.Action.VOID: lambda f, by: fixture_void(fixture=f, by=by),
    signoff.Action.REINSTATE: lambda f, by: fixture_reinstate(fixture=f, by=by),
    # the night's one game (Ann's 10–0 on the scorepad) as the scoresheet has it
    signoff.Action.CORRECT: lambda f, by: fixture_correct(fixture=f, by=by, scores=[(10, 5)],
                                                          reason="checked the scoresheet"),
    signoff.Action.CORRECT_TO_CONFIRM: lambda f, by: fixture_correct(
        fixture=f, by=by, scores=[(10, 5)], reason="checked the scoresheet"),
}
# the fixture page's flag that offers each action
FLAGS = {signoff.Action.ENTER: "can_enter", signoff.Action.REDATE: "can_redate",
         signoff.Action.POSTPONE: "can_redate", signoff.Action.SUBMIT: "can_submit",
         signoff.Action.CONFIRM: "can_sign", signoff.Action.DISPUTE: "can_sign",
         signoff.Action.RESOLVE: "can_resolve", signoff.Action.WALKOVER: "can_walkover",
         signoff.Action.VOID: "can_void", signoff.Action.REINSTATE: "can_reinstate",
         signoff.Action.CORRECT: "can_correct",
         signoff.Action.CORRECT_TO_CONFIRM: "can_correct"}
PEOPLE = ("home captain", "away captain", "league admin", "captain of both sides",
          "home captain and admin", "member", "outsider")


class _Undo(Exception):
    """Raised to take back one attempt's savepoint."""


def ready_at(status: str) -> LeagueNight:
    """A league night in ``status`` whose every action could go through: a night not
    yet sent has its one game played (Ann's 5-5 wins it 10–0), so it can be submitted."""
    night = league_night_at(status)
    if status in (FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED):
        round_start(match=night.match, starter=0)
        event_record(match=night.match, action=rules.Play(0, T("5-5")))
    return night


def as_who(night: LeagueNight, who: str) -> User:
    """The person ``who`` is, set up for this attempt only (its savepoint undoes it)."""
    fixture, club = night.fixture, night.fixture.division.season.club
    if who == "captain of both sides":
        Entrant.objects.filter(pk=fixture.away_id).update(captain=night.home_captain)
    if who == "home captain and admin":
        Membership.objects.filter(club=club, user=night.home_captain).update(role="admin")
    if who in ("member", "outsider"):
        user = User.objects.create_user(who)
        if who == "member":
            Membership.objects.create(club=club, user=user, role="member")
        return user
    return {"home captain": night.home_captain, "away captain": night.away_captain,
            "league admin": night.admin, "captain of both sides": night.home_captain,
            "home captain and admin": night.home_captain}[who]


def offered_and_accepted(night: LeagueNight, who: str, locked: bool,
                         action: signoff.Action) -> tuple[bool, bool, str]:
    """Whether the page offers ``action`` to ``who`` and whether its service accepts it
    (and the refusal, if any); nothing of the attempt is kept."""
    try:
        with transaction.atomic():
            by = as_who(night, who)
            # the season's choice of correction is the one the page offers (can_correct)
            Season.objects.filter(pk=night.fixture.division.season_id).update(
                locked=locked,
                corrections_confirmed_again=action is signoff.Action.CORRECT_TO_CONFIRM)
            season = Season.objects.select_related("club").get(
                pk=night.fixture.division.season_id)
            fixture = fixture_for_viewer(season=season, pk=night.fixture.pk)
            offered = getattr(fixture_rights(fixture=fixture, season=season,
                                                       user=by), FLAGS[action])
            try:
                SERVICES[action](fixture, by)
            except (ValidationError, PermissionDenied) as refused:
                accepted, why = False, f"{type(refused).__name__}: {refused}"
            else:
                accepted, why = True, ""
            raise _Undo
    except _Undo:
        pass
    return offered, accepted, why


def test_every_action_has_its_service_and_its_flag():
    assert set(SERVICES) == set(FLAGS) == set(signoff.Action) - OFF_PAGE


@pytest.mark.parametrize("status", FixtureStatus.values)
def test_the_page_offers_an_action_exactly_when_its_service_accepts_it(status):
    night = ready_at(status)
    differ = []
    accepted_somewhere = set()
    for who in PEOPLE:
        for locked in (False, True):
            for action in SERVICES:
                offered, accepted, why = offered_and_accepted(night, who, locked, action)
                if offered != accepted:
                    differ.append((who, locked, action.value, offered, why))
                if accepted:
                    accepted_somewhere.add(action)
    assert differ == []
    # and the service accepts what the table says, from this status, for someone
    assert accepted_somewhere == {action for action in SERVICES
                                  if signoff.Status(status)
                                  in signoff.TABLE[action].from_states}


# a game of the night played or kept on paper: entering too, but the night's one game
# has its score already, so the service refuses it after its guard; what the page's
# flag must match is whether the guard let it through
GAME_WRITES: dict[str, Write] = {
    "play on the scorepad": lambda f, by: fixture_game_start(
        fixture=f, by=by, number=1, home_players=list(f.home.players.all()),
        away_players=list(f.away.players.all())),
    "keep a paper score": lambda f, by: fixture_games_enter(
        fixture=f, by=by, games=[PaperGame(10, 0, home_players=list(f.home.players.all()),
                                           away_players=list(f.away.players.all()))]),
}
GUARD_CODES = {"wrong_status", "locked"}


@pytest.mark.parametrize("status", FixtureStatus.values)
def test_a_game_of_the_night_passes_the_guard_exactly_when_the_page_offers_entry(status):
    night = ready_at(status)
    differ = []
    for who in PEOPLE:
        for locked in (False, True):
            for name, write in GAME_WRITES.items():
                try:
                    with transaction.atomic():
                        by = as_who(night, who)
                        Season.objects.filter(pk=night.fixture.division.season_id).update(
                            locked=locked)
                        season = Season.objects.select_related("club").get(
                            pk=night.fixture.division.season_id)
                        fixture = fixture_for_viewer(season=season,
                                                               pk=night.fixture.pk)
                        offered = fixture_rights(fixture=fixture, season=season,
                                                           user=by).can_enter
                        try:
                            write(fixture, by)
                        except PermissionDenied:
                            guarded = False
                        except ValidationError as refused:
                            guarded = getattr(refused, "code", None) not in GUARD_CODES
                        else:
                            guarded = True
                        raise _Undo
                except _Undo:
                    pass
                if offered != guarded:
                    differ.append((who, locked, name, offered))
    assert differ == []


@pytest.mark.parametrize("status", FixtureStatus.values)
def test_no_person_is_offered_or_let_take_the_sites_own_confirming(status):
    night = ready_at(status)
    for who in PEOPLE:
        for locked in (False, True):
            try:
                with transaction.atomic():
                    by = as_who(night, who)
                    Season.objects.filter(pk=night.fixture.division.season_id).update(
                        locked=locked, count_submitted=True)
                    season = Season.objects.select_related("club").get(
                        pk=night.fixture.division.season_id)
                    fixture = fixture_for_viewer(season=season, pk=night.fixture.pk)
                    rights = fixture_rights(fixture=fixture, season=season, user=by)
                    assert not rights.may(signoff.Action.AUTO_CONFIRM), (who, locked)
                    refusal = PermissionDenied if not locked else ValidationError
                    with pytest.raises(refusal):
                        services._guard(fixture, by, signoff.Action.AUTO_CONFIRM)
                    raise _Undo
            except _Undo:
                pass


@pytest.mark.parametrize("locked", [False, True])
@pytest.mark.parametrize("status", FixtureStatus.values)
def test_the_site_confirms_a_due_result_exactly_when_the_table_lets_it(status, locked):
    night = ready_at(status)
    Season.objects.filter(pk=night.fixture.division.season_id).update(
        count_submitted=True, locked=locked)
    Fixture.objects.filter(pk=night.fixture.pk).update(
        submitted_at=timezone.now() - datetime.timedelta(days=2))
    before = fixture_state(night.fixture)
    allowed = signoff.is_allowed(signoff.Status(status), signoff.Action.AUTO_CONFIRM,
                                 {signoff.Actor.AUTOMATIC}, locked=locked)
    assert fixtures_confirm_due() == int(allowed)
    if allowed:
        night.fixture.refresh_from_db()
        assert night.fixture.status == FixtureStatus.CONFIRMED
        change = night.fixture.changes.last()
        assert change is not None
        assert (change.kind, change.user, change.before["status"]) == (
            "auto_confirmed", None, "submitted")
    else:
        assert fixture_state(night.fixture) == before


def test_a_result_settled_while_the_site_confirms_others_is_left_as_settled(monkeypatch):
    """The site's confirming reads the due fixtures, then takes each through the guard
    holding its row: one the away captain disputed meanwhile stays disputed."""
    night = ready_at(FixtureStatus.SUBMITTED)
    Season.objects.filter(pk=night.fixture.division.season_id).update(count_submitted=True)
    fixture = night.fixture
    due = timezone.now() - datetime.timedelta(days=2)
    Fixture.objects.filter(pk=fixture.pk).update(submitted_at=due)
    other = Fixture.objects.create(  # the return night, sent as well
        division=fixture.division, week=2, home=fixture.away, away=fixture.home,
        status=FixtureStatus.SUBMITTED, home_games=1, away_games=0, submitted_at=due)
    first, second = sorted((fixture, other), key=lambda f: f.pk)
    log = services._log

    def meanwhile(fixture: Fixture, by: User | None, kind: Any, before: Any) -> None:
        log(fixture, by, kind, before)
        if fixture.pk == first.pk:  # the away captain of the other one, meanwhile
            Fixture.objects.filter(pk=second.pk).update(
                status=FixtureStatus.DISPUTED, dispute="Not so")

    monkeypatch.setattr(services, "_log", meanwhile)
    assert fixtures_confirm_due() == 1
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (FixtureStatus.CONFIRMED,
                                                             FixtureStatus.DISPUTED)


# each kind of spreadsheet row about the night, and the table's action it takes on it
ROWS = {
    "result": ("home,away,home_games,away_games\nRoyal Oak A,Bowes Dragons,1,0\n",
               signoff.Action.RECORD),
    "walkover": ("home,away,status\nRoyal Oak A,Bowes Dragons,walkover home\n",
                 signoff.Action.WALKOVER),
    "void": ("home,away,status\nRoyal Oak A,Bowes Dragons,void\n", signoff.Action.VOID),
    "postponed": ("home,away,status\nRoyal Oak A,Bowes Dragons,postponed\n",
                  signoff.Action.POSTPONE),
}


@pytest.mark.parametrize("status", FixtureStatus.values)
def test_a_spreadsheet_row_changes_a_fixture_exactly_as_the_table_lets_the_league(status):
    """The division's import (a league admin's) changes an existing fixture's status
    only as the table lets a league admin; a result waiting for its sign-off is refused
    before that, so as not to count twice."""
    night = ready_at(status)
    # the night's game as if kept on paper: a scorepad game's row is refused on its own
    FixtureGame.objects.filter(fixture=night.fixture).update(match=None)
    differ = []
    for kind, (text, action) in ROWS.items():
        try:
            with transaction.atomic():
                fixtures = Fixture.objects.count()
                try:
                    imported = fixtures_csv_import(division=night.fixture.division,
                                                   by=night.admin, text=text)
                except ValidationError as refused:
                    stored, why = False, str(refused)
                else:
                    fixture = Fixture.objects.get(pk=night.fixture.pk)
                    change = fixture.changes.last()
                    assert Fixture.objects.count() == fixtures  # this fixture, no new one
                    # a row the fixture holds already (a void night's) changes nothing
                    assert imported.unchanged or (change is not None
                                                  and change.kind == "imported")
                    stored, why = True, fixture.status
                raise _Undo
        except _Undo:
            pass
        allowed = (signoff.Status(status) not in signoff.UNSETTLED
                   and signoff.is_allowed(signoff.Status(status), action,
                                          {signoff.Actor.LEAGUE_ADMIN}))
        if stored != allowed:
            differ.append((kind, stored, why))
    assert differ == []


def test_a_row_the_table_refuses_says_so_naming_the_row_and_stores_nothing():
    night = ready_at(FixtureStatus.CONFIRMED)
    FixtureGame.objects.filter(fixture=night.fixture).update(match=None)
    before = fixture_state(night.fixture)
    with pytest.raises(ValidationError, match=r"^\['Row 2: Royal Oak A v Bowes Dragons is "
                                              r"confirmed on that date: a spreadsheet row "
                                              r"cannot make it postponed\. Leave the row "
                                              r"out\.'\]$"):
        fixtures_csv_import(division=night.fixture.division, by=night.admin,
                            text=ROWS["postponed"][0])
    assert fixture_state(night.fixture) == before


def _status_writers(path: Path) -> set[str]:
    """The functions of ``path`` that set a ``status`` attribute or update one."""
    writers = set()
    for function in ast.walk(ast.parse(path.read_text())):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            targets = (node.targets if isinstance(node, ast.Assign) else
                       [node.target] if isinstance(node, ast.AnnAssign | ast.AugAssign)
                       else [])
            named = [t for target in targets
                     for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
            if any(isinstance(t, ast.Attribute) and t.attr == "status" for t in named) or (
                    isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "update"
                    and any(k.arg == "status" for k in node.keywords)):
                writers.add(function.name)
    return writers


def test_only_the_transition_changes_a_fixtures_status():
    """Every step of the sign-off goes through ``_transition`` (lock, guard, full_clean,
    save, log); besides it, a status is set only on a fixture being made: the season
    import's (all new) and the spreadsheet import's new rows (its existing ones go
    through ``_transition``)."""
    leagues = Path(services.__file__).parent
    writers = {(path.name, name) for path in sorted(leagues.glob("*.py"))
               for name in _status_writers(path)}
    assert writers == {("services.py", "_transition"),
                       ("services.py", "fixtures_csv_import"),
                       ("services.py", "league_import")}


def test_a_rows_other_refusal_comes_through_as_it_is(monkeypatch):
    """Only the table's refusal is said as the row's; any other (a refusal of fields,
    which has no code) comes through unchanged."""
    night = ready_at(FixtureStatus.SCHEDULED)
    FixtureGame.objects.filter(fixture=night.fixture).update(match=None)

    def refuse(fixture: Fixture, scores: Any) -> None:
        raise ValidationError({"games": ["refused"]})

    monkeypatch.setattr(services, "_set_games", refuse)
    with pytest.raises(ValidationError) as refused:
        fixtures_csv_import(division=night.fixture.division, by=night.admin,
                            text=ROWS["result"][0])
    assert refused.value.message_dict == {"games": ["refused"]}


def test_a_refusal_of_confirming_names_the_away_captain_alone():
    # confirming is the away captain's alone: a league admin is not told it may
    night = ready_at(FixtureStatus.SUBMITTED)
    away = night.fixture.away.name
    assert offered_and_accepted(night, "league admin", False, signoff.Action.CONFIRM) == (
        False, False, f"PermissionDenied: Only {away}'s captain can do that.")


def test_a_refusal_of_submitting_names_the_home_captain_and_the_league():
    night = ready_at(FixtureStatus.SCHEDULED)
    home = night.fixture.home.name
    assert offered_and_accepted(night, "member", False, signoff.Action.SUBMIT) == (
        False, False, f"PermissionDenied: Only {home}'s captain or a league admin can do that.")
