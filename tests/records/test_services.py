"""matches.records.services: record imports run as tasks, streamed, in batches, capped
and deduplicated; and matches.records.files.stream_record_sources."""

from __future__ import annotations

import datetime
import itertools
import json
import logging
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone, translation

from matches import rules
from matches.models import (
    ImportStatus,
    LineOutcome,
    Match,
    RecordImport,
    RecordImportChunk,
    StopReason,
)
from matches.records import services as imports
from matches.records import services as records_services
from matches.records.files import (
    NOT_ONE_LINE,
    NOT_UTF8,
    record_sources,
    stream_record_sources,
)
from matches.rules.simulate import simulated_record

RECORDS = [simulated_record(rules.ALL_FIVES, 2, seed=seed) for seed in (7, 8, 9, 10, 11)]


def jsonl(name: str, documents: list[dict]) -> SimpleUploadedFile:
    content = "\n".join(json.dumps(document) for document in documents)
    return SimpleUploadedFile(name, content.encode(), content_type="application/json")


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("importer", password="pw")


@pytest.fixture
def queued(settings):
    """Enqueued tasks are not run (the test runs the import itself)."""
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.dummy.DummyBackend"}}


# -- stream_record_sources ----------------------------------------------------------------


def test_stream_reads_jsonl_lazily_line_by_line():
    """Reading past the lines needed fails: the reader must pull one line at a time."""
    line = json.dumps(RECORDS[0]).encode() + b"\n"

    def lines():
        yield b"\xef\xbb\xbf" + line  # a byte-order mark first
        yield b"   \n"
        yield line
        yield line
        raise AssertionError("read more of the file than the records asked for")

    first = list(itertools.islice(stream_record_sources("many.jsonl", lines()), 3))

    assert [source.label for source in first] == ["many.jsonl:1", "many.jsonl:3",
                                                  "many.jsonl:4"]
    assert all(source.document == RECORDS[0] for source in first)


def test_stream_refuses_an_undecodable_line_by_its_number_and_reads_on():
    lines = [json.dumps(RECORDS[0]).encode() + b"\n", b"\xff\xfe\n",
             json.dumps(RECORDS[1]).encode()]

    sources = list(stream_record_sources("mixed.jsonl", lines))

    assert [source.label for source in sources] == ["mixed.jsonl:1", "mixed.jsonl:2",
                                                    "mixed.jsonl:3"]
    assert sources[1].document is None
    assert sources[1].error is not None
    assert sources[1].error.startswith(NOT_UTF8.split("{")[0])
    assert sources[2].document == RECORDS[1]


def test_a_record_written_over_several_lines_in_a_jsonl_file_says_where_it_belongs():
    pretty = json.dumps(RECORDS[0], indent=2).encode().splitlines(keepends=True)
    cut_short = json.dumps(RECORDS[1]).encode()[:-5]  # one line, broken: no such hint

    sources = list(stream_record_sources("pretty.jsonl", [*pretty, b"\n" + cut_short]))

    assert all(source.document is None for source in sources)
    assert all(str(NOT_ONE_LINE) in (source.error or "") for source in sources[:-1])
    assert str(NOT_ONE_LINE) not in (sources[-1].error or "")
    assert (sources[-1].error or "").startswith("not valid JSON")


def test_stream_reads_a_json_file_as_one_record():
    [source] = stream_record_sources("one.json", [b'{"a":\n', b"1}"])

    assert (source.label, source.document) == ("one.json", {"a": 1})


def test_record_hash_ignores_formatting():
    assert records_services.record_hash({"b": 1, "a": [1, 2]}) == \
        records_services.record_hash(json.loads('{ "a": [1,2],\n "b": 1 }'))
    assert records_services.record_hash({"a": 1}) != records_services.record_hash({"a": 2})


# -- record_import_start / record_import_run ------------------------------------------


@pytest.mark.django_db
def test_start_keeps_the_file_and_the_immediate_backend_imports_it(user):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS[:3])], created_by=user)

    record_import.refresh_from_db()
    assert record_import.status == ImportStatus.DONE
    assert (record_import.lines_read, record_import.stored, record_import.refused) == (3, 3, 0)
    assert Match.objects.filter(created_by=user).count() == 3
    kept = record_import.files.get()
    assert kept.size == len("\n".join(json.dumps(document) for document in RECORDS[:3]))
    assert not kept.chunks.exists()  # read, then let go


