"""Storing records in PostgreSQL against verifying them: records/s of each, in one run.

Generates N random records of all three games (``matches.rules.simulate``, the shapes
``bench/replay.py`` times; not timed; a longer upload or backup repeats them with the
players renamed) into a ``.jsonl`` file, creates a PostgreSQL
database of its own (migrated, not timed) and times, in subprocesses, start-up included:

    python manage.py import_match --dry-run --json FILE     # verified, nothing stored
    python manage.py import_match --json FILE               # stored into the empty database

then prints the records/s of each and their ratio. Optionally also:

``--upload U``: a U-line upload stored by the background import's runner
(``record_import_run``), in this process, into the same database (another account's);
``--restore R``: R records stored and written out by ``export_all`` (not timed), then
``import_all`` of that backup into a second empty database, timed in a subprocess.

Everything runs with DEBUG off, as in production. Every database it made is dropped at
the end.

    .venv/bin/python bench/store.py                          # N = 1000
    .venv/bin/python bench/store.py --upload 10000 --restore 15000
    .venv/bin/python bench/store.py --server postgres://postgres@127.0.0.1:5432
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.rules import ALL_FIVES, FIVE_UP, FIVES_AND_THREES, Game  # noqa: E402
from matches.rules.simulate import simulated_record  # noqa: E402

SERVER = "postgres://postgres@127.0.0.1:5432"
# (game, players, options): the mixed corpus, one record of each in turn (bench/replay.py)
CASES: list[tuple[Game, int, dict[str, Any] | None]] = [
    (ALL_FIVES, 2, None),
    (ALL_FIVES, 4, None),
    (FIVE_UP, 2, None),
    (FIVES_AND_THREES, 4, {"set": "double-nine", "drawing": True}),
]


def records(count: int, seed: int) -> Iterator[dict[str, Any]]:
    for i in range(count):
        game, players, options = CASES[i % len(CASES)]
        yield simulated_record(game, players, seed=seed * 1_000_003 + i, options=options)


def renamed(documents: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``count`` records: ``documents`` over again, each copy's players renamed (a record
    of its own, by its hash, that replays as the original does), so that an upload or a
    backup of tens of thousands need not be simulated."""
    return [{**document, "players": [f"{name} {i}" for name in document["players"]]}
            if i >= len(documents) else document
            for i, document in ((i, documents[i % len(documents)]) for i in range(count))]


