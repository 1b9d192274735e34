"""matches.rules.signoff: a fixture's sign-off table, with no database."""

from __future__ import annotations

import itertools

import pytest

from matches.rules.errors import SignOffRefused
from matches.rules.signoff import (
    OPEN_FOR_ENTRY,
    TABLE,
    UNSETTLED,
    Action,
    Actor,
    Status,
    check,
    correction,
    is_allowed,
)

HOME, AWAY, ADMIN = Actor.HOME_CAPTAIN, Actor.AWAY_CAPTAIN, Actor.LEAGUE_ADMIN
SITE = Actor.AUTOMATIC
# every kind of person a fixture's page may meet, as the actors they are
PEOPLE = {"home captain": {HOME}, "away captain": {AWAY}, "league admin": {ADMIN},
          "captain of both sides": {HOME, AWAY}, "home captain and admin": {HOME, ADMIN},
          "away captain and admin": {AWAY, ADMIN}, "member": set()}


def refusal(status: Status, action: Action, who: set[Actor], locked: bool = False) -> str:
    with pytest.raises(SignOffRefused) as refused:
        check(status, action, who, locked=locked)
    return refused.value.code


def test_every_action_states_its_next_status_from_every_status():
    assert set(TABLE) == set(Action)
    for rule in TABLE.values():
        assert set(rule.moves) == set(Status)


@pytest.mark.parametrize(("action", "froms", "to"), [
    (Action.ENTER, {"scheduled": "scheduled", "postponed": "postponed"}, None),
    (Action.REDATE, {"scheduled": "scheduled", "postponed": "scheduled"}, None),
    (Action.POSTPONE, {"scheduled": "postponed", "postponed": "postponed"}, None),
    (Action.SUBMIT, {"scheduled": "submitted", "postponed": "submitted"}, None),
    (Action.CONFIRM, {"submitted": "confirmed"}, None),
    (Action.DISPUTE, {"submitted": "disputed"}, None),
    (Action.RESOLVE, {"submitted": "confirmed", "disputed": "confirmed"}, None),
    (Action.WALKOVER, {}, "confirmed"),  # from every status
    (Action.VOID, {}, "void"),  # from every status
    (Action.REINSTATE, {"void": "scheduled"}, None),
    (Action.RECORD, {"scheduled": "confirmed", "postponed": "confirmed", "void": "confirmed",
                     "confirmed": "confirmed"}, None),
    (Action.AUTO_CONFIRM, {"submitted": "confirmed"}, None),
    (Action.CORRECT, {"submitted": "confirmed", "confirmed": "confirmed",
                      "disputed": "confirmed"}, None),
    (Action.CORRECT_TO_CONFIRM, {"submitted": "submitted", "confirmed": "submitted",
                                 "disputed": "submitted"}, None),
])
def test_each_actions_from_states_and_next_status(action, froms, to):
    expected = {s.value: to for s in Status} if to else froms
    who = {ADMIN} if action in (Action.RESOLVE, Action.WALKOVER, Action.VOID,
                                Action.REINSTATE, Action.RECORD, Action.CORRECT,
                                Action.CORRECT_TO_CONFIRM) else \
        {AWAY} if action in (Action.CONFIRM, Action.DISPUTE) else \
        {SITE} if action is Action.AUTO_CONFIRM else {HOME}
    moved = {status.value: check(status, action, who).value for status in Status
             if is_allowed(status, action, who)}
    assert moved == expected


def test_open_for_entry_and_unsettled_are_read_from_the_table():
    assert {Status.SCHEDULED, Status.POSTPONED} == OPEN_FOR_ENTRY
    assert {Status.SUBMITTED, Status.DISPUTED} == UNSETTLED


