"""The domino-league/1 format and its standings: the spec's example, tie-breaks, refusals."""

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.rules import (
    ALL_FIVES,
    FIVE_UP,
    FIVES_AND_THREES,
    FixtureNightError,
    ImpossibleScore,
    LeagueInvalid,
    RecordError,
    RulesError,
    native,
)
from matches.rules.league import (
    DEFAULT_TIEBREAKS,
    FORMAT,
    PAIRS,
    SINGLES,
    TIEBREAKS,
    Adjustment,
    Bonus,
    Night,
    Outcome,
    Scoring,
    Side,
    Table,
    check_game_score,
    form_guide,
    game_score,
    game_winner,
    games_won,
    loads,
    outcome,
    read_league,
    standings,
    table_json,
)
from matches.rules.simulate import simulated_match

SPEC = Path(__file__).resolve().parents[3] / "shared" / "league-record.md"

# league-record.md, "Document" and "Standings", copied exactly
SPEC_DOCUMENT: dict[str, Any] = {
    "format": "domino-league/1",
    "name": "Teesdale Monday League 2026/27 — Division A",
    "game": "fives-and-threes",
    "options": {"deal": "short"},
    "entrants": [
        {"name": "Royal Oak A", "players": ["Ann Dale", "Bob Hart"]},
        {"name": "Bowes Dragons"},
        {"name": "Middleton Club"},
    ],
    "scoring": {"win": 2, "draw": 1, "loss": 0, "per_game": 1,
                "close_loss": {"margin": 1, "points": 1},
                "heavy_win": {"margin": 6, "points": 1},
                "walkover": [5, 4]},
    "tiebreaks": ["game_difference", "games_for", "head_to_head"],
    "fixtures": [
        {"date": "2026-09-07", "home": "Royal Oak A", "away": "Bowes Dragons",
         "result": [2, 1], "games": [[61, 40], [61, 12], [58, 61]]},
        {"date": "2026-09-14", "home": "Bowes Dragons", "away": "Middleton Club",
         "walkover": "away"},
        {"date": "2026-09-21", "home": "Middleton Club", "away": "Royal Oak A",
         "postponed": True},
    ],
    "adjustments": [{"entrant": "Bowes Dragons", "points": -3, "reason": "result sent late"}],
}
SPEC_STANDINGS: dict[str, Any] = {
    "league": "Teesdale Monday League 2026/27 — Division A",
    "standings": [
        {"rank": 1, "entrant": "Middleton Club", "played": 1, "won": 1, "drawn": 0, "lost": 0,
         "games_for": 5, "games_against": 4, "score_for": 0, "score_against": 0,
         "adjustment": 0, "points": 7},
        {"rank": 2, "entrant": "Royal Oak A", "played": 1, "won": 1, "drawn": 0, "lost": 0,
         "games_for": 2, "games_against": 1, "score_for": 180, "score_against": 113,
         "adjustment": 0, "points": 4},
        {"rank": 3, "entrant": "Bowes Dragons", "played": 2, "won": 0, "drawn": 0, "lost": 2,
         "games_for": 5, "games_against": 7, "score_for": 113, "score_against": 180,
         "adjustment": -3, "points": 4},
    ],
}
ROW_KEYS = ["rank", "entrant", "played", "won", "drawn", "lost", "games_for", "games_against",
            "score_for", "score_against", "adjustment", "points"]


def doc(entrants, fixtures, **fields):
    """A small all-fives league with the default scoring unless ``fields`` say otherwise."""
    return {"format": FORMAT, "name": "Test league", "game": "all-fives",
            "entrants": [{"name": name} for name in entrants], "fixtures": fixtures, **fields}


def won(home, away, home_games, away_games, **fields):
    return {"home": home, "away": away, "result": [home_games, away_games], **fields}


def table(document) -> Table:
    return standings(read_league(document))


def row(result: Table, name: str):
    return next(r for r in result.rows if r.entrant == name)


def order(result: Table) -> list[tuple[int, str, str | None]]:
    return [(r.rank, r.entrant, r.decided_by) for r in result.rows]


# -- the spec's example ----------------------------------------------------------------

def test_the_spec_example_gives_the_spec_standings_exactly():
    result = table_json(table(SPEC_DOCUMENT))

    assert result == SPEC_STANDINGS
    assert json.dumps(result) == json.dumps(SPEC_STANDINGS)  # the keys' order too
    assert [list(r) for r in result["standings"]] == [ROW_KEYS] * 3


def test_the_spec_example_rows_say_how_they_were_placed():
    result = table(SPEC_DOCUMENT)

    assert order(result) == [(1, "Middleton Club", None), (2, "Royal Oak A", None),
                             (3, "Bowes Dragons", "game_difference")]
    assert not any(r.shared for r in result.rows)


@pytest.mark.skipif(not SPEC.is_file(), reason=f"the spec is not at {SPEC}")
def test_the_examples_here_are_the_specs_own():
    blocks = re.findall(r"```json\n(.*?)```", SPEC.read_text(encoding="utf-8"), re.S)
    assert json.loads(blocks[0]) == SPEC_DOCUMENT
    assert json.loads(blocks[1]) == SPEC_STANDINGS


def test_the_spec_example_reads_into_values():
    league = read_league(SPEC_DOCUMENT)

    assert league.game.slug == "fives-and-threes"
    assert league.options == {"deal": "short"}
    assert league.entrants[0].players == ("Ann Dale", "Bob Hart")
    assert league.entrants[1].players == ()
    assert league.scoring == Scoring(2, 1, 0, 1, Bonus(1, 1), Bonus(6, 1), (5, 4))
    assert league.tiebreaks == ("game_difference", "games_for", "head_to_head")
    first, walkover, postponed = league.fixtures
    assert (first.number, str(first.date), first.result, first.games) == (
        1, "2026-09-07", (2, 1), ((61, 40), (61, 12), (58, 61)))
    assert (walkover.walkover, walkover.result, walkover.counted) == (Side.AWAY, None, True)
    assert walkover.games_won(league.scoring) == (4, 5)
    assert (postponed.postponed, postponed.counted, postponed.games_won(league.scoring)) == (
        True, False, None)
    assert league.adjustments == (Adjustment("Bowes Dragons", -3, "result sent late"),)


def test_defaults_when_scoring_and_tiebreaks_are_left_out():
    league = read_league(doc(["A", "B"], []))

    assert league.scoring == Scoring(win=2, draw=1, loss=0, per_game=0, close_loss=None,
                                     heavy_win=None, walkover=(1, 0))
    assert league.tiebreaks == DEFAULT_TIEBREAKS == ("game_difference", "games_for")
    assert league.options == {} and league.adjustments == ()


def test_an_entrant_with_no_fixture_has_a_row_of_zeros():
    result = table_json(table(doc(["Anchor", "Bell", "Crown"], [won("Anchor", "Bell", 1, 0)])))

    assert result["standings"][1] == {"rank": 2, "entrant": "Crown", **dict.fromkeys(
        ROW_KEYS[2:], 0)}


# -- tie-breakers ----------------------------------------------------------------------

