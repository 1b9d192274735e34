"""manage.py league_table: one line (or table) per file in order; exit 1 if any is refused.

No test here has a django_db mark: the command never opens the database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.rules.test_league import SPEC_DOCUMENT, SPEC_STANDINGS
from tests.support.samples import REPO_ROOT

TIE = {"format": "domino-league/1", "name": "Club ladder", "game": "five-up",
       "entrants": [{"name": "Dee"}, {"name": "cy"}, {"name": "Bob"}, {"name": "Ann"}],
       "fixtures": [{"home": "Ann", "away": "Dee", "result": [1, 0]}]}
UNKNOWN_ENTRANT = {**TIE, "fixtures": [{"home": "Ann", "away": "Eve", "result": [1, 0]}]}
UNKNOWN_ENTRANT_ERROR = 'fixture 1: away "Eve" is not an entrant'


def line(value: dict) -> str:
    return json.dumps(value, separators=(",", ":"))


def write(folder: Path, name: str, document: dict) -> Path:
    path = folder / name
    path.write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path) -> dict[str, Path]:
    return {"spec": write(tmp_path, "teesdale.json", SPEC_DOCUMENT),
            "tie": write(tmp_path, "ladder.json", TIE),
            "refused": write(tmp_path, "unknown.json", UNKNOWN_ENTRANT)}


def run(*args: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("league_table", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


def test_json_prints_the_spec_standings_for_the_spec_document(files):
    out, error = run("--json", str(files["spec"]))

    assert error is None
    assert out.splitlines() == [line(SPEC_STANDINGS)]


def test_json_prints_one_line_per_file_in_order_with_the_refused_one_as_an_error(files):
    out, error = run("--json", str(files["tie"]), str(files["refused"]), str(files["spec"]))

    lines = out.splitlines()
    assert len(lines) == 3
    assert json.loads(lines[0])["league"] == "Club ladder"
    assert lines[1] == line({"error": UNKNOWN_ENTRANT_ERROR})
    assert lines[2] == line(SPEC_STANDINGS)
    assert str(error) == "1 of 3 league files refused."


def test_json_shows_a_shared_rank_as_the_same_number(files):
    out, _ = run("--json", str(files["tie"]))

    standings = json.loads(out)["standings"]
    assert [(row["rank"], row["entrant"]) for row in standings] == [
        (1, "Ann"), (2, "Bob"), (2, "cy"), (4, "Dee")]


def test_plain_output_is_a_readable_table(files):
    out, error = run(str(files["spec"]))

    assert error is None
    assert out.splitlines() == [
        f"{files['spec']}: Teesdale Monday League 2026/27 — Division A",
        "Pos  Entrant         P  W  D  L  Games  Pts",
        "  1  Middleton Club  1  1  0  0    5–4    7",
        "  2  Royal Oak A     1  1  0  0    2–1    4",
        "  3  Bowes Dragons   2  0  0  2    5–7    4",
        "Adjusted: Bowes Dragons -3 (result sent late)",
        "Tie-break: Bowes Dragons below Royal Oak A on game difference",
    ]


def test_plain_output_marks_a_shared_rank_and_names_a_refused_file(files):
    out, error = run(str(files["tie"]), str(files["refused"]))

    assert out.splitlines() == [
        f"{files['tie']}: Club ladder",
        "Pos  Entrant  P  W  D  L  Games  Pts",
        "  1  Ann      1  1  0  0    1–0    2",
        " 2=  Bob      0  0  0  0    0–0    0",
        " 2=  cy       0  0  0  0    0–0    0",
        "  4  Dee      1  0  0  1    0–1    0",
        "Tie-break: Dee below cy on game difference",
        "=: level on points and every tie-breaker; the league decides the order",
        "",
        f"{files['refused']}: refused: {UNKNOWN_ENTRANT_ERROR}",
    ]
    assert str(error) == "1 of 2 league files refused."


def test_a_missing_file_is_refused(tmp_path):
    out, error = run("--json", str(tmp_path / "missing.json"))

    assert json.loads(out) == {"error": "cannot read the file: No such file or directory"}
    assert str(error) == "1 of 1 league files refused."


def test_a_file_that_is_not_json_is_refused(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"format": "domino-league/1",')

    out, error = run("--json", str(path))

    assert json.loads(out)["error"].startswith("not valid JSON: Expecting")
    assert error is not None


def test_a_json_document_that_is_not_an_object_is_refused(tmp_path):
    path = tmp_path / "list.json"
    path.write_text(json.dumps([SPEC_DOCUMENT]))

    out, _ = run("--json", str(path))

    assert json.loads(out) == {"error": "a league record is a JSON object"}


def test_a_file_that_is_not_utf8_is_refused(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps({**TIE, "name": "Café league"},
                                ensure_ascii=False).encode("latin-1"))

    out, error = run(str(path))

    assert out.startswith(f"{path}: refused: the file is not UTF-8 text: ")
    assert error is not None


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SPEC_DOCUMENT).encode())

    out, error = run("--json", str(path))

    assert error is None
    assert json.loads(out) == SPEC_STANDINGS


def _subprocess(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # a database that does not exist: the command must never open a connection
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/none"
    return subprocess.run([sys.executable, "manage.py", "league_table", *args], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=60, check=False)


def test_subprocess_with_a_refused_file_exits_1(files):
    result = _subprocess("--json", str(files["spec"]), str(files["refused"]))

    assert [json.loads(text) for text in result.stdout.splitlines()] == [
        SPEC_STANDINGS, {"error": UNKNOWN_ENTRANT_ERROR}]
    assert result.returncode == 1
    assert "1 of 2 league files refused." in result.stderr


def test_subprocess_with_every_file_valid_exits_0(files):
    result = _subprocess("--json", str(files["spec"]), str(files["tie"]))

    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 2
    assert json.loads(result.stdout.splitlines()[0]) == SPEC_STANDINGS
