"""A long download keeps its worker alive: the app server is told, as it goes, that the
worker writing it is not stuck.

Gunicorn's sync workers tell their master they are alive between requests only, and the
master kills one silent for ``timeout`` seconds (30, ``GUNICORN_TIMEOUT``): a streamed
answer longer than that (a big club's ``.jsonl`` of matches, the history's CSV) was cut
off where it stood, the browser left with a file that looked whole. ``gunicorn.conf.py``
hands each worker's ``notify`` to :func:`beat_with`; :func:`beating` calls it as a
stream's items are written, at most once a second, so a worker making progress lives
and one stuck in a single step still dies at the timeout. Outside gunicorn (runserver,
the tests) there is nothing to tell.
https://docs.gunicorn.org/en/stable/settings.html#timeout
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator

EVERY_SECONDS = 1.0  # the master reads a worker's last sign of life against its timeout

_beat: Callable[[], None] | None = None


def beat_with(beat: Callable[[], None] | None) -> None:
    """Tell the app server through ``beat`` (its worker's ``notify``); None: nothing."""
    global _beat
    _beat = beat


def beating[T](items: Iterable[T]) -> Iterator[T]:
    """``items`` as they come, the app server told after each (at most once every
    :data:`EVERY_SECONDS`) that this worker is alive."""
    last = time.monotonic()
    for item in items:
        yield item
        if _beat is not None and time.monotonic() - last >= EVERY_SECONDS:
            _beat()
            last = time.monotonic()