def test_head_to_head_splits_three_and_the_next_criterion_splits_the_pair_left():
    # A, B, C on 4 points each. Among the three alone: A 4 (beat B and C), B 1, C 1
    # (B and C drew). B and C stay level; games_for then puts B (5) above C (3).
    fixtures = [won("A", "B", 1, 0), won("A", "C", 1, 0), won("B", "C", 1, 1),
                won("B", "D", 1, 1), won("C", "D", 1, 1), won("B", "D", 3, 0),
                won("C", "D", 1, 0)]
    result = table(doc(["D", "C", "B", "A"], fixtures,
                       tiebreaks=["head_to_head", "games_for"]))

    assert [r.points for r in result.rows] == [4, 4, 4, 2]
    assert order(result) == [(1, "A", None), (2, "B", "head_to_head"), (3, "C", "games_for"),
                             (4, "D", None)]
    assert not any(r.shared for r in result.rows)


def test_each_criterion_is_applied_once_not_again_to_a_smaller_group():
    # Among A, B, C: A 4, B 2, C 2. Between B and C alone B would lead (B beat C), but
    # head_to_head has had its turn: with nothing after it, B and C share second place.
    fixtures = [won("A", "B", 1, 0), won("A", "C", 1, 0), won("C", "A", 1, 0),
                won("B", "C", 1, 0), won("B", "D", 1, 0), won("C", "D", 1, 0)]
    result = table(doc(["A", "B", "C", "D"], fixtures, tiebreaks=["head_to_head"]))

    assert order(result) == [(1, "A", None), (2, "B", "head_to_head"), (2, "C", None),
                             (4, "D", None)]
    assert [r.shared for r in result.rows] == [False, True, True, False]


def test_an_unbreakable_tie_shares_the_rank_in_name_order():
    # bell and Crown are level on everything: ranks 1, 2, 2, 4, names case-insensitively
    fixtures = [won("Anchor", "Dragon", 3, 0), won("Dragon", "Anchor", 0, 1),
                won("Crown", "Dragon", 2, 1), won("bell", "Dragon", 2, 1)]
    result = table(doc(["Dragon", "Crown", "bell", "Anchor"], fixtures,
                       tiebreaks=list(TIEBREAKS)))

    assert order(result) == [(1, "Anchor", None), (2, "bell", None), (2, "Crown", None),
                             (4, "Dragon", None)]
    assert [r.shared for r in result.rows] == [False, True, True, False]
    assert [r["rank"] for r in table_json(result)["standings"]] == [1, 2, 2, 4]


def test_no_tiebreaks_at_all_leaves_every_points_tie_shared():
    result = table(doc(["A", "B", "C"], [won("A", "C", 3, 0), won("B", "C", 1, 0)],
                       tiebreaks=[]))

    assert order(result) == [(1, "A", None), (1, "B", None), (3, "C", None)]


# Each case: Zed and Abe level on points; the criterion alone puts Zed first (name
# order would not). "O" and "P" are other entrants.
CRITERIA = {
    # Zed won a fixture; Abe drew two
    "wins": [won("Zed", "O", 1, 0), won("Abe", "O", 1, 1), won("Abe", "P", 1, 1)],
    # Zed +2 (3 for), Abe +1 (4 for)
    "game_difference": [won("Zed", "O", 3, 1), won("Abe", "P", 4, 3)],
    # Zed 4 for (+1), Abe 3 for (+2)
    "games_for": [won("Zed", "O", 4, 3), won("Abe", "P", 3, 1)],
    # Zed +51 (61 for), Abe +40 (100 for)
    "score_difference": [won("Zed", "O", 1, 0, games=[[61, 10]]),
                         won("Abe", "P", 1, 0, games=[[100, 60]])],
    # Zed 100 for (+40), Abe 61 for (+51)
    "score_for": [won("Zed", "O", 1, 0, games=[[100, 60]]),
                  won("Abe", "P", 1, 0, games=[[61, 10]])],
    # Zed beat Abe; Abe's win over O does not count between them
    "head_to_head": [won("Zed", "Abe", 1, 0), won("Abe", "O", 1, 0)],
    # one win each between them (head_to_head level), 3-0 and 0-1 in games
    "head_to_head_games": [won("Zed", "Abe", 3, 0), won("Abe", "Zed", 1, 0)],
}


@pytest.mark.parametrize("criterion", CRITERIA)
def test_each_criterion_separates_a_pair_level_on_points(criterion):
    document = doc(["Abe", "O", "P", "Zed"], CRITERIA[criterion], tiebreaks=[criterion])

    result = table(document)

    zed, abe = row(result, "Zed"), row(result, "Abe")
    assert zed.points == abe.points
    assert (zed.rank + 1, abe.decided_by, zed.shared, abe.shared) == (
        abe.rank, criterion, False, False)
    unbroken = table({**document, "tiebreaks": []})
    assert row(unbroken, "Zed").rank == row(unbroken, "Abe").rank
    assert row(unbroken, "Abe").shared and row(unbroken, "Abe").decided_by is None


def test_head_to_head_games_can_split_what_head_to_head_leaves_level():
    document = doc(["Abe", "Zed"], CRITERIA["head_to_head_games"],
                   tiebreaks=["head_to_head", "head_to_head_games"])

    assert order(table(document)) == [(1, "Zed", None), (2, "Abe", "head_to_head_games")]


def test_the_order_of_the_tiebreaks_decides():
    fixtures = CRITERIA["game_difference"]  # Zed better on difference, Abe on games won
    by_difference = table(doc(["Abe", "O", "P", "Zed"], fixtures,
                              tiebreaks=["game_difference", "games_for"]))
    by_games = table(doc(["Abe", "O", "P", "Zed"], fixtures,
                         tiebreaks=["games_for", "game_difference"]))

    assert order(by_difference)[:2] == [(1, "Zed", None), (2, "Abe", "game_difference")]
    assert order(by_games)[:2] == [(1, "Abe", None), (2, "Zed", "games_for")]


def test_a_row_below_a_shared_rank_names_its_own_tiebreaker():
    # three on 2 points: X by games_for, then Abe and Bea level on everything
    fixtures = [won("X", "O", 3, 0), won("Abe", "O", 1, 0), won("Bea", "O", 1, 0)]
    result = table(doc(["Abe", "Bea", "O", "X"], fixtures))

    assert order(result) == [(1, "X", None), (2, "Abe", "game_difference"), (2, "Bea", None),
                             (4, "O", None)]


# -- points ----------------------------------------------------------------------------

SOLIHULL_PLUS = Scoring(win=3, draw=1, loss=0, per_game=1, close_loss=Bonus(1, 1),
                        heavy_win=Bonus(6, 2))


@pytest.mark.parametrize(("games", "points"), [
    ((5, 4), 3 + 5),      # a win by 1
    ((4, 5), 0 + 4 + 1),  # a loss by at most close_loss.margin: the close-loss point
    ((3, 5), 0 + 3),      # a loss by 2: no close-loss point
    ((6, 0), 3 + 6 + 2),  # a win by exactly heavy_win.margin: the bonus
    ((5, 0), 3 + 5),      # a win by 5: no bonus
    ((9, 1), 3 + 9 + 2),
    ((0, 6), 0),
    ((2, 2), 1 + 2),      # a draw: draw points and per game
])
def test_fixture_points_add_result_per_game_and_bonuses(games, points):
    assert SOLIHULL_PLUS.points(*games) == points


