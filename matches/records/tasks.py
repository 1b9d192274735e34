"""Background tasks (Django's ``django.tasks``); ``python manage.py db_worker`` runs them."""

from __future__ import annotations

from django.tasks import task


@task
def record_import_task(record_import_id: int) -> None:
    """Import an upload's records (``records.services.record_import_run``)."""
    from matches.records.models import RecordImport
    from matches.records.services import record_import_run

    record_import_run(record_import=RecordImport.objects.get(pk=record_import_id))
