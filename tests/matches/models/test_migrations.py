"""Migration 0003 on stored data: seats keep their names, and each match's history starts
with one change holding its actions, so replays, undo and restore work on old matches."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from matches import rules, selectors, services
from matches.actions import action_doc
from matches.models import Match
from tests.matches.helpers import assert_cache_equals_replay

BEFORE = [("matches", "0002_seat_player_and_draw_count")]
AFTER = [("matches", "0003_change_log_grants_seat_names")]


@pytest.fixture
def back_to_latest():
    """Whatever the test does, the database ends at the latest migration again."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_0003_names_the_seats_and_seeds_the_change_log(back_to_latest):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldMatch, Side, Player, Seat = (old.get_model("matches", name)
                                    for name in ("Match", "Side", "Player", "Seat"))
    Round, Event = old.get_model("matches", "Round"), old.get_model("matches", "Event")
    match = OldMatch.objects.create(game="all-fives", options={"hand_size": 2},
                                    player_count=2, target=250)
    sides = [Side.objects.create(match=match, index=i) for i in range(2)]
    for position, name in enumerate(["Olena", "Taras"]):
        Seat.objects.create(match=match, position=position, side=sides[position],
                            player=Player.objects.create(name=name))
    round_ = Round.objects.create(match=match, number=1, mode="tracked", starter=0,
                                  end="domino", finisher=0, settled=True, pips=[0, 3])
    for number, (seat, tile, at, claim) in enumerate(
            [(0, "5-5", "", None), (1, "0-5", "5-5:5", Decimal(10)), (0, "5-6", "5-5:5", None)],
            start=1):
        Event.objects.create(match=match, round=round_, number=number, seat=seat, kind="play",
                             tile=tile, at=at, claim=claim)
    empty = OldMatch.objects.create(game="five-up", player_count=2, target=61)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    at_0003 = executor.loader.project_state(AFTER).apps
    seeded_change = at_0003.get_model("matches", "Change").objects.get(match=match.pk)
    assert (seeded_change.kind, seeded_change.version) == ("import", 1)
    # the rest of the app speaks the latest schema: finish migrating before using it
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    stored = Match.objects.get(pk=match.pk)
    assert selectors.match_names(stored) == ["Olena", "Taras"]
    assert stored.version == 1 and Match.objects.get(pk=empty.pk).version == 0
    seeded = stored.changes.get()
    assert (seeded.kind, seeded.version) == ("import", 1)
    assert all(event.change == seeded for event in stored.events.all())
    engine = selectors.match_engine(stored)
    assert selectors.actions_at(stored, 1) == [action_doc(a) for a in engine.log]
    assert [type(a) for a in engine.log] == [rules.StartRound, rules.Play, rules.Play,
                                             rules.Play, rules.Settle]
    # the old match goes on as any other: undo, then restore what the undo took back
    services.event_undo(match=stored)
    services.match_restore(match=stored, to_version=1)
    assert_cache_equals_replay(stored)
    assert rules.summary(selectors.match_engine(stored))["scores"] == [15, 10]
