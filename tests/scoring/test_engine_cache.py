"""matches.scoring.engine_cache: the engine kept between requests equals a replay of the rows,
whatever was written since it was kept, by this process or another."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from unittest import mock

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import rules
from matches.models import Change, Match
from matches.rules.simulate import simulated_match
from matches.scoring import engine_cache
from matches.scoring.selectors.play import match_engine, match_miscalls
from matches.scoring.services import play as scoring
from matches.scoring.services.lifecycle import match_delete, seats_rename
from matches.scoring.services.play import (
    actions_record,
    event_record,
    event_undo,
    match_create,
    match_restore,
    round_settle,
    round_start,
)
from tests.support.helpers import (
    SHAPES,
    A,
    T,
    assert_cache_equals_replay,
    play_short_round,
    site_admin,
    two_player_all_fives,
)

pytestmark = pytest.mark.django_db


def read(match: Match) -> rules.Match:
    match.refresh_from_db()
    with engine_cache.engine_for_reading(match) as engine:
        return engine


def same_table(kept: rules.Match, match: Match) -> None:
    fresh = match_engine(match)
    assert kept.log == fresh.log
    assert kept.scores == fresh.scores and kept.winner == fresh.winner
    assert kept.names == fresh.names and kept.phase == fresh.phase


@contextmanager
def another_process() -> Iterator[None]:
    """Writes made meanwhile come from another process: they find none of this
    process's kept engines (and keep theirs elsewhere)."""
    with mock.patch.object(engine_cache, "_kept", OrderedDict()):
        yield


def test_added_actions_and_undos_are_caught_up_from_the_change_log_without_a_replay():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    first = read(match)
    with another_process():
        event_record(match=match, action=rules.Play(0, T("5-5")))
        event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 15))
        event_undo(match=match)  # the miscalled 0-5 taken back
        event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 10))

    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries, \
            engine_cache.engine_for_reading(match) as engine:
        pass

    assert engine is first  # the same engine, brought forward
    assert len(queries) == 1  # the four changes, read from the log; no rows replayed
    same_table(engine, match)


@pytest.mark.django_db(transaction=True)  # the engine is handed on when the write commits
def test_a_write_hands_its_engine_on_to_the_next_read_of_this_process():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    first = read(match)
    event_record(match=match, action=rules.Play(0, T("5-5")))

    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries, \
            engine_cache.engine_for_reading(match) as engine:
        pass

    assert engine is first and not queries.captured_queries
    same_table(engine, match)


def test_a_refused_write_gives_the_engine_back_as_it_was():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    first = read(match)
    with pytest.raises(rules.NotYourTurn):
        event_record(match=match, action=rules.Play(1, T("5-5")))

    with CaptureQueriesContext(connection) as queries:
        again = read(match)

    assert again is first and len(queries) == 1  # the refresh; no replay
    same_table(again, match)


def test_a_write_that_fails_after_the_engine_moved_leaves_no_engine_behind():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    first = read(match)
    with mock.patch.object(Change.objects, "create", side_effect=IntegrityError("lost")), \
            pytest.raises(IntegrityError):
        event_record(match=match, action=rules.Play(0, T("5-5")))

    again = read(match)

    assert again is not first  # replayed: the engine that took 5-5 was dropped
    assert again.current_round is not None and not again.current_round.events
    same_table(again, match)


@pytest.mark.parametrize("write", ["undo", "restore", "rename", "settle"])
def test_any_other_change_replays_and_the_kept_engine_agrees(write):
    match = two_player_all_fives()
    play_short_round(match)
    read(match)
    if write == "undo":
        event_undo(match=match)
    elif write == "restore":
        match_restore(match=match, to_version=2, user=site_admin())
    elif write == "rename":
        # back before the first tile
        match_restore(match=match, to_version=1, user=site_admin())
        seats_rename(match=match, names=["Olha", "Taras"])
    else:
        round_settle(match=match, pips=(0, 9))

    same_table(read(match), match)


def test_a_deleted_match_leaves_nothing_that_another_could_take():
    match = two_player_all_fives()
    play_short_round(match)
    read(match)
    match_delete(match=match)
    other = two_player_all_fives()
    round_start(match=other, starter=1)

    same_table(read(other), other)


def test_a_reader_whose_match_is_older_than_its_rows_keeps_them_at_their_version():
    """A page read the match, then another phone's tap committed, then the page replayed
    the rows: the engine holds that tap, so it must be kept at the tap's version (at the
    older one, the next catch-up would apply the tap a second time)."""
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    page = Match.objects.get(pk=match.pk)  # read at version 2
    with another_process():
        event_undo(match=match)  # version 3: the 5-5 taken back

    with engine_cache.engine_for_reading(page) as engine:
        pass

    assert page.version == 3  # read again with the rows it was replayed from
    assert engine_cache._kept[match.public_id].version == 3
    assert engine.current_round is not None and not engine.current_round.events
    same_table(engine, page)


