"""Storing a batch of ``domino-match/1`` records at once: imports, uploads, restores.

Each record is replayed once by the rules engine, which verifies it; its rows — the
match, sides, seats, the import's change, rounds, their cached totals and events — are
built in memory from that replay, exactly as :func:`~matches.scoring.services.play.match_import`
stores one record, and each table is written in one ``bulk_create`` for the whole batch
(a record costs no query of its own). What the engine checked is not checked again row by
row; what it does not check (the seats' names, a field longer than its column) is
checked as a dry run checks it
(:func:`~matches.scoring.record_checks.record_verified`), and the database's
constraints hold as ever.

A refused record, or one already stored (its ``record_hash``, per account; or a copy of
an earlier record of the same batch), stores nothing of itself; the rest of the batch
goes in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User as Account
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.utils import timezone

from matches import rules
from matches.core.collector import fewer_collections
from matches.scoring.changelog import action_doc
from matches.scoring.models import (
    Change,
    ChangeKind,
    Event,
    Match,
    MatchStatus,
    Round,
    RoundMode,
    RoundSide,
    ScorerGrant,
    Seat,
    Side,
)
from matches.scoring.record_checks import record_refusal, record_verified
from matches.scoring.selectors.play import (
    event_action,
    results_apart,
    round_settle_actions,
    score_decimal,
)
from matches.scoring.services.play import (
    IMPORTED_FROM,
    User,
    event_fields,
    imported_round,
    match_import,
    round_side_columns,
    signed_in_account,
    unsaved_match,
)

# rows per INSERT statement: a batch of long matches holds a hundred thousand events,
# which one statement would send as one huge text
ROWS_PER_INSERT = 5000


@dataclass(frozen=True, slots=True)
class Imported:
    """What became of one record of a batch: stored as ``match``, found already stored
    as ``match`` (``duplicate``), or refused for ``refusal`` (no match). ``engine`` is
    the replay that verified it (none for a record found already stored: it was not
    replayed)."""

    match: Match | None
    engine: rules.Match | None = None
    refusal: str = ""
    duplicate: bool = False

    @property
    def summary(self) -> dict[str, Any] | None:
        """The record's summary (match-record.md) from the replay that verified it."""
        return rules.summary(self.engine) if self.engine is not None else None


@dataclass(slots=True)
class EventRow:
    """An event's row, not yet written: the fields of
    :class:`~matches.scoring.models.Event`, with the match, round and changes it belongs
    to as their rows (written first). A model instance costs twenty times as much to
    make, and a batch of long matches holds a hundred thousand events."""

    match: Match
    round: Round
    number: int
    seat: int
    kind: str
    tile: str = ""
    at: str = ""
    tiles_drawn: int | None = None
    ends: list[str] | None = None
    goes_out: bool = False
    claim: Decimal | None = None
    miscall: Decimal | None = None
    end_sum: int | None = None
    points: Decimal | None = None
    refused: str = ""
    recorded_at: datetime | None = None  # none: when it is written
    change: Change | None = None
    undone_by: Change | None = None

    def as_event(self, now: datetime) -> Event:
        """The row as a model instance, for a database without COPY."""
        return Event(**{name: getattr(self, name) for name in EVENT_FIELDS},
                     recorded_at=self.recorded_at or now)


# an event's fields as its row holds them, but the time, in the order of EVENT_COLUMNS
EVENT_FIELDS = ("match", "round", "number", "seat", "kind", "tile", "at", "tiles_drawn",
                "ends", "goes_out", "claim", "miscall", "end_sum", "points", "refused",
                "change", "undone_by")
EVENT_COLUMNS = (*(f"{name}_id" if name in {"match", "round", "change", "undone_by"}
                   else name for name in EVENT_FIELDS), "recorded_at")


