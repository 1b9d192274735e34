"""The engine of each match a process last used, kept between requests.

Replaying a match from its rows costs about 1.4 s at 3,000 rounds (50,000 rows loaded);
a phone taps and reads after every tap, and watchers poll, so neither may pay that each
time. Each process keeps, per match, the engine at the version it was built for, with a
few facts about the match's rows at that version (:class:`Kept`). A later version made
only of added actions and undos (a round started, a tile placed, a draw, a pass, a call,
a settlement, a tap taken back) is caught up from the change log, each change applied in
turn as the services did; anything else (a restore, a rename, an import) replays from
the rows, as :func:`matches.scoring.selectors.play.match_engine` does (reading, from the same rows,
what a write would otherwise query: :func:`matches.scoring.selectors.play.match_replayed`).

Readers share the kept engine under :func:`engine_for_reading`'s lock and never change
it. A write (the match row locked) takes it out with :func:`kept_for_writing`, so no
reader sees it half-changed: refused by the rules, it goes back as it was at once;
written, it goes back at the new version once the transaction commits; otherwise it is
dropped, and the next request replays.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import NamedTuple
from uuid import UUID

from django.db import transaction

from matches import rules
from matches.scoring.changelog import action_from_doc
from matches.scoring.models import ChangeKind, Match
from matches.scoring.selectors.play import match_miscalls, match_replayed

CACHED_MATCHES = 64  # per process, least recently used dropped first
REPLAY_TRIES = 3  # replays of a match that writes keep moving, before giving up keeping it
# changes a kept engine follows as the services made them (any other kind replays)
_FOLLOWED = frozenset({ChangeKind.START, ChangeKind.PLAY, ChangeKind.DRAW, ChangeKind.PASS,
                       ChangeKind.CALL, ChangeKind.SETTLE, ChangeKind.UNDO})
_ADD_EVENT = frozenset({ChangeKind.PLAY, ChangeKind.DRAW, ChangeKind.PASS, ChangeKind.CALL})


class Rows(NamedTuple):
    """What a tap's write needs to know of the match's rows: the live round's primary
    key (None before the first round) and the highest event number, taken back or not
    (numbers are never reused)."""

    live_round: int | None
    last_event: int


@dataclass(slots=True)
class Kept:
    """A match's engine at ``version``, and what the rows held then (None: not known,
    read it). A write keeps the facts true for the version it makes."""

    version: int
    engine: rules.Match
    rows: Rows | None = None  # at version; writes keep it, catch-ups where they can
    miscalls: dict[int, list[str]] | None = None  # selectors.match_miscalls at version
    side_ids: list[int] | None = None  # the sides' primary keys, by index (never change)


# How the current request came by its engines, costliest first: replayed from the rows,
# caught up from the change log, or kept as it was. Only read by the Server-Timing header
# (scorekeeper.middleware.ServerTimingMiddleware, for measuring); None: no engine.
SOURCES = ("replayed", "caught-up", "kept")
engine_source: ContextVar[str | None] = ContextVar("engine_source", default=None)

# keyed by public id, never reused (a primary key may be, after a delete on SQLite)
_kept: OrderedDict[UUID, Kept] = OrderedDict()
_lock = threading.RLock()


@contextmanager
def engine_for_reading(match: Match) -> Iterator[rules.Match]:
    """The engine of ``match`` at ``match.version``, for reading only, under the lock."""
    with _lock:
        yield _kept_at(match).engine


@contextmanager
def scorepad_for_reading(match: Match) -> Iterator[tuple[rules.Match, dict[int, list[str]]]]:
    """:func:`engine_for_reading`, and the match's miscalls
    (:func:`~matches.scoring.selectors.play.match_miscalls`), read once per version at most."""
    with _lock:
        kept = _kept_at(match)
        if kept.miscalls is None:
            kept.miscalls = match_miscalls(match, kept.engine.names)
        yield kept.engine, kept.miscalls


@contextmanager
def kept_for_writing(match: Match) -> Iterator[Kept]:
    """The engine of ``match`` (locked, at ``match.version``), this write's alone.

    The write changes it with the rows and bumps ``match.version``: it is kept at that
    version once the transaction commits. A :class:`~matches.rules.RulesError` leaves
    the engine as it was (the engine's promise), so it goes back at once; any other
    error drops it.
    """
    kept = _taken(match)
    if kept is None:  # the row is locked: no write can commit between it and its rows
        kept = _from_rows(match)
    try:
        yield kept
    except rules.RulesError:
        if kept.version == match.version:
            _keep(match.public_id, kept)
        raise
    kept.version = match.version
    public_id = match.public_id
    transaction.on_commit(lambda: _keep(public_id, kept))


def forget_engines() -> None:
    """Drop every kept engine (tests, and a process that wants its memory back)."""
    with _lock:
        _kept.clear()


def _taken(match: Match) -> Kept | None:
    """The engine kept for ``match``, out of the cache and brought to ``match.version``;
    None if none is kept or it cannot be caught up (then the caller replays)."""
    with _lock:
        taken = _kept.pop(match.public_id, None)
    if taken is None:
        return None
    behind = taken.version != match.version
    kept = _caught_up(match, taken)
    if kept is not None:
        _note("caught-up" if behind else "kept")
    return kept


def _note(source: str) -> None:
    """Remember how this request came by an engine: the costliest way it took."""
    noted = engine_source.get()
    if noted is None or SOURCES.index(source) < SOURCES.index(noted):
        engine_source.set(source)


def _kept_at(match: Match) -> Kept:
    kept = _taken(match)
    if kept is None:
        kept, settled = _replayed(match)
        if not settled:  # writes kept coming: this read has it, no one keeps it
            return kept
    _keep(match.public_id, kept)
    return kept


def _replayed(match: Match) -> tuple[Kept, bool]:
    """The match replayed from its rows, at the version those rows are at.

    A reader holds no lock: ``match.version`` was read before the rows, and a write
    may commit in between, whose rows the replay would then hold under the older
    version (a later catch-up would apply that write twice). So the match is read
    again after the rows (its version and status, for the page that shows the
    engine): the same version means no write came between. False with the last
    replay if writes kept coming (its version may be older than its rows)."""
    for _ in range(REPLAY_TRIES):
        version = match.version
        kept = _from_rows(match)
        match.refresh_from_db(fields=["version", "status", "winner_side", "finished_at"])
        if match.version == version:
            return kept, True
    return kept, False


def _from_rows(match: Match) -> Kept:
    """The match replayed from its rows, at ``match.version`` (the caller makes sure the
    rows are at that version), knowing all that :class:`Kept` keeps."""
    _note("replayed")
    replayed = match_replayed(match)
    return Kept(match.version, replayed.engine,
                rows=Rows(replayed.live_round, replayed.last_event), miscalls=replayed.miscalls,
                side_ids=replayed.side_ids)


def _keep(public_id: UUID, kept: Kept) -> None:
    with _lock:
        other = _kept.get(public_id)
        if other is not None and other.version > kept.version:
            return  # a reader replayed a later version meanwhile
        _kept[public_id] = kept
        _kept.move_to_end(public_id)
        while len(_kept) > CACHED_MATCHES:
            _kept.popitem(last=False)


def _caught_up(match: Match, kept: Kept) -> Kept | None:
    """``kept`` brought to ``match.version``, or None to replay. The one query reads,
    beside each change's action, the round it started and whether the event it added
    or took back was miscalled, so what ``kept`` knows of the rows stays known."""
    if kept.version == match.version:
        return kept
    if kept.version > match.version:
        return None
    changes = list(match.changes.filter(version__gt=kept.version, version__lte=match.version)
                   .order_by("version").values_list("kind", "action", "rounds",
                                                    "events__miscall",
                                                    "undone_events__miscall"))
    # (a restore, not followed, may join several rows: it replays whatever the count)
    if len(changes) != match.version - kept.version or any(
            change[0] not in _FOLLOWED for change in changes):
        return None
    rows, miscalls = kept.rows, kept.miscalls
    try:
        for kind, action, started, added_miscall, undone_miscall in changes:
            if kind == ChangeKind.UNDO:
                kept.engine.undo()
            else:
                kept.engine.do(action_from_doc(action))
            rows = rows_after(rows, kind, action, started)
            if added_miscall is not None or undone_miscall is not None:
                miscalls = None  # read again when shown
    except rules.RulesError:  # cannot happen for a logged change; replay to be sure
        return None
    return Kept(match.version, kept.engine, rows=rows, miscalls=miscalls,
                side_ids=kept.side_ids)


def rows_after(rows: Rows | None, kind: str, action: dict[str, object],
               started: int | None) -> Rows | None:
    """The rows after a change of ``kind`` holding ``action`` (as the log keeps them),
    made here or by another process: each placement, draw, pass or call added one event
    row; a round's start made the live round ``started``; an undo of one moved it back
    to a row the log does not name. None: not known."""
    if rows is None or (kind == ChangeKind.UNDO and "start" in action):
        return None
    if kind == ChangeKind.START:
        return rows._replace(live_round=started) if started is not None else None
    if kind in _ADD_EVENT:
        return rows._replace(last_event=rows.last_event + 1)
    return rows
