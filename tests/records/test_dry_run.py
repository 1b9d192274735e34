"""matches.records.dry_run: ``manage.py import_match --dry-run`` without Django's set-up.

No database mark: a dry run has no database. The lines themselves are the command's
(tests/records/test_commands_import_match.py); here, that the light path says exactly
what Django's command says, and loads only what it uses."""

from __future__ import annotations

import gc
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from matches import rules
from matches.records import dry_run
from matches.rules.simulate import simulated_record
from tests.support.samples import REPO_ROOT

VALID = simulated_record(rules.FIVE_UP, 2, seed=3)
TURN_ORDER = {"format": "domino-match/1", "game": "all-fives", "players": ["A", "B"],
              "rounds": [{"starter": 0, "events": [{"seat": 0, "play": "5-5"},
                                                   {"seat": 0, "play": "5-6", "at": "5-5:5"}]}]}
# what only Django's command path parses: it makes manage.py go the usual way
DJANGOS_PATH = ("--verbosity", "1")


@pytest.fixture
def mixed(tmp_path) -> Path:
    """A .jsonl of: valid, invalid, blank line, malformed JSON, names a store refuses."""
    path = tmp_path / "club.jsonl"
    path.write_text("\n".join([json.dumps(VALID), json.dumps(TURN_ORDER), "",
                               '{"format": "domino-match/1",',
                               json.dumps({**VALID, "players": ["Olena", "OLENA"]})]) + "\n")
    return path


def manage(*args: str, code: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/none"  # never opened
    command = [sys.executable, "manage.py", "import_match", *args]
    if code is not None:
        command = [sys.executable, "-c", code, *args]
    return subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True,
                          timeout=60, check=False)


@pytest.mark.parametrize(("argv", "plain"), [
    (["import_match", "--dry-run", "a.jsonl"], ([Path("a.jsonl")], False)),
    (["import_match", "a.jsonl", "--json", "b.json", "--dry-run"],
     ([Path("a.jsonl"), Path("b.json")], True)),
    (["import_match", "a.jsonl"], None),  # storing: Django's command
    (["import_match", "--dry-run"], None),  # no path: Django's command says so
    (["import_match", "--dry-run", "--json"], None),
    (["import_match", "--dry-run", "--verbosity", "2", "a.jsonl"], None),
    (["import_match", "--dry-run", "--help"], None),
    (["import_match", "--dry-run", "-"], None),
    (["export_match", "--dry-run", "a.jsonl"], None),
])
def test_only_a_plain_dry_run_takes_the_light_path(argv, plain):
    assert dry_run.plain_arguments(argv) == plain


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "human"])
def test_the_light_path_says_what_djangos_command_says(mixed, tmp_path, as_json):
    missing = tmp_path / "missing.json"
    args = ("--dry-run", *(("--json",) if as_json else ()), str(mixed), str(missing))

    light, usual = manage(*args), manage(*args, *DJANGOS_PATH)

    assert (light.stdout, light.stderr, light.returncode) == (
        usual.stdout, usual.stderr, usual.returncode)
    assert len(light.stdout.splitlines()) == 5
    assert light.stderr == "CommandError: 4 of 5 records refused.\n"
    assert light.returncode == 1


def test_valid_records_exit_0_on_both_paths(tmp_path):
    path = tmp_path / "valid.json"
    path.write_text(json.dumps(VALID))

    light, usual = manage("--dry-run", str(path)), manage("--dry-run", str(path), *DJANGOS_PATH)

    assert (light.stdout, light.stderr, light.returncode) == (
        usual.stdout, usual.stderr, usual.returncode) == (
        f"{path}: valid (five-up, finished)\n", "", 0)


LOADED = """
import runpy, sys
sys.argv = ["manage.py", "import_match", *sys.argv[1:]]
try:
    runpy.run_path("manage.py", run_name="__main__")
except SystemExit as stop:
    status = stop.code
from django.apps import apps
print(status, apps.ready, "django.db.models" in sys.modules,
      "matches.scoring.models" in sys.modules, file=sys.stderr)
"""


def test_a_plain_dry_run_sets_no_app_up_and_loads_no_model(mixed):
    result = manage("--dry-run", "--json", str(mixed), code=LOADED)

    assert result.stderr.splitlines()[-1] == "1 False False False"
    assert len(result.stdout.splitlines()) == 4


def test_a_site_in_another_language_keeps_djangos_path(settings, mixed):
    settings.LANGUAGE_CODE = "uk"  # its messages come from the catalogues: the apps' too

    assert dry_run.main(["import_match", "--dry-run", str(mixed)]) is None


