"""Response headers Django has no setting for, and redirects kept short enough to send."""

import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.db import connection
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware import common

from matches.scoring import engine_cache
from scorekeeper.views import healthz

logger = logging.getLogger(__name__)

# Browser features this site may use: sharing a match's link (the share sheet, or the
# clipboard where sharing is not offered; static/js/share.js) and keeping the screen on
# while a scorer's scorepad is open (a screen wake lock; static/js/wakelock.js). Every
# other powerful feature is denied to the site and to anything it might frame. Only
# names every Chromium recognises: an unknown one costs a console warning on every page
# (tests/browser/test_csp.py listens). So no "web-share", unknown where Chromium has no
# share sheet (Linux): its default allowlist is already 'self'. Nor "bluetooth", which
# Chromium does not read. Vibration, used on the scorepad, is not policy-controlled.
# https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Permissions-Policy
PERMISSIONS_POLICY = {
    "accelerometer": "()",
    "autoplay": "()",
    "camera": "()",
    "clipboard-read": "()",
    "clipboard-write": "(self)",
    "display-capture": "()",
    "encrypted-media": "()",
    "fullscreen": "()",
    "geolocation": "()",
    "gyroscope": "()",
    "hid": "()",
    "idle-detection": "()",
    "magnetometer": "()",
    "microphone": "()",
    "midi": "()",
    "payment": "()",
    "picture-in-picture": "()",
    "publickey-credentials-get": "()",
    "screen-wake-lock": "(self)",
    "serial": "()",
    "usb": "()",
    "xr-spatial-tracking": "()",
}
PERMISSIONS_POLICY_HEADER = ", ".join(
    f"{name}={allow}" for name, allow in PERMISSIONS_POLICY.items())


class HealthCheckMiddleware:
    """Answer ``/healthz`` before any middleware reads the request's Host: a load
    balancer or a platform probes an instance by its own address, which ALLOWED_HOSTS
    does not list (CommonMiddleware would answer 400). Its answer does not depend on the
    Host, so none of the attacks the check guards against applies."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == "/healthz":
            return healthz(request)
        return self.get_response(request)


class PermissionsPolicyMiddleware:
    """Send PERMISSIONS_POLICY with every response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY_HEADER)
        return response


class ServerTimingMiddleware:
    """Where each request's time went, as a ``Server-Timing`` header: ``total`` (until
    the response is made, gzip included), ``cpu`` (this worker thread's CPU time in
    that span), ``db`` (the time inside database statements, and how many: a
    persistent connection's health-check ping is not among them) and ``engine`` (how
    the match's engine was come by: kept, caught up from the change log, or replayed
    from the rows; :mod:`matches.scoring.engine_cache`).

    For measuring only (``SERVER_TIMING=1``; bench/load.py turns it on): it tells any
    client how long the server's parts took.
    https://developer.mozilla.org/en-US/docs/Web/HTTP/Reference/Headers/Server-Timing
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        statements = 0
        in_database = 0.0

        def timed(execute: Callable[..., Any], sql: str, params: Any, many: bool,
                  context: dict[str, Any]) -> Any:
            nonlocal statements, in_database
            began = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                statements += 1
                in_database += time.perf_counter() - began

        source = engine_cache.engine_source.set(None)
        began, cpu_began = time.perf_counter(), time.thread_time()
        try:
            with connection.execute_wrapper(timed):
                response = self.get_response(request)
            total, cpu = time.perf_counter() - began, time.thread_time() - cpu_began
            engine = engine_cache.engine_source.get()
        finally:
            engine_cache.engine_source.reset(source)
        metrics = [f"total;dur={total * 1000:.2f}", f"cpu;dur={cpu * 1000:.2f}",
                   f'db;dur={in_database * 1000:.2f};desc="{statements}"']
        if engine is not None:
            metrics.append(f'engine;desc="{engine}"')
        response.headers["Server-Timing"] = ", ".join(metrics)
        return response


class CommonMiddleware(common.CommonMiddleware):
    """Django's, except that an address too long to send back (over
    ``MAX_REDIRECT_LENGTH``) is not redirected to itself with a slash added: it is not
    found, as it would be without APPEND_SLASH."""

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        if len(request.get_full_path()) > settings.MAX_REDIRECT_LENGTH:
            return False
        return super().should_redirect_with_slash(request)


class LongRedirectMiddleware:
    """No redirect longer than ``MAX_REDIRECT_LENGTH`` leaves the app: nginx answers 502
    for a header past its 4 KB buffer. Those that would be carry an address a request
    brought. A redirect to a sign-in page carries the page asked for as ``next`` (Django's
    ``login_required``, its password pages', the admin's), the address as it was opened:
    it goes to the sign-in page without it, as for a page opened from the home page.
    Any other goes to the home page: a page to go back to after signing in, out or up, or
    after the language switch (its ``next`` or Referer). Django refuses such a page past
    2,048 characters, but counts them before encoding, and a Cyrillic letter is sent as
    six."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        location = response.get("Location")
        if location and len(location) > settings.MAX_REDIRECT_LENGTH:
            shorter = without_next(location)
            if len(shorter) > settings.MAX_REDIRECT_LENGTH:
                logger.warning("A redirect of %d characters went to the home page instead",
                               len(location))
                shorter = "/"
            response["Location"] = shorter
        return response


def without_next(url: str) -> str:
    """``url`` without its ``next`` parameter, if it has one; else as it is."""
    parts = urlsplit(url)
    query = QueryDict(parts.query, mutable=True)
    if REDIRECT_FIELD_NAME not in query:
        return url
    del query[REDIRECT_FIELD_NAME]
    return urlunsplit(parts._replace(query=query.urlencode(safe="/")))
