"""scorekeeper/logs.py: one redaction rule, by shape, for every log; nginx's access log
passes the same expressions (deploy/nginx/scorekeeper_redact)."""

from __future__ import annotations

import io
import logging
import re
import sys
import uuid
from pathlib import Path

import pytest
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.middleware.csrf import _get_new_csrf_string, get_token
from django.test import Client, RequestFactory
from django.utils.crypto import get_random_string
from django.utils.encoding import force_bytes
from django.utils.http import urlencode, urlsafe_base64_encode
from gunicorn.config import Config

from matches.models import new_scorer_token
from scorekeeper import logs
from scorekeeper.logs import (
    QUERY_NAME,
    QUERY_VALUE,
    URL_SECRET,
    GunicornLogger,
    RedactSecrets,
    redact,
)

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx"
MATCH = "0b6c1f7e-1111-4222-8333-444455556666"
SESSION_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"  # Django's session keys


def invite() -> str:
    return signing.dumps({"club": 12, "role": "admin"}, salt="clubs.invite", compress=True)


def reset_token() -> str:
    return default_token_generator.make_token(_User())  # type: ignore[arg-type]


class _User:
    """Enough of a user for the reset token generator (a new password each time)."""

    pk = 7
    last_login = None
    email = "olena@example.com"

    def __init__(self) -> None:
        self.password = get_random_string(20)

    def get_email_field_name(self) -> str:
        return "email"


# -- what is a secret ---------------------------------------------------------------------


@pytest.mark.parametrize("draw", [new_scorer_token, invite, reset_token,
                                  lambda: get_random_string(32, SESSION_CHARS),
                                  _get_new_csrf_string,
                                  lambda: get_token(RequestFactory().get("/"))],
                         ids=["scorer", "invite", "reset", "session", "csrf", "csrf-masked"])
def test_every_secret_the_site_draws_is_redacted_in_a_path_and_a_query(draw):
    for _ in range(200):  # drawn afresh: the rule must hold for every draw, not one
        secret = draw()
        for text in (f"GET /clubs/kyiv-2026/join/{secret}/ HTTP/1.1",
                     f"/x/?code={secret}&page=2",
                     f"/accounts/login/?{urlencode({'next': f'/clubs/k/join/{secret}/'})}",
                     f"http://testserver/matches/{MATCH}/score/{secret}"):
            redacted = redact(text)
            assert secret not in redacted and "[secret]" in redacted, text


def test_a_reset_link_loses_its_account_number_and_its_token():
    uid = urlsafe_base64_encode(force_bytes(7))
    link = f"/accounts/reset/{uid}/{reset_token()}/"

    assert redact(link) == "/accounts/reset/[secret]/"
    assert redact(f"/accounts/login/?next={link.replace('/', '%2F')}") == (
        "/accounts/login/?next=%2Faccounts%2Freset%2F[secret]%2F")


@pytest.mark.parametrize("text", [
    f"/matches/{MATCH}/score/history/?round=2&step=14",
    "/clubs/kyiv-winter-league-2026/seasons/spring-2027/fixtures/12/confirm/",
    "/admin/django_tasks_db/dbtaskresult/?o=1",
    "/history/?after=2026-12-03T13%3A25%3A27.123456%2B00%3A00_42&game=all-fives",
    "/static/js/htmx.min.0123456789ab.js",
    "/accounts/reset/MQ/set-password/",
    "Traceback: File \"/work/.venv/site-packages/django/core/handlers/exception.py\", "
    "line 55, in inner: ImproperlyConfigured, SuspiciousOperation, KeyError: 'tile'",
    "2026-12-03 13:25:27,123 [INFO] gunicorn.error: Booting worker with pid: 4242",
], ids=["scorepad", "slugs", "admin", "cursor", "static", "set-password", "traceback",
        "boot"])
def test_what_is_not_a_secret_stays_readable(text):
    assert redact(text) == text