@pytest.mark.parametrize(("action", "allowed"), [
    (Action.ENTER, {"home captain", "league admin", "captain of both sides",
                    "home captain and admin", "away captain and admin"}),
    (Action.SUBMIT, {"home captain", "league admin", "captain of both sides",
                     "home captain and admin", "away captain and admin"}),
    (Action.CONFIRM, {"away captain", "away captain and admin"}),
    (Action.DISPUTE, {"away captain", "away captain and admin"}),
    (Action.RESOLVE, {"league admin", "home captain and admin", "away captain and admin"}),
    (Action.WALKOVER, {"league admin", "home captain and admin", "away captain and admin"}),
    (Action.VOID, {"league admin", "home captain and admin", "away captain and admin"}),
    (Action.REINSTATE, {"league admin", "home captain and admin", "away captain and admin"}),
    (Action.RECORD, {"league admin", "home captain and admin", "away captain and admin"}),
    (Action.CORRECT, {"league admin", "home captain and admin", "away captain and admin"}),
    (Action.CORRECT_TO_CONFIRM, {"league admin", "home captain and admin",
                                 "away captain and admin"}),
    (Action.AUTO_CONFIRM, set()),  # no person: the site itself
])
def test_who_may_take_each_action(action, allowed):
    status = next(s for s in Status if TABLE[action].moves[s] is not None)
    assert {name for name, who in PEOPLE.items() if is_allowed(status, action, who)} == allowed


@pytest.mark.parametrize(("status", "action"), list(itertools.product(Status, Action)))
def test_the_site_takes_its_own_action_and_no_other_and_no_person_takes_its(status, action):
    assert is_allowed(status, action, {SITE}) == (action is Action.AUTO_CONFIRM
                                                  and status is Status.SUBMITTED)
    if action is Action.AUTO_CONFIRM:
        for who in PEOPLE.values():
            assert refusal(status, action, who) == "by_itself"
        assert refusal(status, action, {SITE}, locked=True) == "season_locked"


def test_a_captain_never_signs_their_own_sides_result():
    assert refusal(Status.SUBMITTED, Action.CONFIRM, {HOME}) == "own_result"
    assert refusal(Status.SUBMITTED, Action.DISPUTE, {HOME, AWAY, ADMIN}) == "own_result"
    # the away captain alone confirms: the league is not named
    assert refusal(Status.SUBMITTED, Action.CONFIRM, {ADMIN}) == "only_captain"


def test_the_sign_off_names_the_status_to_anyone_the_others_name_who_first():
    assert refusal(Status.CONFIRMED, Action.CONFIRM, set()) == "fixture_status"
    assert refusal(Status.CONFIRMED, Action.SUBMIT, set()) == "not_captain"
    assert refusal(Status.CONFIRMED, Action.RESOLVE, {HOME}) == "not_league_admin"
    assert refusal(Status.CONFIRMED, Action.RESOLVE, {ADMIN}) == "fixture_status"


def test_a_refusal_carries_its_code_and_plain_params():
    with pytest.raises(SignOffRefused) as refused:
        check(Status.VOID, Action.SUBMIT, {HOME})
    assert (refused.value.code, refused.value.params) == ("fixture_status",
                                                          {"status": "void"})
    assert str(refused.value) == "this fixture is void: that cannot be done now"
    with pytest.raises(SignOffRefused) as refused:
        check(Status.SUBMITTED, Action.CONFIRM, {ADMIN})
    assert refused.value.params == {"entrant": "away"}


@pytest.mark.parametrize(("status", "action"), list(itertools.product(Status, Action)))
def test_a_locked_season_refuses_everything_to_everyone(status, action):
    for who in PEOPLE.values():
        assert refusal(status, action, who, locked=True) == "season_locked"


@pytest.mark.parametrize(("status", "action"), list(itertools.product(Status, Action)))
def test_an_admins_right_only_adds(status, action):
    """Being a league admin too never takes a right away: the fixture's page asks about
    the admin only when a captain's right does not answer."""
    for who in PEOPLE.values():
        if is_allowed(status, action, who):
            assert is_allowed(status, action, who | {ADMIN})


@pytest.mark.parametrize("confirmed_again", [True, False])
def test_a_correction_is_of_a_result_and_goes_where_the_season_says(confirmed_again):
    """A correction is taken exactly where a result is (submitted, confirmed, disputed),
    never by a captain alone; the season's choice says whether the away captain confirms
    it again (and can then confirm it, once more) or it is final."""
    action = correction(confirmed_again=confirmed_again)
    with_result = {Status.SUBMITTED, Status.CONFIRMED, Status.DISPUTED}
    assert TABLE[action].from_states == with_result
    for status in with_result:
        to = check(status, action, {ADMIN})
        assert to is (Status.SUBMITTED if confirmed_again else Status.CONFIRMED)
        assert is_allowed(to, Action.CONFIRM, {AWAY}) == confirmed_again
        assert refusal(status, action, {HOME, AWAY}) == "not_league_admin"
    for status in set(Status) - with_result:
        assert refusal(status, action, {ADMIN}) == "fixture_status"