def run_stopped_on_the_third(record_import: RecordImport, stop: BaseException, *,
                             on_call: int = 3) -> None:
    """Run the import in batches of two, ``stop`` raised as the third record is stored
    (a failure, or a kill), or as this run stores its ``on_call``-th record."""
    real = imports.matches_store_bulk
    records = itertools.count(1)

    def stopped_on_the_third(**kwargs):
        if on_call in [next(records) for _document in kwargs["documents"]]:
            raise stop
        return real(**kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(imports, "matches_store_bulk", stopped_on_the_third)
        with pytest.raises(type(stop)):
            records_services.record_import_run(record_import=record_import, batch_size=2)


@pytest.mark.django_db
def test_records_are_committed_in_batches_and_a_failure_keeps_the_earlier_ones(
        user, queued, caplog):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)

    run_stopped_on_the_third(record_import, RuntimeError("the worker was killed"))

    record_import.refresh_from_db()
    assert record_import.status == ImportStatus.FAILED
    assert record_import.stop_reason == StopReason.FAILED
    assert (record_import.leased_by, record_import.leased_until) == ("", None)
    assert (record_import.lines_read, record_import.stored) == (2, 2)  # the first batch
    assert Match.objects.count() == 2
    assert record_import.lines.count() == 2
    assert record_import.files.get().chunks.exists()  # kept, to be tried again
    [logged] = [r for r in caplog.records if r.name == "matches.records.services"]
    assert logged.exc_info is not None and str(logged.exc_info[1]) == "the worker was killed"


@pytest.mark.django_db
def test_a_line_with_half_a_character_is_refused_and_the_others_stored(user):
    """Its text cannot be hashed or stored as UTF-8: the batch it came in failed, and
    trying again failed the same way."""
    bad = json.dumps(RECORDS[1]).replace('"players": ["', '"players": ["Bad\\ud800', 1)
    content = "\n".join([json.dumps(RECORDS[0]), bad, json.dumps(RECORDS[2])])
    record_import = records_services.record_import_start(files=[SimpleUploadedFile(
        "night.jsonl", content.encode(), content_type="application/json")], created_by=user)

    record_import.refresh_from_db()
    assert record_import.status == ImportStatus.DONE
    assert (record_import.lines_read, record_import.stored, record_import.refused) == (3, 2, 1)
    [refused] = record_import.lines.filter(outcome=LineOutcome.REFUSED)
    assert refused.number == 2 and "half of a character" in refused.message


def test_an_import_a_killed_worker_left_running_is_queued_again_once_its_lease_lapses(
        user, queued, settings):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)

    run_stopped_on_the_third(record_import, SystemExit())  # a kill: nothing marks it stopped
    record_import.refresh_from_db()
    assert (record_import.status, record_import.lines_read) == (ImportStatus.RUNNING, 2)
    assert lease_end(record_import) > timezone.now()  # held: perhaps still running

    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    out = StringIO()
    call_command("resume_imports", stdout=out)
    assert out.getvalue() == ""  # not taken from a worker that may hold it
    assert RecordImport.objects.get().status == ImportStatus.RUNNING

    lapse_the_lease(record_import)
    call_command("resume_imports", stdout=out)

    assert out.getvalue() == (f"Queued again: import {record_import.public_id}, after 2 "
                              "records read.\n")
    record_import.refresh_from_db()
    assert record_import.status == ImportStatus.DONE
    assert (record_import.lines_read, record_import.stored) == (len(RECORDS), len(RECORDS))
    assert Match.objects.count() == len(RECORDS)  # nothing stored twice
    call_command("resume_imports", stdout=out)  # nothing left running: nothing queued
    assert out.getvalue().count("Queued again") == 1


def lease_end(record_import: RecordImport) -> datetime.datetime:
    record_import.refresh_from_db()
    assert record_import.leased_until is not None
    return record_import.leased_until


def lapse_the_lease(record_import: RecordImport) -> None:
    RecordImport.objects.filter(pk=record_import.pk).update(
        leased_until=timezone.now() - datetime.timedelta(seconds=1))


