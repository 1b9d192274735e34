"""manage.py import_match: one line per record in input order; exit 1 if any is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from matches import rules
from matches.core.messages import explain
from matches.models import Match
from matches.records.files import NOT_ONE_LINE
from matches.rules.simulate import simulated_record
from tests.support.samples import REPO_ROOT

VALID = simulated_record(rules.ALL_FIVES, 2, seed=7)
IN_PROGRESS = rules.export(rules.Match(rules.FIVE_UP, ["Olena", "Taras", "Iryna"]))
TURN_ORDER = {"format": "domino-match/1", "game": "all-fives", "players": ["A", "B"],
              "rounds": [{"starter": 0, "events": [{"seat": 0, "play": "5-5"},
                                                   {"seat": 0, "play": "5-6", "at": "5-5:5"}]}]}
# as the import says it: the dry run and the store give the same words
TURN_ORDER_ERROR = "round 1, event 2: seat 1 is to play, not seat 0"


def summary_line(document, **extra) -> str:
    return json.dumps({**rules.summary(rules.replay(document)), **extra}, separators=(",", ":"))


@pytest.fixture
def mixed(tmp_path) -> Path:
    """A .jsonl of: valid, invalid, blank line, malformed JSON, valid (in progress)."""
    path = tmp_path / "club.jsonl"
    path.write_text("\n".join([json.dumps(VALID), json.dumps(TURN_ORDER), "",
                               '{"format": "domino-match/1",', json.dumps(IN_PROGRESS)]) + "\n")
    return path


@pytest.fixture
def all_valid(tmp_path) -> Path:
    path = tmp_path / "valid.jsonl"
    path.write_text(json.dumps(VALID) + "\n\n" + json.dumps(IN_PROGRESS) + "\n")
    return path


def run(*args: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("import_match", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


def malformed_error() -> str:
    """As the import says it: in the reader's words (matches.core.messages)."""
    try:
        rules.loads('{"format": "domino-match/1",')
    except rules.RecordInvalid as error:
        return explain(error)
    raise AssertionError("loads accepted malformed JSON")


# -- dry run: no database at all (these tests have no django_db mark) -------------------


def test_dry_run_json_prints_one_line_per_record_in_input_order(mixed):
    out, error = run("--dry-run", "--json", str(mixed))

    assert out.splitlines() == [
        summary_line(VALID),
        json.dumps({"error": TURN_ORDER_ERROR}, separators=(",", ":")),
        json.dumps({"error": malformed_error()}, separators=(",", ":")),
        summary_line(IN_PROGRESS),
    ]
    assert str(error) == "2 of 4 records refused."


def test_dry_run_human_lines_name_the_file_and_line(mixed):
    out, _ = run("--dry-run", str(mixed))

    assert out.splitlines() == [
        f"{mixed}:1: valid (all-fives, finished)",
        f"{mixed}:2: refused: {TURN_ORDER_ERROR}",
        f"{mixed}:4: refused: {malformed_error()}",
        f"{mixed}:5: valid (five-up, in-progress)",
    ]


def test_dry_run_of_valid_records_succeeds(all_valid, tmp_path):
    single = tmp_path / "one.json"
    single.write_text(json.dumps(VALID, indent=1))

    out, error = run("--dry-run", str(all_valid), str(single))

    assert error is None
    assert out.splitlines()[-1] == f"{single}: valid (all-fives, finished)"


@pytest.mark.parametrize(("players", "refusal"), [
    (["Olena", "olena"], "Each player needs a different name: olena sits twice."),
    (["Olena", "x" * 61],
     "The name of the player in seat 2 has 61 characters: a name has at most 60."),
])
def test_dry_run_refuses_what_storing_would_refuse(tmp_path, players, refusal):
    path = tmp_path / "names.json"
    path.write_text(json.dumps({**VALID, "players": players}))

    out, error = run("--dry-run", str(path))

    assert out.splitlines() == [f"{path}: refused: {refusal}"]
    assert error is not None


def test_an_unreadable_file_is_one_refused_record(tmp_path):
    missing = tmp_path / "missing.json"

    out, error = run("--dry-run", "--json", str(missing))

    assert json.loads(out) == {"error": "cannot read the file: No such file or directory"}
    assert str(error) == "1 of 1 records refused."