@dataclass(slots=True)
class MatchRows:
    """One verified record's rows, built in memory, not yet written: every row that
    :func:`~matches.scoring.services.play.match_import` would store for it."""

    match: Match
    sides: list[Side]
    seats: list[Seat]
    changes: list[Change]  # the import's one (none for a record of no action)
    rounds: list[Round]
    round_sides: list[RoundSide]
    events: list[EventRow] = field(default_factory=list)
    grants: list[ScorerGrant] = field(default_factory=list)  # none: a restore's, if any

    def actions(self) -> list[rules.Action]:
        """The actions the rows give back, in the order of play (as
        :func:`~matches.scoring.selectors.play.match_actions` reads them once written)."""
        events: dict[int, list[EventRow]] = {}
        for event in self.events:
            events.setdefault(id(event.round), []).append(event)
        actions: list[rules.Action] = []
        for round_ in self.rounds:
            actions.append(rules.StartRound(round_.starter, rules.RoundMode.CALLED
                                            if round_.mode == RoundMode.CALLED
                                            else rules.RoundMode.TRACKED))
            actions.extend(event_action(event) for event in events.get(id(round_), ()))
            actions.extend(round_settle_actions(round_))
        return actions


def match_rows(engine: rules.Match, names: Sequence[str], *, created_by: User | None = None,
               record_hash: str | None = None) -> MatchRows:
    """The rows of the record ``engine`` replayed (``names``: its seats' names, as
    :func:`~matches.scoring.record_checks.record_verified` gives them)."""
    account = signed_in_account(created_by)
    match = unsaved_match(engine, created_by=account)
    match.record_hash = record_hash
    finished = engine.winner is not None
    match.status = MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS
    match.winner_side = engine.winner
    if finished:
        match.finished_at = max(timezone.now(), match.started_at)
    sides = [Side(match=match, index=index, score=score_decimal(score))
             for index, score in enumerate(engine.scores)]
    seats = [Seat(match=match, position=position, name=name,
                  side=sides[engine.side_of[position]])
             for position, name in enumerate(names)]
    change = None
    docs = [action_doc(action) for action in engine.log]
    if docs:
        match.version = 1
        change = Change(match=match, version=1, kind=ChangeKind.IMPORT,
                        action={"actions": docs}, description=str(IMPORTED_FROM)[:300],
                        user=account)
    apart = results_apart(docs)
    rows = MatchRows(match, sides, seats, [change] if change else [], rounds=[], round_sides=[])
    number = 0
    for rnd in engine.rounds:
        round_ = imported_round(match, rnd, apart=rnd.number in apart, change=change)
        rows.rounds.append(round_)
        columns = round_side_columns(engine, rnd)
        rows.round_sides.extend(
            RoundSide(round=round_, side=side,
                      **{name: score_decimal(values[index]) for name, values in columns.items()})
            for index, side in enumerate(sides))
        for action, award in zip(rnd.events, rnd.awards, strict=True):
            number += 1
            rows.events.append(EventRow(match, round_, number, change=change,
                                        **event_fields(action, award)))
    return rows


def match_rows_write(batch: Sequence[MatchRows]) -> None:
    """Write ``batch``'s rows. The few a match has (itself, its sides, seats and grants)
    in one ``bulk_create`` a table, which gives back the primary keys the rows after them
    refer to; on PostgreSQL, the many (changes, rounds, their totals and the events) by
    COPY, their keys taken from the tables' sequences first, and elsewhere by
    ``bulk_create``. Foreign keys are the database's to check (on PostgreSQL, at the
    commit)."""
    def write(model: type[models.Model], rows: list[Any]) -> None:
        if rows:
            model._default_manager.bulk_create(rows, batch_size=ROWS_PER_INSERT)

    write(Match, [rows.match for rows in batch])
    write(Side, [side for rows in batch for side in rows.sides])
    write(Seat, [seat for rows in batch for seat in rows.seats])
    write(ScorerGrant, [grant for rows in batch for grant in rows.grants])
    changes = [change for rows in batch for change in rows.changes]
    rounds = [round_ for rows in batch for round_ in rows.rounds]
    totals = [total for rows in batch for total in rows.round_sides]
    events = [event for rows in batch for event in rows.events]
    now = timezone.now()
    if connection.vendor != "postgresql":
        write(Change, changes)
        write(Round, rounds)
        write(RoundSide, totals)
        write(Event, [event.as_event(now) for event in events])
        return
    for model, rows in ((Change, changes), (Round, rounds), (RoundSide, totals)):
        _copy(model, _keys_given(model, rows))
    _copy_events(events, now)  # no key is needed back: the most rows, the fastest way


