"""matches.selectors.engines: the engine kept for reading equals a replay of the rows,
whatever was written since it was kept."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import rules, selectors, services
from matches.models import Match
from tests.matches.helpers import A, T, play_short_round, two_player_all_fives

pytestmark = pytest.mark.django_db


def read(match: Match) -> rules.Match:
    match.refresh_from_db()
    with selectors.engine_for_reading(match) as engine:
        return engine


def same_table(kept: rules.Match, match: Match) -> None:
    fresh = selectors.match_engine(match)
    assert kept.log == fresh.log
    assert kept.scores == fresh.scores and kept.winner == fresh.winner
    assert kept.names == fresh.names and kept.phase == fresh.phase


def test_added_actions_are_caught_up_from_the_change_log_without_a_replay():
    match = two_player_all_fives(hand_size=7)
    services.round_start(match=match, starter=0)
    first = read(match)
    services.event_record(match=match, action=rules.Play(0, T("5-5")))
    services.event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 15))  # miscall

    match.refresh_from_db()
    with CaptureQueriesContext(connection) as queries, \
            selectors.engine_for_reading(match) as engine:
        pass

    assert engine is first  # the same engine, brought forward
    assert len(queries) == 1  # the two changes, read from the log; no rows replayed
    same_table(engine, match)


@pytest.mark.parametrize("write", ["undo", "restore", "rename", "settle"])
def test_any_other_change_replays_and_the_kept_engine_agrees(write):
    match = two_player_all_fives()
    play_short_round(match)
    read(match)
    if write == "undo":
        services.event_undo(match=match)
    elif write == "restore":
        services.match_restore(match=match, to_version=2)
    elif write == "rename":
        services.match_restore(match=match, to_version=1)  # back before the first tile
        services.seats_rename(match=match, names=["Olha", "Taras"])
    else:
        services.round_settle(match=match, pips=(0, 9))

    same_table(read(match), match)


def test_a_deleted_match_leaves_nothing_that_another_could_take():
    match = two_player_all_fives()
    play_short_round(match)
    read(match)
    services.match_delete(match=match)
    other = two_player_all_fives()
    services.round_start(match=other, starter=1)

    same_table(read(other), other)