@pytest.fixture
def collector():
    """main tunes the collector of its own process: put the test process's back."""
    threshold = gc.get_threshold()
    yield
    gc.set_threshold(*threshold)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("stream", "styled"), [(io.StringIO, False), (Terminal, True)])
def test_the_refusals_count_is_styled_only_on_a_terminal(settings, monkeypatch, collector,
                                                         mixed, stream, styled):
    settings.LANGUAGE_CODE = "en"  # what main changes is undone with the fixture
    monkeypatch.delenv("DJANGO_COLORS", raising=False)
    err = stream()
    monkeypatch.setattr(sys, "stdout", stream())
    monkeypatch.setattr(sys, "stderr", err)

    assert dry_run.main(["import_match", "--dry-run", str(mixed)]) == 1

    said = err.getvalue()
    expected = "CommandError: 3 of 4 records refused."
    assert said == (f"\x1b[31;1m{expected}\x1b[0m\n" if styled else f"{expected}\n")


@pytest.fixture
def long_file(tmp_path) -> Path:
    """A .jsonl long enough to be shared: valid and refused records, blank lines, JSON
    cut short, a line numbered past each share's first."""
    lines = []
    for number in range(1, 331):
        if number % 17 == 0:
            lines.append("")
        elif number % 23 == 0:
            lines.append('{"format": "domino-match/1",')
        elif number % 5 == 0:
            lines.append(json.dumps(TURN_ORDER))
        else:
            lines.append(json.dumps({**VALID, "players": [f"A{number}", f"B{number}"]}))
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def one_by_one(paths: list[Path], *, as_json: bool) -> tuple[str, dry_run.Verified]:
    out = io.StringIO()
    verified = dry_run.verify(dry_run.path_sources(paths), as_json=as_json,
                              write=lambda text: out.write(text + "\n"))
    return out.getvalue(), verified


# The shared dry run forks: run in a process of its own, never in the tests' (a
# process with threads, where a fork may deadlock). Its verify reports each process that
# verified records, and a forked one may be made to fail.
SHARED = """
import os, sys
from matches.records import dry_run
processes, fail, seen, *argv = sys.argv[1:]
parent, real = os.getpid(), dry_run.verify
def verify(*args, **kwargs):
    with open(seen, "a") as pids:
        pids.write(f"{os.getpid()}\\n")
    if fail == "fail" and os.getpid() != parent:
        raise MemoryError
    return real(*args, **kwargs)
def no_fork():
    raise BlockingIOError("Resource temporarily unavailable")
if fail == "no-fork":
    os.fork = no_fork
dry_run.verify = verify
dry_run._processes = lambda: int(processes)
sys.exit(dry_run.main(["import_match", "--dry-run", *argv]))
"""


def shared(paths: list[Path], tmp_path: Path, *, as_json: bool, processes: int,
           fail: str = "") -> tuple[str, str, int]:
    """What the light path writes (its output, its refusals' count) and how many
    processes verified records."""
    seen = tmp_path / "pids"
    seen.write_text("")
    result = manage(str(processes), fail, str(seen),
                    *(("--json",) if as_json else ()), *map(str, paths), code=SHARED)
    return result.stdout, result.stderr, len(set(seen.read_text().split()))


def refusals(verified: dry_run.Verified) -> str:
    return f"CommandError: {dry_run.REFUSED.format(**verified._asdict())}\n"


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "human"])
def test_a_long_file_shared_among_processes_says_what_one_process_says(
        long_file, mixed, tmp_path, as_json):
    paths = [mixed, long_file, tmp_path / "missing.json", long_file]
    output, verified = one_by_one(paths, as_json=as_json)

    assert verified == dry_run.Verified(total=4 + 2 * 311 + 1, refused=3 + 2 * 75 + 1)
    # this process, and two forked ones for each long file
    assert shared(paths, tmp_path, as_json=as_json, processes=3) == (
        output, refusals(verified), 5)


@pytest.mark.parametrize(("fail", "verifiers"), [("fail", 2), ("no-fork", 1)],
                         ids=["its process failed", "no process forked"])
def test_a_share_not_verified_elsewhere_is_verified_by_the_first(long_file, tmp_path, fail,
                                                                 verifiers):
    output, verified = one_by_one([long_file], as_json=True)

    assert shared([long_file], tmp_path, as_json=True, processes=2, fail=fail) == (
        output, refusals(verified), verifiers)


def test_a_short_file_is_not_shared(mixed, tmp_path):
    output, verified = one_by_one([mixed], as_json=True)

    assert shared([mixed], tmp_path, as_json=True, processes=4) == (
        output, refusals(verified), 1)