def _keys_given(model: type[models.Model], rows: list[Any]) -> list[Any]:
    """``rows`` (new, of ``model``) given their primary keys from the table's sequence,
    in one query, as an INSERT would take them."""
    if rows:
        table = model._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) "
                           "FROM generate_series(1, %s)",
                           [connection.ops.quote_name(table), model._meta.pk.column, len(rows)])
            for row, (key,) in zip(rows, cursor.fetchall(), strict=True):
                row.pk = key
                row._state.adding = False
    return rows


def _copy(model: type[models.Model], rows: Sequence[models.Model]) -> None:
    """``rows`` (new, of ``model``, their keys given) written by PostgreSQL's COPY: the
    values as the rows hold them (a related row as its key, JSON as JSON), with none of
    an INSERT's preparing of each value (for a thousand imports' changes, seconds)."""
    from psycopg.types.json import Jsonb

    if not rows:
        return
    fields = model._meta.concrete_fields
    columns = ", ".join(connection.ops.quote_name(field.column or field.attname)
                        for field in fields)
    table = connection.ops.quote_name(model._meta.db_table)
    related = {field.attname: field for field in fields
               if isinstance(field, models.ForeignKey)}
    json = {field.attname for field in fields if isinstance(field, models.JSONField)}

    def value(row: models.Model, attname: str) -> Any:
        if attname in related:  # the row it names was written first: its key
            target = related[attname].get_cached_value(row, None)
            return target.pk if target is not None else getattr(row, attname)
        found = getattr(row, attname)
        return Jsonb(found) if attname in json and found is not None else found

    names = [field.attname for field in fields]
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row([value(row, name) for name in names])


def _copy_events(events: Sequence[EventRow], now: datetime) -> None:
    """``events`` written by PostgreSQL's COPY, each as one tuple of its columns (a
    related row as its key, the scoring ends as JSON): none of an INSERT's preparing of
    each value, nor a model instance's making."""
    from psycopg.types.json import Jsonb

    columns = ", ".join(connection.ops.quote_name(name) for name in EVENT_COLUMNS)
    table = connection.ops.quote_name(Event._meta.db_table)
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {table} ({columns}) FROM STDIN") as copy:
        write = copy.write_row
        for e in events:
            write((e.match.pk, e.round.pk, e.number, e.seat, e.kind, e.tile, e.at,
                   e.tiles_drawn, Jsonb(e.ends) if e.ends is not None else None,
                   e.goes_out, e.claim, e.miscall, e.end_sum, e.points, e.refused,
                   e.change.pk if e.change is not None else None,
                   e.undone_by.pk if e.undone_by is not None else None,
                   e.recorded_at or now))