def test_a_file_that_is_not_utf8_is_refused(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps({**VALID, "players": ["Zoë", "Taras"]},
                                ensure_ascii=False).encode("latin-1"))

    out, error = run("--dry-run", str(path))

    assert out.startswith(f"{path}: refused: the file is not UTF-8 text (byte 65 cannot be "
                          "read): save it as UTF-8")
    assert error is not None


@pytest.fixture
def one_line_latin1(tmp_path) -> Path:
    """A .jsonl file whose second line (of three) is Latin-1, not UTF-8."""
    path = tmp_path / "night.jsonl"
    latin = json.dumps({**VALID, "players": ["Zoë", "Taras"]}, ensure_ascii=False)
    path.write_bytes(json.dumps(VALID).encode() + b"\r\n" + latin.encode("latin-1")
                     + b"\r\n" + json.dumps(IN_PROGRESS).encode() + b"\r\n")
    return path


def test_a_jsonl_line_that_is_not_utf8_is_refused_alone_and_the_rest_read(one_line_latin1):
    # as an upload reads it: the line, by its number, not the whole file
    out, error = run("--dry-run", str(one_line_latin1))

    lines = out.splitlines()
    assert len(lines) == 3
    assert lines[0].startswith(f"{one_line_latin1}:1: valid")
    assert lines[1] == (f"{one_line_latin1}:2: refused: the file is not UTF-8 text (byte 65 "
                        "cannot be read): save it as UTF-8")
    assert lines[2].startswith(f"{one_line_latin1}:3: valid")
    assert str(error) == "1 of 3 records refused."


@pytest.mark.django_db
def test_storing_a_jsonl_file_keeps_the_lines_around_one_that_is_not_utf8(one_line_latin1):
    run(str(one_line_latin1))

    assert Match.objects.count() == 2


def test_a_record_written_over_several_jsonl_lines_says_where_it_belongs(tmp_path):
    path = tmp_path / "pretty.jsonl"
    path.write_text(json.dumps(VALID, indent=2) + "\n")

    out, _error = run("--dry-run", str(path))

    lines = out.splitlines()
    assert lines and all(str(NOT_ONE_LINE) in line for line in lines)


def test_a_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(VALID).encode())

    _, error = run("--dry-run", str(path))

    assert error is None