@pytest.mark.django_db
@settings(max_examples=8, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 10_000), data=st.data())
def test_two_processes_taking_turns_keep_what_the_rows_are_and_the_scores_right(
        shape, seed, data, django_capture_on_commit_callbacks):
    """Each write is made by one of two processes, at random, with undos between: each
    process's kept engine is caught up from the other's changes, and what it knows of
    the rows (the live round, the last event number, the miscalls) is what the rows
    are, or unknown."""
    game, players, options = shape
    played = simulated_match(game, players, seed=seed, options=options, max_rounds=2)
    assert played.names is not None
    match = match_create(game=game.slug, players=list(played.names), options=options)
    processes: list[OrderedDict] = [OrderedDict(), OrderedDict()]

    def as_process(index: int, write: Callable[[], object]) -> None:
        with mock.patch.object(engine_cache, "_kept", processes[index]):
            with django_capture_on_commit_callbacks(execute=True):  # handed on as it commits
                write()
            match.refresh_from_db()
            with engine_cache.engine_for_reading(match):  # caught up, or replayed
                pass

    def rows_known_are_the_rows() -> None:
        for kept_engines in processes:
            kept = kept_engines.get(match.public_id)
            if kept is None or kept.version != match.version:
                continue
            if kept.rows is not None:
                assert kept.rows == scoring._rows(match)
            if kept.miscalls is not None:
                assert kept.miscalls == match_miscalls(match)
            if kept.side_ids is not None:
                assert kept.side_ids == side_ids(match)

    for action in played.log:
        record = partial(actions_record, match=match, actions=[action])
        as_process(data.draw(st.integers(0, 1)), record)
        rows_known_are_the_rows()
        if data.draw(st.booleans()):
            as_process(data.draw(st.integers(0, 1)), partial(event_undo, match=match))
            rows_known_are_the_rows()
            as_process(data.draw(st.integers(0, 1)), record)  # again
            rows_known_are_the_rows()
        assert_cache_equals_replay(match)
    assert rules.summary(match_engine(match)) == rules.summary(played)
    numbers = list(match.events.order_by("pk").values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))  # each write took the next number


def side_ids(match: Match) -> list[int]:
    return list(match.sides.order_by("index").values_list("pk", flat=True))


@pytest.mark.parametrize("players", [2, 4])
def test_a_replay_knows_the_rows_the_sides_and_the_miscalls_from_what_it_read(players):
    match = match_create(game="all-fives", players=["Ann", "Bo", "Cy", "Di"][:players],
                                  options={"hand_size": 5})
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5"), None, 5))  # 10
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
    event_undo(match=match)  # event 2 taken back: the next is number 3
    engine_cache.forget_engines()

    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries, \
            engine_cache.scorepad_for_reading(match) as (_, miscalls):
        pass
    kept = engine_cache._kept[match.public_id]

    assert len(queries) == 4  # seats, rounds, events; the match again (no write came)
    live_round = match.rounds.get().pk
    assert kept.rows == scoring._rows(match) == engine_cache.Rows(live_round, 2)
    assert kept.side_ids == side_ids(match)
    assert miscalls == match_miscalls(match) and len(miscalls[1]) == 1


def test_a_replay_before_the_first_round_knows_the_rows_the_start_makes(
        django_capture_on_commit_callbacks):
    match = two_player_all_fives()
    read(match)  # kept with no round yet
    with django_capture_on_commit_callbacks(execute=True):  # handed on as it commits
        round_start(match=match, starter=0)
    with CaptureQueriesContext(connection) as queries:
        event_record(match=match, action=rules.Play(0, T("5-5")))

    assert not [q for q in queries.captured_queries if "subquery" in q["sql"].lower()]
    assert match.events.get().round == match.rounds.get()


def test_a_catch_up_keeps_the_miscalls_unless_one_came_or_went():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5"), None, 5))  # 10
    match.refresh_from_db()
    with engine_cache.scorepad_for_reading(match) as (_, miscalls):
        assert len(miscalls[1]) == 1
    with another_process():
        event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
        event_record(match=match, action=rules.Play(0, T("5-6"), A("5-5:5"), 0))

    uncalled, kept_notes = read_miscalls(match)
    with another_process():
        event_record(match=match, action=rules.Draw(1, 1))
        event_record(match=match, action=rules.Play(1, T("6-6"), A("5-6:6"), 5))
    miscalled, more_notes = read_miscalls(match)
    with another_process():
        event_undo(match=match)  # the miscalled 6-6
    undone, after_undo = read_miscalls(match)

    assert uncalled == 1 and kept_notes == miscalls  # called right: the catch-up alone
    assert miscalled == 2 and len(more_notes[1]) == 2  # read again with the new one
    assert undone == 2 and after_undo == miscalls


def read_miscalls(match: Match) -> tuple[int, dict[int, list[str]]]:
    """The miscalls a scorepad of ``match`` reads now, and the queries that took."""
    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries, \
            engine_cache.scorepad_for_reading(match) as (_, miscalls):
        pass
    return len(queries), miscalls
