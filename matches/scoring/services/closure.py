"""The one check that closes a league game's match to every write, and the list of the
writes it guards.

A league game's match holds the score its fixture keeps once the night is sent: when
the fixture is submitted, disputed, confirmed or void, or its season locked
(:func:`~matches.selectors.scorepad_closure`), a write on the match would make it say
another result than the fixture that counts it. So every service that writes on a match
is marked :func:`match_write` (listed in :data:`MATCH_WRITES`, which the tests run
against a closed fixture one by one) and asks :func:`closure_refuse` once it holds the
match's row locked. A league admin corrects the fixture instead.

This module imports no other service, so that every one of them (scoring, management,
ratings) can use it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.leagues.selectors import Closure, scorepad_closure
from matches.models import FixtureStatus, Match

SCOREPAD_CLOSED = _("This game counts in the result of %(home)s v %(away)s (%(status)s): "
                    "its scorepad is closed. A league admin resolves the fixture if its "
                    "score is wrong.")
SCOREPAD_CLOSED_VOID = _("This game belongs to %(home)s v %(away)s, which a league admin "
                         "made void: its scorepad is closed, and only a league admin can "
                         "settle the fixture now.")
SCOREPAD_CLOSED_LOCKED = _("The season %(season)s is locked: this game's scorepad is closed, "
                           "and its result can no longer change.")

# name -> service: every write on a match, each refused on a closed league game
MATCH_WRITES: dict[str, Callable[..., object]] = {}


def match_write[F: Callable[..., object]](write: F) -> F:
    """Mark ``write`` (a service) as a write on a match: it calls :func:`closure_refuse`
    (directly or through ``scoring.write_begin``) before it changes anything. The mark
    changes nothing in the call; it lists the service in :data:`MATCH_WRITES`, where a
    test refuses it on a closed fixture, and another finds any write on a match that
    lacks it."""
    MATCH_WRITES[write.__name__] = write
    return write


class ScorepadClosed(rules.RulesError):
    """A write (a tap, an undo, a restore, an abandon or resume, a rename, a delete) on
    a league game whose fixture is no longer open for entry, or whose season is locked:
    the result that holds the game's score would no longer say what its match says.
    Refused for good; the message names the fixture (:func:`closed_reason`)."""

    def __init__(self, closure: Closure) -> None:
        super().__init__(closed_reason(closure))
        self.closure = closure


def closure_refuse(match: Match) -> None:
    """Refuse any write on ``match`` if it is a closed league game (:class:`ScorepadClosed`).
    Asked with the match's row locked: a fixture's submission and voiding lock their
    games' rows before they keep their scores (``services.leagues._games_locked``), so a
    write either commits first, and its score is the one kept, or finds the game
    closed. A casual match costs no query."""
    if (closure := scorepad_closure(match)) is not None:
        raise ScorepadClosed(closure)


def closed_reason(closure: Closure) -> str:
    """Why a league game's scorepad is closed, and what to do, in the reader's language
    (the refusal's words, and what the closed pages say)."""
    fixture = closure.fixture
    if closure.season_locked or fixture is None:
        return SCOREPAD_CLOSED_LOCKED % {"season": closure.season}
    names = {"home": fixture.home.name, "away": fixture.away.name}
    if fixture.status == FixtureStatus.VOID:
        return SCOREPAD_CLOSED_VOID % names
    return SCOREPAD_CLOSED % {**names, "status": fixture.get_status_display().lower()}
