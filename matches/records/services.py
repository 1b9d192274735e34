"""Record imports as background tasks.

``record_import_start`` keeps the uploaded files in the database (so a worker on any
server reads them) and enqueues the task (in the upload's own transaction: with the
database backend the task row commits with the import, so neither exists without the
other). ``record_import_run`` is the task's body: it takes the import by a lease (one
runner at a time, however many workers), streams each file line by line and commits
every ``RECORD_IMPORT_BATCH_SIZE`` records in their own transaction, renewing the lease,
so a crash keeps the batches before it and the counters say how far it got; running it
again (``record_imports_resume`` once the lease lapses, or ``record_import_retry`` from
the page once it stopped) resumes after the last committed batch.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import os
import socket
import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Q
from django.tasks import task_backends
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from matches.records.files import LINE_BREAK, RecordSource, stream_record_sources
from matches.records.models import (
    ImportStatus,
    LineOutcome,
    RecordImport,
    RecordImportChunk,
    RecordImportFile,
    RecordImportLine,
    StopReason,
)
from matches.scoring.models import Match
from matches.scoring.services.bulk import matches_store_bulk, statistics_refresh

logger = logging.getLogger(__name__)

ALREADY_IMPORTED = _("already imported as match %(pk)s")
OVER_THE_CAP = _("this record and any after it were not read: an upload holds at most "
                 "%(cap)s records")


def record_hash(document: Mapping[str, Any]) -> str:
    """sha256 of the record's canonical JSON (keys sorted, no spaces): the same record
    however it was formatted or which file it came in."""
    canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class RecordStored(NamedTuple):
    """What became of one record read from a file: stored as ``match``, found already
    stored as ``match`` (``DUPLICATE``), or refused (no match) for ``message``."""

    outcome: LineOutcome
    match: Match | None
    message: str = ""


def record_store(*, source: RecordSource, created_by: User | None = None) -> RecordStored:
    """Store one record read from a file as ``created_by``'s match, unless this account
    (``None``: ``manage.py import_match``) already stored the same record (by
    :func:`record_hash`); or say, in the active language, why it is refused."""
    [(stored, _summary)] = records_store(sources=[source], created_by=created_by)
    return stored


@transaction.atomic
def records_store(*, sources: Sequence[RecordSource], created_by: User | None = None
                  ) -> list[tuple[RecordStored, dict[str, Any] | None]]:
    """:func:`record_store` for a batch of records at once (one replay each, and one
    write a table for them all: :func:`~matches.scoring.services.bulk.matches_store_bulk`),
    each with its summary as the replay that verified it gives it (``None`` for a record
    refused, or found already stored: that one was not replayed). A record refused, or
    already stored, stores nothing of itself; the rest go in."""
    readable = [source for source in sources if source.document is not None]
    documents = [source.document for source in readable if source.document is not None]
    imported = iter(matches_store_bulk(
        documents=documents, created_by=created_by,
        hashes=[record_hash(document) for document in documents]))
    results: list[tuple[RecordStored, dict[str, Any] | None]] = []
    for source in sources:
        if source.document is None:
            results.append((RecordStored(LineOutcome.REFUSED, None, source.error or ""), None))
            continue
        result = next(imported)
        if result.match is None:
            stored = RecordStored(LineOutcome.REFUSED, None, result.refusal)
        elif result.duplicate:
            stored = RecordStored(LineOutcome.DUPLICATE, result.match)
        else:
            stored = RecordStored(LineOutcome.STORED, result.match)
        results.append((stored, result.summary))
    return results


PIECE_BYTES = 1024 * 1024  # an upload is written and read this much at a time

RETRY_NOT_STOPPED = _("Only a stopped import can be tried again.")


class LeaseLost(Exception):
    """This runner's lease lapsed and another runner took the import over."""


class FileLost(Exception):
    """An uploaded file's bytes are no longer kept (the import cannot be read)."""


