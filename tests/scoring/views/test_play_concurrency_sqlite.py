"""Racing writes on the embedded default, an SQLite file, as `scripts/run` serves it.

The development server answers each request in its own thread, with its own connection
to the file: two writes at once must wait their turn, never fail with "database is
locked". The test suite's own SQLite database lives in memory, where locks work
otherwise, so each scenario runs in a fresh interpreter on a file of its own (on every
CI database: it needs no server).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.scorekeeper.test_settings import run_python

PREAMBLE = """
import django
django.setup()
from django.core.management import call_command
from django.test.utils import setup_test_environment
setup_test_environment()
call_command("migrate", verbosity=0)
"""

# Two taps on "Start scoring" (one form, one creation key) reach the server together,
# five times over.
DOUBLE_START = PREAMBLE + """
import json, threading, uuid
from django.db import connections
from matches.scoring.services.play import match_start

results = []
for _ in range(5):
    key, barrier, lock = uuid.uuid4(), threading.Barrier(2), threading.Lock()

    def start():
        barrier.wait()
        try:
            started = match_start(game="all-fives", players=["Olena", "Taras"],
                                           starter=0, creation_key=key)
            outcome = [started.match.pk, started.grant.pk, started.created]
        except Exception as error:
            outcome = [type(error).__name__, str(error)]
        finally:
            connections.close_all()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
print(json.dumps(results))
"""

# The PostgreSQL race of test_concurrency.py: eight phones tapping one match, fresh,
# stale and resent taps; it checks that no tap is lost or doubled and that every answer
# is a 200.
RACING_PHONES = PREAMBLE + """
from tests.scoring.views import test_play_concurrency
test_play_concurrency.test_racing_phones_lose_nothing_and_double_nothing()
print("raced")
"""


def run_on_sqlite_file(code: str, database: Path) -> subprocess.CompletedProcess[str]:
    return run_python(code, DATABASE_URL=f"sqlite:///{database}", DEBUG="1")


def test_a_double_tap_on_start_makes_one_match_and_no_error(tmp_path):
    result = run_on_sqlite_file(DOUBLE_START, tmp_path / "db.sqlite3")

    assert result.returncode == 0, result.stderr[-3000:]
    pairs = json.loads(result.stdout)
    pairs = [pairs[i:i + 2] for i in range(0, len(pairs), 2)]
    for first, second in pairs:
        assert isinstance(first[0], int), first  # not ["OperationalError", "database is locked"]
        assert isinstance(second[0], int), second
        # one match and one scorer grant, made by one of the two taps; the other is
        # answered with them
        assert first[:2] == second[:2]
        assert sorted([first[2], second[2]]) == [False, True]


def test_racing_phones_on_an_sqlite_file_lose_nothing_and_get_no_error(tmp_path):
    result = run_on_sqlite_file(RACING_PHONES, tmp_path / "db.sqlite3")

    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().endswith("raced")
