"""scorekeeper/checks.py: production mail that cannot go out fails ``check --deploy``
(the deploy check's run end to end is in tests/scorekeeper/test_settings.py)."""

from __future__ import annotations

import pytest
from django.core import checks

from scorekeeper.checks import check_production_mail


def test_the_mail_check_is_a_deploy_check():
    assert check_production_mail in checks.registry.registry.get_checks(
        include_deployment_checks=True)
    assert check_production_mail not in checks.registry.registry.get_checks()


def test_production_without_a_mail_server_is_an_error(settings):
    settings.DEBUG, settings.EMAIL_DISABLED = False, False
    settings.EMAIL_BACKEND = "scorekeeper.mail.RefusingBackend"

    [error] = check_production_mail(None)

    assert error.id == "scorekeeper.E001" and error.level == checks.ERROR
    assert "EMAIL_HOST is not set" in error.msg
    assert error.hint is not None and "EMAIL_DISABLED=1" in error.hint


def test_production_that_sends_no_mail_on_purpose_passes(settings):
    settings.DEBUG, settings.EMAIL_DISABLED = False, True
    settings.EMAIL_BACKEND = "scorekeeper.mail.RefusingBackend"

    assert check_production_mail(None) == []


@pytest.mark.parametrize("backend", ["scorekeeper.mail.EmailBackend",
                                     "django.core.mail.backends.console.EmailBackend",
                                     "django.core.mail.backends.filebased.EmailBackend",
                                     "django.core.mail.backends.locmem.EmailBackend"])
def test_production_never_prints_nor_keeps_mail(settings, backend):
    settings.DEBUG, settings.EMAIL_DISABLED = False, True
    settings.EMAIL_BACKEND = backend

    [error] = check_production_mail(None)

    assert error.id == "scorekeeper.E002" and backend in error.msg


def test_production_with_smtp_passes(settings):
    settings.DEBUG = False
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"

    assert check_production_mail(None) == []


def test_development_may_print_mail(settings):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "scorekeeper.mail.EmailBackend"

    assert check_production_mail(None) == []
