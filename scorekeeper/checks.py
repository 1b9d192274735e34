"""System checks of our own settings, run by ``manage.py check`` (registered by the
matches app's ``ready()``).

Mail in production (``check --deploy``): without a mail server, development prints each
message to the console, but a production log must never hold a password reset link, so
production refuses mail instead (``scorekeeper.mail.RefusingBackend``). That is an
error unless it was chosen (``EMAIL_DISABLED=1``): the operator learns at deploy time,
not from the first member who asks for a reset. Like Django's own ``mail.E001`` (for
MAILERS), a backend that prints or keeps mail is an error too.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks
from django.core.mail.backends import console, dummy, filebased, locmem
from django.utils.module_loading import import_string

from scorekeeper.mail import RefusingBackend

NO_MAIL_SERVER = ("DEBUG is off and EMAIL_HOST is not set: no mail can be sent, so "
                  "password reset links (and error reports to ADMINS) are refused.")
NO_MAIL_SERVER_HINT = ("Set EMAIL_HOST (and EMAIL_PORT, EMAIL_USE_TLS, EMAIL_HOST_USER, "
                       "EMAIL_HOST_PASSWORD) to your SMTP server, or EMAIL_DISABLED=1 if "
                       "this site sends no mail on purpose.")
MAIL_NOT_SENT = ("EMAIL_BACKEND is {backend}, which prints or keeps mail instead of "
                 "sending it: in production a password reset link would sit in a log or "
                 "a file for anyone who reads it.")
MAIL_NOT_SENT_HINT = "Set EMAIL_HOST to your SMTP server."

_NOT_SENDING = (console.EmailBackend, dummy.EmailBackend, filebased.EmailBackend,
                locmem.EmailBackend)


def mail_problems() -> list[checks.CheckMessage]:
    """What is wrong with production's mail (nothing in development)."""
    if settings.DEBUG:
        return []
    backend = import_string(settings.EMAIL_BACKEND)
    if issubclass(backend, _NOT_SENDING):
        return [checks.Error(MAIL_NOT_SENT.format(backend=settings.EMAIL_BACKEND),
                             hint=MAIL_NOT_SENT_HINT, id="scorekeeper.E002")]
    if issubclass(backend, RefusingBackend) and not settings.EMAIL_DISABLED:
        return [checks.Error(NO_MAIL_SERVER, hint=NO_MAIL_SERVER_HINT, id="scorekeeper.E001")]
    return []


@checks.register(checks.Tags.mail, deploy=True)
def check_production_mail(app_configs: Any, **kwargs: Any) -> list[checks.CheckMessage]:
    return mail_problems()
