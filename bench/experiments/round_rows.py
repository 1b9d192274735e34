"""What a round's events kept as one row would buy storing: measured before it is built.

The storing goal of issue 36 (1,000 records/s, at most 5x the dry run) is out of reach
with one row an event (bench/README.md). The lever named there is a schema change: a
round's events kept as one row (a JSON array) instead of a row each. Every page, the
live tap, undo and every export would follow it, so this measures first what it gives.

In one process, on the same records, into one scratch PostgreSQL database (migrated,
emptied between runs), it stores the batches through the shipped
``matches_store_bulk`` three ways, in turn, ``--repeat`` times:

``events``       as shipped: one row an event (``COPY`` into the events' table);
``round-rows``   the events of each round as one row of this script's own table
                 (``round`` primary key and ``match``, both foreign keys checked at the
                 commit as the events' are; the events as a JSON array of arrays);
``events-round-key``  one row an event as shipped, into a copy of the events' table
                 (its columns, checks and indexes) whose only foreign key is the round's:
                 one key checked an event at the commit instead of three (match, round,
                 change);
``no-events``    the events not written at all: the floor of everything else.

and also replays the same records alone (``record_verified``, the dry run's work
without start-up or output). For each it prints the wall clock, this process's CPU and
PostgreSQL's CPU. Nothing of the app is changed: the experiment swaps
``bulk._copy_events`` for the run.

    .venv/bin/python bench/experiments/round_rows.py                 # 1000 records, 3 runs
    .venv/bin/python bench/experiments/round_rows.py --matches 500 --repeat 1 --json-type json
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from store import SERVER, database, records, server_cpu  # noqa: E402

BATCH = 500  # import_match's batch
TABLE = "bench_round_events"
WAYS = ("events", "events-round-key", "round-rows", "no-events")
EVENTS_ROUND_KEY = "bench_events_round_key"


def _number(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def round_rows_copy(events: Sequence[Any], now: datetime) -> None:
    """A stand-in for ``bulk._copy_events`` writing each round's events as one row (the
    server parses the JSON text as the column's type asks)."""
    from django.db import connection

    by_round: dict[int, tuple[int, int, list[list[Any]]]] = {}
    for e in events:
        entry = by_round.get(e.round.pk)
        if entry is None:
            entry = by_round[e.round.pk] = (e.match.pk, e.change.pk if e.change else 0,
                                            [])
        entry[2].append([e.number, e.seat, e.kind, e.tile, e.at, e.tiles_drawn, e.ends,
                         e.goes_out, _number(e.claim), _number(e.miscall), e.end_sum,
                         _number(e.points), e.refused,
                         e.undone_by.pk if e.undone_by is not None else None])
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {TABLE} (round_id, match_id, change_id, recorded_at, events) "
            "FROM STDIN") as copy:
        for round_id, (match_id, change_id, rows) in by_round.items():
            copy.write_row((round_id, match_id, change_id or None, now, dumps(rows)))


def round_key_copy(events: Sequence[Any], now: datetime) -> None:
    """The shipped ``_copy_events``, into the table of one foreign key."""
    from django.db import connection

    from matches.scoring.services import bulk

    columns = ", ".join(bulk.EVENT_COLUMNS)
    with connection.cursor() as cursor, cursor.cursor.copy(
            f"COPY {EVENTS_ROUND_KEY} ({columns}) FROM STDIN") as copy:
        write = copy.write_row
        for e in events:
            write((e.match.pk, e.round.pk, e.number, e.seat, e.kind, e.tile, e.at,
                   e.tiles_drawn, json.dumps(e.ends) if e.ends is not None else None,
                   e.goes_out, e.claim, e.miscall, e.end_sum, e.points, e.refused,
                   e.change.pk if e.change is not None else None,
                   e.undone_by.pk if e.undone_by is not None else None,
                   e.recorded_at or now))


def no_events(events: Sequence[Any], now: datetime) -> None:
    del events, now