@transaction.atomic
def record_import_start(*, files: Sequence[UploadedFile], created_by: User,
                        max_records: int | None = None, language: str = "") -> RecordImport:
    """Keep the uploaded files (in the database, where a worker on any server reads
    them) and enqueue their import; the worker does the rest, and says each refusal in
    ``language`` (the uploader's)."""
    from matches.records.tasks import record_import_task  # the task module imports this one

    record_import = RecordImport(
        created_by=created_by, language=language,
        max_records=(max_records if max_records is not None
                     else settings.RECORD_IMPORT_MAX_RECORDS))
    record_import.full_clean()
    record_import.save()
    for position, upload in enumerate(files):
        kept = RecordImportFile.objects.create(record_import=record_import, position=position,
                                               name=(upload.name or "upload")[:255])
        _keep(kept, upload)
    record_import_task.enqueue(record_import.pk)
    return record_import


def _keep(kept: RecordImportFile, upload: UploadedFile) -> None:
    """The upload's bytes as pieces of ``PIECE_BYTES``, one in memory at a time (a large
    upload is read from Django's temporary file, not held whole)."""
    size = number = 0
    for read in upload.chunks(PIECE_BYTES):  # an upload held in memory comes whole
        for start in range(0, len(read), PIECE_BYTES):
            piece = read[start:start + PIECE_BYTES]
            RecordImportChunk.objects.create(file=kept, number=number, data=piece)
            number, size = number + 1, size + len(piece)
    kept.size = size
    kept.save(update_fields=["size"])


def _file_lines(kept: RecordImportFile) -> Iterator[bytes]:
    """The kept file's lines, without their ends, one piece read at a time; a line may
    run over pieces. A line ends at "\n", "\r\n" or "\r", as ``import_match`` reads a
    file (``records.files.record_sources``), so both number its lines alike."""
    numbers = list(kept.chunks.order_by("number").values_list("pk", flat=True))
    if kept.size and not numbers:
        raise FileLost(f"the pieces of file {kept.pk} ({kept.name!r}) are not kept")
    rest = b""
    for pk in numbers:  # one query a piece: no cursor held open over the batches' commits
        piece = RecordImportChunk.objects.values_list("data", flat=True).get(pk=pk)
        data, held = rest + bytes(piece), b""
        if data.endswith(b"\r"):  # its "\n" may open the next piece: one end, not two
            data, held = data[:-1], b"\r"
        lines = LINE_BREAK.split(data)
        rest = lines.pop() + held
        yield from lines
    rest = rest.removesuffix(b"\r")
    if rest:
        yield rest


def _lease() -> datetime.timedelta:
    return datetime.timedelta(seconds=settings.RECORD_IMPORT_LEASE_SECONDS)


def _abandoned(now: datetime.datetime) -> Q:
    """Running, but its runner's lease lapsed (or it never had one: left by a worker
    from before leases): no runner is on it."""
    return Q(status=ImportStatus.RUNNING) & (Q(leased_until__lt=now)
                                             | Q(leased_until__isnull=True))


def _lease_take(record_import: RecordImport) -> str | None:
    """Take the import for this runner, in one UPDATE, if it is queued or abandoned: the
    name of the lease's holder, or ``None`` when another runner holds it (or it is
    finished)."""
    holder = f"{socket.gethostname()} pid {os.getpid()} run {uuid.uuid4().hex[:8]}"[:200]
    now = timezone.now()
    with transaction.atomic():
        taken = (RecordImport.objects.filter(pk=record_import.pk)
                 .filter(Q(status=ImportStatus.QUEUED) | _abandoned(now))
                 .update(status=ImportStatus.RUNNING, leased_by=holder,
                         leased_until=now + _lease()))
        if taken:
            _watch_after(record_import.pk, now + _lease())
    return holder if taken else None


@contextmanager
def _holding(record_import: RecordImport, holder: str) -> Iterator[None]:
    """A batch's transaction, begun by renewing the lease: the row stays locked until
    the batch commits, and a runner whose lease was taken over writes nothing."""
    with transaction.atomic():
        held = (RecordImport.objects
                .filter(pk=record_import.pk, status=ImportStatus.RUNNING, leased_by=holder)
                .update(leased_until=timezone.now() + _lease()))
        if not held:
            raise LeaseLost(f"import {record_import.public_id} is no longer run by {holder}")
        yield


