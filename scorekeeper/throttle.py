"""Limits on what costs the site an account or a mail: sign-ups and password-reset links,
counted per address and per e-mail address.

Each action (``signup``, ``password_reset``) may be done ``…_PER_ADDRESS`` times from one
address and ``…_PER_EMAIL`` times for one e-mail address (from any address) in each
window of ``THROTTLE_WINDOW_MINUTES`` (settings). A form that is refused for what it
says (a taken username, a badly written address) is not counted; a sent one is, whether
or not an account has that address (a reset answers the same either way, and so does
its limit). Past a limit the view answers 429 with the "Too many attempts" page until
the window ends.

The counts live in the ``throttle`` cache (settings: a table in the database, which
every worker process shares; ``manage.py createcachetable`` makes it, and scripts/setup
runs that). The windows are fixed (the counts start again on the hour for an hour's
window), so across a window's end a sender may get up to twice a limit in a short while;
and a count is read and written back rather than incremented in one step, so requests
sent at the same instant may be counted once between them. Both are fine for what this
stops: accounts and mails by the dozen.

django-ratelimit, made for this, was not used: its system check refuses every cache
the site can run without a memcached or Redis server (process memory is not shared by
the workers, and the database cache has no atomic increment).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest

from scorekeeper.proxy import client_address

CACHE = "throttle"  # the alias in settings.CACHES
SIGNUP = "signup"
PASSWORD_RESET = "password_reset"
_SETTING = {SIGNUP: "SIGNUP_LIMIT", PASSWORD_RESET: "PASSWORD_RESET_LIMIT"}


@dataclass(frozen=True)
class Counter:
    """One count: an action by one address or for one e-mail address, in one window."""

    key: str
    limit: int


def throttle_wait(request: HttpRequest, *, action: str, email: str = "") -> int:
    """The seconds until ``action`` may be done again from ``request``'s address for
    ``email``: 0 while every limit still has room."""
    cache = caches[CACHE]
    for counter in _counters(request, action, email):
        if (cache.get(counter.key) or 0) >= counter.limit:
            return _window_left()
    return 0


def throttle_count(request: HttpRequest, *, action: str, email: str = "") -> None:
    """Count one ``action`` from ``request``'s address and for ``email``."""
    cache = caches[CACHE]
    for counter in _counters(request, action, email):
        # kept a whole window after its last count: the key names its window, so a
        # count never runs on into the next one
        cache.set(counter.key, (cache.get(counter.key) or 0) + 1, timeout=_window())


def _counters(request: HttpRequest, action: str, email: str) -> Iterator[Counter]:
    name = _SETTING[action]
    window = int(time.time()) // _window()
    yield Counter(f"{action}:address:{_digest(client_address(request))}:{window}",
                  getattr(settings, f"{name}_PER_ADDRESS"))
    email = email.strip().casefold()
    if email:  # an account needs none; no e-mail address is not one address of many
        yield Counter(f"{action}:email:{_digest(email)}:{window}",
                      getattr(settings, f"{name}_PER_EMAIL"))


def _digest(value: str) -> str:
    """A fixed-length key for any input: no address or e-mail is stored as written."""
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _window() -> int:
    return max(1, settings.THROTTLE_WINDOW_MINUTES) * 60


def _window_left() -> int:
    window = _window()
    return max(1, window - int(time.time()) % window)


def minutes(seconds: float) -> int:
    """Whole minutes to wait, as the pages say them (never 0)."""
    return max(1, math.ceil(seconds / 60))
