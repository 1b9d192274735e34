"""The page of a finished match: its log, its chart and its board replay."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest

from matches import rules
from matches.models import Match, MatchStatus
from matches.rules.simulate import simulated_match
from matches.scoring.match_page import (
    CHART_HEIGHT,
    CHART_WIDTH,
    PLOT_BOTTOM,
    PLOT_LEFT,
    PLOT_RIGHT,
    PLOT_TOP,
)
from matches.scoring.selectors.play import match_actions, match_engine, match_names
from matches.scoring.services.play import (
    actions_record,
    event_record,
    event_undo,
    match_create,
    round_settle,
    round_start,
)
from tests.support.helpers import A, T, play_short_round, two_player_all_fives

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "replay"}

SHAPES = [
    # seeds whose simulated match finishes within a few rounds
    (rules.ALL_FIVES, 2, {"target": 60, "hand_size": 4}, 0),
    (rules.ALL_FIVES, 4, {"target": 60, "hand_size": 4}, 11),
    (rules.FIVE_UP, 3, {"target": 8, "hand_size": 3}, 0),
    (rules.FIVES_AND_THREES, 3, {"target": 15, "drawing": True, "hand_size": 4}, 2),
]


def finished_short_match() -> Match:
    """Olena 20 – 10 Taras after one round (see ``play_short_round``)."""
    match = two_player_all_fives(target=20)
    play_short_round(match)
    round_settle(match=match, pips=(0, 9))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def stored_simulation(game: rules.Game, players: int, options: dict[str, Any],
                      seed: int) -> Match:
    """A simulated match, stored action by action through the services."""
    played = simulated_match(game, players, seed=seed, options=options, max_rounds=12)
    assert played.names is not None and played.finished
    match = match_create(game=game.slug, players=list(played.names), options=options)
    actions_record(match=match, actions=played.log)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def replay_state(html: str) -> dict[str, Any]:
    """What the replay shows: its round and step, the tiles drawn, the end sum, the points."""
    found = re.search(r'id="replay" class="replay" data-round="(\d+)" data-step="(\d+)" '
                      r'data-steps="(\d+)"', html)
    assert found, html
    end_sum = re.search(r'id="ends"><span>Ends [^<]*= <strong>(\d+)</strong>', html)
    points = re.search(r'id="replay-points">([^<]+)<', html)
    assert end_sum and points
    return {"round": int(found.group(1)), "step": int(found.group(2)),
            "steps": int(found.group(3)),
            "tiles": re.findall(r'class="board-tile[^"]*" data-tile="([^"]+)"', html),
            "end_sum": int(end_sum.group(1)), "points": html_lib.unescape(points.group(1))}


# -- the page ---------------------------------------------------------------------------


def test_a_finished_match_gets_its_page_with_one_heading(client):
    match = finished_short_match()
    html = client.get(match.get_absolute_url()).content.decode()
    assert html.count("<h1") == 1
    assert "<h1>All Fives: Olena 20 – 10 Taras</h1>" in html
    assert 'hx-trigger="every 5s"' not in html  # nothing left to refresh
    assert f'href="/matches/{match.public_id}/record.json"' in html
    # each round's replay link says which round it replays
    assert 'href="?round=1&amp;step=1#replay" aria-label="Replay round 1">replay</a>' in html


def test_the_page_is_remembered_as_opened(client):
    match = finished_short_match()
    client.get(match.get_absolute_url())
    assert str(match.public_id) in client.session["opened"]


def test_an_in_progress_match_still_gets_the_live_scorepad(client):
    match = two_player_all_fives()
    play_short_round(match)
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'id="scorepad"' in html and 'hx-trigger="every 5s"' in html
    assert 'id="match-page"' not in html and 'id="replay"' not in html
    fragment = client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<div id="scorepad"')


def test_a_watchers_poll_reloads_the_page_once_the_match_is_over(client):
    match = finished_short_match()
    response = client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true",
                          HTTP_HX_TARGET="scorepad")
    assert response["HX-Refresh"] == "true"


def test_a_finished_matchs_page_reloads_itself_once_the_match_changes(client):
    # a win undone (or a match resumed) must not stay a win on the watchers' phones
    match = finished_short_match()
    page = client.get(match.get_absolute_url()).content.decode()
    watch = re.search(r'<div id="match-watch" hidden hx-get="([^"]+)" hx-trigger="every \d+s"',
                      page)
    assert watch is not None
    url = html_lib.unescape(watch[1])
    assert url == f"{match.get_absolute_url()}?seen={match.version}"
    asked = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "match-watch"}
    unchanged = client.get(url, **asked)
    assert unchanged.status_code == 204 and "HX-Refresh" not in unchanged

    event_undo(match=match)  # the settlement that won it, taken back
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS
    changed = client.get(url, **asked)
    assert changed["HX-Refresh"] == "true"


# -- the log ---------------------------------------------------------------------------


def test_the_log_tells_each_placement_with_its_sum_and_points(client):
    match = finished_short_match()
    html = client.get(match.get_absolute_url()).content.decode()
    assert "Olena: 5-5 to open — sum 10 → <strong>10</strong>" in html
    assert "Taras: 0-5 on the double 5 — sum 10 → <strong>10</strong>" in html
    assert "Olena: 5-6 on the double 5 — sum 6 → <strong>0</strong>" in html
    assert "· Olena went out" in html


def test_a_wrong_call_noted_at_the_table_stays_noted_on_the_finished_page(client):
    """The scorepad's log said it while the match was played; the page of the match
    played out says it too, in its round."""
    match = two_player_all_fives(target=20)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 15))
    event_record(match=match, action=rules.Play(0, T("5-6"), A("5-5:5")))
    round_settle(match=match, pips=(0, 9))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED

    html = client.get(match.get_absolute_url()).content.decode()
    assert ('<li class="miscall">Taras called 15 for 0-5; the rules give 10, which counted'
            in html)


@pytest.mark.parametrize(("game", "players", "options", "seed"), SHAPES)
def test_the_log_shows_each_rounds_settlement_steps_and_running_scores(
        client, game, players, options, seed):
    match = stored_simulation(game, players, options, seed)
    html = html_lib.unescape(client.get(match.get_absolute_url()).content.decode())
    engine = match_engine(match)
    articles = re.split(r'<article class="card log-round" id="round-\d+"', html)[1:]
    assert len(articles) == len(engine.rounds)
    for article, rnd in zip(articles, engine.rounds, strict=True):
        for step in rnd.settlement.steps if rnd.settlement else ():
            assert f"<li>{step}</li>" in article
        running = re.findall(r'data-running="\d+">([^<]+)<', article)
        assert running == [rules.show_points(s) for s in engine.scores_after(rnd)]


def test_a_called_round_shows_the_scoring_ends_of_each_call(client):
    match = two_player_all_fives(target=20)
    round_start(match=match, starter=None, mode="ends")
    event_record(match=match, action=rules.Call(
        1, (rules.ScoringEnd(6, double=True), rules.ScoringEnd(3)), 15))
    event_record(match=match, action=rules.Call(0, (rules.ScoringEnd(5),
                                                             rules.ScoringEnd(5)), 10))
    round_settle(match=match, pips=(0, 8), result=rules.RoundEnd.DOMINO,
                          domino_seat=0)  # Taras's 8 pips: 10 more for Olena, 20
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    html = client.get(match.get_absolute_url()).content.decode()
    assert "Round 1 (called)" in html
    assert "Taras: ends 12 + 3 — sum 15 → <strong>15</strong>" in html
    assert "Olena: ends 5 + 5 — sum 10 → <strong>10</strong>" in html
    assert 'id="replay"' not in html  # a called round has no board to replay
    assert 'class="board-tile' not in html


# -- the chart -------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options", "seed"), SHAPES)
def test_the_chart_has_one_polyline_per_side_through_its_running_scores(
        client, game, players, options, seed):
    match = stored_simulation(game, players, options, seed)
    html = client.get(match.get_absolute_url()).content.decode()
    engine = match_engine(match)
    series = [[0.0] + [float(engine.scores_after(rnd)[side]) for rnd in engine.rounds]
              for side in range(len(engine.sides))]
    top = max(engine.options.target, *(max(s) for s in series))
    bottom = min(0, *(min(s) for s in series))  # a side can go below 0 (Five Up's threes)
    rounds = len(engine.rounds)
    lines = dict(re.findall(r'<polyline class="chart-line" data-side="(\d+)" points="([^"]+)"',
                            html))
    assert sorted(lines) == [str(side) for side in range(len(engine.sides))]
    for side, scores in enumerate(series):
        points = [tuple(float(v) for v in pair.split(",")) for pair in lines[str(side)].split()]
        expected = [(PLOT_LEFT + (CHART_WIDTH - PLOT_RIGHT - PLOT_LEFT) * r / rounds,
                     CHART_HEIGHT - PLOT_BOTTOM
                     - (CHART_HEIGHT - PLOT_BOTTOM - PLOT_TOP) * (score - bottom) / (top - bottom))
                    for r, score in enumerate(scores)]
        flat = [v for point in points for v in point]
        assert flat == pytest.approx([v for point in expected for v in point], abs=0.06)


def test_the_chart_is_labelled_for_screen_readers(client):
    match = finished_short_match()
    html = client.get(match.get_absolute_url()).content.decode()
    svg = re.search(r'<svg class="score-chart"[^>]*>', html)
    assert svg and 'role="img"' in svg.group(0)
    label = "Running score over 1 round, target 20: Olena 20; Taras 10; Olena won"
    assert f'aria-label="{label}"' in svg.group(0)
    assert f"<title>{label}</title>" in html
    table = re.search(r'<table class="visually-hidden" id="chart-data">(.*?)</table>', html,
                      re.S)
    assert table
    assert re.sub(r"\s+", "", table.group(1)).endswith(
        '<tbody><tr><thscope="row">1</th><td>20</td><td>10</td></tr></tbody>')
    assert '<li data-side="0">' in html and "</svg> Taras</li>" in html  # the legend


# -- the replay ------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options", "seed"), SHAPES)
def test_the_replay_shows_the_engines_board_and_points_at_every_step(
        client, game, players, options, seed):
    match = stored_simulation(game, players, options, seed)
    names = match_names(match)
    actions = match_actions(match)
    url = match.get_absolute_url()
    starts = [i for i, action in enumerate(actions) if isinstance(action, rules.StartRound)]
    checked = 0
    for number, start in enumerate(starts, start=1):
        stop = starts[number] if number < len(starts) else len(actions)
        plays = [i for i in range(start, stop) if isinstance(actions[i], rules.Play)]
        for step, index in enumerate(plays, start=1):
            fresh = rules.Match.replay(match.rules_game, names, match.options,
                                       actions[:index + 1], labels=names)
            rnd = fresh.rounds[number - 1]
            award = rnd.awards[-1]
            assert award is not None
            shown = replay_state(client.get(f"{url}?round={number}&step={step}",
                                            **HTMX).content.decode())
            assert (shown["round"], shown["step"], shown["steps"]) == (number, step,
                                                                         len(plays))
            assert shown["tiles"] == [str(tile) for tile in rnd.layout.tiles]
            assert shown["end_sum"] == rnd.layout.end_sum
            # what counted, last: "10", or "2 + 1 for going out = 3"
            assert shown["points"].rsplit("= ", 1)[-1] == rules.show_points(award.counted)
            if award.bonus and not award.refused:
                assert shown["points"].startswith(f"{rules.show_points(award.points)} + "
                                                  f"{award.bonus} for going out = ")
            checked += 1
    assert checked > 3


def test_the_replay_links_step_through_the_round_and_work_without_javascript(client):
    match = finished_short_match()
    url = match.get_absolute_url()
    html = client.get(url).content.decode()
    state = replay_state(html)
    assert (state["round"], state["step"], state["steps"]) == (1, 1, 3)
    assert state["tiles"] == ["5-5"] and state["end_sum"] == 10
    for key, step in (("first", 1), ("back", 1), ("forward", 2), ("last", 3)):
        link = re.search(rf'data-nav="{key}" href="([^"]+)" hx-get="([^"]+)"', html)
        assert link and link.group(1) == link.group(2) == f"?round=1&amp;step={step}"
    html = client.get(f"{url}?round=1&step=3").content.decode()
    state = replay_state(html)
    assert state["tiles"] == ["5-5", "0-5", "5-6"] and state["end_sum"] == 6
    assert "<strong>Olena</strong> placed 5-6 on the double 5" in html


def test_an_htmx_step_sends_only_the_replay(client):
    match = finished_short_match()
    fragment = client.get(f"{match.get_absolute_url()}?round=1&step=2", **HTMX)
    text = fragment.content.decode()
    assert text.lstrip().startswith('<div id="replay"')
    assert "<h1" not in text and "chart-line" not in text
    assert replay_state(text)["tiles"] == ["5-5", "0-5"]
    assert "HX-Request" in fragment["Vary"]


@pytest.mark.parametrize(("round_text", "step_text", "expected"), [
    ("1", "-1", (1, 1)),
    ("1", "0", (1, 1)),
    ("1", "99999999999", (1, 3)),
    ("1", "9" * 5000, (1, 3)),
    ("1", "²", (1, 1)),
    ("1", "2²", (1, 1)),
    ("1", "1e3", (1, 1)),
    ("1", "abc", (1, 1)),
    ("1", "", (1, 1)),
    ("1", " 2 ", (1, 2)),
    ("0", "2", (1, 2)),
    ("-5", "2", (1, 2)),
    ("7", "3", (1, 3)),
    ("²", "3", (1, 3)),
    ("٣", "٣", (1, 1)),  # Arabic-Indic digits: not ours
])
def test_out_of_range_query_values_give_the_nearest_valid_step(
        client, round_text, step_text, expected):
    match = finished_short_match()
    response = client.get(match.get_absolute_url(), {"round": round_text, "step": step_text})
    assert response.status_code == 200
    state = replay_state(response.content.decode())
    assert (state["round"], state["step"]) == expected


def test_a_called_round_is_skipped_for_the_nearest_tracked_one(client):
    match = two_player_all_fives(target=30)
    play_short_round(match)  # round 1, tracked: Olena 10 + 10 = 20, Taras 10
    round_settle(match=match, pips=(0, 3))  # 3 pips round to nothing
    round_start(match=match, starter=0, mode="ends")
    event_record(match=match, action=rules.Call(0, (rules.ScoringEnd(5),
                                                             rules.ScoringEnd(5)), 10))
    round_settle(match=match, pips=(0, 3), result=rules.RoundEnd.DOMINO,
                          domino_seat=0)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    html = client.get(match.get_absolute_url(), {"round": "2", "step": "1"}).content.decode()
    assert replay_state(html)["round"] == 1
    assert "Olena: ends 5 + 5 — sum 10 → <strong>10</strong>" in html
    assert "<h1>All Fives: Olena 30 – 10 Taras</h1>" in html


def test_the_tiles_of_a_step_are_the_ones_placed_so_far(client):
    match = finished_short_match()
    state = replay_state(client.get(f"{match.get_absolute_url()}?round=1&step=2",
                                    **HTMX).content.decode())
    assert T("5-6") not in [T(tile) for tile in state["tiles"]]