@pytest.mark.parametrize(("text", "expected"), [
    (f"/new/?creation_key={uuid.uuid4()}&csrfmiddlewaretoken=abc&p=1",
     "/new/?creation_key=[secret]&csrfmiddlewaretoken=[secret]&p=1"),
    ("Cookie: sessionid=q8w7e6r5t4y3u2i1o0p9a8s7d6f5g4h3; csrftoken=abc; lang=uk",
     "Cookie: [secret]; csrftoken=[secret]; lang=uk"),
    ("Set-Cookie: sessionid=abc; expires=Thu, 17 Dec 2026; HttpOnly",
     "Set-Cookie: [secret]; expires=Thu, 17 Dec 2026; HttpOnly"),
    ("X-CSRFToken: abc", "X-CSRFToken: [secret]"),
    ("Authorization: Bearer abc.def", "Authorization: [secret]"),
    ("'HTTP_COOKIE': 'sessionid=abc; csrftoken=def'", "'HTTP_COOKIE': '[secret]'"),
    ("CSRF_COOKIE = 'abc'", "CSRF_COOKIE = '[secret]'"),
    ("<QueryDict: {'csrfmiddlewaretoken': ['abc'], 'tile': ['5-5']}>",
     "<QueryDict: {'csrfmiddlewaretoken': ['[secret]'], 'tile': ['5-5']}>"),
    ('{"creation_key": "0b6c", "game": "all-fives"}',
     '{"creation_key": "[secret]", "game": "all-fives"}'),
], ids=["query", "cookie", "set-cookie", "csrf-header", "authorization", "meta", "csrf-meta",
        "querydict", "json"])
def test_named_secrets_lose_their_values_whatever_their_shape(text, expected):
    assert redact(text) == expected


def test_redacting_twice_changes_nothing_more():
    text = (f"/accounts/login/?next=/clubs/k/join/{invite()}/&token=abc "
            "Cookie: sessionid=abc; X-CSRFToken: def")
    assert redact(redact(text)) == redact(text)


# -- nginx passes the same expressions ---------------------------------------------------


def nginx_passes() -> list[tuple[re.Pattern[str], str]]:
    """scorekeeper_redact's map entries, as Python expressions and replacements."""
    entries = []
    for line in (DEPLOY / "scorekeeper_redact").read_text().splitlines():
        found = re.fullmatch(r'"~(.*)" "(.*)";', line)
        if found:
            pattern = re.sub(r"\(\?<(\w+)>", r"(?P<\1>", found[1])
            entries.append((re.compile(pattern), re.sub(r"\$\{(\w+)\}", r"\\g<\1>", found[2])))
    return entries


def nginx_logged(uri: str) -> str:
    """What the access log writes for ``uri``: the chained maps of scorekeeper.conf, the
    last of which compares the last two passes."""
    conf = (DEPLOY / "scorekeeper.conf").read_text()
    passes = conf.count("include ${SK_CONF_DIR}/scorekeeper_redact;")
    values = [uri]
    for _ in range(passes):
        for pattern, replacement in nginx_passes():  # a map's first matching entry
            if pattern.fullmatch(values[-1]):
                values.append(pattern.sub(replacement, values[-1], count=1))
                break
        else:
            values.append(values[-1])
    last = re.search(rf'map "\$sk_uri_{passes - 1} \$sk_uri_{passes}" \$sk_logged_uri {{'
                     r'\s*"~(.*)" \$(\w+);\s*default "(.*)";\s*}', conf)
    assert last is not None
    expression = re.sub(r"\\k<(\w+)>", r"(?P=\1)", re.sub(r"\(\?<(\w+)>", r"(?P<\1>", last[1]))
    same = re.fullmatch(expression, f"{values[-2]} {values[-1]}")
    return same[last[2]] if same else last[3]


def test_nginx_holds_the_apps_expressions_verbatim():
    entries = (DEPLOY / "scorekeeper_redact").read_text()
    assert URL_SECRET in entries and QUERY_NAME + ")" + QUERY_VALUE in entries
    conf = (DEPLOY / "scorekeeper.conf").read_text()
    assert "$sk_logged_uri" in conf.split("log_format sk_redacted")[1].split(";")[0]