def write_jsonl(path: Path, documents: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as handle:
        for document in documents:
            handle.write(json.dumps(document, separators=(",", ":")) + "\n")


@contextmanager
def database(server: str, name: str) -> Iterator[str]:
    """A new, migrated PostgreSQL database (its URL), dropped afterwards."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"{server}/{name}"
    try:
        manage(url, "migrate", "--verbosity", "0")
        yield url
    finally:
        from django.conf import settings

        if settings.configured:  # this process's own connection, if it made one
            from django.db import connections

            connections.close_all()
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(url: str, *args: str,
           check: bool = True) -> tuple[float, subprocess.CompletedProcess[str]]:
    """``manage.py ARGS`` on the database at ``url``: wall-clock seconds, and its run."""
    env = {**os.environ, "DATABASE_URL": url}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if check and done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise SystemExit(f"error: `manage.py {' '.join(args)}` exited with {done.returncode}")
    return seconds, done


def server_cpu() -> float | None:
    """CPU seconds used so far by this machine's PostgreSQL processes (read from /proc;
    none where there is no /proc, or the server is elsewhere)."""
    total = 0
    try:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if "(postgres)" in stat or "(postmaster)" in stat:
                fields = stat.rsplit(")", 1)[1].split()
                # utime, stime; and cutime, cstime: the server's processes that ended
                # (a connection's backend, when the command is done), counted by their
                # parent, the postmaster
                total += sum(int(value) for value in fields[11:15])
    except OSError:
        return None
    return total / os.sysconf("SC_CLK_TCK") if total else None


def import_times(url: str, path: Path, count: int) -> None:
    verified, dry = manage(url, "import_match", "--dry-run", "--json", str(path))
    before = server_cpu()
    children = os.times()
    stored, done = manage(url, "import_match", "--json", str(path))
    after = server_cpu()
    command_cpu = (os.times().children_user - children.children_user
                   + os.times().children_system - children.children_system)
    for run in (dry, done):
        lines = run.stdout.splitlines()
        if len(lines) != count or any('"error"' in line for line in lines):
            raise SystemExit(f"error: expected {count} summaries, got {run.stdout[-500:]}")
    print(f"import_match --dry-run: {count} records verified in {verified:.2f} s "
          f"({count / verified:.0f} records/s), start-up included")
    print(f"import_match:           {count} records stored in {stored:.2f} s "
          f"({count / stored:.0f} records/s), start-up included")
    print(f"stored / verified:      {stored / verified:.2f}x the dry run's time")
    if before is not None and after is not None:
        # the two processes' work: the command's (replays, rows, Django) and the
        # server's (rows, indexes, constraints, foreign keys checked at the commit); on
        # n cores, storing cannot take less than their sum / n, nor than the larger
        print(f"CPU while storing:      the command {command_cpu:.2f} s, "
              f"PostgreSQL {after - before:.2f} s "
              f"({(after - before) / count * 1000:.1f} ms a record)")


def upload_time(url: str, path: Path, count: int) -> None:
    """A ``count``-line upload through the background import's runner, in this process."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    media = tempfile.mkdtemp(prefix="bench-store-media-")
    os.environ["MEDIA_ROOT"] = media
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile

    from matches.records.models import RecordImport
    from matches.records.services import record_import_run, record_import_start

    user = User.objects.create_user("bench-uploader")
    upload = SimpleUploadedFile(path.name, path.read_bytes(), "application/jsonl")
    # queued (the database backend's task row), then run here as the worker runs it
    record_import = record_import_start(files=[upload], created_by=user)
    record_import = RecordImport.objects.get(pk=record_import.pk)
    start = time.perf_counter()
    record_import_run(record_import=record_import)
    seconds = time.perf_counter() - start
    record_import.refresh_from_db()
    if record_import.stored != count:
        raise SystemExit(f"error: the upload stored {record_import.stored} of {count}")
    print(f"upload (record_import_run): {count} lines stored in {seconds:.1f} s "
          f"({count / seconds:.0f} records/s), in process")


def restore_time(server: str, path: Path, count: int) -> None:
    backup = path.with_suffix(".backup.jsonl")
    try:
        with database(server, f"bench_store_{os.getpid()}_source") as source:
            manage(source, "import_match", str(path))
            manage(source, "export_all", str(backup))
        with database(server, f"bench_store_{os.getpid()}_restored") as restored:
            seconds, _done = manage(restored, "import_all", "--verbosity", "0", str(backup))
    finally:
        backup.unlink(missing_ok=True)
    print(f"import_all: a backup of {count} matches restored in {seconds:.1f} s "
          f"({count / seconds:.0f} matches/s), start-up included")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="records to import (1000)")
    parser.add_argument("--upload", type=int, default=0,
                        help="lines of an upload to time (0: none)")
    parser.add_argument("--restore", type=int, default=0,
                        help="matches of a backup to restore (0: none)")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the simulation (1)")
    parser.add_argument("--server", default=SERVER, help=f"PostgreSQL server ({SERVER})")
    args = parser.parse_args(argv)
    if min(args.matches, args.upload, args.restore) < 0 or args.matches < 1:
        parser.error("--matches must be at least 1, --upload and --restore at least 0")

    # as production runs: with DEBUG on, Django's debug cursor keeps and formats every
    # statement, which for a batch's INSERT of thousands of rows costs more than the write
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    started = time.perf_counter()
    documents = list(records(args.matches, args.seed))
    print(f"{len(documents)} records generated in {time.perf_counter() - started:.1f} s "
          f"(not timed); PostgreSQL at {args.server}")
    with tempfile.TemporaryDirectory(prefix="bench-store-") as folder:
        path = Path(folder) / "records.jsonl"
        write_jsonl(path, documents[:args.matches])
        with database(args.server, f"bench_store_{os.getpid()}") as url:
            import_times(url, path, args.matches)
            if args.upload:
                upload = Path(folder) / "upload.jsonl"
                write_jsonl(upload, renamed(documents, args.upload))
                upload_time(url, upload, args.upload)
        if args.restore:
            restore = Path(folder) / "restore.jsonl"
            write_jsonl(restore, renamed(documents, args.restore))
            restore_time(args.server, restore, args.restore)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