def record_import_watch(*, record_import_id: int) -> None:
    """While a runner holds the import, look again when its lease ends; once the lease
    has lapsed with the import still running (its runner was killed), queue it again, so
    it resumes without waiting for ``resume_imports``."""
    from matches.records.tasks import record_import_task  # the task module imports this one

    now = timezone.now()
    with transaction.atomic():
        if (RecordImport.objects.filter(pk=record_import_id).filter(_abandoned(now))
                .update(status=ImportStatus.QUEUED, leased_by="", leased_until=None)):
            logger.warning("Import %s was left running by a runner gone since; queued again.",
                           record_import_id)
            record_import_task.enqueue(record_import_id)
            return
    held_until = (RecordImport.objects.filter(pk=record_import_id, status=ImportStatus.RUNNING)
                  .values_list("leased_until", flat=True).first())
    if held_until is not None:
        _watch_after(record_import_id, held_until)


def _watch_after(record_import_id: int, when: datetime.datetime) -> None:
    """Queue a look at the import just after ``when``, if the task backend keeps tasks for
    later (the site's database backend does; the test backends run at once)."""
    from matches.records.tasks import record_import_watch_task  # imports this module

    if not task_backends[record_import_watch_task.backend].supports_defer:
        return
    (record_import_watch_task.using(run_after=when + datetime.timedelta(seconds=1))
     .enqueue(record_import_id))


def record_imports_resume() -> list[RecordImport]:
    """Queue again every import its runner abandoned: left running with its lease lapsed
    (a worker killed, crashed, stopped by a service manager's timeout), each to resume
    after its last committed batch. An import another worker holds now is left to it
    (and its watch queues it again if that worker dies); safe beside running workers."""
    from matches.records.tasks import record_import_task  # the task module imports this one

    queued = []
    for record_import in RecordImport.objects.filter(_abandoned(timezone.now())).order_by("pk"):
        with transaction.atomic():  # queued with its task, or left as it was
            if (RecordImport.objects.filter(pk=record_import.pk)
                    .filter(_abandoned(timezone.now()))
                    .update(status=ImportStatus.QUEUED, leased_by="", leased_until=None)):
                record_import_task.enqueue(record_import.pk)
                queued.append(record_import)
    return queued


@transaction.atomic
def record_import_retry(*, record_import: RecordImport) -> RecordImport:
    """Queue a stopped import again; it resumes after its last committed batch. Refused
    for one not stopped (already queued again, running or done) and for one whose file
    is no longer kept."""
    from matches.records.tasks import record_import_task  # the task module imports this one

    if record_import.stop_reason == StopReason.FILE_LOST:
        raise ValidationError(StopReason.FILE_LOST.label, code="file_lost")
    if not (RecordImport.objects
            .filter(pk=record_import.pk, status=ImportStatus.FAILED)
            .exclude(stop_reason=StopReason.FILE_LOST)
            .update(status=ImportStatus.QUEUED, stop_reason="", finished_at=None)):
        raise ValidationError(RETRY_NOT_STOPPED, code="not_stopped")
    record_import_task.enqueue(record_import.pk)
    record_import.refresh_from_db()
    return record_import


def record_import_run(*, record_import: RecordImport,
                      batch_size: int | None = None) -> RecordImport:
    """Import the upload's records, one transaction per batch (deliberately not one
    atomic block: what is committed stays committed), under a lease renewed with every
    batch. A runner that finds the import held by another (or finished) does nothing.
    Raises whatever stopped it, after marking the import stopped (the page gives a
    reason for the uploader; the log has the error)."""
    holder = _lease_take(record_import)
    if holder is None:
        record_import.refresh_from_db()
        if not record_import.finished:
            logger.info("Import %s is run by %s until %s: this runner leaves it.",
                        record_import.public_id, record_import.leased_by,
                        record_import.leased_until)
        return record_import
    record_import.refresh_from_db()  # how far the runners before this one got
    with translation.override(record_import.language or settings.LANGUAGE_CODE):
        return _run(record_import, batch_size or settings.RECORD_IMPORT_BATCH_SIZE, holder)


