"""scorekeeper/mail.py: without a mail server, production refuses each message; a
password reset is then logged as an error, without its link (the console backend's
printing is tested with the accounts' views)."""

from __future__ import annotations

import logging

import pytest
from django.core import mail
from django.urls import reverse

from scorekeeper.mail import MailNotSent, RefusingBackend

REFUSING = "scorekeeper.mail.RefusingBackend"


def test_a_message_is_refused_not_printed(settings, capsys):
    settings.EMAIL_BACKEND = REFUSING
    with pytest.raises(MailNotSent, match="EMAIL_HOST is not set"):
        mail.send_mail("Subject", "a secret link", "a@example.com", ["b@example.com"])
    assert "a secret link" not in capsys.readouterr().out


def test_a_silent_caller_is_refused_silently(settings):
    settings.EMAIL_BACKEND = REFUSING
    sent = mail.send_mail("Subject", "body", "a@example.com", ["b@example.com"],
                          fail_silently=True)
    assert sent == 0
    assert RefusingBackend().send_messages([]) == 0


@pytest.mark.django_db
def test_a_password_reset_without_a_mail_server_is_logged_without_its_link(
        client, settings, django_user_model, caplog, capsys):
    settings.EMAIL_BACKEND = REFUSING
    django_user_model.objects.create_user("olena", "olena@example.com", "x-9-long-pass")

    with caplog.at_level(logging.ERROR):
        answer = client.post(reverse("password_reset"), {"email": "olena@example.com"})

    assert answer.status_code == 302  # the page says no more than it would otherwise
    [record] = [r for r in caplog.records if r.name == "django.contrib.auth"]
    assert record.levelname == "ERROR" and record.exc_info is not None
    assert isinstance(record.exc_info[1], MailNotSent)
    written = caplog.text + capsys.readouterr().out
    assert "/accounts/reset/" not in written
