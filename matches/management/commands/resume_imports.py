"""``manage.py resume_imports``: queue again the record imports a worker left running.

A worker killed mid-import (``kill -9``, a crash, a service manager's stop timeout)
leaves its import "Running" for ever, its page polling. Run this before a worker starts
(``scripts/run`` and ``scripts/prod`` do), never beside a running one: each such import
is queued again and resumes after its last committed batch, storing nothing twice.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from matches.records.services import record_imports_resume


class Command(BaseCommand):
    help = "Queue again the record imports a stopped worker left running (before a worker starts)."

    def handle(self, *args: Any, **options: Any) -> None:
        for record_import in record_imports_resume():
            self.stdout.write(f"Queued again: import {record_import.public_id}, after "
                              f"{record_import.lines_read} records read.")
