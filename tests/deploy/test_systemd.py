"""deploy/systemd/: the units a server runs Scorekeeper with (README, "Production").

``systemd-analyze verify`` reads them as systemd would, with the install path
(/srv/scorekeeper) pointed at this checkout so that the commands they run exist.
"""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
INSTALLED = "/srv/scorekeeper"


def unit(name: str) -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((UNITS / name).read_text())
    return parser


def test_the_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    verify = shutil.which("systemd-analyze")
    if verify is None:
        pytest.skip("systemd-analyze is missing (Debian's systemd package): the units are "
                    "not verified on this machine")
    for path in UNITS.iterdir():
        (tmp_path / path.name).write_text(path.read_text().replace(INSTALLED, str(ROOT)))
    result = subprocess.run([verify, "verify", "--man=no",
                             *sorted(str(path) for path in tmp_path.iterdir())],
                            capture_output=True, text=True, timeout=60)

    # an unknown key or a value systemd cannot read is only a warning: none is allowed
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_gunicorn_is_handed_its_socket_and_started_again_on_failure() -> None:
    socket, service = unit("scorekeeper.socket"), unit("scorekeeper.service")

    assert socket["Socket"]["ListenStream"] == "/run/scorekeeper/gunicorn.sock"
    assert service["Unit"]["Requires"] == "scorekeeper.socket"
    assert service["Service"]["ExecStart"].startswith(
        f"{INSTALLED}/.venv/bin/gunicorn scorekeeper.wsgi")
    assert service["Service"]["Restart"] == "on-failure"


def test_the_worker_resumes_imports_first_and_is_started_again_on_failure() -> None:
    worker = unit("scorekeeper-worker.service")["Service"]

    assert worker["ExecStartPre"] == f"{INSTALLED}/.venv/bin/python manage.py resume_imports"
    assert worker["ExecStart"] == f"{INSTALLED}/.venv/bin/python manage.py db_worker --no-reload"
    assert worker["Restart"] == "on-failure"


def test_the_timer_keeps_the_league_schedule_started() -> None:
    timer = unit("scorekeeper-schedule.timer")
    schedule = unit("scorekeeper-schedule.service")["Service"]

    assert timer["Timer"]["OnUnitActiveSec"] == "30min"
    assert timer["Install"]["WantedBy"] == "timers.target"
    assert schedule["ExecStart"] == f"{INSTALLED}/.venv/bin/python manage.py start_schedule"
