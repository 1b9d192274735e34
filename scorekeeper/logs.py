"""Logging that never writes a scorer's secret.

The shared scorer's link carries its secret in the path (``/matches/<id>/join/<secret>/``,
and links from before grants ``/matches/<id>/score/<secret>/``). Django logs the path of
every 4xx/5xx answer (and mails a 500's report to ADMINS) and the development server
every request; gunicorn's access log writes each request line and Referer. Each of them
passes through :func:`redact`.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.utils.functional import Promise
from django.utils.log import AdminEmailHandler
from gunicorn.glogging import Logger

# The scorepad's own pages under /score/ are not secrets; anything else there is one.
_PAGES = ("play|draw|pass|call|settle|round|undo|history|restore|scorers|abandon|resume|"
          "delete|rename|rematch")
SECRET_IN_PATH = re.compile(
    r"(/matches/[0-9a-fA-F-]{36}/(?:join/|score/(?!(?:" + _PAGES + r")(?:/|$))))"
    r"[^/\s?\"#]+")
REDACTED = "[secret]"


def redact(text: str) -> str:
    """``text`` with every scorer's secret in a match path replaced by ``[secret]``."""
    return SECRET_IN_PATH.sub(r"\1" + REDACTED, text)


class RedactSecrets(logging.Filter):
    """A handler filter: the formatted message, with its secrets redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class QuietRefusals(logging.Filter):
    """A logger filter: a refused request (Django's warning for a 4xx, such as a
    ``PermissionDenied`` answered 403) keeps its one line but not the traceback Django
    attaches, which would bury the real errors in the log; a 500 keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.ERROR:
            record.exc_info, record.exc_text = None, None
        return True


class RedactingAdminEmailHandler(AdminEmailHandler):
    """Django's error mail to ADMINS, redacted whole: besides the message, its body
    repeats the request's path and headers (the Referer of a scorer's link included)."""

    def send_mail(self, subject: str | Promise, message: str | Promise, *args: Any,
                  **kwargs: Any) -> None:
        if kwargs.get("html_message"):
            kwargs["html_message"] = redact(str(kwargs["html_message"]))
        super().send_mail(redact(str(subject)), redact(str(message)), *args, **kwargs)


class GunicornLogger(Logger):
    """gunicorn's logger; its access log's request line, path and Referer redacted."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f", "{raw_uri}e"):
            value = atoms.get(key)
            if isinstance(value, str):
                atoms[key] = redact(value)
        return atoms
