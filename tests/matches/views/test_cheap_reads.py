"""Reads that cost little: watchers' polls answer 304 while nothing changed, HEAD works
on every page, and a scorepad request's queries do not grow with the match."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import rules, services
from tests.matches.helpers import T, play_short_round, two_player_all_fives
from tests.matches.views.test_scorepad import HTMX, join, scorer_url, w

pytestmark = pytest.mark.django_db


def test_a_watchers_poll_answers_304_until_the_table_changes(client):
    match = two_player_all_fives()
    services.round_start(match=match, starter=0)
    url = match.get_absolute_url()

    first = client.get(url, **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    again = client.get(url, **HTMX, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    services.event_record(match=match, action=rules.Play(0, T("5-5")))
    changed = client.get(url, **HTMX, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


@pytest.mark.parametrize("name", ["home", "new", "history_list", "clubs"])
def test_head_answers_like_get(client, name):
    assert client.head(reverse(f"matches:{name}")).status_code == 200


def test_head_answers_on_a_match_page(client):
    match = two_player_all_fives()
    assert client.head(match.get_absolute_url()).status_code == 200


def _queries(client, match, method: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        if method == "get":
            response = client.get(scorer_url(match), **HTMX)
        else:
            rnd_turn = w(match, turn=True)
            response = client.post(scorer_url(match, "draw"), {**rnd_turn, "tiles": "1"},
                                   **HTMX)
        assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_scorepad_request_costs_the_same_queries_however_long_the_match(client, method):
    short = two_player_all_fives(hand_size=7)
    services.round_start(match=short, starter=0)
    services.event_record(match=short, action=rules.Play(0, T("5-5")))
    long = two_player_all_fives(hand_size=2)
    for _ in range(6):  # six rounds of three plays and a settlement
        play_short_round(long)
        services.round_settle(match=long, pips=(0, 9))
    services.round_start(match=long, starter=0)
    services.event_record(match=long, action=rules.Play(0, T("5-5")))
    join(client, short)
    join(client, long)

    counted = _queries(client, short, method), _queries(client, long, method)

    assert counted[0] == counted[1], counted
    if method == "get":
        assert counted[0] <= 10, counted
