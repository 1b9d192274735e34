"""Reads for record imports (issue 12)."""

from __future__ import annotations

from uuid import UUID

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404

from matches.models import LineOutcome, RecordImport, RecordImportLine

STORED_SHOWN = 100  # stored matches linked on the progress page; the count says the rest
OTHERS_SHOWN = 100  # refused and already-imported records listed with their reasons


def record_import_for_user(*, public_id: UUID, user: User) -> RecordImport:
    """The user's own import, or a 404 (another account's import is not admitted)."""
    return get_object_or_404(RecordImport, public_id=public_id, created_by=user)


def record_import_lines(*, record_import: RecordImport) -> list[RecordImportLine]:
    """The first refused and already-imported records, and the first stored ones, in
    order.

    A list, not a queryset: two bounded reads merged (both capped, so a 10,000-record
    import does not redraw 10,000 rows every poll; the counts say the rest)."""
    lines = record_import.lines.select_related("match").order_by("number")
    shown = [*lines.exclude(outcome=LineOutcome.STORED)[:OTHERS_SHOWN],
             *lines.filter(outcome=LineOutcome.STORED)[:STORED_SHOWN]]
    return sorted(shown, key=lambda line: line.number)
