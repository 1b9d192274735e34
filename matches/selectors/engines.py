"""The engine of a match for pages that only read it, kept between requests.

Replaying a match from its rows costs about 1.4 s at 3,000 rounds (50,000 rows loaded);
a page that a phone shows after every tap, and watchers poll, must not pay that each
time. Each process keeps, per match, the engine at the version it was built for. A
later version made only of added actions (a round started, a tile placed, a draw, a
pass, a call, a settlement) is caught up from the change log, each change's action
applied in turn — what the services did; anything else (an undo, a restore, a rename,
an import) replays from the rows, as :func:`matches.selectors.match_engine` does.

The engine is shared: readers hold :func:`engine_for_reading`'s lock while they use it
and never change it (a preview places and takes back at once, under the lock).
Writes build their own engine (``match_engine``), never this one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import UUID

from matches import rules
from matches.actions import action_from_doc
from matches.models import ChangeKind, Match
from matches.selectors.scoring import match_engine

CACHED_MATCHES = 64  # per process, least recently read dropped first
_ADDING = frozenset({ChangeKind.START, ChangeKind.PLAY, ChangeKind.DRAW, ChangeKind.PASS,
                     ChangeKind.CALL, ChangeKind.SETTLE})
# keyed by public id, never reused (a primary key may be, after a delete on SQLite)
_engines: OrderedDict[UUID, tuple[int, rules.Match]] = OrderedDict()
_lock = threading.RLock()


@contextmanager
def engine_for_reading(match: Match) -> Iterator[rules.Match]:
    """The engine of ``match`` at ``match.version``, for reading only, under the lock."""
    with _lock:
        yield _engine_at(match)


def forget_engines() -> None:
    """Drop every kept engine (tests, and a process that wants its memory back)."""
    with _lock:
        _engines.clear()


def _engine_at(match: Match) -> rules.Match:
    kept = _engines.pop(match.public_id, None)
    engine = _caught_up(match, *kept) if kept is not None else None
    if engine is None:
        engine = match_engine(match)
    _engines[match.public_id] = (match.version, engine)
    while len(_engines) > CACHED_MATCHES:
        _engines.popitem(last=False)
    return engine


def _caught_up(match: Match, version: int, engine: rules.Match) -> rules.Match | None:
    """``engine`` (at ``version``) brought to ``match.version``, or None to replay."""
    if version == match.version:
        return engine
    if version > match.version:
        return None
    changes = list(match.changes.filter(version__gt=version, version__lte=match.version)
                   .order_by("version").values_list("kind", "action"))
    if len(changes) != match.version - version or any(
            kind not in _ADDING for kind, _ in changes):
        return None
    try:
        for _, action in changes:
            engine.do(action_from_doc(action))
    except rules.RulesError:  # cannot happen for a logged change; replay to be sure
        return None
    return engine