def test_solihull_three_a_win_and_one_for_a_five_four_loss():
    scoring = {"win": 3, "close_loss": {"margin": 1, "points": 1}}
    result = table(doc(["Crown", "Bell"], [won("Crown", "Bell", 5, 4)], scoring=scoring))

    assert [(r.entrant, r.points) for r in result.rows] == [("Crown", 3), ("Bell", 1)]


def test_leek_two_a_win_and_one_per_game_won_with_a_heavy_win_bonus():
    # Anchor and Bell level on 3 points; Anchor's game difference (0 to -7) puts it above
    scoring = {"win": 2, "per_game": 1, "heavy_win": {"margin": 6, "points": 1}}
    result = table(doc(["Crown", "Bell", "Anchor"],
                       [won("Crown", "Bell", 7, 0), won("Bell", "Anchor", 2, 2)],
                       scoring=scoring))

    assert [(r.entrant, r.points, r.drawn) for r in result.rows] == [
        ("Crown", 2 + 7 + 1, 0), ("Anchor", 1 + 2, 1), ("Bell", 0 + 1 + 2, 1)]


def test_a_walkover_counts_as_played_with_the_credited_games_and_no_scores():
    scoring = {"win": 2, "per_game": 1, "walkover": [6, 0]}
    result = table(doc(["Anchor", "Bell"], [{"home": "Anchor", "away": "Bell",
                                              "walkover": "home"}], scoring=scoring))
    anchor, bell = result.rows

    assert (anchor.entrant, anchor.played, anchor.won, anchor.games_for, anchor.games_against,
            anchor.score_for, anchor.points) == ("Anchor", 1, 1, 6, 0, 0, 2 + 6)
    assert (bell.entrant, bell.played, bell.lost, bell.games_for, bell.games_against,
            bell.points) == ("Bell", 1, 1, 0, 6, 0)


def test_the_default_walkover_is_one_game_to_nil():
    result = table(doc(["Anchor", "Bell"], [{"home": "Anchor", "away": "Bell",
                                              "walkover": "away"}]))

    assert [(r.entrant, r.games_for, r.games_against, r.points) for r in result.rows] == [
        ("Bell", 1, 0, 2), ("Anchor", 0, 1, 0)]


def test_a_walkover_counts_in_head_to_head():
    fixtures = [{"home": "Zed", "away": "Abe", "walkover": "home"}, won("Abe", "O", 1, 0)]
    result = table(doc(["Abe", "O", "Zed"], fixtures, tiebreaks=["head_to_head"]))

    assert order(result)[:2] == [(1, "Zed", None), (2, "Abe", "head_to_head")]


@pytest.mark.parametrize("walkover", [[1, 0], [5, 4], [6, 0]])
def test_the_form_guide_counts_a_walkover_as_the_table_does(walkover):
    # league-record.md: a walkover credits scoring.walkover; [w, l] has w > l, so the side
    # that turned up has a win in the guide as in the table, whatever the league's pair
    league = read_league(doc(["Anchor", "Bell"], [{"home": "Anchor", "away": "Bell",
                                                   "walkover": "away"}],
                             scoring={"walkover": walkover}))
    rows = {r.entrant: r for r in standings(league).rows}

    assert form_guide(league) == {"Anchor": "L", "Bell": "W"}
    assert (rows["Bell"].won, rows["Anchor"].lost) == (1, 1)


def test_the_form_guide_is_the_last_five_counted_results_oldest_first():
    # dated fixtures by date, undated after them, each in the document's order
    fixtures = [won("Anchor", "Bell", 0, 1, date="2026-09-21"),
                won("Anchor", "Bell", 1, 1),
                {"home": "Anchor", "away": "Bell", "postponed": True, "date": "2026-09-01"},
                won("Bell", "Anchor", 0, 2, date="2026-09-07"),
                won("Anchor", "Bell", 3, 0, date="2026-09-07"),
                {"home": "Bell", "away": "Anchor", "void": True},
                won("Anchor", "Bell", 2, 0, date="2026-09-14"),
                {"home": "Bell", "away": "Anchor", "walkover": "home"}]
    league = read_league(doc(["Anchor", "Bell", "Crown"], fixtures))

    assert form_guide(league) == {"Anchor": "WWLDL", "Bell": "LLWDW"}
    assert form_guide(league, last=2) == {"Anchor": "DL", "Bell": "DW"}


def test_outcome_is_by_games_won():
    assert [outcome(*won_lost) for won_lost in [(2, 1), (1, 1), (0, 0), (1, 3)]] == [
        Outcome.WIN, Outcome.DRAW, Outcome.DRAW, Outcome.LOSS]


def test_a_game_has_a_winner_unless_it_is_level():
    assert (game_winner((61, 40)), game_winner((0, 1)), game_winner((61, 61))) == (
        Side.HOME, Side.AWAY, None)


def test_games_won_counts_each_games_winner_and_no_level_game():
    assert games_won([(61, 40), (3, 61), (61, 0), (50, 50)]) == (2, 1)
    assert games_won([]) == (0, 0)


def night(notation: str) -> dict[int, tuple[int, int]]:
    """A night's scored games from notation: ``"61-40 - 12-61"`` is games 1 and 3
    (``-`` is a game with no score yet)."""
    scored = {}
    for number, game in enumerate(notation.split(), start=1):
        if game != "-":
            home, away = game.split("-")
            scored[number] = (int(home), int(away))
    return scored


@pytest.mark.parametrize(("rules", "games"), [
    (Night(games=3), "61-40 12-61 61-58"),
    (Night(games=1), "61-40"),
    (Night(), "3-61"),
    (Night(race_to=2), "61-40 61-12"),
    (Night(race_to=2), "61-40 12-61 61-58"),
    (Night(race_to=3), "1-61 61-2 3-61 61-4 5-61"),
    (Night(games=2, decider=True), "61-40 12-61 61-58"),  # a deciding game
    (Night(games=2, decider=True), "61-40 12-61"),  # whether it is needed: the cup's rule
])
def test_a_finished_night_is_accepted(rules, games):
    rules.check_complete(night(games))


@pytest.mark.parametrize(("rules", "games", "message"), [
    (Night(games=3), "61-40 12-61", "game 3 has no score yet (a night of 3 games)"),
    (Night(games=3), "61-40 - 61-58", "game 2 has no score yet (a night of 3 games)"),
    (Night(games=3), "", "game 1 has no score yet (a night of 3 games)"),
    (Night(games=3), "61-40 12-61 61-58 61-1",
     "game 4 is not a game of the night: it has at most 3"),
    (Night(race_to=2), "61-40", "neither side has won 2 games yet (1-0)"),
    (Night(race_to=2), "61-40 12-61", "neither side has won 2 games yet (1-1)"),
    (Night(race_to=2), "61-40 61-12 3-61",
     "game 3 comes after the race to 2 was won in game 2"),
    (Night(race_to=2), "61-40 - 3-61", "game 2 has no score yet, and a later game has"),
    (Night(race_to=2), "61-40 12-61 61-5 61-6",
     "game 4 is not a game of the night: it has at most 3"),
    (Night(games=2, decider=True), "61-40 - 61-58",
     "game 2 has no score yet (a night of 2 games)"),
    (Night(games=2, decider=True), "61-40 12-61 61-58 61-1",
     "game 4 is not a game of the night: it has at most 3"),
])
def test_an_unfinished_or_overlong_night_is_refused_saying_which_game(rules, games, message):
    with pytest.raises(FixtureNightError) as refused:
        rules.check_complete(night(games))
    assert str(refused.value) == message


