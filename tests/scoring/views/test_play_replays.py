"""A match's pages replay it at most once a request, and not at all once the process
keeps its engine (matches.scoring.engine_cache): the finished match's page and its board
replay, the watchers' page, the scorer's page and the rename page."""

from __future__ import annotations

import pytest

from matches import rules
from matches.rules.simulate import simulated_record
from matches.scoring import engine_cache
from matches.scoring.services.play import match_import
from tests.scoring.views.test_play import join, scorer_url
from tests.support.helpers import counted_replays, play_short_round, two_player_all_fives

pytestmark = pytest.mark.django_db
REPLAY = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "replay"}


def replays_of(client, url: str, **extra) -> int:
    with counted_replays() as replays:
        assert client.get(url, **extra).status_code == 200
    return replays.call_count


@pytest.fixture
def finished():
    match = match_import(document=simulated_record(rules.ALL_FIVES, 2, seed=7))
    engine_cache.forget_engines()  # a worker that has not seen it
    return match


def test_a_finished_matchs_page_replays_it_once_then_never(client, finished):
    url = finished.get_absolute_url()

    assert replays_of(client, url) == 1
    assert replays_of(client, url) == 0
    assert replays_of(client, url + "?round=2&step=3", **REPLAY) == 0


def test_a_step_of_the_board_replay_on_a_cold_worker_replays_the_match_once(client, finished):
    assert replays_of(client, finished.get_absolute_url() + "?round=3&step=4", **REPLAY) == 1


def test_the_watchers_page_of_a_match_in_play_replays_it_once_then_never(client):
    match = two_player_all_fives()
    play_short_round(match)
    engine_cache.forget_engines()

    assert replays_of(client, match.get_absolute_url()) == 1
    assert replays_of(client, match.get_absolute_url()) == 0


@pytest.mark.parametrize("page", ["scorepad", "rename"])
def test_the_scorers_pages_replay_the_match_once_then_never(client, page):
    match = two_player_all_fives()
    play_short_round(match)
    join(client, match)
    engine_cache.forget_engines()

    assert replays_of(client, scorer_url(match, page)) == 1
    assert replays_of(client, scorer_url(match, page)) == 0
