"""Record imports as background tasks.

``record_import_start`` keeps the uploaded files and enqueues the task (in the upload's
own transaction: with the database backend the task row commits with the import, so
neither exists without the other). ``record_import_run`` is the task's body: it streams
each file line by line and commits every ``RECORD_IMPORT_BATCH_SIZE`` records in their
own transaction, so a crash keeps the batches before it and the counters say how far it
got; running it again resumes after the last committed batch.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from matches.records.files import RecordSource, stream_record_sources
from matches.records.models import (
    ImportStatus,
    LineOutcome,
    RecordImport,
    RecordImportFile,
    RecordImportLine,
)
from matches.scoring.models import Match
from matches.scoring.services.bulk import matches_store_bulk

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


@transaction.atomic
def record_import_start(*, files: Sequence[UploadedFile], created_by: User,
                        max_records: int | None = None, language: str = "") -> RecordImport:
    """Keep the uploaded files and enqueue their import; the worker does the rest, and
    says each refusal in ``language`` (the uploader's)."""
    from matches.records.tasks import record_import_task  # the task module imports this one

    record_import = RecordImport(
        created_by=created_by, language=language,
        max_records=(max_records if max_records is not None
                     else settings.RECORD_IMPORT_MAX_RECORDS))
    record_import.full_clean()
    record_import.save()
    for position, upload in enumerate(files):
        name = (upload.name or "upload")[:255]
        kept = RecordImportFile(record_import=record_import, position=position, name=name)
        kept.content.save(name, upload, save=False)  # streamed to MEDIA_ROOT in chunks
        kept.save()
    record_import_task.enqueue(record_import.pk)
    return record_import


def record_imports_resume() -> list[RecordImport]:
    """Queue again every import a worker left running (killed, crashed, stopped by a
    service manager's timeout: no import can be running while no worker runs); each
    resumes after its last committed batch. Run it only before a worker starts
    (``scripts/run`` and ``scripts/prod`` do): with a worker running, its import would
    be run twice at once."""
    from matches.records.tasks import record_import_task  # the task module imports this one

    stale = list(RecordImport.objects.filter(status=ImportStatus.RUNNING).order_by("pk"))
    for record_import in stale:
        with transaction.atomic():  # queued with its task, or left running to try again
            record_import.status = ImportStatus.QUEUED
            record_import.save(update_fields=["status"])
            record_import_task.enqueue(record_import.pk)
    return stale


def record_import_run(*, record_import: RecordImport,
                      batch_size: int | None = None) -> RecordImport:
    """Import the upload's records, one transaction per batch (deliberately not one
    atomic block: what is committed stays committed). Raises whatever stopped it, after
    marking the import stopped with the reason."""
    if record_import.finished:
        return record_import
    with translation.override(record_import.language or settings.LANGUAGE_CODE):
        return _run(record_import, batch_size or settings.RECORD_IMPORT_BATCH_SIZE)


def _run(record_import: RecordImport, size: int) -> RecordImport:
    record_import.status = ImportStatus.RUNNING
    record_import.save(update_fields=["status"])
    done = record_import.lines_read  # a run after a crash resumes after these
    try:
        batch: list[RecordSource] = []
        for number, source in enumerate(_sources(record_import), start=1):
            if number <= done:
                continue
            if number > record_import.max_records:
                _refuse_the_rest(record_import, source, number=number)
                break
            batch.append(source)
            if len(batch) == size:
                _commit(record_import, batch, first=number - size + 1)
                batch = []
        if batch:
            _commit(record_import, batch, first=record_import.lines_read + 1)
    except Exception as error:
        RecordImport.objects.filter(pk=record_import.pk).update(
            status=ImportStatus.FAILED, error=f"{type(error).__name__}: {error}",
            finished_at=timezone.now())
        record_import.refresh_from_db()
        raise
    record_import.status = ImportStatus.DONE
    record_import.finished_at = timezone.now()
    record_import.save(update_fields=["status", "finished_at"])
    for kept in record_import.files.all():  # read: the files need not be kept
        if kept.content:
            kept.content.delete(save=True)
    return record_import


def _sources(record_import: RecordImport) -> Iterator[RecordSource]:
    """Every record of every file, in order, one line in memory at a time."""
    for kept in record_import.files.all():
        if not kept.content:
            continue
        with kept.content.open("rb") as lines:
            yield from stream_record_sources(kept.name, lines)


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