@pytest.mark.parametrize(("rules", "most"), [(Night(games=9), 9), (Night(race_to=5), 9),
                                             (Night(race_to=1), 1), (Night(), 1),
                                             (Night(games=4, decider=True), 5),
                                             (Night(race_to=2, decider=True), 3)])
def test_a_nights_games_are_numbered_from_one_to_its_longest(rules, most):
    for number in range(1, most + 1):
        rules.check_number(number)
    for number in (0, most + 1):
        with pytest.raises(FixtureNightError, match=f"game {number} is not a game of the "
                                                    f"night: it has at most {most}"):
            rules.check_number(number)


@pytest.mark.parametrize(("rules", "number", "pair", "others", "message"), [
    (Night(games=3, pairs=1), 3, False, {1: False, 2: False},
     "game 3 has to be a pairs game: the night's singles (2) have their players already"),
    (Night(games=3, pairs=1), 2, True, {1: True},
     "game 2 has to be a singles game: the night's pairs games (1) have their players "
     "already"),
    (Night(games=2, pairs=0), 1, True, {},
     "game 1 has to be a singles game: the night has no pairs games"),
    (Night(games=2, pairs=2), 2, False, {},
     "game 2 has to be a pairs game: the night has no singles"),
    (Night(games=3, pairs=1), 4, False, {}, "game 4 is not a game of the night: it has at "
                                            "most 3"),
])
def test_a_games_line_up_is_refused_when_the_night_has_no_room_for_its_kind(
        rules, number, pair, others, message):
    with pytest.raises(FixtureNightError) as refused:
        rules.check_lineup(number, pair=pair, others=others)
    assert str(refused.value) == message


@pytest.mark.parametrize(("rules", "number", "pair", "others"), [
    (Night(games=3, pairs=1), 3, True, {1: False, 2: False}),
    (Night(games=3, pairs=1), 1, False, {1: True, 2: False}),  # game 1 chosen again
    (Night(games=3, pairs=1), 2, False, {}),  # any order: singles and pairs interleave
    (Night(games=1), 1, True, {}),  # one game, or a race: either kind, game by game
    (Night(race_to=3), 4, True, {1: True, 2: True, 3: False}),
    # the deciding game is played one or two a side, whatever the night's games were
    (Night(games=2, pairs=2, decider=True), 3, False, {1: True, 2: True}),
    (Night(games=2, pairs=0, decider=True), 3, True, {1: False, 2: False}),
    # and takes no place of the night's own games
    (Night(games=2, pairs=1, decider=True), 2, False, {1: True, 3: False}),
])
def test_a_games_line_up_that_fits_the_night_is_accepted(rules, number, pair, others):
    rules.check_lineup(number, pair=pair, others=others)


@given(race_to=st.integers(1, 6), winners=st.lists(st.sampled_from("HA"), max_size=12))
def test_a_race_is_finished_exactly_when_its_last_game_gave_a_side_its_last_win(
        race_to, winners):
    games = {n: (61, 0) if winner == "H" else (0, 61)
             for n, winner in enumerate(winners, start=1)}
    wins = [winners[:n].count(side) for n in range(1, len(winners) + 1) for side in "HA"]
    finished = (bool(winners) and race_to in (winners.count("H"), winners.count("A"))
                and wins.count(race_to) == 1)  # reached by the last game, not before
    try:
        Night(race_to=race_to).check_complete(games)
    except FixtureNightError:
        assert not finished
    else:
        assert finished
        assert max(winners.count("H"), winners.count("A")) == race_to
        assert len(winners) <= Night(race_to=race_to).most_games


@pytest.mark.parametrize(("side_scores", "score"), [
    ([61, 40], (61, 40)),  # singles, or a pair a side as partners
    ([30, 61, 52, 12], (52, 61)),  # a pairs game in Fives and Threes: each pair's better
    ([61, 58, 0, 60], (61, 60)),
])
def test_a_fixture_games_score_is_each_sides_or_each_pairs_better_players(side_scores, score):
    assert game_score(side_scores) == score


@pytest.mark.parametrize(("game", "options", "score", "players", "message"), [
    (FIVES_AND_THREES, {"deal": "short"}, (58, 61), (SINGLES, PAIRS), None),
    (FIVES_AND_THREES, {}, (40, 50), (SINGLES, PAIRS),
     "neither side has reached the target 61, so 40-50 is not a final score"),
    (FIVES_AND_THREES, {}, (20, 64), (PAIRS,),
     "fives-and-threes is won exactly on the target 61 (an award that would pass it does "
     "not count), so 64 is past it"),
    # All Fives plays to 250 one a side, 200 a pair a side: either, unless the line-up is known
    (ALL_FIVES, {}, (150, 200), (SINGLES, PAIRS), None),
    (ALL_FIVES, {}, (150, 200), (PAIRS,), None),
    (ALL_FIVES, {}, (150, 200), (SINGLES,),
     "neither side has reached the target 250, so 150-200 is not a final score"),
    (ALL_FIVES, {}, (150, 190), (SINGLES, PAIRS),  # the first table's reason
     "neither side has reached the target 250, so 150-190 is not a final score"),
    (ALL_FIVES, {"target": 100}, (95, 95 + 170), (PAIRS,), None),  # 95 + one award
    (ALL_FIVES, {"target": 100}, (95, 270), (PAIRS,),
     "270 is out of reach: all-fives ends with the award that takes a side from at most 95 "
     "to the target 100, and one award gives at most 170"),
    # nine tiles each cannot be dealt to four: a pairs game is no table of this season
    (ALL_FIVES, {"hand_size": 9}, (200, 150), (SINGLES, PAIRS),
     "neither side has reached the target 250, so 200-150 is not a final score"),
    (ALL_FIVES, {"hand_size": 9}, (200, 150), (PAIRS,), None),
])
def test_a_keyed_in_games_score_is_one_a_game_of_the_league_can_end_with(game, options, score,
                                                                          players, message):
    if message is None:
        check_game_score(game, options, score, players=players)
        return
    with pytest.raises(ImpossibleScore) as refused:
        check_game_score(game, options, score, players=players)
    assert str(refused.value) == message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from([
    (ALL_FIVES, SINGLES, {"target": 60}), (ALL_FIVES, PAIRS, {"target": 50}),
    (ALL_FIVES, SINGLES, {"target": 61, "hand_size": 3}),
    (FIVE_UP, SINGLES, {"target": 12}), (FIVE_UP, PAIRS, {"target": 9}),
    (FIVES_AND_THREES, SINGLES, {"target": 21}), (FIVES_AND_THREES, PAIRS, {"target": 15}),
    (FIVES_AND_THREES, PAIRS, {"target": 17, "immediate_end": False}),
    (FIVES_AND_THREES, SINGLES, {"target": 13, "set": "double-nine", "deal": "short"}),
]), seed=st.integers(0, 2**32))
def test_every_game_played_out_ends_with_a_score_the_rule_accepts(config, seed):
    # the rule never refuses what a real game can end with: a game played out to its
    # winner, scored as a league counts it (a Fives and Threes pair by its better player)
    game, players, options = config
    match = simulated_match(game, players, seed=seed, options=options, max_rounds=60)
    if not match.finished:
        return  # level leaders still playing on after 60 rounds: no final score to check
    score = game_score([int(points) for points in match.scores])  # two sides: no halves
    check_game_score(game, options, score, players=[players])
    assert game_winner(score) is not None