def create_table(json_type: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {TABLE}")
        cursor.execute(
            f"CREATE TABLE {TABLE} ("
            " round_id bigint PRIMARY KEY REFERENCES matches_round (id)"
            "  DEFERRABLE INITIALLY DEFERRED,"
            " match_id bigint NOT NULL REFERENCES matches_match (id)"
            "  DEFERRABLE INITIALLY DEFERRED,"
            " change_id bigint NULL REFERENCES matches_change (id)"
            "  DEFERRABLE INITIALLY DEFERRED,"
            " recorded_at timestamptz NOT NULL,"
            f" events {json_type} NOT NULL)")
        cursor.execute(f"CREATE INDEX {TABLE}_match ON {TABLE} (match_id)")
        cursor.execute(f"DROP TABLE IF EXISTS {EVENTS_ROUND_KEY}")
        cursor.execute(f"CREATE TABLE {EVENTS_ROUND_KEY} "
                       "(LIKE matches_event INCLUDING ALL)")
        cursor.execute(f"ALTER TABLE {EVENTS_ROUND_KEY} ADD FOREIGN KEY (round_id) "
                       "REFERENCES matches_round (id) DEFERRABLE INITIALLY DEFERRED")


def emptied() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {TABLE}, {EVENTS_ROUND_KEY}, matches_event, "
                       "matches_roundside, matches_round, matches_change, matches_seat, "
                       "matches_side, matches_match CASCADE")
        cursor.execute("VACUUM ANALYZE")  # each run starts from the same empty tables


def store(documents: list[dict[str, Any]], way: str) -> dict[str, float]:
    from django.db import connection

    from matches.scoring.services import bulk

    shipped = bulk._copy_events
    if way == "round-rows":
        bulk._copy_events = round_rows_copy
    elif way == "events-round-key":
        bulk._copy_events = round_key_copy
    elif way == "no-events":
        bulk._copy_events = no_events
    try:
        server = server_cpu() or 0.0
        cpu = time.process_time()
        start = time.perf_counter()
        for first in range(0, len(documents), BATCH):
            done = bulk.matches_store_bulk(documents=documents[first:first + BATCH])
            if any(result.match is None for result in done):
                raise SystemExit(f"error: a record was refused ({way})")
        wall = time.perf_counter() - start
        cpu = time.process_time() - cpu
        server = (server_cpu() or 0.0) - server
    finally:
        bulk._copy_events = shipped
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT (SELECT count(*) FROM matches_event) "
                       f"+ (SELECT count(*) FROM {EVENTS_ROUND_KEY})")
        (events,) = cursor.fetchone()
        cursor.execute(f"SELECT count(*), coalesce(sum(jsonb_array_length(events::jsonb)), 0) "
                       f"FROM {TABLE}")
        rounds, in_rounds = cursor.fetchone()
    return {"wall": wall, "cpu": cpu, "server": server, "event rows": events,
            "round rows": rounds, "events in round rows": in_rounds}


def replays(documents: list[dict[str, Any]]) -> dict[str, float]:
    from matches.core.collector import fewer_collections
    from matches.scoring.record_checks import record_verified

    cpu = time.process_time()
    start = time.perf_counter()
    with fewer_collections():
        for document in documents:
            record_verified(document=document)
    return {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu,
            "server": 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="records to store (1000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each way (3)")
    parser.add_argument("--json-type", choices=("jsonb", "json"), default="jsonb",
                        help="the round row's events column (jsonb)")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the simulation (1)")
    parser.add_argument("--server", default=SERVER, help=f"PostgreSQL server ({SERVER})")
    args = parser.parse_args(argv)

    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    documents = list(records(args.matches, args.seed))
    print(f"{len(documents)} records generated (not timed); PostgreSQL at {args.server}; "
          f"round rows as {args.json_type}")
    with database(args.server, f"bench_round_rows_{os.getpid()}") as url:
        os.environ["DATABASE_URL"] = url
        import django

        django.setup()
        create_table(args.json_type)
        results: dict[str, list[dict[str, float]]] = {way: [] for way in (*WAYS, "replays")}
        for run in range(args.repeat):
            for way in WAYS:
                emptied()
                results[way].append(store(documents, way))
                last = results[way][-1]
                print(f"run {run + 1} {way:16} wall {last['wall']:6.2f} s  "
                      f"cpu {last['cpu']:5.2f} s  PostgreSQL {last['server']:5.2f} s  "
                      f"({last['event rows']:.0f} event rows, {last['round rows']:.0f} round "
                      f"rows holding {last['events in round rows']:.0f} events)")
            results["replays"].append(replays(documents))
        emptied()
        print(f"\nmedians of {args.repeat}, {len(documents)} records:")
        for way, runs in results.items():
            wall = statistics.median(r["wall"] for r in runs)
            print(f"  {way:16} wall {wall:6.2f} s ({len(documents) / wall:6.0f} records/s)  "
                  f"cpu {statistics.median(r['cpu'] for r in runs):5.2f} s  "
                  f"PostgreSQL {statistics.median(r['server'] for r in runs):5.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
