"""The one check that closes a match to every write, and the list of the writes it
guards.

Another concern may close a match: a league game's match holds the score its fixture
keeps once the night is sent, so a write on it would make it say another result than
the fixture that counts it. That concern registers its check here
(:func:`closure_check`; the leagues' is ``matches.leagues.selectors.scorepad_closure``),
so scoring reads no league and the leagues depend on scoring, not the reverse. Every
service that writes on a match is marked :func:`match_write` (listed in
:data:`MATCH_WRITES`, which the tests run against a closed fixture one by one) and asks
:func:`closure_refuse` once it holds the match's row locked.

This module imports no other service, so that every one of them can use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from matches import rules
from matches.scoring.models import Match


class Closure(Protocol):
    """Why a match takes no more writes, as the concern that closed it says."""

    @property
    def reason(self) -> str:
        """Why, and what to do instead, in the reader's language."""
        ...

    @property
    def url(self) -> str | None:
        """The page where the result is settled now, if there is one."""
        ...

    @property
    def note(self) -> str | None:
        """What that concern counts of the match's result instead of its own end, if it
        counts another (a league's correction of a game's score), in the reader's
        language; the match's page says it beside the result as played."""
        ...


# name -> service: every write on a match, each refused on a closed match
MATCH_WRITES: dict[str, Callable[..., object]] = {}
# the checks other concerns registered (the apps' ready() imports them)
_CLOSURE_CHECKS: list[Callable[[Match], Closure | None]] = []


def closure_check[C: Callable[[Match], Closure | None]](check: C) -> C:
    """Register ``check``: it answers why a match is closed, or None while it is open.
    Each check must cost no query for a match it has no part in (every tap asks)."""
    if check not in _CLOSURE_CHECKS:
        _CLOSURE_CHECKS.append(check)
    return check


def scorepad_closure(match: Match) -> Closure | None:
    """Why ``match`` is closed to writes (None: open), as the first check that closes
    it says."""
    for check in _CLOSURE_CHECKS:
        if (closure := check(match)) is not None:
            return closure
    return None


def match_write[F: Callable[..., object]](write: F) -> F:
    """Mark ``write`` (a service) as a write on a match: it calls :func:`closure_refuse`
    (directly or through ``write_begin``) before it changes anything. The mark
    changes nothing in the call; it lists the service in :data:`MATCH_WRITES`, where a
    test refuses it on a closed fixture, and another finds any write on a match that
    lacks it."""
    MATCH_WRITES[write.__name__] = write
    return write


class ScorepadClosed(rules.RulesError):
    """A write (a tap, an undo, a restore, an abandon or resume, a rename, a delete) on
    a closed match (a league game whose fixture is no longer open for entry, or whose
    season is locked): the result that holds its score would no longer say what the
    match says. Refused for good; the message is the closure's reason."""

    def __init__(self, closure: Closure) -> None:
        super().__init__(closure.reason)
        self.closure = closure


def closure_refuse(match: Match) -> None:
    """Refuse any write on ``match`` if it is closed (:class:`ScorepadClosed`). Asked
    with the match's row locked: a fixture's submission and voiding lock their games'
    rows before they keep their scores, so a write either commits first, and its score
    is the one kept, or finds the game closed. A casual match costs no query."""
    if (closure := scorepad_closure(match)) is not None:
        raise ScorepadClosed(closure)
