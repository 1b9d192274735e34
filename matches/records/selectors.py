"""Reads for record imports."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import User
from django.db.models import Q
from django.shortcuts import get_object_or_404

from matches.records.models import ImportStatus, LineOutcome, RecordImport, RecordImportLine
from matches.scoring.models import Match

STORED_SHOWN = 100  # stored matches linked on the progress page; the count says the rest
OTHERS_SHOWN = 100  # refused and already-imported records listed with their reasons


def record_import_for_user(*, public_id: UUID, user: User) -> RecordImport:
    """The user's own import, or a 404 (another account's import is not admitted)."""
    return get_object_or_404(RecordImport, public_id=public_id, created_by=user)


def record_stored_as(*, record_hash: str, created_by: User | None) -> Match | None:
    """The match already stored from the record with this hash by this account (``None``:
    by ``manage.py import_match``, which has no account), if any: importing the same
    record again stores nothing. Another account's copy is its own match."""
    return (Match.objects.filter(created_by=created_by, record_hash=record_hash)
            .order_by("pk").first())


def record_imports_ahead(*, record_import: RecordImport) -> int:
    """How many imports the task worker takes before this one: every account's (the
    worker is the site's, one import at a time), queued or running, uploaded before it.
    One count query, made on every poll of a queued import's page."""
    earlier = (Q(created_at__lt=record_import.created_at)
               | Q(created_at=record_import.created_at, pk__lt=record_import.pk))
    return (RecordImport.objects.filter(earlier, status__in=[ImportStatus.QUEUED,
                                                             ImportStatus.RUNNING])
            .count())


def record_import_lines(*, record_import: RecordImport) -> list[RecordImportLine]:
    """The first refused records, then (to :data:`OTHERS_SHOWN` in all) the first
    already imported ones, and the first stored ones, in order: a refusal, which asks
    for something to be done, is never hidden behind thousands of duplicates.

    A list, not a queryset: bounded reads merged (all capped, so a 10,000-record import
    does not redraw 10,000 rows every poll; the counts say the rest)."""
    lines = record_import.lines.select_related("match").order_by("number")
    refused = list(lines.filter(outcome=LineOutcome.REFUSED)[:OTHERS_SHOWN])
    duplicates = lines.filter(outcome=LineOutcome.DUPLICATE)[:OTHERS_SHOWN - len(refused)]
    shown = [*refused, *duplicates, *lines.filter(outcome=LineOutcome.STORED)[:STORED_SHOWN]]
    return sorted(shown, key=lambda line: line.number)


RECENT_SHOWN = 10  # an account's latest imports, on the upload page


def recent_record_imports(*, user: User) -> list[RecordImport]:
    """The account's latest uploads, newest first: the way back to one whose page was
    closed while it ran."""
    return list(RecordImport.objects.filter(created_by=user)
                .prefetch_related("files").order_by("-created_at", "-id")[:RECENT_SHOWN])
