"""scorekeeper.heartbeat: a long stream tells the app server its worker is alive, at most
once a second, and nothing is told where no server listens."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

from scorekeeper import heartbeat


def write(items: object) -> list[object]:
    return list(heartbeat.beating(items))  # type: ignore[arg-type]


def test_every_item_comes_through_in_order_with_nobody_to_tell():
    heartbeat.beat_with(None)
    assert write(iter("abc")) == ["a", "b", "c"]


def test_the_server_is_told_as_items_are_written_at_most_once_a_second(monkeypatch):
    heard: list[str] = []
    clock = itertools.count(step=0.4)  # each item takes 0.4 s
    # heartbeat's clock only, not the time module every other module reads
    monkeypatch.setattr(heartbeat, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    heartbeat.beat_with(lambda: heard.append("alive"))
    try:
        assert write(range(10)) == list(range(10))
    finally:
        heartbeat.beat_with(None)
    # 10 items at 0.4 s: about 4 s of writing, told once a second, not once an item
    assert 3 <= len(heard) <= 5


def test_a_quick_stream_tells_nothing(monkeypatch):
    heard: list[str] = []
    heartbeat.beat_with(lambda: heard.append("alive"))
    try:
        write(range(100))
    finally:
        heartbeat.beat_with(None)
    assert heard == []