def test_postponed_and_void_fixtures_count_nowhere():
    played = [won("Anchor", "Bell", 2, 1, games=[[61, 3], [2, 61], [61, 0]])]
    extra = [{"home": "Bell", "away": "Anchor", "postponed": True, "date": "2026-10-05"},
             {"home": "Crown", "away": "Anchor", "void": True}]
    with_them = table(doc(["Anchor", "Bell", "Crown"], extra[:1] + played + extra[1:]))

    assert with_them == table(doc(["Anchor", "Bell", "Crown"], played))
    assert (row(with_them, "Crown").played, row(with_them, "Anchor").played) == (0, 1)


def test_score_counts_only_games_with_scores():
    fixtures = [won("Anchor", "Bell", 2, 1, games=[[61, 3], [2, 61], [61, 0]]),
                won("Bell", "Anchor", 1, 0)]
    anchor = row(table(doc(["Anchor", "Bell"], fixtures)), "Anchor")

    assert (anchor.games_for, anchor.games_against) == (2, 2)
    assert (anchor.score_for, anchor.score_against) == (124, 64)


def test_adjustments_add_up_keep_their_reasons_and_can_reorder_the_table():
    adjustments = [{"entrant": "Anchor", "points": -3, "reason": "result sent late"},
                   {"entrant": "Bell", "points": 2, "reason": "fixture awarded on appeal"},
                   {"entrant": "anchor", "points": 1, "reason": "fine reduced"}]
    document = doc(["Anchor", "Bell"], [won("Anchor", "Bell", 3, 0)], adjustments=adjustments)

    result = table(document)

    assert [(r.entrant, r.adjustment, r.points) for r in result.rows] == [
        ("Bell", 2, 2), ("Anchor", -2, 0)]
    assert [a.reason for a in read_league(document).adjustments] == [
        "result sent late", "fixture awarded on appeal", "fine reduced"]
    assert read_league(document).adjustments[2].entrant == "Anchor"  # the entrant's spelling


def test_head_to_head_leaves_adjustments_out():
    # Zed beat Abe; Abe's deduction levels the pair on points but not between them
    fixtures = [won("Abe", "Zed", 1, 0), won("Zed", "O", 1, 0), won("Abe", "O", 1, 0)]
    adjustments = [{"entrant": "Abe", "points": -2, "reason": "ineligible player"}]
    result = table(doc(["Abe", "O", "Zed"], fixtures, adjustments=adjustments,
                       tiebreaks=["head_to_head"]))

    assert order(result)[:2] == [(1, "Abe", None), (2, "Zed", "head_to_head")]


def test_names_in_fixtures_match_entrants_in_any_case():
    fixtures = [won("ANCHOR", "bell", 1, 0)]
    result = table(doc(["Anchor", "Bell"], fixtures))

    assert [r.entrant for r in result.rows] == ["Anchor", "Bell"]
    assert read_league(doc(["Anchor", "Bell"], fixtures)).fixtures[0].home == "Anchor"


# -- refusals --------------------------------------------------------------------------

DELETE = object()


