"""``manage.py resume_imports``: queue again the record imports their workers abandoned.

A worker killed mid-import (``kill -9``, a crash, a service manager's stop timeout)
leaves its import "Running", held by a lease the worker no longer renews. Once the lease
has lapsed (``RECORD_IMPORT_LEASE_SECONDS`` after the last batch), each such import is
queued again and resumes after its last committed batch, storing nothing twice. An
import a live worker holds is left to it, so this is safe beside running workers, on any
server (``scripts/run`` and ``scripts/prod`` run it at every start); and a look queued
for each lease's end queues an abandoned import again without waiting for it.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from matches.records.services import record_imports_resume


class Command(BaseCommand):
    help = ("Queue again the record imports whose worker stopped (their lease lapsed); "
            "safe beside running workers.")

    def handle(self, *args: Any, **options: Any) -> None:
        for record_import in record_imports_resume():
            self.stdout.write(f"Queued again: import {record_import.public_id}, after "
                              f"{record_import.lines_read} records read.")
