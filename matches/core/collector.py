"""Fewer runs of Python's cycle collector while a batch of records is stored.

A record's parsed JSON and its replay are hundreds of thousands of small objects that
reference counting frees when the record is done; at the default threshold (a run every
700 new objects) the collector walks the whole batch held in memory again and again —
a third of the time of storing a thousand records. Raised, it still runs, a hundred
times less often.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

BATCH_THRESHOLD = (100_000, 20, 20)

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] = gc.get_threshold()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with the collector's threshold raised; the threshold it had comes
    back when the last such block (of any thread) ends."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            gc.set_threshold(*BATCH_THRESHOLD)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_saved)
