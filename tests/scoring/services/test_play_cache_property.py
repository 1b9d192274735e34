"""Property: through every service, the cached scores equal a fresh replay of the events."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import rules
from matches.rules.simulate import simulated_match
from matches.scoring.selectors.play import match_actions, match_engine
from matches.scoring.services.play import (
    actions_record,
    event_record,
    event_undo,
    match_create,
    match_restore,
    round_settle,
    round_start,
)
from tests.support.helpers import SHAPES, assert_cache_equals_replay, live, site_admin


@pytest.mark.django_db
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 10_000))
def test_every_step_and_every_undo_keeps_the_cache_equal_to_a_replay(shape, seed):
    game, players, options = shape
    played = simulated_match(game, players, seed=seed, options=options, max_rounds=3)
    assert played.names is not None
    match = match_create(game=game.slug, players=list(played.names), options=options)
    for action in played.log:
        if isinstance(action, rules.StartRound):
            round_start(match=match, starter=action.starter)
        elif isinstance(action, rules.Settle):
            round_settle(match=match, hands=action.hands, pips=action.pips)
        else:
            event_record(match=match, action=action)
        assert_cache_equals_replay(match)
    assert rules.summary(match_engine(match)) == rules.summary(played)
    for _ in played.log:
        event_undo(match=match)
        assert_cache_equals_replay(match)
    assert live(match.rounds).count() == 0 and live(match.events).count() == 0
    # nothing was erased: restoring the last version before the undos brings it all back
    match.refresh_from_db()
    played_version = len(played.log)
    match_restore(match=match, to_version=played_version, user=site_admin())
    assert_cache_equals_replay(match)
    assert rules.summary(match_engine(match)) == rules.summary(played)
    assert match.version == 2 * len(played.log) + 1


@pytest.mark.django_db
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.sampled_from(SHAPES), seed=st.integers(0, 10_000), data=st.data())
def test_restoring_any_version_gives_the_match_as_it_stood_then(shape, seed, data):
    game, players, options = shape
    played = simulated_match(game, players, seed=seed, options=options, max_rounds=2)
    assert played.names is not None
    match = match_create(game=game.slug, players=list(played.names), options=options)
    summaries = [rules.summary(match_engine(match))]
    for action in played.log:
        actions_record(match=match, actions=[action])
        summaries.append(rules.summary(match_engine(match)))
    for _ in range(data.draw(st.integers(0, 3))):  # some undos, recorded as versions too
        match.refresh_from_db()
        if match_actions(match):
            event_undo(match=match)
            summaries.append(rules.summary(match_engine(match)))
    for _ in range(3):
        match.refresh_from_db()
        to = data.draw(st.integers(0, match.version - 1))
        match_restore(match=match, to_version=to, user=site_admin())
        assert rules.summary(match_engine(match)) == summaries[to]
        assert_cache_equals_replay(match)
        summaries.append(summaries[to])
