"""Logging that never writes a secret: one rule, by the secret's shape, not by its path.

Secrets travel in addresses: a club's invite (``/clubs/<slug>/join/<signed value>/``), a
password reset link (``/accounts/reset/<uid>/<token>/``), a scorer's link
(``/matches/<id>/join/<secret>/``, and ``/score/<secret>/`` from before grants), and any
of them again inside a ``next=`` that a sign-in page carries; a session id, a CSRF token
and a new match's creation key travel in cookies, headers and form fields, which an error
report repeats. Django logs the path of every 4xx/5xx answer (and mails a 500's report
to ADMINS), the development server and gunicorn each request line and Referer, nginx
each request line. All of them pass through :func:`redact`, and nginx's access log
through the same expressions (``deploy/nginx/scorekeeper.conf``, whose maps copy
:data:`URL_SECRET`, :data:`QUERY_NAME` and :data:`QUERY_VALUE`
verbatim; ``tests/scorekeeper/test_logs.py`` checks).

What counts as a secret in an address (:data:`URL_SECRET`), wherever it is: a path
segment or a query value (also inside an encoded ``next=``) that is

- a reset link's ``<uid>/<timestamp>-<hash>`` (both parts go),
- a signed value, ``[.]<payload>:<timestamp>:<signature>`` (Django's ``signing``: the
  club invite), or
- any run of 16 or more ``[A-Za-z0-9_-]`` that is not made of short lowercase words
  (a slug such as ``kyiv-winter-league-2026``, a match's UUID, an admin model's name):
  random tokens mix cases or carry a long unbroken piece, words do not.

And by name (:data:`NAMED_SECRET`): the value of anything called ``…token``, ``…key``,
``…secret``, ``session[id]``, ``…cookie``, ``password``, ``…signature`` or
``authorization`` (``csrfmiddlewaretoken=``, ``creation_key = '…'``, ``Cookie: …``,
``X-CSRFToken: …``, ``'HTTP_COOKIE': '…'``), whatever its shape.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from django.utils.functional import Promise
from django.utils.log import AdminEmailHandler
from gunicorn.glogging import Logger

REDACTED = "[secret]"

# Where an address's segment or value begins and ends: after "/", "=", "?", "&" (also
# percent-encoded, as in a next=), and before a delimiter or the end. \x22 and \x27 are
# the quotes, written so that nginx's quoted strings can hold the expression unchanged.
_START = r"(?:(?<=[/=?&])|(?<=%2[Ff])|(?<=%3[Dd]))"
_END = r"(?=[/?&#;,\x22\x27\s%)\]>]|$)"
_RESET = r"[A-Za-z0-9_-]+(?:/|%2[Ff])[0-9a-z]{1,13}-[0-9a-f]{20,}" + _END
_SIGNED = (r"\.?[A-Za-z0-9_-]+(?::|%3[Aa])[A-Za-z0-9_-]+(?::|%3[Aa])[A-Za-z0-9_-]{20,}"
           + _END)
_WORDS = r"[a-z0-9]{1,20}(?:[-_][a-z0-9]{1,20})*" + _END
_TOKEN = r"(?!" + _WORDS + r")[A-Za-z0-9_-]{16,}" + _END
URL_SECRET = _START + r"(?:" + _RESET + r"|" + _SIGNED + r"|" + _TOKEN + r")"

_NAME = (r"(?i:[A-Za-z0-9_-]*(?:token|key|secret|session(?:_?id|_?key)?|cookie|"
         r"password[0-9]?|passwd|signature|authorization))")
# a value that is not one already, up to the next delimiter
_VALUE = r"(?!\[secret\])(?:[^\s&;,#\x22\x27<>\[\]]|\[secret\])+"
# in an address (nginx's map uses these two): ?csrfmiddlewaretoken=…, &creation_key=…
QUERY_NAME = r"(?<=[?&;])" + _NAME + r"="
QUERY_VALUE = _VALUE
# in any text: name = 'value', "name": "value", Name: value, name=value
NAMED_SECRET = (r"(?<![A-Za-z0-9_-])(?P<name>" + _NAME + r"[\x22\x27]?\s*[=:]\s*)"
                r"(?!\[secret\])(?P<open>\[?\s*)"
                r"(?:(?P<quote>[\x22\x27])[^\x22\x27]*(?P=quote)"
                r"|(?:(?:Bearer|Basic|Token)\s+)?" + _VALUE + r")")

_URL_SECRET = re.compile(URL_SECRET)
_NAMED_SECRET = re.compile(NAMED_SECRET)


def _named(found: re.Match[str]) -> str:
    quote = found["quote"] or ""
    return found["name"] + found["open"] + quote + REDACTED + quote


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``[secret]``; the rest left to read.

    >>> redact("GET /clubs/kyiv-2026/join/.eJyrVkpKzc3PzFWyUlAqSk1RBPIMKiIL:1vXyZa:"
    ...        "Zm9vYmFyYmF6cXV4cXV1eHh5enp5eHg/ HTTP/1.1")
    'GET /clubs/kyiv-2026/join/[secret]/ HTTP/1.1'
    >>> redact("/accounts/login/?next=%2Faccounts%2Freset%2FMQ%2Fcbw3x5-"
    ...        "0123456789abcdef0123456789abcdef%2F")
    '/accounts/login/?next=%2Faccounts%2Freset%2F[secret]%2F'
    >>> redact("Cookie: sessionid=q8w7e6r5t4y3u2i1o0p9a8s7d6f5g4h3; csrftoken=abc")
    'Cookie: [secret]; csrftoken=[secret]'
    """
    return _NAMED_SECRET.sub(_named, _URL_SECRET.sub(REDACTED, text))


class RedactSecrets(logging.Filter):
    """A handler's or logger's filter: the formatted message, its traceback and its
    stack, with their secrets redacted (an exception's text may quote a path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
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
    repeats the request's path, query, form fields, cookies and headers."""

    def send_mail(self, subject: str | Promise, message: str | Promise, *args: Any,
                  **kwargs: Any) -> None:
        if kwargs.get("html_message"):
            kwargs["html_message"] = redact(str(kwargs["html_message"]))
        super().send_mail(redact(str(subject)), redact(str(message)), *args, **kwargs)


class GunicornLogger(Logger):
    """gunicorn's logger: every line of its access and error logs redacted, whatever
    ``access_log_format`` prints (the request line, the Referer, a header)."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for logger in (self.error_log, self.access_log):
            if not any(isinstance(f, RedactSecrets) for f in logger.filters):
                logger.addFilter(RedactSecrets())