@pytest.mark.django_db
def test_the_worker_says_each_refusal_in_the_uploaders_language(user, queued):
    wrong_turn = {**RECORDS[0], "rounds": [{"starter": 0, "events": [
        {"seat": 0, "play": "5-5"}, {"seat": 0, "play": "5-6", "at": "5-5:5"}]}]}
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", [wrong_turn])], created_by=user, language="uk")

    with translation.override("en"):  # the worker's own language is the site's
        records_services.record_import_run(record_import=record_import)

    assert record_import.lines.get().message == (
        "раунд 1, подія 2: зараз хід: місце 1, а не місце 0")


def test_an_upload_over_the_cap_refuses_the_rest_by_line_number(user, queued):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS[:4])], created_by=user, max_records=2)

    records_services.record_import_run(record_import=record_import)

    record_import.refresh_from_db()
    assert (record_import.lines_read, record_import.stored, record_import.refused) == (2, 2, 1)
    refusal = record_import.lines.get(outcome=LineOutcome.REFUSED)
    assert refusal.source == "night.jsonl:3"
    assert refusal.message == str(imports.OVER_THE_CAP % {"cap": 2})
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_the_cap_defaults_to_the_setting(user, queued, settings):
    settings.RECORD_IMPORT_MAX_RECORDS = 7

    record_import = records_services.record_import_start(files=[jsonl("a.jsonl", RECORDS[:1])],
                                                 created_by=user)

    assert record_import.max_records == 7


@pytest.mark.django_db
def test_record_store_stores_a_record_or_says_why_it_was_refused(user):
    valid = json.dumps(rules.export(rules.Match(rules.ALL_FIVES, ["Olena", "Taras"])))
    long_name = json.dumps(rules.export(rules.Match(rules.ALL_FIVES, ["O" * 200, "Taras"])))
    wrong_turn = json.dumps({"format": "domino-match/1", "game": "all-fives",
                             "players": ["A", "B"], "rounds": [{"starter": 0, "events": [
                                 {"seat": 0, "play": "5-5"}, {"seat": 0, "play": "5-6",
                                                              "at": "5-5:5"}]}]})
    text = "\n".join([valid, "{", wrong_turn, long_name])
    outcomes = [records_services.record_store(source=source, created_by=user)
                for source in record_sources("night.jsonl", text)]

    stored = Match.objects.get()
    assert outcomes[0] == (LineOutcome.STORED, stored, "") and stored.created_by == user
    assert outcomes[1][:2] == (LineOutcome.REFUSED, None)
    assert outcomes[1].message.startswith("not valid JSON at line 1, column ")
    assert outcomes[2] == (LineOutcome.REFUSED, None,
                           "round 1, event 2: seat 1 is to play, not seat 0")
    assert outcomes[3] == (LineOutcome.REFUSED, None,
                           "The name of the player in seat 1 has 200 characters: a name has "
                           "at most 60.")


@pytest.mark.django_db
def test_record_store_without_an_account_finds_the_same_record_stored_without_one(user):
    """manage.py import_match's matches have no account: the same record is found among
    them (however the file formatted it), not among an account's."""
    text = json.dumps(RECORDS[0])
    [source] = record_sources("a.json", text)
    [reformatted] = record_sources("b.json", json.dumps(RECORDS[0], indent=2))
    uploaded = records_services.record_store(source=source, created_by=user)

    first = records_services.record_store(source=source)
    again = records_services.record_store(source=reformatted)

    assert first.outcome == LineOutcome.STORED
    assert first.match is not None and first.match.created_by is None
    assert again == (LineOutcome.DUPLICATE, first.match, "")
    assert uploaded.match not in (first.match, None)
    assert Match.objects.count() == 2


@pytest.mark.django_db
def test_the_same_records_uploaded_again_are_already_imported(user):
    first = records_services.record_import_start(files=[jsonl("a.jsonl", RECORDS[:2])],
                                         created_by=user)

    again = records_services.record_import_start(
        files=[jsonl("b.jsonl", RECORDS[:3])], created_by=user)

    again.refresh_from_db()
    assert (again.stored, again.duplicates, again.refused) == (1, 2, 0)
    assert Match.objects.count() == 3
    duplicates = list(again.lines.filter(outcome=LineOutcome.DUPLICATE))
    originals = {line.match_id for line in first.lines.all()}
    assert {line.match_id for line in duplicates} == originals
    assert duplicates[0].message == str(imports.ALREADY_IMPORTED % {"pk": duplicates[0].match_id})