@transaction.atomic
@fewer_collections()
def matches_store_bulk(*, documents: Sequence[Mapping[str, Any]], created_by: User | None = None,
                       hashes: Sequence[str | None] | None = None) -> list[Imported]:
    """Verify and store ``documents`` as ``created_by``'s matches, in one go; what became
    of each, in order. ``hashes``: each record's content hash (``None``: not kept), by
    which a record this account already stored, or a copy of an earlier one in the batch,
    is found rather than stored again.

    An imported match's seats name no club's players, so its result feeds no club's
    ratings: unlike a scored match's finish, it tells nobody (``results_changed``)."""
    account = signed_in_account(created_by)
    digests = list(hashes) if hashes is not None else [None] * len(documents)
    if len(digests) != len(documents):
        raise ValueError("one hash per document")
    stored = _stored_as(digests, account)
    results: list[Imported | None] = []
    pending: list[tuple[int, rules.Match, MatchRows]] = []
    first_of: dict[str, int] = {}  # a hash's first record in this batch
    for index, (document, digest) in enumerate(zip(documents, digests, strict=True)):
        if digest is not None and digest in stored:
            results.append(Imported(stored[digest], duplicate=True))
            continue
        if digest is not None and digest in first_of:
            results.append(None)  # a copy: its match is the first's, once written
            continue
        try:
            engine, names = record_verified(document=document)
        except (rules.RulesError, ValidationError) as error:
            results.append(Imported(None, refusal=record_refusal(error)))
            continue
        if digest is not None:
            first_of[digest] = index
        pending.append((index, engine, match_rows(engine, names, created_by=account,
                                                  record_hash=digest)))
        results.append(None)
    try:
        with transaction.atomic():  # a savepoint: a refused batch leaves nothing
            match_rows_write([rows for _index, _engine, rows in pending])
        for index, engine, rows in pending:
            results[index] = Imported(rows.match, engine)
    except IntegrityError:
        # Another upload by this account stored one of these records meanwhile, or the
        # database calls two seats' names the same where Python does not: each record
        # again on its own, so that only the one refused is left out.
        for index, engine, _rows in pending:
            results[index] = _store_one(documents[index], engine, digests[index], account)
    for index, digest in enumerate(digests):
        if results[index] is None:
            assert digest is not None
            first = results[first_of[digest]]
            assert first is not None
            results[index] = (Imported(first.match, duplicate=True) if first.match
                              else Imported(None, first.engine, first.refusal))
    return [result for result in results if result is not None]


def statistics_refresh() -> None:
    """After a large store (a restore, an import, an upload), let PostgreSQL's planner
    know how many rows the match tables now hold: ANALYZE them. Until autovacuum does
    (a minute later at best; never where it is off), the planner goes by the counts of
    before, and may pick for an empty table's plan one that reads every event for each
    match asked for (after 15,000 matches restored, an export spent a seventh of a
    second a match so). Nothing to do elsewhere: SQLite's planner needs no statistics to
    use the events' index."""
    if connection.vendor != "postgresql":
        return
    tables = ", ".join(connection.ops.quote_name(model._meta.db_table) for model in (
        Match, Side, Seat, Change, Round, RoundSide, Event))
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {tables}")


def _stored_as(digests: Sequence[str | None], account: Account | None) -> dict[str, Match]:
    """The matches this account already stored from these records, by hash (the
    earliest, as :func:`matches.records.selectors.record_stored_as` finds it)."""
    wanted = {digest for digest in digests if digest is not None}
    if not wanted:
        return {}
    found = Match.objects.filter(created_by=account, record_hash__in=wanted).order_by("-pk")
    return {match.record_hash: match for match in found if match.record_hash is not None}


def _store_one(document: Mapping[str, Any], engine: rules.Match, digest: str | None,
               account: Account | None) -> Imported:
    """One record of a batch the database refused, stored as a single record is."""
    if digest is not None and (done := _stored_as([digest], account)):
        return Imported(done[digest], duplicate=True)
    try:
        with transaction.atomic():
            match = match_import(document=document, created_by=account, record_hash=digest)
    except ValidationError as error:  # two names the database folds together
        return Imported(None, refusal=record_refusal(error))
    except IntegrityError:  # another upload by this account stored it just now
        if digest is None or not (done := _stored_as([digest], account)):
            raise
        return Imported(done[digest], duplicate=True)
    return Imported(match, engine)


__all__ = ["EventRow", "Imported", "MatchRows", "match_rows", "match_rows_write",
           "matches_store_bulk", "statistics_refresh"]
