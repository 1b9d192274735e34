"""A league fixture's sign-off, written once: status × action × who → next status.

The home side's captain (or a league admin) keys in the night's games, re-dates or
postpones it and submits it; the away side's captain, never the home side's too,
confirms or disputes it; a league admin resolves a sent result, and awards a walkover
or makes the fixture void from any status (a walkover over a night that was played, a
void over one already void: the league's word is the last), takes a void back (the night
open for entry again, with its games as they were), and keys in a result from its own
records (a spreadsheet row) over any fixture not waiting on a sign-off. A league
admin corrects a result (sent, settled or disputed): as the season chooses, the
correction goes to the away captain to confirm again (:data:`Action.CORRECT_TO_CONFIRM`)
or is final by the league's authority (:data:`Action.CORRECT`); :func:`correction` picks
one. The
site itself, never a person, confirms a result the away captain left alone for
:data:`AUTO_CONFIRM_AFTER_HOURS` (in a season that counts submitted results: the
service asks that). A locked season takes no more changes. :data:`TABLE` states every
action's next status from every status (``None``: not from there); the services' guards
and the fixture page's buttons both ask :func:`check`, like a move's legality beside
the move.

>>> check(Status.SCHEDULED, Action.SUBMIT, {Actor.HOME_CAPTAIN})
<Status.SUBMITTED: 'submitted'>
>>> is_allowed(Status.CONFIRMED, Action.VOID, {Actor.LEAGUE_ADMIN})
True
>>> check(Status.SUBMITTED, Action.CONFIRM, {Actor.HOME_CAPTAIN, Actor.AWAY_CAPTAIN})
Traceback (most recent call last):
...
matches.rules.errors.SignOffRefused: a captain cannot confirm or dispute their own side's ...
>>> check(Status.CONFIRMED, Action.SUBMIT, {Actor.LEAGUE_ADMIN}).value
Traceback (most recent call last):
...
matches.rules.errors.SignOffRefused: this fixture is confirmed: that cannot be done now
>>> check(Status.CONFIRMED, correction(confirmed_again=True), {Actor.LEAGUE_ADMIN})
<Status.SUBMITTED: 'submitted'>
>>> check(Status.DISPUTED, correction(confirmed_again=False), {Actor.LEAGUE_ADMIN})
<Status.CONFIRMED: 'confirmed'>
>>> sorted(status.value for status in OPEN_FOR_ENTRY)
['postponed', 'scheduled']
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from .errors import SignOffRefused


class Status(enum.Enum):
    """Where a fixture is in its sign-off (the values are the database's)."""

    SCHEDULED = "scheduled"
    POSTPONED = "postponed"
    VOID = "void"
    SUBMITTED = "submitted"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"


class Action(enum.Enum):
    """What someone does to a fixture."""

    ENTER = "enter"  # key in or play the night's games: the status stays
    REDATE = "redate"  # back on a date
    POSTPONE = "postpone"
    SUBMIT = "submit"
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    RESOLVE = "resolve"
    WALKOVER = "walkover"
    VOID = "void"
    REINSTATE = "reinstate"  # a void fixture open for entry again: the void was a mistake
    RECORD = "record"  # the league's own record of the night (a spreadsheet row): confirmed
    CORRECT = "correct"  # the league corrects a result, final by its authority
    CORRECT_TO_CONFIRM = "correct_to_confirm"  # ... for the away captain to confirm again
    AUTO_CONFIRM = "auto_confirm"  # the site, once the away captain has left it alone


class Actor(enum.Enum):
    """Who someone is to a fixture; one person may be several (a captain of both sides,
    a home captain who also runs the league)."""

    HOME_CAPTAIN = "home_captain"
    AWAY_CAPTAIN = "away_captain"
    LEAGUE_ADMIN = "league_admin"
    AUTOMATIC = "automatic"  # the site itself, on a schedule: no person is ever this


@dataclass(frozen=True)
class Rule:
    """An action's row: who may take it (any one of ``by``, and none of ``never_by``,
    which wins), and its next status from each status (``None``: refused there).
    ``status_first``: a fixture in a status the action is not taken from says so to
    anyone asking, before who they are (the sign-off's answer: "this fixture is
    confirmed"); otherwise who may comes first."""

    by: frozenset[Actor]
    moves: dict[Status, Status | None]
    never_by: frozenset[Actor] = frozenset()
    status_first: bool = False

    @property
    def from_states(self) -> frozenset[Status]:
        """The statuses the action is taken from."""
        return frozenset(status for status, to in self.moves.items() if to is not None)


def _from(*, scheduled: Status | None, postponed: Status | None, void: Status | None,
          submitted: Status | None, confirmed: Status | None,
          disputed: Status | None) -> dict[Status, Status | None]:
    """An action's next status from every status, each one named (none forgotten)."""
    return {Status.SCHEDULED: scheduled, Status.POSTPONED: postponed, Status.VOID: void,
            Status.SUBMITTED: submitted, Status.CONFIRMED: confirmed,
            Status.DISPUTED: disputed}


_HOME_SIDE: Final = frozenset({Actor.HOME_CAPTAIN, Actor.LEAGUE_ADMIN})
_AWAY_SIDE: Final = frozenset({Actor.AWAY_CAPTAIN})
_LEAGUE: Final = frozenset({Actor.LEAGUE_ADMIN})
_SITE: Final = frozenset({Actor.AUTOMATIC})

TABLE: Final[dict[Action, Rule]] = {
    Action.ENTER: Rule(_HOME_SIDE, _from(
        scheduled=Status.SCHEDULED, postponed=Status.POSTPONED, void=None, submitted=None,
        confirmed=None, disputed=None)),
    Action.REDATE: Rule(_HOME_SIDE, _from(
        scheduled=Status.SCHEDULED, postponed=Status.SCHEDULED, void=None, submitted=None,
        confirmed=None, disputed=None)),
    Action.POSTPONE: Rule(_HOME_SIDE, _from(
        scheduled=Status.POSTPONED, postponed=Status.POSTPONED, void=None, submitted=None,
        confirmed=None, disputed=None)),
    Action.SUBMIT: Rule(_HOME_SIDE, _from(
        scheduled=Status.SUBMITTED, postponed=Status.SUBMITTED, void=None, submitted=None,
        confirmed=None, disputed=None)),
    Action.CONFIRM: Rule(_AWAY_SIDE, _from(
        scheduled=None, postponed=None, void=None, submitted=Status.CONFIRMED, confirmed=None,
        disputed=None), never_by=frozenset({Actor.HOME_CAPTAIN}), status_first=True),
    Action.DISPUTE: Rule(_AWAY_SIDE, _from(
        scheduled=None, postponed=None, void=None, submitted=Status.DISPUTED, confirmed=None,
        disputed=None), never_by=frozenset({Actor.HOME_CAPTAIN}), status_first=True),
    Action.RESOLVE: Rule(_LEAGUE, _from(
        scheduled=None, postponed=None, void=None, submitted=Status.CONFIRMED, confirmed=None,
        disputed=Status.CONFIRMED)),
    Action.WALKOVER: Rule(_LEAGUE, _from(
        scheduled=Status.CONFIRMED, postponed=Status.CONFIRMED, void=Status.CONFIRMED,
        submitted=Status.CONFIRMED, confirmed=Status.CONFIRMED, disputed=Status.CONFIRMED)),
    Action.VOID: Rule(_LEAGUE, _from(
        scheduled=Status.VOID, postponed=Status.VOID, void=Status.VOID, submitted=Status.VOID,
        confirmed=Status.VOID, disputed=Status.VOID)),
    # a void taken back: the night is open again with the games it kept, for its captains
    # to send and confirm (or the league to settle) as any night
    Action.REINSTATE: Rule(_LEAGUE, _from(
        scheduled=None, postponed=None, void=Status.SCHEDULED, submitted=None, confirmed=None,
        disputed=None)),
    # a result sent and unsettled is the away captain's or the league's to settle on its
    # page: a record of it from elsewhere would overtake that
    Action.RECORD: Rule(_LEAGUE, _from(
        scheduled=Status.CONFIRMED, postponed=Status.CONFIRMED, void=Status.CONFIRMED,
        submitted=None, confirmed=Status.CONFIRMED, disputed=None)),
    # a result sent (or settled) corrected by the league, with the night's games; the
    # season says whether the away captain confirms it again
    Action.CORRECT: Rule(_LEAGUE, _from(
        scheduled=None, postponed=None, void=None, submitted=Status.CONFIRMED,
        confirmed=Status.CONFIRMED, disputed=Status.CONFIRMED)),
    Action.CORRECT_TO_CONFIRM: Rule(_LEAGUE, _from(
        scheduled=None, postponed=None, void=None, submitted=Status.SUBMITTED,
        confirmed=Status.SUBMITTED, disputed=Status.SUBMITTED)),
    # a disputed result waits for the league: only silence confirms
    Action.AUTO_CONFIRM: Rule(_SITE, _from(
        scheduled=None, postponed=None, void=None, submitted=Status.CONFIRMED, confirmed=None,
        disputed=None)),
}

# how long a submitted result waits for the away captain before the site confirms it
AUTO_CONFIRM_AFTER_HOURS: Final = 24

# statuses whose games are still being entered (and played on the scorepad); any other
# holds a result, or its voiding, for the league to settle
OPEN_FOR_ENTRY: Final = TABLE[Action.ENTER].from_states
# a result sent and not yet settled: the away captain's or the league's to settle
UNSETTLED: Final = TABLE[Action.RESOLVE].from_states


def correction(*, confirmed_again: bool) -> Action:
    """The league's correction of a result in a season whose corrections the away
    captain confirms again (``confirmed_again``), or one where they are final.

    >>> correction(confirmed_again=True).value
    'correct_to_confirm'
    """
    return Action.CORRECT_TO_CONFIRM if confirmed_again else Action.CORRECT


def check(status: Status, action: Action, who: Collection[Actor], *,
          locked: bool = False) -> Status:
    """The fixture's next status when ``who`` takes ``action`` on it in ``status``; or
    :class:`SignOffRefused` saying why not: the season is ``locked``; the status (see
    :attr:`Rule.status_first`); their own side's result; not theirs to do.

    >>> check(Status.POSTPONED, Action.ENTER, {Actor.LEAGUE_ADMIN})
    <Status.POSTPONED: 'postponed'>
    >>> check(Status.SCHEDULED, Action.RESOLVE, {Actor.HOME_CAPTAIN}).value
    Traceback (most recent call last):
    ...
    matches.rules.errors.SignOffRefused: only a league admin (a club admin) can do that
    >>> check(Status.SCHEDULED, Action.CONFIRM, {Actor.HOME_CAPTAIN}).value
    Traceback (most recent call last):
    ...
    matches.rules.errors.SignOffRefused: this fixture is scheduled: that cannot be done now
    >>> check(Status.SUBMITTED, Action.CONFIRM, {Actor.LEAGUE_ADMIN}).value
    Traceback (most recent call last):
    ...
    matches.rules.errors.SignOffRefused: only the away captain can do that
    >>> check(Status.SUBMITTED, Action.AUTO_CONFIRM, {Actor.LEAGUE_ADMIN}).value
    Traceback (most recent call last):
    ...
    matches.rules.errors.SignOffRefused: the site does that by itself: no one can do it by hand
    """
    rule = TABLE[action]
    if locked:
        raise SignOffRefused.of("season_locked")
    to = rule.moves[status]
    if to is None and rule.status_first:
        raise SignOffRefused.of("fixture_status", status=status.value)
    if rule.never_by.intersection(who):
        raise SignOffRefused.of("own_result")
    if not rule.by.intersection(who):
        if rule.by == _SITE:
            raise SignOffRefused.of("by_itself")
        if rule.by == _LEAGUE:
            raise SignOffRefused.of("not_league_admin", role="admin")
        side = "home" if Actor.HOME_CAPTAIN in rule.by else "away"
        if Actor.LEAGUE_ADMIN not in rule.by:  # confirming is the other side's alone
            raise SignOffRefused.of("only_captain", entrant=side)
        raise SignOffRefused.of("not_captain", entrant=side)
    if to is None:
        raise SignOffRefused.of("fixture_status", status=status.value)
    return to


def is_allowed(status: Status, action: Action, who: Collection[Actor], *,
               locked: bool = False) -> bool:
    """Whether :func:`check` lets ``who`` take ``action`` now.

    >>> is_allowed(Status.SUBMITTED, Action.RESOLVE, {Actor.LEAGUE_ADMIN}, locked=True)
    False
    """
    try:
        check(status, action, who, locked=locked)
    except SignOffRefused:
        return False
    return True


# refusals that say who is asking, not the fixture: another actor may be let through
WHO_REFUSALS: Final = frozenset({"own_result", "not_league_admin", "not_captain",
                                 "by_itself"})