def changed(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """The spec's document with the value at ``path`` replaced (or deleted)."""
    document = copy.deepcopy(SPEC_DOCUMENT)
    holder: Any = document
    for key in path[:-1]:
        holder = holder[key]
    if value is DELETE:
        del holder[path[-1]]
    else:
        holder[path[-1]] = value
    return document


def refusal(document: Any) -> str:
    with pytest.raises(LeagueInvalid) as excinfo:
        read_league(document)
    return str(excinfo.value)


EXPECTED = ("expected one of wins, game_difference, games_for, score_difference, score_for, "
            "head_to_head, head_to_head_games")
REFUSED = [
    # the document and its top-level fields
    ("not-an-object", None, ["Royal Oak A"], "a league record is a JSON object"),
    ("unknown-field", ("season",), "2026/27", "unknown field 'season' in the league record"),
    ("wrong-format", ("format",), "domino-match/1",
     'format: must be "domino-league/1", not "domino-match/1"'),
    ("no-format", ("format",), DELETE, "format: is missing"),
    ("blank-name", ("name",), "  ", 'name: must be non-blank text, not "  "'),
    ("no-name", ("name",), DELETE, "name: is missing"),
    ("unknown-game", ("game",), "mexican-train",
     "game: unknown game 'mexican-train' (expected one of all-fives, five-up, "
     "fives-and-threes)"),
    ("no-game", ("game",), DELETE, "game: is missing"),
    ("options-not-object", ("options",), ["short"], 'options: must be an object, not ["short"]'),
    ("bad-option", ("options", "deal"), "long",
     "options: option deal must be 'full' or 'short', not 'long'"),
    ("option-of-another-game", ("game",), "all-fives",
     "options: option 'deal' does not apply to all-fives"),
    ("option-no-table-can-play", ("options",), {"hand_size": 15},
     "options: option hand_size must be a positive integer with hand_size x 2 players <= 28 "
     "tiles, not 15"),
    ("no-fixtures", ("fixtures",), DELETE, "fixtures: is missing"),
    ("fixtures-not-list", ("fixtures",), {}, "fixtures: must be a list, not {}"),
    # entrants
    ("no-entrants", ("entrants",), DELETE, "entrants: is missing"),
    ("entrants-not-list", ("entrants",), "Royal Oak A",
     'entrants: must be a list, not "Royal Oak A"'),
    ("entrant-not-object", ("entrants", 1), "Bowes Dragons",
     'entrants[2]: must be an object, not "Bowes Dragons"'),
    ("entrant-unknown-field", ("entrants", 1, "captain"), "Cy",
     "entrants[2]: unknown field 'captain'"),
    ("entrant-no-name", ("entrants", 1, "name"), DELETE, "entrants[2].name: is missing"),
    ("entrant-blank-name", ("entrants", 1, "name"), "",
     'entrants[2].name: must be non-blank text, not ""'),
    ("entrant-duplicate-name", ("entrants", 2, "name"), "royal oak A",
     'entrants[3].name: "royal oak A" is already the name of entrants[1] (names are compared '
     'case-insensitively)'),
    ("entrant-bad-players", ("entrants", 0, "players"), ["Ann Dale", 7],
     'entrants[1].players: must be a list of non-blank names, not ["Ann Dale", 7]'),
    # scoring
    ("scoring-not-object", ("scoring",), [2, 1, 0], "scoring: must be an object, not [2, 1, 0]"),
    ("scoring-unknown-field", ("scoring", "bonus"), 1, "scoring: unknown field 'bonus'"),
    ("scoring-negative", ("scoring", "win"), -1, "scoring.win: must be a whole number from 0, "
     "not -1"),
    ("scoring-bool", ("scoring", "draw"), True, "scoring.draw: must be a whole number from 0, "
     "not true"),
    ("scoring-fraction", ("scoring", "per_game"), 0.5,
     "scoring.per_game: must be a whole number from 0, not 0.5"),
    ("scoring-float-whole", ("scoring", "loss"), 1.0,
     "scoring.loss: must be a whole number from 0, not 1.0"),
    ("scoring-text", ("scoring", "win"), "2", 'scoring.win: must be a whole number from 0, '
     'not "2"'),
    ("bonus-not-object", ("scoring", "close_loss"), [1, 1],
     "scoring.close_loss: must be an object with margin and points, not [1, 1]"),
    ("bonus-unknown-field", ("scoring", "heavy_win", "by"), "games",
     "scoring.heavy_win: unknown field 'by'"),
    ("bonus-no-margin", ("scoring", "close_loss", "margin"), DELETE,
     "scoring.close_loss.margin: is missing"),
    ("bonus-negative", ("scoring", "heavy_win", "points"), -1,
     "scoring.heavy_win.points: must be a whole number from 0, not -1"),
    ("walkover-malformed", ("scoring", "walkover"), [5],
     "scoring.walkover: must be [w, l], two whole numbers from 0, not [5]"),
    ("walkover-negative", ("scoring", "walkover"), [5, -4],
     "scoring.walkover: must be [w, l], two whole numbers from 0, not [5, -4]"),
    ("walkover-w-below-l", ("scoring", "walkover"), [4, 5],
     "scoring.walkover: w must be more than l, not [4, 5]"),
    ("walkover-w-equal-l", ("scoring", "walkover"), [3, 3],
     "scoring.walkover: w must be more than l, not [3, 3]"),
    # tie-breakers
    ("tiebreaks-not-list", ("tiebreaks",), "wins", 'tiebreaks: must be a list, not "wins"'),
    ("tiebreak-unknown", ("tiebreaks", 1), "goal_difference",
     f'tiebreaks[2]: unknown tie-breaker "goal_difference" ({EXPECTED})'),
    ("tiebreak-twice", ("tiebreaks", 2), "game_difference",
     'tiebreaks[3]: "game_difference" is already listed at tiebreaks[1]'),
    # fixtures
    ("fixture-not-object", ("fixtures", 1), ["Bowes Dragons", "Middleton Club"],
     'fixture 2: must be an object, not ["Bowes Dragons", "Middleton Club"]'),
    ("fixture-unknown-field", ("fixtures", 1, "venue"), "Bowes",
     "fixture 2: unknown field 'venue'"),
    ("fixture-no-home", ("fixtures", 2, "home"), DELETE, "fixture 3: home is missing"),
    ("fixture-home-not-text", ("fixtures", 2, "home"), 3,
     "fixture 3: home must be an entrant's name, not 3"),
    ("fixture-unknown-entrant", ("fixtures", 0, "away"), "Red Lion",
     'fixture 1: away "Red Lion" is not an entrant'),
    ("fixture-same-entrant", ("fixtures", 1, "away"), "bowes dragons",
     'fixture 2: home and away are both "Bowes Dragons"'),
    ("fixture-date-not-padded", ("fixtures", 1, "date"), "2026-9-14",
     'fixture 2: date must be a date as YYYY-MM-DD, not "2026-9-14"'),
    ("fixture-date-impossible", ("fixtures", 1, "date"), "2026-02-30",
     'fixture 2: date must be a date as YYYY-MM-DD, not "2026-02-30"'),
    ("fixture-date-other-format", ("fixtures", 1, "date"), "14/09/2026",
     'fixture 2: date must be a date as YYYY-MM-DD, not "14/09/2026"'),
    ("fixture-date-number", ("fixtures", 1, "date"), 20260914,
     "fixture 2: date must be a date as YYYY-MM-DD, not 20260914"),
    ("fixture-no-outcome", ("fixtures", 2, "postponed"), DELETE,
     "fixture 3: needs exactly one of result, walkover, postponed or void, not none"),
    ("fixture-two-outcomes", ("fixtures", 2, "void"), True,
     "fixture 3: needs exactly one of result, walkover, postponed or void, not postponed and "
     "void"),
    ("fixture-result-and-walkover", ("fixtures", 0, "walkover"), "home",
     "fixture 1: needs exactly one of result, walkover, postponed or void, not result and "
     "walkover"),
    ("postponed-false", ("fixtures", 2, "postponed"), False,
     "fixture 3: postponed must be true, not false"),
    ("void-not-true", ("fixtures", 2), {"home": "Middleton Club", "away": "Royal Oak A",
                                        "void": "yes"},
     'fixture 3: void must be true, not "yes"'),
    ("walkover-unknown-side", ("fixtures", 1, "walkover"), "both",
     'fixture 2: walkover must be "home" or "away" (the side that turned up), not "both"'),
    ("games-with-walkover", ("fixtures", 1, "games"), [[61, 0]],
     "fixture 2: games go only with a result, not with walkover"),
    ("result-malformed", ("fixtures", 0, "result"), [2],
     "fixture 1: result must be [home, away], two whole numbers from 0, not [2]"),
    ("result-negative", ("fixtures", 0, "result"), [2, -1],
     "fixture 1: result must be [home, away], two whole numbers from 0, not [2, -1]"),
    ("result-bool", ("fixtures", 0, "result"), [True, False],
     "fixture 1: result must be [home, away], two whole numbers from 0, not [true, false]"),
    ("result-both-zero", ("fixtures", 0, "result"), [0, 0],
     "fixture 1: result must have a game won, not [0, 0]"),
    ("games-not-list", ("fixtures", 0, "games"), "61-40 61-12 58-61",
     'fixture 1: games must be a list of [home, away] game scores, not "61-40 61-12 58-61"'),
    ("games-too-few", ("fixtures", 0, "games"), [[61, 40], [61, 12]],
     "fixture 1: games lists 2 game scores, not the 3 of result 2-1"),
    ("game-malformed", ("fixtures", 0, "games", 1), [61],
     "fixture 1: games[2] must be [home, away], two whole numbers from 0, not [61]"),
    ("game-fraction", ("fixtures", 0, "games", 2), [58.5, 61],
     "fixture 1: games[3] must be [home, away], two whole numbers from 0, not [58.5, 61]"),
    ("game-level", ("fixtures", 0, "games", 1), [61, 61],
     "fixture 1: games[2] is level at 61-61 (a game has a winner)"),
    ("games-winners-disagree", ("fixtures", 0, "games", 0), [40, 61],
     "fixture 1: the games' winners make 1-2, not the result 2-1"),
    # adjustments
    ("adjustments-not-list", ("adjustments",), {"Bowes Dragons": -3},
     'adjustments: must be a list, not {"Bowes Dragons": -3}'),
    ("adjustment-not-object", ("adjustments", 0), -3,
     "adjustments[1]: must be an object, not -3"),
    ("adjustment-unknown-field", ("adjustments", 0, "date"), "2026-09-30",
     "adjustments[1]: unknown field 'date'"),
    ("adjustment-unknown-entrant", ("adjustments", 0, "entrant"), "Red Lion",
     'adjustments[1].entrant: "Red Lion" is not an entrant'),
    ("adjustment-no-entrant", ("adjustments", 0, "entrant"), DELETE,
     "adjustments[1].entrant: is missing"),
    ("adjustment-zero", ("adjustments", 0, "points"), 0,
     "adjustments[1].points: must be a whole number other than 0, not 0"),
    ("adjustment-fraction", ("adjustments", 0, "points"), -1.5,
     "adjustments[1].points: must be a whole number other than 0, not -1.5"),
    ("adjustment-bool", ("adjustments", 0, "points"), True,
     "adjustments[1].points: must be a whole number other than 0, not true"),
    ("adjustment-no-points", ("adjustments", 0, "points"), DELETE,
     "adjustments[1].points: is missing"),
    ("adjustment-blank-reason", ("adjustments", 0, "reason"), "",
     'adjustments[1].reason: must be non-blank text, not ""'),
    ("adjustment-no-reason", ("adjustments", 0, "reason"), DELETE,
     "adjustments[1].reason: is missing"),
]


@pytest.mark.parametrize(("path", "value", "message"),
                         [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_a_malformed_document_is_refused_naming_the_fixture_or_field(path, value, message):
    document = value if path is None else changed(path, value)

    assert refusal(document) == message


def test_the_refusal_is_a_record_error_with_its_place_and_reason():
    with pytest.raises(LeagueInvalid) as excinfo:
        read_league(changed(("scoring", "walkover"), [4, 5]))

    error = excinfo.value
    assert isinstance(error, RecordError) and isinstance(error, RulesError)
    assert isinstance(error, ValueError)
    assert (error.where, error.reason) == ("scoring.walkover", "w must be more than l, not [4, 5]")


def test_options_are_accepted_when_some_table_size_can_play_them():
    # 7 tiles each from a double-six set: too many for 5 players, right for 2 to 4
    league = read_league(changed(("options",), {"hand_size": 7}))

    assert league.options == {"hand_size": 7}


def test_draws_and_dates_that_are_fine_are_accepted():
    document = doc(["A", "B"], [won("A", "B", 1, 1, games=[[10, 0], [0, 10]],
                                    date="2028-02-29")])

    assert str(read_league(document).fixtures[0].date) == "2028-02-29"


def test_loads_refuses_text_that_is_not_a_json_object():
    with pytest.raises(LeagueInvalid, match=r"^not valid JSON: Expecting"):
        loads('{"format": "domino-league/1",')
    with pytest.raises(LeagueInvalid, match=r"^a league record is a JSON object$"):
        loads("[1, 2]")
    assert loads(json.dumps(SPEC_DOCUMENT)) == SPEC_DOCUMENT


# -- properties ------------------------------------------------------------------------

NAMES = ["anchor", "Bell", "crown", "Dragon", "eagle", "Fox", "GREEN MAN"]
PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
bonus = st.fixed_dictionaries({"margin": st.integers(0, 4), "points": st.integers(0, 3)})


@st.composite
def scorings(draw) -> dict[str, Any]:
    walkover = draw(st.integers(0, 4))
    return draw(st.fixed_dictionaries({}, optional={
        "win": st.integers(0, 4), "draw": st.integers(0, 2), "loss": st.integers(0, 1),
        "per_game": st.integers(0, 2), "close_loss": bonus, "heavy_win": bonus,
        "walkover": st.just([walkover + draw(st.integers(1, 3)), walkover])}))


@st.composite
def fixtures_of(draw, names: list[str]) -> dict[str, Any]:
    home, away = draw(st.permutations(names))[:2]
    kind = draw(st.sampled_from(["result", "result", "result", "walkover", "postponed",
                                 "void"]))
    fixture: dict[str, Any] = {"home": home, "away": away}
    if kind == "walkover":
        fixture["walkover"] = draw(st.sampled_from(["home", "away"]))
    elif kind in ("postponed", "void"):
        fixture[kind] = True
    else:
        result = draw(st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(any))
        fixture["result"] = list(result)
        if draw(st.booleans()):
            winners = draw(st.permutations([0] * result[0] + [1] * result[1]))
            games = []
            for winner in winners:
                high = draw(st.integers(1, 61))
                low = draw(st.integers(0, high - 1))
                games.append([high, low] if winner == 0 else [low, high])
            fixture["games"] = games
    return fixture


@st.composite
def league_documents(draw) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=6, unique=True))
    tiebreaks = draw(st.permutations(TIEBREAKS))[:draw(st.integers(0, len(TIEBREAKS)))]
    fixtures = draw(st.lists(fixtures_of(names), max_size=12))
    adjustments = draw(st.lists(st.fixed_dictionaries({
        "entrant": st.sampled_from(names),
        "points": st.integers(-4, 4).filter(bool),
        "reason": st.just("league decision")}), max_size=3))
    document = doc(names, fixtures, scoring=draw(scorings()), tiebreaks=list(tiebreaks),
                   adjustments=adjustments)
    return document


def spec_points(scoring: dict[str, Any], own: int, other: int) -> int:
    """league-record.md's scoring, spelt out once more, independently of the engine."""
    rules = {"win": 2, "draw": 1, "loss": 0, "per_game": 0, **scoring}
    if own > other:
        points = rules["win"]
        if "heavy_win" in rules and own - other >= rules["heavy_win"]["margin"]:
            points += rules["heavy_win"]["points"]
    elif own == other:
        points = rules["draw"]
    else:
        points = rules["loss"]
        if "close_loss" in rules and other - own <= rules["close_loss"]["margin"]:
            points += rules["close_loss"]["points"]
    return points + rules["per_game"] * own


def credited(document: dict[str, Any], fixture: dict[str, Any]) -> tuple[int, int] | None:
    if "result" in fixture:
        return fixture["result"][0], fixture["result"][1]
    if "walkover" in fixture:
        w, lost = document["scoring"].get("walkover", [1, 0])
        return (w, lost) if fixture["walkover"] == "home" else (lost, w)
    return None


@PROPERTY
@given(document=league_documents())
def test_games_and_scores_for_and_against_balance(document):
    rows = table(document).rows
    counted = [f for f in document["fixtures"] if credited(document, f) is not None]

    assert sum(r.games_for for r in rows) == sum(r.games_against for r in rows)
    assert sum(r.score_for for r in rows) == sum(r.score_against for r in rows)
    assert sum(r.won for r in rows) == sum(r.lost for r in rows)
    assert sum(r.played for r in rows) == 2 * len(counted)
    assert all(r.played == r.won + r.drawn + r.lost for r in rows)
    assert len(rows) == len(document["entrants"])


@PROPERTY
@given(document=league_documents())
def test_points_less_adjustments_are_the_sum_of_the_fixture_points(document):
    expected = {entrant["name"]: 0 for entrant in document["entrants"]}
    for fixture in document["fixtures"]:
        games = credited(document, fixture)
        if games is not None:
            expected[fixture["home"]] += spec_points(document["scoring"], *games)
            expected[fixture["away"]] += spec_points(document["scoring"], games[1], games[0])
    adjusted = {name: 0 for name in expected}
    for adjustment in document["adjustments"]:
        adjusted[adjustment["entrant"]] += adjustment["points"]

    rows = table(document).rows

    assert {r.entrant: r.points - r.adjustment for r in rows} == expected
    assert {r.entrant: r.adjustment for r in rows} == adjusted


@PROPERTY
@given(document=league_documents(), data=st.data())
def test_the_table_does_not_depend_on_the_order_of_entrants_or_fixtures(document, data):
    shuffled = {**document, "entrants": data.draw(st.permutations(document["entrants"])),
                "fixtures": data.draw(st.permutations(document["fixtures"])),
                "adjustments": data.draw(st.permutations(document["adjustments"]))}

    assert table(shuffled) == table(document)


@PROPERTY
@given(document=league_documents())
def test_names_in_fixtures_may_be_spelt_in_any_case(document):
    shouted = {**document, "fixtures": [{**f, "home": f["home"].upper(),
                                         "away": f["away"].lower()}
                                        for f in document["fixtures"]]}

    assert table(shouted) == table(document)


@PROPERTY
@given(document=league_documents())
def test_ranks_follow_points_and_a_shared_rank_means_level_on_everything(document):
    rows = table(document).rows
    tiebreaks = document["tiebreaks"]

    assert rows[0].rank == 1 and rows[0].decided_by is None
    for position, (above, below) in enumerate(zip(rows, rows[1:], strict=False), start=2):
        assert above.points >= below.points
        if below.rank == above.rank:
            assert below.shared and above.shared and below.decided_by is None
            assert below.points == above.points
            assert (above.entrant.casefold(), above.entrant) < (below.entrant.casefold(),
                                                                 below.entrant)
            for criterion in ("wins", "game_difference", "games_for", "score_difference",
                              "score_for"):
                if criterion in tiebreaks:
                    assert stat(above, criterion) == stat(below, criterion)
        else:
            assert below.rank == position
            if below.points < above.points:
                assert below.decided_by is None
            else:
                assert below.decided_by in tiebreaks
    for current in rows:
        assert current.shared == (sum(r.rank == current.rank for r in rows) > 1)


def stat(standing, criterion: str) -> int:
    return {"wins": standing.won,
            "game_difference": standing.games_for - standing.games_against,
            "games_for": standing.games_for,
            "score_difference": standing.score_for - standing.score_against,
            "score_for": standing.score_for}[criterion]


@PROPERTY
@given(document=league_documents())
def test_the_json_is_the_rows_in_order(document):
    result = table(document)
    printed = json.loads(json.dumps(table_json(result)))

    assert printed["league"] == "Test league"
    assert [list(r) for r in printed["standings"]] == [ROW_KEYS] * len(result.rows)
    assert [(r["rank"], r["entrant"], r["points"]) for r in printed["standings"]] == [
        (r.rank, r.entrant, r.points) for r in result.rows]


@PROPERTY
@given(document=league_documents(), extra=st.integers(1, 5), data=st.data())
def test_a_points_award_never_moves_an_entrant_down(document, extra, data):
    name = data.draw(st.sampled_from([e["name"] for e in document["entrants"]]))
    awarded = {**document, "adjustments": [*document["adjustments"],
                                           {"entrant": name, "points": extra,
                                            "reason": "award"}]}

    assert row(table(awarded), name).rank <= row(table(document), name).rank


# -- the two builds --------------------------------------------------------------------

# Random leagues, and each once more with one value changed at random, printing per
# document the table (with how each row was placed) or the refusal: both builds must agree.
BOTH_BUILDS_SCRIPT = """
import copy, json, random
import matches.rules as rules
from matches.rules import league
rng = random.Random(20261130)
names = ["anchor", "Bell", "crown", "Dragon", "eagle"]
values = [None, True, False, 0, 1, -1, 2.5, "", "home", "2026-09-07", [], [0, 0], [2, 1], {}]
print("compiled" if rules.COMPILED else "plain")
for number in range(80):
    entrants = rng.sample(names, rng.randint(2, 5))
    fixtures = []
    for _ in range(rng.randint(0, 10)):
        home, away = rng.sample(entrants, 2)
        kind = rng.choice(["result", "result", "walkover", "postponed", "void"])
        h, a = rng.choice([(1, 0), (0, 1), (1, 1), (2, 1), (3, 0), (0, 2)])
        value = [h, a] if kind == "result" else rng.choice(["home", "away"]) \\
            if kind == "walkover" else True
        fixtures.append({"home": home, "away": away, kind: value})
    document = {"format": "domino-league/1", "name": "L", "game": "fives-and-threes",
                "entrants": [{"name": n} for n in entrants], "fixtures": fixtures,
                "scoring": {"per_game": rng.randint(0, 1), "walkover": [2, 0],
                            "close_loss": {"margin": 1, "points": 1}},
                "tiebreaks": rng.sample(list(league.TIEBREAKS), rng.randint(0, 7)),
                "adjustments": [{"entrant": entrants[0], "points": -1, "reason": "late"}]}
    mutated = copy.deepcopy(document)
    holder, key = mutated, rng.choice(list(mutated))
    while isinstance(holder[key], (dict, list)) and holder[key] and rng.random() < 0.7:
        holder = holder[key]
        key = rng.choice(list(holder)) if isinstance(holder, dict) else rng.randrange(len(holder))
    holder[key] = rng.choice(values)
    for each in (document, mutated):
        try:
            table = league.standings(league.read_league(each))
            print(json.dumps(league.table_json(table)),
                  [(row.decided_by, row.shared) for row in table.rows])
        except rules.RulesError as error:
            print("refused:", type(error).__name__, error)
"""


def test_both_builds_answer_every_league_alike():
    if native.why_not_fresh() is not None or "league" not in native.MODULES:
        pytest.skip("the compiled build of the league rules is not fresh")
    outputs = {}
    for build in ("python", "compiled"):
        done = subprocess.run([sys.executable, "-c", BOTH_BUILDS_SCRIPT],
                              cwd=native.PACKAGE_DIR.parents[1], capture_output=True, text=True,
                              env={**os.environ, "SCOREKEEPER_ENGINE": build}, check=True)
        outputs[build] = done.stdout.splitlines()
    plain, compiled = outputs["python"], outputs["compiled"]
    assert (plain[0], compiled[0]) == ("plain", "compiled")
    assert len(plain) == 1 + 2 * 80
    assert any(line.startswith("refused: LeagueInvalid") for line in plain)  # mutations bite
    assert any("head_to_head" in line for line in plain)
    assert compiled[1:] == plain[1:]
