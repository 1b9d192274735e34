"""matches.records.selectors: what the record-import pages read."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import ImportStatus, RecordImport, StopReason
from matches.records.selectors import record_imports_ahead

pytestmark = pytest.mark.django_db


def an_import(user, status: str = ImportStatus.QUEUED) -> RecordImport:
    return RecordImport.objects.create(
        created_by=user, max_records=1, status=status,
        stop_reason=StopReason.FAILED if status == ImportStatus.FAILED else "")


def test_imports_ahead_are_every_accounts_unfinished_ones_uploaded_before(
        django_user_model):
    me, other = (django_user_model.objects.create_user(name) for name in ("me", "other"))
    an_import(other, ImportStatus.RUNNING)
    an_import(me)
    an_import(other, ImportStatus.DONE)
    an_import(other, ImportStatus.FAILED)
    mine = an_import(me)
    an_import(other)  # after mine

    with CaptureQueriesContext(connection) as queries:
        ahead = record_imports_ahead(record_import=mine)

    assert ahead == 2
    assert len(queries) == 1


def test_an_import_uploaded_at_the_same_moment_counts_by_its_id(django_user_model):
    user = django_user_model.objects.create_user("me")
    first, second = an_import(user), an_import(user)
    moment = datetime.datetime(2026, 9, 7, 18, 0, tzinfo=datetime.UTC)
    RecordImport.objects.update(created_at=moment)
    first.refresh_from_db()
    second.refresh_from_db()

    assert (record_imports_ahead(record_import=first),
            record_imports_ahead(record_import=second)) == (0, 1)


def test_the_first_in_the_queue_has_none_ahead(django_user_model):
    user = django_user_model.objects.create_user("me")
    an_import(user, ImportStatus.DONE)

    assert record_imports_ahead(record_import=an_import(user)) == 0