@pytest.mark.django_db
def test_another_account_importing_the_same_record_gets_its_own_match(
        user, django_user_model):
    other = django_user_model.objects.create_user("other", password="pw")
    records_services.record_import_start(files=[jsonl("a.jsonl", RECORDS[:1])], created_by=user)

    record_import = records_services.record_import_start(files=[jsonl("a.jsonl", RECORDS[:1])],
                                                 created_by=other)

    record_import.refresh_from_db()
    assert record_import.stored == 1
    assert Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_database_backend_enqueues_a_row_and_the_worker_runs_it(user, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default"]}}
    record_import = records_services.record_import_start(files=[jsonl("a.jsonl", RECORDS[:2])],
                                                 created_by=user)
    [row] = DBTaskResult.objects.all()
    assert row.task_path == "matches.records.tasks.record_import_task"
    assert RecordImport.objects.get().status == ImportStatus.QUEUED

    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload")

    record_import.refresh_from_db()
    assert record_import.status == ImportStatus.DONE
    assert record_import.stored == 2
    row.refresh_from_db()
    assert row.status == "SUCCESSFUL"


# -- the upload kept in the database --------------------------------------------------


@pytest.mark.django_db
def test_an_upload_is_kept_in_the_database_in_pieces_and_read_across_them(
        user, queued, settings, monkeypatch):
    """Pieces far smaller than a line: every line runs over several of them."""
    monkeypatch.setattr(records_services, "PIECE_BYTES", 1000)
    upload = jsonl("night.jsonl", RECORDS)
    size = upload.size

    record_import = records_services.record_import_start(files=[upload], created_by=user)

    kept = record_import.files.get()
    pieces = [bytes(piece) for piece in kept.chunks.order_by("number")
              .values_list("data", flat=True)]
    assert kept.size == size and len(pieces) == -(-size // 1000)
    assert all(len(piece) == 1000 for piece in pieces[:-1])
    assert not any(settings.MEDIA_ROOT.rglob("*"))  # nothing on this server's disk
    records_services.record_import_run(record_import=record_import)
    record_import.refresh_from_db()
    assert (record_import.status, record_import.stored) == (ImportStatus.DONE, len(RECORDS))
    assert not RecordImportChunk.objects.exists()


@pytest.mark.django_db
def test_a_kept_file_is_read_one_piece_at_a_time(user, queued, monkeypatch):
    monkeypatch.setattr(records_services, "PIECE_BYTES", 1000)
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    kept = record_import.files.get()
    first_line = len(json.dumps(RECORDS[0])) + 1

    with CaptureQueriesContext(connection) as queries:
        [line] = itertools.islice(records_services._file_lines(kept), 1)

    assert line == json.dumps(RECORDS[0]).encode()
    # the list of pieces, then only the pieces the first line needs
    assert len(queries) == 1 + -(-first_line // 1000)


@pytest.mark.django_db
@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
@pytest.mark.parametrize("piece", [7, 1000])
def test_a_kept_files_lines_end_as_import_match_reads_them(user, queued, monkeypatch, end,
                                                           piece):
    """Old Macs end lines with "\r" alone, Windows with "\r\n" (which a piece may split
    in two): the worker numbers the lines as the command line does, and a line is read
    without its end, so a refusal points inside the line, not past it."""
    monkeypatch.setattr(records_services, "PIECE_BYTES", piece)
    lines = [b"", b'{"format": "domino-match/1", "game": "all-fives"', b"", b"{"]
    data = end.join(lines) + end
    record_import = records_services.record_import_start(files=[SimpleUploadedFile(
        "night.jsonl", data, content_type="application/json")], created_by=user)
    kept = record_import.files.get()

    assert list(records_services._file_lines(kept)) == lines
    streamed = list(stream_record_sources(kept.name, records_services._file_lines(kept)))
    read = list(record_sources("night.jsonl", data))
    assert [(s.line, s.error) for s in streamed] == [(s.line, s.error) for s in read]
    assert [s.line for s in streamed] == [2, 4]
    assert "line 1, column" in (streamed[0].error or "")


@pytest.mark.django_db
def test_an_import_whose_file_is_no_longer_kept_stops_and_says_so(user, queued):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    RecordImportChunk.objects.all().delete()

    records_services.record_import_run(record_import=record_import)

    record_import.refresh_from_db()
    assert (record_import.status, record_import.stop_reason) == (ImportStatus.FAILED,
                                                                 StopReason.FILE_LOST)
    assert (record_import.lines_read, Match.objects.count()) == (0, 0)


# -- one runner at a time: the lease ----------------------------------------------------


def run_with(record_import: RecordImport, *, before_the_third) -> None:
    """Run the import in batches of two, calling ``before_the_third()`` once the first
    batch is committed, before the next is read (another runner starting, say)."""
    real = records_services._sources
    called: list[bool] = []

    def sources(record_import):
        for number, source in enumerate(real(record_import), start=1):
            if number == 3 and not called:  # once: not again in the other runner
                called.append(True)
                before_the_third()
            yield source

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(records_services, "_sources", sources)
        records_services.record_import_run(record_import=record_import, batch_size=2)


@pytest.mark.django_db
def test_a_second_runner_on_an_import_held_by_another_does_nothing(user, queued, caplog):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    seen: dict[str, object] = {}

    def second_runner():
        caplog.set_level(logging.INFO, logger="matches.records.services")
        second = records_services.record_import_run(
            record_import=RecordImport.objects.get(pk=record_import.pk), batch_size=2)
        seen["read"] = RecordImport.objects.get(pk=record_import.pk).lines_read
        seen["status"] = second.status

    run_with(record_import, before_the_third=second_runner)

    assert seen == {"read": 2, "status": ImportStatus.RUNNING}  # it read nothing
    assert "this runner leaves it" in caplog.text
    record_import.refresh_from_db()
    assert (record_import.status, record_import.stored) == (ImportStatus.DONE, len(RECORDS))
    assert list(record_import.lines.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert Match.objects.count() == len(RECORDS)


@pytest.mark.django_db
def test_a_runner_whose_lease_lapsed_and_was_taken_over_stops_and_writes_nothing(
        user, queued, caplog):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    taker = {}

    def taken_over():
        """The first runner stalled past its lease; another takes over, and is killed
        storing its second record (so it holds the import, still running)."""
        lapse_the_lease(record_import)
        run_stopped_on_the_third(RecordImport.objects.get(pk=record_import.pk), SystemExit(),
                                 on_call=2)
        taker["holder"] = RecordImport.objects.get(pk=record_import.pk).leased_by

    run_with(record_import, before_the_third=taken_over)

    record_import.refresh_from_db()
    assert record_import.status == ImportStatus.RUNNING
    assert record_import.leased_by == taker["holder"]  # the other runner's still
    assert (record_import.lines_read, record_import.stored) == (2, 2)
    assert list(record_import.lines.values_list("number", flat=True)) == [1, 2]
    assert Match.objects.count() == 2
    assert "another runner took it over" in caplog.text


@pytest.mark.django_db
def test_a_finished_import_is_not_run_again(user):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS[:2])], created_by=user)
    record_import.refresh_from_db()

    again = records_services.record_import_run(record_import=record_import)

    assert (again.status, again.lines.count()) == (ImportStatus.DONE, 2)


# -- the watch ------------------------------------------------------------------------


@pytest.fixture
def kept_for_later(settings):
    """The site's backend, which keeps a task for later (the others run it at once)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default"]}}


def waiting_tasks() -> list[tuple[str, list[int], datetime.datetime]]:
    from django_tasks_db.models import DBTaskResult

    return [(row.task_path.rsplit(".", 1)[1], row.args_kwargs["args"], row.run_after)
            for row in DBTaskResult.objects.order_by("enqueued_at")]


@pytest.mark.django_db
def test_a_runner_taking_an_import_queues_a_look_when_its_lease_ends(user, kept_for_later):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)

    run_stopped_on_the_third(record_import, SystemExit())  # killed

    held_until = lease_end(record_import)
    [run, (watch, args, when)] = waiting_tasks()
    assert run[0] == "record_import_task"
    assert (watch, args) == ("record_import_watch_task", [record_import.pk])
    # when the lease taken would end (each batch since renewed it, to a little later)
    assert timezone.now() < when <= held_until + datetime.timedelta(seconds=1)


@pytest.mark.django_db
def test_the_look_queues_again_an_import_whose_runner_is_gone(user, kept_for_later):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    run_stopped_on_the_third(record_import, SystemExit())
    before = len(waiting_tasks())

    records_services.record_import_watch(record_import_id=record_import.pk)  # still held
    held_until = lease_end(record_import)
    assert record_import.status == ImportStatus.RUNNING
    assert waiting_tasks()[before:] == [
        ("record_import_watch_task", [record_import.pk],
         held_until + datetime.timedelta(seconds=1))]

    lapse_the_lease(record_import)
    records_services.record_import_watch(record_import_id=record_import.pk)

    record_import.refresh_from_db()
    assert (record_import.status, record_import.leased_by) == (ImportStatus.QUEUED, "")
    assert waiting_tasks()[-1][:2] == ("record_import_task", [record_import.pk])


# -- trying a stopped import again ----------------------------------------------------


@pytest.mark.django_db
def test_a_stopped_import_tried_again_goes_on_after_its_last_batch(user, queued, settings):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    run_stopped_on_the_third(record_import, RuntimeError("the database went away"))
    settings.TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}

    records_services.record_import_retry(record_import=RecordImport.objects.get())

    record_import.refresh_from_db()
    assert (record_import.status, record_import.stop_reason) == (ImportStatus.DONE, "")
    assert (record_import.lines_read, record_import.stored) == (len(RECORDS), len(RECORDS))
    assert list(record_import.lines.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert Match.objects.count() == len(RECORDS)


@pytest.mark.django_db
def test_only_a_stopped_import_is_tried_again(user, queued):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)

    with pytest.raises(ValidationError) as refused:
        records_services.record_import_retry(record_import=record_import)

    assert refused.value.code == "not_stopped"
    assert refused.value.messages == [str(records_services.RETRY_NOT_STOPPED)]
    assert RecordImport.objects.get().status == ImportStatus.QUEUED


@pytest.mark.django_db
def test_an_import_whose_file_is_lost_is_not_tried_again(user, queued):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    RecordImportChunk.objects.all().delete()
    records_services.record_import_run(record_import=record_import)

    with pytest.raises(ValidationError) as refused:
        records_services.record_import_retry(record_import=RecordImport.objects.get())

    assert refused.value.code == "file_lost"
    assert RecordImport.objects.get().status == ImportStatus.FAILED


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="two runners at once need two connections to one server")
@pytest.mark.django_db(transaction=True)
def test_two_workers_on_one_import_at_once_store_each_line_once(user, queued, caplog):
    """A second runner, in its own thread and connection, starts while the first is in
    the middle of a batch: it finds the lease held and leaves; the first stores every
    line once."""
    import threading

    from django.db import connections

    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    caplog.set_level(logging.INFO, logger="matches.records.services")
    real, calls, second = imports.matches_store_bulk, itertools.count(1), {}

    def run_the_second():
        try:
            second["import"] = records_services.record_import_run(
                record_import=RecordImport.objects.get(pk=record_import.pk), batch_size=2)
        finally:
            connections.close_all()

    worker = threading.Thread(target=run_the_second)

    def storing(**kwargs):  # a batch at a time
        call = next(calls)
        if call == 1:  # mid-batch: the first runner holds the import's row
            worker.start()
        if call == 2:  # the first batch committed: the second runner has had its turn
            worker.join(timeout=60)
        return real(**kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(imports, "matches_store_bulk", storing)
        records_services.record_import_run(record_import=record_import, batch_size=2)

    assert not worker.is_alive()
    record_import.refresh_from_db()
    assert (record_import.status, record_import.stored) == (ImportStatus.DONE, len(RECORDS))
    assert list(record_import.lines.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    assert Match.objects.count() == len(RECORDS)
    # it found the import held, and left it (before or just after the first commit)
    assert second["import"].status == ImportStatus.RUNNING
    assert second["import"].lines_read in (0, 2)
    assert "this runner leaves it" in caplog.text


@pytest.mark.django_db
@pytest.mark.parametrize(("batch_size", "refreshed"), [(len(RECORDS), True),
                                                       (len(RECORDS) + 1, False)])
def test_a_run_that_stored_a_batch_or_more_refreshes_the_planners_statistics(
        user, queued, monkeypatch, batch_size, refreshed):
    record_import = records_services.record_import_start(
        files=[jsonl("night.jsonl", RECORDS)], created_by=user)
    calls = []
    monkeypatch.setattr(records_services, "statistics_refresh",
                        lambda: calls.append(Match.objects.count()))

    records_services.record_import_run(record_import=record_import, batch_size=batch_size)

    assert calls == ([len(RECORDS)] if refreshed else [])