def _subprocess(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # a database that does not exist: the dry run must never open a connection
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/none"
    return subprocess.run([sys.executable, "manage.py", "import_match", *args], cwd=REPO_ROOT,
                          env=env, capture_output=True, text=True, timeout=60, check=False)


def test_subprocess_dry_run_json_with_an_invalid_record_exits_1(mixed):
    result = _subprocess("--dry-run", "--json", str(mixed))

    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [("error" in line) for line in lines] == [False, True, True, False]
    assert lines[1] == {"error": TURN_ORDER_ERROR}
    assert lines[0] == json.loads(summary_line(VALID))
    assert result.returncode == 1
    assert "2 of 4 records refused." in result.stderr


def test_subprocess_dry_run_json_of_valid_records_exits_0(all_valid):
    result = _subprocess("--dry-run", "--json", str(all_valid))

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [summary_line(VALID), summary_line(IN_PROGRESS)]
    assert result.stderr == ""


# -- storing ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_json_mode_stores_each_valid_record_and_prints_its_id(mixed):
    out, error = run("--json", str(mixed))

    lines = [json.loads(line) for line in out.splitlines()]
    ids = [line["id"] for line in lines if "id" in line]
    assert sorted(ids) == sorted(Match.objects.values_list("pk", flat=True))
    assert len(ids) == 2
    assert lines[0] == {**json.loads(summary_line(VALID)), "id": ids[0]}
    assert lines[3] == {**json.loads(summary_line(IN_PROGRESS)), "id": ids[1]}
    assert Match.objects.get(pk=ids[1]).status == "in-progress"
    assert error is not None


@pytest.mark.django_db
def test_human_mode_says_which_match_each_record_became(all_valid):
    out, error = run(str(all_valid))

    first, second = Match.objects.order_by("pk")
    assert out.splitlines() == [
        f"{all_valid}:1: stored match {first.pk} (all-fives, finished)",
        f"{all_valid}:3: stored match {second.pk} (five-up, in-progress)",
    ]
    assert error is None


@pytest.mark.django_db
def test_an_invalid_record_stores_nothing_and_the_others_are_kept(mixed):
    run(str(mixed))

    assert Match.objects.count() == 2
    assert sorted(Match.objects.values_list("game", flat=True)) == ["all-fives", "five-up"]


@pytest.mark.django_db
def test_a_name_too_long_for_the_database_is_refused_not_a_crash(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(json.dumps({**VALID, "players": ["O" * 61, "Taras"]}))

    out, error = run(str(path))

    assert out.startswith(f"{path}: refused: ")
    assert "player in seat 1 has 61 characters: a name has at most 60." in out
    assert Match.objects.count() == 0
    assert error is not None


@pytest.mark.django_db
def test_stored_records_replay_to_the_summary_the_dry_run_gave(all_valid):
    dry, _ = run("--dry-run", "--json", str(all_valid))
    stored, _ = run("--json", str(all_valid))

    assert [{k: v for k, v in json.loads(line).items() if k != "id"}
            for line in stored.splitlines()] == [json.loads(line) for line in dry.splitlines()]


# -- the same record again ----------------------------------------------------------------


def run_with_stderr(*args: str) -> tuple[str, str, CommandError | None]:
    out, err = StringIO(), StringIO()
    try:
        call_command("import_match", *args, stdout=out, stderr=err)
    except CommandError as error:
        return out.getvalue(), err.getvalue(), error
    return out.getvalue(), err.getvalue(), None


@pytest.mark.django_db
def test_running_twice_on_a_file_stores_nothing_twice_and_says_which_match_it_is(all_valid):
    run(str(all_valid))
    first, second = Match.objects.order_by("pk")

    out, err, error = run_with_stderr(str(all_valid))

    assert Match.objects.count() == 2
    assert out.splitlines() == [
        f"{all_valid}:1: already stored as match {first.pk} (all-fives, finished)",
        f"{all_valid}:3: already stored as match {second.pk} (five-up, in-progress)",
    ]
    assert err == "2 of 2 records already stored, not stored again.\n"
    assert error is None  # exit 0: a duplicate is no failure


@pytest.mark.django_db
def test_the_same_record_formatted_otherwise_in_another_file_is_the_same(all_valid, tmp_path):
    run(str(all_valid))
    single = tmp_path / "one.json"
    single.write_text(json.dumps(VALID, indent=1))

    out, _, error = run_with_stderr("--json", str(single))

    [line] = [json.loads(line) for line in out.splitlines()]
    first = Match.objects.order_by("pk")[0]
    assert line == {**json.loads(summary_line(VALID)), "id": first.pk, "already_stored": True}
    assert Match.objects.count() == 2
    assert error is None


@pytest.mark.django_db
def test_the_summary_counts_records_already_stored_apart_from_refusals(mixed):
    run(str(mixed))

    out, _, error = run_with_stderr(str(mixed))

    assert Match.objects.count() == 2
    assert [line.split(": ")[1].split(" as match")[0] for line in out.splitlines()] == [
        "already stored", "refused", "refused", "already stored"]
    assert str(error) == ("2 of 4 records refused. "
                          "2 of 4 records already stored, not stored again.")


@pytest.mark.django_db
def test_a_record_an_account_uploaded_is_still_stored_by_the_command(all_valid, django_user_model):
    from matches.records.files import record_sources
    from matches.records.services import record_store

    user = django_user_model.objects.create_user("uploader")
    for source in record_sources(str(all_valid), all_valid.read_bytes()):
        record_store(source=source, created_by=user)

    out, err, _ = run_with_stderr(str(all_valid))

    assert Match.objects.filter(created_by=None).count() == 2
    assert "stored match" in out and "already" not in out + err


@pytest.mark.django_db
@pytest.mark.parametrize(("batch_size", "refreshed"), [(2, True), (3, False)])
def test_the_planners_statistics_are_refreshed_after_a_batch_or_more(
        all_valid, monkeypatch, batch_size, refreshed):
    """Two records stored: a store as large as a batch refreshes the statistics
    (``statistics_refresh``), a smaller one leaves it to autovacuum."""
    from matches.management.commands.import_match import Command
    from matches.scoring.services import bulk

    calls = []
    monkeypatch.setattr(Command, "batch_size", batch_size)
    monkeypatch.setattr(bulk, "statistics_refresh", lambda: calls.append("refreshed"))

    _out, error = run(str(all_valid))

    assert error is None and Match.objects.count() == 2
    assert calls == (["refreshed"] if refreshed else [])
