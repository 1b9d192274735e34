"""The e-mail backends without a mail server: in development each message printed to the
console as its reader would read it; in production every message refused.

Django's console backend prints the message as it would be sent, encoded: its
quoted-printable soft line breaks (``=`` at the end of a line) cut a password reset
link in two, and the half a newcomer copies opens "invalid link". This one prints the
headers that matter and the text body as written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.mail import EmailMessage
from django.core.mail.backends import console
from django.core.mail.backends.base import BaseEmailBackend


class EmailBackend(console.EmailBackend):
    def write_message(self, message: EmailMessage) -> None:
        copies = "".join(f"{field}: {', '.join(addresses)}\n" for field, addresses
                         in (("Cc", message.cc), ("Bcc", message.bcc)) if addresses)
        self.stream.write(f"From: {message.from_email}\n"
                          f"To: {', '.join(message.to)}\n{copies}"
                          f"Subject: {message.subject}\n\n"
                          f"{message.body}\n")
        self.stream.write("-" * 79 + "\n")


class MailNotSent(RuntimeError):
    """No mail server is configured, so the message was not sent."""


NOT_SENT = ("No mail server is configured (EMAIL_HOST is not set), so no mail is sent: "
            "this message was refused, not printed. Set EMAIL_HOST, or EMAIL_DISABLED=1 "
            "if the site sends no mail on purpose.")


class RefusingBackend(BaseEmailBackend):
    """Mail without a server, outside development: refused, never printed nor kept (a
    password reset link in a log would reset the account for whoever reads it).

    Each refusal raises :class:`MailNotSent` (Django's password reset logs it as an
    error, with the account's number and without the link) unless the caller asked for
    silence, as the error reports to ADMINS do."""

    def __init__(self, fail_silently: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fail_silently = fail_silently

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        if email_messages and not self.fail_silently:
            raise MailNotSent(NOT_SENT)
        return 0