def _run(record_import: RecordImport, size: int, holder: str) -> RecordImport:
    done = record_import.lines_read  # a run after a crash resumes after these
    try:
        batch: list[RecordSource] = []
        for number, source in enumerate(_sources(record_import), start=1):
            if number <= done:
                continue
            if number > record_import.max_records:
                with _holding(record_import, holder):
                    _refuse_the_rest(record_import, source, number=number)
                break
            batch.append(source)
            if len(batch) == size:
                with _holding(record_import, holder):
                    _commit(record_import, batch, first=number - size + 1)
                batch = []
        if batch:
            with _holding(record_import, holder):
                _commit(record_import, batch, first=record_import.lines_read + 1)
        with _holding(record_import, holder):
            RecordImport.objects.filter(pk=record_import.pk).update(
                status=ImportStatus.DONE, finished_at=timezone.now(), leased_by="",
                leased_until=None)
            # read: the files need not be kept (their names and sizes stay)
            RecordImportChunk.objects.filter(file__record_import=record_import).delete()
    except LeaseLost:
        logger.warning("Import %s: this runner's lease lapsed and another runner took it "
                       "over; this one stops, its last batch undone.", record_import.public_id)
        record_import.refresh_from_db()
        return record_import
    except FileLost as error:
        logger.warning("Import %s stopped: %s", record_import.public_id, error)
        _stop(record_import, holder, StopReason.FILE_LOST)
        return record_import
    except Exception:
        # the error (which may name the server's paths) goes to the log, never the page
        logger.exception("Import %s stopped after %s records read.",
                         record_import.public_id, record_import.lines_read)
        _stop(record_import, holder, StopReason.FAILED)
        raise
    record_import.refresh_from_db()
    if record_import.lines_read - done >= size:  # this run stored a batch or more
        statistics_refresh()
    return record_import


def _stop(record_import: RecordImport, holder: str, reason: StopReason) -> None:
    RecordImport.objects.filter(pk=record_import.pk, leased_by=holder).update(
        status=ImportStatus.FAILED, stop_reason=reason, finished_at=timezone.now(),
        leased_by="", leased_until=None)
    record_import.refresh_from_db()


def _sources(record_import: RecordImport) -> Iterator[RecordSource]:
    """Every record of every file, in order, one line in memory at a time."""
    for kept in record_import.files.all():
        yield from stream_record_sources(kept.name, _file_lines(kept))


@transaction.atomic
def _commit(record_import: RecordImport, batch: list[RecordSource], *, first: int) -> None:
    user = record_import.created_by
    rows: list[RecordImportLine] = []
    stored = records_store(sources=batch, created_by=user)
    for number, (source, (result, _summary)) in enumerate(zip(batch, stored, strict=True),
                                                          start=first):
        row = RecordImportLine(record_import=record_import, number=number,
                               source=source.label[:300], outcome=result.outcome,
                               match=result.match, message=result.message)
        if result.outcome == LineOutcome.DUPLICATE:
            assert result.match is not None
            row.message = str(ALREADY_IMPORTED % {"pk": result.match.pk})
        rows.append(row)
    RecordImportLine.objects.bulk_create(rows)
    record_import.lines_read += len(batch)
    record_import.stored += sum(row.outcome == LineOutcome.STORED for row in rows)
    record_import.refused += sum(row.outcome == LineOutcome.REFUSED for row in rows)
    record_import.duplicates += sum(row.outcome == LineOutcome.DUPLICATE for row in rows)
    record_import.save(update_fields=["lines_read", "stored", "refused", "duplicates"])


@transaction.atomic
def _refuse_the_rest(record_import: RecordImport, source: RecordSource, *,
                     number: int) -> None:
    RecordImportLine.objects.create(
        record_import=record_import, number=number, source=source.label[:300],
        outcome=LineOutcome.REFUSED,
        message=str(OVER_THE_CAP % {"cap": record_import.max_records}))
    record_import.refused += 1
    record_import.save(update_fields=["refused"])
