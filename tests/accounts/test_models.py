"""matches.accounts.models: the database refuses e-mail settings that break a constraint
(every named constraint has a case: tests/leagues/test_models.py counts them)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from matches.models import NoticeSettings

pytestmark = pytest.mark.django_db

CASES: dict[str, Callable[[User], object]] = {
    "notice_settings_language_known": lambda user: NoticeSettings.objects.create(
        user=user, email_language="de"),
}


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES))
def test_the_database_refuses_a_row_that_breaks_the_constraint(name):
    user = User.objects.create_user("ann", email="ann@example.com")
    with pytest.raises(IntegrityError, match=name), transaction.atomic():
        CASES[name](user)
