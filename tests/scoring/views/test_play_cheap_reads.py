"""Reads that cost little: watchers' polls answer 304 while nothing changed, HEAD works
on every page, and a scorepad request's queries do not grow with the match."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import rules
from matches.scoring import engine_cache
from matches.scoring.services.play import event_record, round_settle, round_start
from tests.scoring.views.test_play import HTMX, error, join, scorer_url, w
from tests.support.helpers import (
    A,
    T,
    assert_cache_equals_replay,
    league_night,
    play_short_round,
    two_player_all_fives,
)

pytestmark = pytest.mark.django_db


def test_a_watchers_poll_answers_304_until_the_table_changes(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    url = match.get_absolute_url()

    first = client.get(url, **HTMX)
    etag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    again = client.get(url, **HTMX, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    event_record(match=match, action=rules.Play(0, T("5-5")))
    changed = client.get(url, **HTMX, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_a_watchers_poll_naming_the_version_it_shows_gets_no_content_until_it_changes(
        client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    page = client.get(match.get_absolute_url()).content.decode()
    poll = re.search(r'hx-get="([^"]*\?seen=\d+)" hx-trigger="every 5s"', page)
    assert poll is not None

    # nothing to swap: htmx leaves the page, its focus and open details, as they are
    unchanged = client.get(poll[1], **HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    event_record(match=match, action=rules.Play(0, T("5-5")))
    changed = client.get(poll[1], **HTMX)
    match.refresh_from_db()
    assert changed.status_code == 200
    assert '<span class="tile-name">5-5</span> to open' in changed.content.decode()
    assert f"?seen={match.version}" in changed.content.decode()  # the next poll names it


@pytest.mark.parametrize("name", ["home", "new", "history_list", "clubs"])
def test_head_answers_like_get(client, name):
    assert client.head(reverse(f"matches:{name}")).status_code == 200


def test_head_answers_on_a_match_page(client):
    match = two_player_all_fives()
    assert client.head(match.get_absolute_url()).status_code == 200


def _statements(queries: CaptureQueriesContext) -> list[str]:
    """The SQL a request ran, less transaction control (BEGIN, COMMIT, savepoints)."""
    return [query["sql"] for query in queries.captured_queries
            if not query["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))]


# a round of taps as the scorepad sends them: the fields besides version and key
TAPS: list[tuple[str, dict[str, str], bool]] = [
    ("round", {"starter": "0", "mode": "tracked"}, False),
    ("play", {"tile": "5-5", "at": "", "claim": "10"}, True),
    ("draw", {"tiles": "1"}, True),
    ("play", {"tile": "0-5", "at": "5-5:5", "claim": "15"}, True),  # miscalled: 10
    ("undo", {}, False),
    ("play", {"tile": "0-5", "at": "5-5:5", "claim": "10"}, True),
    ("play", {"tile": "5-6", "at": "5-5:5"}, True),  # Olena goes out
    ("settle", {"entry": "pips", "pips_0": "0", "pips_1": "9"}, False),
]


def _tap_statements(client, match) -> list[int]:
    engine_cache.forget_engines()  # a process that kept nothing of this match yet
    client.get(scorer_url(match), **HTMX)  # the phone's page, before its taps
    counted = []
    for name, fields, turn in TAPS:
        data = {**w(match, turn=turn), **fields}
        with CaptureQueriesContext(connection) as queries:
            response = client.post(scorer_url(match, name), data, **HTMX)
        assert response.status_code == 200, name
        assert error(response.content.decode()) is None, name
        counted.append(len(_statements(queries)))
    match.refresh_from_db()
    return counted


@pytest.mark.django_db(transaction=True)  # writes commit, and hand their engine on, as live
def test_a_scorepad_tap_runs_at_most_ten_statements_however_long_the_match(client):
    short = two_player_all_fives(target=1000)
    long = two_player_all_fives(target=1000)
    for _ in range(12):  # twelve rounds of three plays and a settlement
        play_short_round(long)
        round_settle(match=long, pips=(0, 9))
    join(client, short)
    join(client, long)

    counted = _tap_statements(client, short), _tap_statements(client, long)

    assert counted[0] == counted[1], counted
    assert max(counted[1]) <= 10, dict(zip([name for name, _, _ in TAPS], counted[1],
                                           strict=True))
    assert short.version == len(TAPS) and long.version == 12 * 5 + len(TAPS)


@pytest.mark.django_db(transaction=True)
def test_a_league_games_tap_asks_one_statement_more_whether_its_scorepad_is_closed(client):
    casual = two_player_all_fives(target=1000)
    league = league_night(target=1000).match  # the same game, in a fixture night
    join(client, casual)
    join(client, league)

    counted = _tap_statements(client, casual), _tap_statements(client, league)

    assert [b - a for a, b in zip(*counted, strict=True)] == [1] * len(TAPS), counted
    assert max(counted[1]) <= 10, dict(zip([name for name, _, _ in TAPS], counted[1],
                                           strict=True))


def test_a_scorepad_page_costs_the_same_queries_however_long_the_match(client):
    short = two_player_all_fives(hand_size=7)
    round_start(match=short, starter=0)
    event_record(match=short, action=rules.Play(0, T("5-5")))
    long = two_player_all_fives(hand_size=2)
    for _ in range(6):  # six rounds of three plays and a settlement
        play_short_round(long)
        round_settle(match=long, pips=(0, 9))
    round_start(match=long, starter=0)
    event_record(match=long, action=rules.Play(0, T("5-5")))
    join(client, short)
    join(client, long)
    counted = []
    for match in (short, long):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(scorer_url(match), **HTMX).status_code == 200
        counted.append(len(queries))

    assert counted[0] == counted[1] and counted[0] <= 10, counted


def test_a_placement_that_scores_nothing_leaves_the_score_rows_alone():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))  # 10
    score_rows = ('UPDATE "matches_side"', 'UPDATE "matches_roundside"')

    with CaptureQueriesContext(connection) as scoring:
        event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))  # 10
    with CaptureQueriesContext(connection) as nothing:
        event_record(match=match, action=rules.Play(0, T("5-6"), A("5-5:5")))  # 0

    assert [next(table for table in score_rows if q["sql"].startswith(table))
            for q in scoring.captured_queries if q["sql"].startswith(score_rows)] == \
        list(score_rows)
    assert not [q for q in nothing.captured_queries if q["sql"].startswith(score_rows)]
    assert_cache_equals_replay(match)


def _history(html: str) -> str:
    return html[html.index('id="history"'):]


def test_the_rounds_table_is_drawn_again_only_when_what_it_shows_changes(client):
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    join(client, match)
    client.get(scorer_url(match), **HTMX)
    fragments = caches["default"]

    def tap(tile: str, at: str) -> tuple[str, int]:
        with mock.patch.object(fragments, "set", wraps=fragments.set) as drawn:
            response = client.post(scorer_url(match, "play"),
                                   {**w(match, turn=True), "tile": tile, "at": at}, **HTMX)
        return _history(response.content.decode()), drawn.call_count

    opened, opened_drawn = tap("5-5", "")  # 10: the round's row changes
    joined, joined_drawn = tap("0-5", "5-5:5")  # 10 more
    nothing, nothing_drawn = tap("5-6", "5-5:5")  # no point: the same rows

    assert (opened_drawn, joined_drawn, nothing_drawn) == (1, 1, 0)
    assert _first_row(opened) == ["1", "10", "0"] and _first_row(joined) == ["1", "10", "10"]
    assert nothing == joined
    ukrainian = _history(client.get(scorer_url(match), **HTMX,
                                    HTTP_ACCEPT_LANGUAGE="uk").content.decode())
    assert "Раунди" in ukrainian and "Rounds" not in ukrainian


def _first_row(history: str) -> list[str]:
    row = history[history.index('<tr data-round="1">'):]
    return re.findall(r"<td[^>]*>([^<]*)</td>", row[:row.index("</tr>")])[:3]