@pytest.mark.parametrize("uri", [
    f"/clubs/kyiv-2026/join/{invite()}/",
    f"/accounts/login/?{urlencode({'next': f'/clubs/kyiv-2026/join/{invite()}/'})}",
    f"/accounts/login/?next=/clubs/kyiv-2026/join/{invite().replace(':', '%3A')}/",
    f"/accounts/reset/MQ/{reset_token()}/",
    f"/matches/{MATCH}/join/{new_scorer_token()}/",
    f"/matches/{MATCH}/score/{new_scorer_token()}/",
    f"/new/?creation_key={uuid.uuid4()}&csrfmiddlewaretoken={_get_new_csrf_string()}",
    f"/matches/{MATCH}/score/history/?round=2",
    "/history/?after=2026-12-03T13%3A25%3A27.123456%2B00%3A00_42&game=all-fives",
    f"/a/{new_scorer_token()}/?token=x&next=/b/{new_scorer_token()}/",
], ids=[  # fixed ids: the secrets are drawn anew in each process, and xdist's workers
    # must collect the same tests
    "invite", "invite in next", "invite in next, encoded", "reset link", "scorer's join",
    "scorer's link", "creation key and CSRF token", "a match page", "a history query",
    "named values"])
def test_nginx_logs_what_the_app_logs(uri):
    assert nginx_logged(uri) == redact(uri)


def test_an_address_with_more_secrets_than_nginx_passes_is_not_logged():
    uri = "".join(f"/{new_scorer_token()}" for _ in range(7))
    assert nginx_logged(uri) == "[address with more secrets than the log's passes]"


# -- the logs that use it ----------------------------------------------------------------


def test_a_records_message_traceback_and_stack_are_redacted():
    secret = new_scorer_token()
    try:
        raise LookupError(f"no such page: /matches/{MATCH}/join/{secret}/")
    except LookupError:
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1,
                                   "Not Found: %s", (f"/clubs/k/join/{secret}/",),
                                   sys.exc_info(), sinfo=f"at /x/{secret}/")
    assert RedactSecrets().filter(record) is True
    written = logging.Formatter().format(record)
    assert secret not in written and written.count("[secret]") == 3


@pytest.mark.django_db
def test_djangos_request_log_holds_no_invite_and_no_cookie(settings):
    handler = next(h for h in logging.getLogger().handlers
                   if any(isinstance(f, RedactSecrets) for f in h.filters))
    buffer = io.StringIO()
    old = handler.setStream(buffer)  # type: ignore[attr-defined]
    token, session = invite(), get_random_string(32, SESSION_CHARS)
    try:
        Client().get(f"/no-such-page/{token}/", HTTP_COOKIE=f"sessionid={session}")
    finally:
        handler.setStream(old)  # type: ignore[attr-defined]
    logged = buffer.getvalue()
    assert "Not Found: /no-such-page/[secret]/" in logged
    assert token not in logged and session not in logged


def test_gunicorns_access_and_error_logs_are_redacted_whatever_their_format():
    config = Config()
    config.set("accesslog", "-")
    logger = GunicornLogger(config)
    secret = new_scorer_token()
    for log in (logger.access_log, logger.error_log):
        kept = io.StringIO()
        log.addHandler(handler := logging.StreamHandler(kept))
        try:
            log.info("%(r)s %({cookie}i)s", {"r": f"GET /clubs/k/join/{secret}/ HTTP/1.0",
                                             "{cookie}i": f"sessionid={secret}"})
        finally:
            log.removeHandler(handler)
        assert kept.getvalue() == "GET /clubs/k/join/[secret]/ HTTP/1.0 sessionid=[secret]\n"


def test_the_rule_is_documented_where_it_lives():
    assert logs.__doc__ is not None and "URL_SECRET" in logs.__doc__
