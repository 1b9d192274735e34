"""Eight phones racing on one match over PostgreSQL: fresh, stale and resent taps.

Each thread is a phone with its own scorer grant, session and database connection. It
draws its page (the version, whose turn, a legal placement) and then posts a fresh tap,
resends its previous request unchanged (a lost answer), or posts a new tap on an old
page. Afterwards no tap may be lost or doubled, every accepted placement is still on
the table unless an accepted undo named it, and the cached scores equal a replay.
"""

from __future__ import annotations

import random
import threading
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.models import Change, ChangeKind, Event, Match
from matches.scoring.selectors.play import actions_at, match_engine
from matches.scoring.services.play import match_create, round_start
from tests.support.helpers import assert_cache_equals_replay

PHONES = 8
TAPS = 20
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks under real concurrency: PostgreSQL (CI) only"),
]


@dataclass
class Sent:
    name: str
    body: dict[str, Any]
    status: int


@dataclass
class Phone:
    match: Match
    seed: int
    client: Client = field(default_factory=Client)
    sent: list[Sent] = field(default_factory=list)
    errors: list[BaseException] = field(default_factory=list)

    def run(self) -> None:
        rng = random.Random(self.seed)
        try:
            self.client.post(self.match.get_join_url())
            for _ in range(TAPS):
                roll = rng.random()
                if self.sent and roll < 0.2:  # the answer was lost: the same request again
                    last = self.sent[-1]
                    self.post(last.name, last.body)
                elif self.sent and roll < 0.3:  # a new tap on a page drawn earlier
                    last = self.sent[-1]
                    self.post(last.name, {**last.body, "key": str(uuid.uuid4())})
                else:
                    self.post(*self.fresh_tap(rng))
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.errors.append(error)
        finally:
            connections.close_all()

    def fresh_tap(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        """What a page drawn now would send: a legal placement mostly, else undo or draw;
        a new round when none is in play (an accepted undo may take back its start)."""
        match = Match.objects.get(pk=self.match.pk)
        engine = match_engine(match)
        page: dict[str, Any] = {"version": match.version, "key": str(uuid.uuid4())}
        rnd = engine.current_round
        if engine.phase == "start":  # e.g. an undo took back the round's start
            starter = engine.required_starter()
            return "round", {**page, "starter": str(0 if starter is None else starter),
                             "mode": "tracked"}
        if rnd is None or engine.phase != "play" or rng.random() < 0.15:
            return "undo", page
        page["seat"] = rnd.turn
        if rnd.boneyard and rng.random() < 0.1:
            return "draw", {**page, "tiles": 1}
        tiles = [t for t in engine.options.tile_set.tiles if t not in rnd.layout]
        rng.shuffle(tiles)
        for tile in tiles:
            points = [None] if not len(rnd.layout) else rnd.layout.legal_points(tile)
            if points:
                at = rng.choice(points)
                return "play", {**page, "tile": str(tile), "at": str(at) if at else ""}
        return "undo", page

    def post(self, name: str, body: dict[str, Any]) -> None:
        url = reverse(f"matches:{name}", kwargs={"public_id": self.match.public_id})
        response = self.client.post(url, body, **HTMX)
        self.sent.append(Sent(name, body, response.status_code))


def test_racing_phones_lose_nothing_and_double_nothing():
    match = match_create(game="all-fives", players=["Olena", "Taras", "Iryna"])
    round_start(match=match, starter=0)
    phones = [Phone(match, seed) for seed in range(PHONES)]
    threads = [threading.Thread(target=phone.run) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert [error for phone in phones for error in phone.errors] == []

    sent = [request for phone in phones for request in phone.sent]
    assert {request.status for request in sent} <= {200}  # no 5xx, no refusal of a grant
    match.refresh_from_db()
    changes = list(match.changes.order_by("version"))
    # one version per change, none skipped; one change per tap key
    assert [change.version for change in changes] == list(range(1, match.version + 1))
    keys = [str(change.key) for change in changes if change.key is not None]
    assert len(keys) == len(set(keys))

    by_key = {str(change.key): change for change in changes if change.key is not None}
    accepted = 0
    for request in sent:
        change = by_key.get(request.body["key"])
        if change is None:
            continue
        accepted += 1
        # a tap was applied only to the version its page showed, as what it asked for
        assert change.version == request.body["version"] + 1
        assert change.kind == {"round": ChangeKind.START}.get(request.name, request.name)
    assert accepted > PHONES  # the race did let work through

    # every accepted placement or draw wrote exactly one event, still live unless an
    # accepted undo took it back
    for change in changes:
        if change.kind in (ChangeKind.PLAY, ChangeKind.DRAW):
            event = Event.objects.get(change=change)
            if event.undone_by is not None:
                assert event.undone_by.kind == ChangeKind.UNDO
                assert event.undone_by.version > change.version
    assert Event.objects.filter(match=match).count() == \
        Change.objects.filter(match=match, kind__in=[ChangeKind.PLAY, ChangeKind.DRAW]).count()
    # the undos took back exactly the rows the log says they did
    engine = match_engine(match)
    assert [selectors_doc(action) for action in engine.log] == \
        actions_at(match, match.version)
    assert_cache_equals_replay(match)


def selectors_doc(action: rules.Action) -> dict[str, Any]:
    from matches.scoring.changelog import action_doc

    return action_doc(action)
