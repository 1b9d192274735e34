"""Background tasks (Django's ``django.tasks``); ``python manage.py db_worker`` runs them."""

from __future__ import annotations

from django.tasks import task


@task
def record_import_task(record_import_id: int) -> None:
    """Import an upload's records (``records.services.record_import_run``): nothing, if
    another runner holds the import now."""
    from matches.records.models import RecordImport
    from matches.records.services import record_import_run

    record_import_run(record_import=RecordImport.objects.get(pk=record_import_id))


@task
def record_import_watch_task(record_import_id: int) -> None:
    """Look at a running import when its runner's lease ends: queue it again if the
    runner is gone (``records.services.record_import_watch``)."""
    from matches.records.services import record_import_watch

    record_import_watch(record_import_id=record_import_id)
