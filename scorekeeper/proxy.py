"""The address of the phone behind a request, through our own nginx if there is one."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """``REMOTE_ADDR``, or behind our proxy (``TRUST_X_FORWARDED_FOR``) the address nginx
    appended to ``X-Forwarded-For``.

    Only the last entry is nginx's own (``$proxy_add_x_forwarded_for`` appends to what the
    client sent); the entries before it are whatever the client claimed, so they are
    never used — a client cannot pick the address its login failures count against.
    """
    remote = request.META.get("REMOTE_ADDR") or ""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = forwarded.rsplit(",", 1)[-1].strip()
        if last:
            return last
    return remote
