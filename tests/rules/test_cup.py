"""matches.rules.cup: knockout cups' draws, brackets, level ties and corrections."""

from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.rules import cup as rules_cup
from matches.rules.cup import (
    Bracket,
    Cup,
    CupFormat,
    DrawMethod,
    DrawTiming,
    LevelTie,
    Side,
    TieKey,
    TieResult,
    affected_by_correction,
    bracket,
    bracket_size,
    check_correction,
    corrected,
    correction_allowed,
    draw,
    draw_next_round,
    draw_plate,
    plate_entries,
    plate_undrawn,
    round_name,
    shuffled,
    slot_ranks,
    tie_winner,
)
from matches.rules.errors import CupError, RulesError

HOME = TieResult(games=((61, 40),))
AWAY = TieResult(games=((40, 61),))
FIVE = ["Anchor", "Bell", "Crown", "Dragon", "Eagle"]
EIGHT = ["Anchor", "Bell", "Crown", "Dragon", "Eagle", "Fox", "George", "Hart"]
RANDOM = CupFormat()
SEEDED = CupFormat(method=DrawMethod.SEEDED)
BY_HAND = CupFormat(method=DrawMethod.BY_HAND)
ROUND_BY_ROUND = CupFormat(timing=DrawTiming.ROUND_BY_ROUND)


def refused(call, *args, **kwargs) -> CupError:
    with pytest.raises(CupError) as error:
        call(*args, **kwargs)
    return error.value


def first_round(cup: Cup) -> list[tuple[str | None, str | None]]:
    return [(tie.home, tie.away) for tie in bracket(cup, {}).rounds[0]]


def drawn_names(cup: Cup) -> list[str]:
    return [name for pair in first_round(cup) for name in pair if name is not None]


def won_by(side: Side) -> TieResult:
    return HOME if side is Side.HOME else AWAY


# -- the bracket's shape ---------------------------------------------------------------


@pytest.mark.parametrize(("entrants", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8),
                                                (9, 16), (16, 16), (17, 32)])
def test_the_bracket_rounds_up_to_the_next_power_of_two(entrants, size):
    assert bracket_size(entrants) == size


def test_the_standard_placement_of_ranks():
    assert slot_ranks(2) == (1, 2)
    assert slot_ranks(4) == (1, 4, 2, 3)
    assert slot_ranks(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_every_rank_has_one_place_and_each_first_pair_adds_up_to_size_plus_one(size):
    ranks = slot_ranks(size)
    assert sorted(ranks) == list(range(1, size + 1))
    assert all(ranks[i] + ranks[i + 1] == size + 1 and ranks[i] < ranks[i + 1]
               for i in range(0, size, 2))


def test_rounds_are_named_from_the_final_back():
    names = [str(round_name(number, 5)) for number in range(1, 6)]
    assert names == ["Round 1", "Round 2", "Quarter-finals", "Semi-finals", "Final"]
    assert str(round_name(1, 1)) == "Final"
    assert round_name(2, 5).code == "cup_round_number"
    assert round_name(2, 5).params == {"number": 2}


def test_a_brackets_round_names_follow_its_size():
    cup = draw(FIVE, RANDOM, seed=1)
    current = bracket(cup, {})
    assert current.total_rounds == 3
    assert [str(current.round_name(number)) for number in (1, 2, 3)] == [
        "Quarter-finals", "Semi-finals", "Final"]


# -- random draws ----------------------------------------------------------------------


def test_a_random_draw_is_pinned_by_its_seed():
    """The same seed gives this draw on every Python: a club may check it by hand."""
    assert shuffled(EIGHT, 37) == ["George", "Crown", "Bell", "Hart", "Eagle", "Dragon",
                                   "Anchor", "Fox"]
    # drawn 1st v 8th, 4th v 5th, 2nd v 7th, 3rd v 6th (slot_ranks)
    assert first_round(draw(EIGHT, RANDOM, seed=37)) == [
        ("George", "Fox"), ("Hart", "Eagle"), ("Crown", "Anchor"), ("Bell", "Dragon")]


def test_a_random_draw_gives_its_byes_to_the_first_drawn_one_a_tie():
    cup = draw(FIVE, RANDOM, seed=4)
    order = shuffled(FIVE, 4)
    pairs = first_round(cup)
    assert pairs == [(order[0], None), (order[3], order[4]), (order[1], None),
                     (order[2], None)]


@settings(max_examples=200)
@given(count=st.integers(2, 70), seed=st.integers(0, 2**64))
def test_a_random_draw_is_the_same_for_the_same_seed_and_a_permutation(count, seed):
    entrants = [f"Team {number}" for number in range(count)]
    cup = draw(entrants, RANDOM, seed=seed)
    assert cup == draw(list(entrants), RANDOM, seed=seed)
    assert sorted(drawn_names(cup)) == sorted(entrants)
    assert sorted(shuffled(entrants, seed)) == sorted(entrants)


@settings(max_examples=200)
@given(count=st.integers(2, 70), seed=st.integers(0, 2**32))
def test_never_a_bye_against_a_bye_and_the_byes_fill_the_bracket(count, seed):
    cup = draw([f"Team {number}" for number in range(count)], RANDOM, seed=seed)
    ties = bracket(cup, {}).rounds[0]
    assert len(ties) == bracket_size(count) // 2
    assert all(tie.home is not None for tie in ties)
    assert sum(tie.bye for tie in ties) == bracket_size(count) - count


def test_different_seeds_give_different_draws():
    draws = {tuple(first_round(draw(EIGHT, RANDOM, seed=seed))) for seed in range(20)}
    assert len(draws) > 15


# -- seeded draws ----------------------------------------------------------------------


def test_a_seeded_draw_gives_the_byes_to_the_top_seeds_first():
    cup = draw(FIVE, SEEDED, seeds=["Eagle", "Dragon"], seed=3)
    rest = shuffled(["Anchor", "Bell", "Crown"], 3)
    assert first_round(cup) == [("Eagle", None), (rest[1], rest[2]), ("Dragon", None),
                                (rest[0], None)]


def test_seeds_one_and_two_meet_only_in_the_final():
    cup = draw(EIGHT, SEEDED, seeds=["Hart", "George", "Fox", "Eagle"], seed=1)
    pairs = first_round(cup)
    assert pairs[0][0] == "Hart" and pairs[2][0] == "George"  # different halves
    assert [pair[0] for pair in pairs] == ["Hart", "Eagle", "George", "Fox"]  # quarters


@settings(max_examples=200)
@given(data=st.data(), count=st.integers(2, 70), seed=st.integers(0, 2**32))
def test_seeds_are_kept_apart_and_take_the_byes_first(data, count, seed):
    entrants = [f"Team {number}" for number in range(count)]
    seeds = data.draw(st.lists(st.sampled_from(entrants), min_size=1, max_size=count,
                               unique=True))
    cup = draw(entrants, SEEDED, seeds=seeds, seed=seed)
    ties = bracket(cup, {}).rounds[0]
    size = bracket_size(count)
    place = {name: 2 * index + side for index, tie in enumerate(ties)
             for side, name in enumerate((tie.home, tie.away)) if name is not None}
    assert sorted(place) == sorted(entrants)

    def part(name: str, parts: int) -> int:
        return place[name] * parts // size

    if len(seeds) >= 2:
        assert part(seeds[0], 2) != part(seeds[1], 2)
    if len(seeds) >= 4 and size >= 8:
        assert len({part(name, 4) for name in seeds[:4]}) == 4
    if len(seeds) >= 8 and size >= 16:
        assert len({part(name, 8) for name in seeds[:8]}) == 8
    with_byes = {tie.home for tie in ties if tie.bye}
    byes = size - count
    if len(seeds) >= byes:
        assert with_byes == set(seeds[:byes])
    else:
        assert with_byes >= set(seeds)


def test_a_draw_with_every_entrant_but_one_seeded_needs_no_seed():
    cup = draw(FIVE, SEEDED, seeds=["Eagle", "Dragon", "Crown", "Bell"])
    assert first_round(cup) == [("Eagle", None), ("Bell", "Anchor"), ("Dragon", None),
                                ("Crown", None)]
    assert cup == draw(FIVE, SEEDED, seeds=["Eagle", "Dragon", "Crown", "Bell"], seed=9)
    assert refused(draw, FIVE, SEEDED, seeds=["Eagle", "Dragon"]).code == "cup_seed_needed"


def test_seeded_draws_refuse_missing_strange_or_repeated_seeds():
    assert refused(draw, FIVE, SEEDED, seed=1).code == "cup_seeds_needed"
    error = refused(draw, FIVE, SEEDED, seeds=["Anchor", "Zebra"], seed=1)
    assert str(error) == 'seed 2 "Zebra" is not an entrant'
    error = refused(draw, FIVE, SEEDED, seeds=["Anchor", "Bell", "Anchor"], seed=1)
    assert str(error) == 'seed 3 "Anchor" is already seed 1'
    assert refused(draw, FIVE, RANDOM, seeds=["Anchor"], seed=1).code == "cup_seeds_unwanted"


# -- draws by hand ---------------------------------------------------------------------


def test_a_draw_by_hand_keeps_its_pairs():
    pairs: list[list[str | None]] = [["Bell", None], ["Anchor", "Eagle"], ["Crown", None],
                                     ["Dragon", None]]
    cup = draw(FIVE, BY_HAND, pairs=pairs)
    assert first_round(cup) == [tuple(pair) for pair in pairs]


@pytest.mark.parametrize(("pairs", "message"), [
    ([["Anchor", "Bell"], ["Crown", "Dragon"], ["Eagle", None]],
     "a cup of 5 entrants has 4 first-round ties (byes included), not 3"),
    ([["Anchor", "Bell"], ["Crown", "Dragon"], ["Eagle", None], [None, None]],
     "pair 4 is a bye against a bye"),
    ([["Anchor", "Bell"], ["Crown", "Dragon"], ["Eagle", None], [None, "Bell"]],
     'pair 4 must be [home, away] (away empty for a bye), not [null, "Bell"]'),
    ([["Anchor", "Bell"], ["Crown", "Dragon"], ["Eagle"], ["Fox", None]],
     'pair 3 must be [home, away] (away empty for a bye), not ["Eagle"]'),
    ([["Anchor", "Bell"], ["Crown", "Dragon"], ["Eagle", None], ["Fox", None]],
     'pair 4: "Fox" is not an entrant'),
    ([["Anchor", "Bell"], ["Crown", "Dragon"], ["Eagle", None], ["Bell", None]],
     'pair 4: "Bell" is already drawn in pair 1'),
    ([["Anchor", "Bell"], ["Crown", None], ["Eagle", None], ["Bell", None]],
     'pair 4: "Bell" is already drawn in pair 1'),
    ([["Anchor", "Bell"], ["Crown", None], ["Eagle", None], ["Fox", None]],
     'pair 4: "Fox" is not an entrant'),
    ([["Anchor", None], ["Crown", None], ["Eagle", None], ["Bell", None]],
     '"Dragon" is not drawn in any pair'),
])
def test_a_draw_by_hand_is_refused_unless_every_entrant_is_drawn_once(pairs, message):
    assert str(refused(draw, FIVE, BY_HAND, pairs=pairs)) == message


def test_a_draw_by_hand_takes_no_seed_and_needs_its_pairs():
    pairs = [["Anchor", "Bell"]]
    assert refused(draw, ["Anchor", "Bell"], BY_HAND, pairs=pairs, seed=3).code == \
        "cup_by_hand_seed"
    assert refused(draw, ["Anchor", "Bell"], BY_HAND).code == "cup_pairs_needed"
    assert refused(draw, ["Anchor", "Bell"], RANDOM, pairs=pairs, seed=3).code == \
        "cup_pairs_unwanted"


# -- what every draw refuses -----------------------------------------------------------


@pytest.mark.parametrize(("entrants", "message"), [
    (["Anchor"], "a cup needs at least 2 entrants, not 1"),
    ([], "a cup needs at least 2 entrants, not 0"),
    (["Anchor", "anchor"], "entrant 2 'anchor' is already entered as 'Anchor' (names are "
                           "compared case-insensitively)"),
    (["Anchor", "  "], "entrant 2 has no name"),
    (["Anchor", 7], "entrant 2 must be a name, not 7"),
    ("Anchor", "entrants must be a list of names, not the string 'Anchor'"),
])
def test_the_entrants_are_checked(entrants, message):
    assert str(refused(draw, entrants, RANDOM, seed=1)) == message


@pytest.mark.parametrize(("seed", "message"), [
    (None, "the draw needs a seed (a whole number from 0): its random order comes from it"),
    (-1, "the draw's seed must be a whole number from 0, not -1"),
    (True, "the draw's seed must be a whole number from 0, not true"),
    ("7", "the draw's seed must be a whole number from 0, not \"7\""),
])
def test_a_random_draw_needs_a_whole_number_for_its_seed(seed, message):
    assert str(refused(draw, FIVE, RANDOM, seed=seed)) == message


@pytest.mark.parametrize("walkover", [(0, 1), (2, 2), (-1, -3), (1,), (True, 0), "2-0"])
def test_a_walkover_scores_more_for_the_side_that_turned_up(walkover):
    assert refused(CupFormat, walkover=walkover).code == "cup_walkover"


def test_a_cup_error_is_a_rules_error_with_a_code():
    error = refused(draw, ["Anchor"], RANDOM, seed=1)
    assert isinstance(error, RulesError)
    assert (error.code, error.params) == ("cup_too_few_entrants", {"count": 1})


# -- results and level ties ------------------------------------------------------------


LEVEL = TieResult(games=((61, 40), (30, 61)))  # 1-1 in games, 91-101 in points
KEY = TieKey(1, 2)


def test_more_games_won_wins_the_tie():
    result = TieResult(games=((61, 40), (30, 61), (61, 5)))
    assert tie_winner(result, LevelTie.DECIDING_GAME, KEY) is Side.HOME


def test_a_level_tie_decided_by_a_deciding_game():
    result = TieResult(games=LEVEL.games, decider=(58, 61))
    assert tie_winner(result, LevelTie.DECIDING_GAME, KEY) is Side.AWAY
    error = refused(tie_winner, LEVEL, LevelTie.DECIDING_GAME, KEY)
    assert str(error) == "tie 2 of round 1 is level at 1-1 in games: the cup decides a " \
                         "level tie by a deciding game, which the result does not give"


def test_a_level_tie_decided_by_total_points():
    assert tie_winner(LEVEL, LevelTie.TOTAL_POINTS, KEY) is Side.AWAY
    points_level = TieResult(games=((61, 40), (40, 61)))
    error = refused(tie_winner, points_level, LevelTie.TOTAL_POINTS, KEY)
    assert str(error) == "tie 2 of round 1 is level at 1-1 in games and 101-101 in " \
                         "points: a deciding game is needed"
    decided = TieResult(games=points_level.games, decider=(61, 12))
    assert tie_winner(decided, LevelTie.TOTAL_POINTS, KEY) is Side.HOME


def test_a_deciding_game_where_none_is_played_is_refused():
    result = TieResult(games=((61, 40),), decider=(12, 61))
    error = refused(tie_winner, result, LevelTie.DECIDING_GAME, KEY)
    assert str(error) == "tie 2 of round 1 is not level (1-0 in games): a deciding game is " \
                         "played only in a level tie"
    on_points = TieResult(games=LEVEL.games, decider=(12, 61))
    error = refused(tie_winner, on_points, LevelTie.TOTAL_POINTS, KEY)
    assert str(error) == "tie 2 of round 1 is decided on points (91-101): it needs no " \
                         "deciding game"


def test_a_walkover_goes_to_the_side_that_turned_up():
    walkover = TieResult(walkover=Side.AWAY)
    for level_tie in LevelTie:
        assert tie_winner(walkover, level_tie, KEY) is Side.AWAY


@pytest.mark.parametrize(("kwargs", "message"), [
    ({}, "a tie's result needs its games or a walkover"),
    ({"games": ((61, 40),), "walkover": Side.HOME},
     "a tie's result has games or a walkover, not both"),
    ({"decider": (61, 40), "walkover": Side.HOME},
     "a tie's result has games or a walkover, not both"),
    ({"games": ((61, 40), (50, 50))}, "games[2] is level at 50-50 (a game has a winner)"),
    ({"games": ((61, -1),)}, "games[1] must be [home, away], two whole numbers from 0, "
                             "not [61, -1]"),
    ({"games": ((61, 40),), "decider": (61, 61)},
     "the deciding game must be [home, away], two different whole numbers from 0, "
     "not [61, 61]"),
])
def test_a_result_that_is_no_result_is_refused(kwargs, message):
    assert str(refused(TieResult, **kwargs)) == message


def test_a_results_games_are_kept_as_tuples():
    # as JSON gives them
    result = TieResult(games=[[61, 40], [12, 61]], decider=[61, 3])  # type: ignore[arg-type]
    assert result.games == ((61, 40), (12, 61))
    assert result.decider == (61, 3)
    assert hash(result) == hash(TieResult(games=((61, 40), (12, 61)), decider=(61, 3)))


# -- the bracket after results ---------------------------------------------------------


def eight_by_hand(format: CupFormat = BY_HAND) -> Cup:
    pairs = [EIGHT[index:index + 2] for index in range(0, 8, 2)]
    return draw(EIGHT, format, pairs=pairs)


def test_a_winner_goes_through_to_its_place_in_the_next_round():
    cup = eight_by_hand()
    current = bracket(cup, {TieKey(1, 1): AWAY, TieKey(1, 2): HOME, TieKey(1, 4): AWAY})
    semi = current.tie(TieKey(2, 1))
    assert (semi.home, semi.away) == ("Bell", "Crown")
    assert (current.tie(TieKey(2, 2)).home, current.tie(TieKey(2, 2)).away) == (None, "Hart")
    assert current.tie(TieKey(1, 1)).next == TieKey(2, 1)
    assert current.tie(TieKey(1, 4)).next == TieKey(2, 2)
    assert current.tie(TieKey(3, 1)).next is None
    assert current.winner is None


def test_the_final_winner_wins_the_cup():
    cup = draw(["Anchor", "Bell", "Crown"], BY_HAND, pairs=[["Anchor", None],
                                                             ["Bell", "Crown"]])
    current = bracket(cup, {TieKey(1, 2): AWAY, TieKey(2, 1): AWAY})
    assert current.tie(TieKey(1, 1)).winner == "Anchor"
    assert current.tie(TieKey(2, 1)).loser == "Anchor"
    assert current.winner == "Crown"
    assert [tie.key for tie in current.ties if tie.played] == [TieKey(1, 2), TieKey(2, 1)]


def test_a_result_for_a_tie_whose_sides_are_not_known_is_refused():
    cup = eight_by_hand()
    error = refused(bracket, cup, {TieKey(1, 1): HOME, TieKey(2, 1): HOME})
    assert str(error) == 'tie 1 of round 2: "Anchor" has no opponent yet'
    error = refused(bracket, cup, {TieKey(1, 4): HOME, TieKey(2, 2): HOME})
    assert str(error) == 'tie 2 of round 2: "George" has no opponent yet'
    error = refused(bracket, cup, {TieKey(3, 1): HOME})
    assert str(error) == "tie 1 of round 3: neither side is known yet"


def test_a_result_for_a_bye_or_a_tie_not_drawn_is_refused():
    cup = draw(FIVE, BY_HAND, pairs=[["Bell", None], ["Anchor", "Eagle"], ["Crown", None],
                                     ["Dragon", None]])
    error = refused(bracket, cup, {TieKey(1, 3): HOME})
    assert str(error) == 'tie 3 of round 1 is a bye: "Crown" goes through without playing'
    for key in (TieKey(1, 5), TieKey(4, 1), TieKey(0, 1), TieKey(1, 0)):
        assert str(refused(bracket, cup, {key: HOME})) == f"there is no {key} in the draw"
    error = refused(bracket, cup, {TieKey(1, 1, plate=True): HOME})
    assert str(error) == "there is no plate tie 1 of round 1 in the draw"
    assert str(refused(bracket(cup, {}).tie, TieKey(9, 9))) == \
        "there is no tie 9 of round 9 in the draw"


def test_a_level_tie_in_the_bracket_follows_the_cups_rule():
    cup = draw(["Anchor", "Bell"], CupFormat(method=DrawMethod.BY_HAND,
                                             level_tie=LevelTie.TOTAL_POINTS),
               pairs=[["Anchor", "Bell"]])
    assert bracket(cup, {TieKey(1, 1): LEVEL}).winner == "Bell"
    strict = draw(["Anchor", "Bell"], BY_HAND, pairs=[["Anchor", "Bell"]])
    assert refused(bracket, strict, {TieKey(1, 1): LEVEL}).code == "cup_decider_needed"


def test_a_ties_score_counts_the_deciding_game_and_a_walkover_as_the_cup_scores_it():
    format = CupFormat(method=DrawMethod.BY_HAND, walkover=(3, 0))
    cup = draw(EIGHT, format, pairs=[EIGHT[index:index + 2] for index in range(0, 8, 2)])
    current = bracket(cup, {
        TieKey(1, 1): TieResult(games=LEVEL.games, decider=(12, 61)),
        TieKey(1, 2): TieResult(walkover=Side.AWAY),
        TieKey(1, 3): TieResult(games=((61, 40), (61, 50), (2, 61))),
    })
    assert current.tie(TieKey(1, 1)).score == (1, 2)
    assert current.tie(TieKey(1, 2)).score == (0, 3)
    assert current.tie(TieKey(1, 3)).score == (2, 1)
    assert current.tie(TieKey(1, 4)).score is None
    assert str(current.tie(TieKey(2, 1))) == "tie 1 of round 2: Bell v Dragon"
    assert str(current.tie(TieKey(2, 2))) == "tie 2 of round 2: Eagle v ?"


# -- round by round --------------------------------------------------------------------


def test_round_by_round_draws_only_the_first_round_at_first():
    cup = draw(EIGHT, ROUND_BY_ROUND, seed=11)
    current = bracket(cup, {})
    assert len(current.rounds) == 1 and current.total_rounds == 3
    assert all(tie.next is None for tie in current.rounds[0])


def test_the_next_round_is_drawn_from_the_winners_of_the_round_before():
    cup = draw(EIGHT, ROUND_BY_ROUND, seed=11)
    results = {TieKey(1, position): HOME for position in range(1, 5)}
    winners = [tie.winner for tie in bracket(cup, results).rounds[0]]
    drawn = draw_next_round(cup, results, seed=5)
    assert drawn == draw_next_round(cup, results, seed=5)
    order = shuffled([1, 2, 3, 4], 5)
    assert drawn.main.later_rounds == ((tuple(order[:2]), tuple(order[2:])),)
    semis = bracket(drawn, results).rounds[1]
    assert [(tie.home, tie.away) for tie in semis] == [
        (winners[order[0] - 1], winners[order[1] - 1]),
        (winners[order[2] - 1], winners[order[3] - 1])]
    assert bracket(drawn, results).tie(TieKey(1, order[0])).next == TieKey(2, 1)


def test_the_next_round_waits_for_the_round_before_and_none_follows_the_final():
    cup = draw(["Anchor", "Bell", "Crown"], CupFormat(timing=DrawTiming.ROUND_BY_ROUND),
               seed=2)
    error = refused(draw_next_round, cup, {}, seed=1)
    assert str(error) == "tie 2 of round 1 has no winner yet: round 1 finishes before the " \
                         "next is drawn"
    final = draw_next_round(cup, {TieKey(1, 2): HOME}, seed=1)
    error = refused(draw_next_round, final, {TieKey(1, 2): HOME}, seed=1)
    assert str(error) == "the final is drawn already: no round follows it"


def test_a_cup_drawn_all_at_once_has_no_next_round_to_draw():
    cup = draw(FIVE, RANDOM, seed=1)
    assert str(refused(draw_next_round, cup, {}, seed=1)) == \
        "the draw was made all at once: every round is drawn already"


# -- the plate -------------------------------------------------------------------------


PLATE = CupFormat(method=DrawMethod.BY_HAND, plate=True)
FIVE_PAIRS: list[list[str | None]] = [["Anchor", None], ["Bell", "Crown"], ["Dragon", None],
                                      ["Eagle", None]]


def test_the_plate_takes_the_losers_of_each_entrants_first_tie_played():
    cup = draw(FIVE, PLATE, pairs=FIVE_PAIRS)
    # Crown beats Bell; Anchor (a bye) loses to Crown; Dragon and Eagle (byes) meet
    results = {TieKey(1, 2): AWAY, TieKey(2, 1): AWAY, TieKey(2, 2): HOME}
    assert plate_entries(cup, results) == (TieKey(1, 2), TieKey(2, 1), TieKey(2, 2))
    plated = draw_plate(cup, results, seed=8)
    current = bracket(plated, results)
    entrants = {tie.home for tie in current.plate_rounds[0]} | {
        tie.away for tie in current.plate_rounds[0] if tie.away}
    assert entrants == {"Bell", "Anchor", "Eagle"}
    assert current.plate_total_rounds == 2
    assert str(current.round_name(1, plate=True)) == "Semi-finals"


def test_an_entrant_with_a_bye_who_wins_its_first_tie_stays_out_of_the_plate():
    cup = draw(FIVE, PLATE, pairs=FIVE_PAIRS)
    results = {TieKey(1, 2): AWAY, TieKey(2, 1): HOME, TieKey(2, 2): HOME}
    assert plate_entries(cup, results) == (TieKey(1, 2), TieKey(2, 2))


def test_the_plate_waits_for_every_first_tie_played():
    cup = draw(FIVE, PLATE, pairs=FIVE_PAIRS)
    assert str(refused(draw_plate, cup, {}, seed=1)) == \
        "tie 2 of round 1 has no winner yet: the plate is drawn once the loser of every " \
        "entrant's first tie played is known"
    assert str(refused(draw_plate, cup, {TieKey(1, 2): HOME}, seed=1)) == \
        "tie 1 of round 2 has no winner yet: the plate is drawn once the loser of every " \
        "entrant's first tie played is known"
    by_rounds = draw(FIVE, CupFormat(method=DrawMethod.BY_HAND, plate=True,
                                     timing=DrawTiming.ROUND_BY_ROUND), pairs=FIVE_PAIRS)
    assert refused(draw_plate, by_rounds, {TieKey(1, 2): HOME}, seed=1).code == \
        "cup_plate_waits_round"


def test_a_plate_needs_two_entrants_a_format_with_one_and_one_draw():
    two = draw(["Anchor", "Bell"], CupFormat(plate=True), seed=1)
    assert str(refused(draw_plate, two, {TieKey(1, 1): HOME}, seed=1)) == \
        "the plate needs at least 2 entrants, not 1"
    no_plate = draw(FIVE, BY_HAND, pairs=FIVE_PAIRS)
    assert str(refused(draw_plate, no_plate, {}, seed=1)) == "this cup has no plate"
    cup = draw(EIGHT, CupFormat(plate=True), seed=1)
    results = {TieKey(1, position): HOME for position in range(1, 5)}
    plated = draw_plate(cup, results, seed=2)
    assert str(refused(draw_plate, plated, results, seed=2)) == "the plate is drawn already"
    rounds = draw(EIGHT, CupFormat(plate=True, timing=DrawTiming.ROUND_BY_ROUND), seed=1)
    assert str(refused(draw_next_round, rounds, results, seed=1, plate=True)) == \
        "the plate is not drawn yet"


def test_a_plate_round_by_round_is_drawn_round_by_round():
    format = CupFormat(plate=True, timing=DrawTiming.ROUND_BY_ROUND)
    cup = draw(EIGHT, format, seed=1)
    results = {TieKey(1, position): HOME for position in range(1, 5)}
    plated = draw_plate(cup, results, seed=2)
    assert plated.plate is not None and plated.plate.later_rounds == ()
    results |= {TieKey(1, 1, plate=True): HOME, TieKey(1, 2, plate=True): AWAY}
    semis = draw_next_round(plated, results, seed=3, plate=True)
    final = bracket(semis, results).plate_rounds[1][0]
    assert {final.home, final.away} == {
        bracket(semis, results).tie(TieKey(1, 1, plate=True)).winner,
        bracket(semis, results).tie(TieKey(1, 2, plate=True)).winner}


# -- corrections -----------------------------------------------------------------------


def played_eight() -> tuple[Cup, dict[TieKey, TieResult], TieKey]:
    """Eight drawn by hand with a plate: round 1 and the first semi-final played, and the
    plate's first round drawn and its tie of the loser of tie 1 (given last) played."""
    cup = eight_by_hand(CupFormat(method=DrawMethod.BY_HAND, plate=True))
    results = {TieKey(1, position): HOME for position in range(1, 5)}
    cup = draw_plate(cup, results, seed=4)
    results[TieKey(2, 1)] = HOME
    plate_tie = bracket(cup, results).tie(TieKey(1, 1)).plate_next
    assert plate_tie is not None
    results[plate_tie] = HOME
    return cup, results, plate_tie


def test_a_changed_winner_affects_its_chain_to_the_final_and_its_losers_plate_chain():
    cup, results, plate_tie = played_eight()
    assert affected_by_correction(cup, results, TieKey(1, 1)) == (
        TieKey(2, 1), TieKey(3, 1), plate_tie, TieKey(2, 1, plate=True))
    assert affected_by_correction(cup, results, TieKey(3, 1)) == ()
    assert affected_by_correction(cup, results, TieKey(2, 2)) == (TieKey(3, 1),)


def test_a_bye_affects_nothing_it_has_no_result_to_correct():
    cup = draw(["Ann", "Bob", "Cy"], CupFormat(), seed=3)
    [bye] = [tie for tie in bracket(cup, {}).rounds[0] if tie.bye]
    with pytest.raises(CupError) as refused:
        affected_by_correction(cup, {}, bye.key)
    assert refused.value.code == "cup_result_for_bye"
    assert str(refused.value) == f'{bye.key} is a bye: "{bye.home}" goes through without playing'


def test_a_winner_changes_while_the_tie_it_went_into_is_unplayed():
    cup, results, _plate_tie = played_eight()
    assert correction_allowed(cup, results, TieKey(1, 3), AWAY)
    assert correction_allowed(cup, results, TieKey(2, 1), AWAY)
    fixed = corrected(cup, results, TieKey(1, 3), AWAY)
    assert bracket(cup, fixed).tie(TieKey(2, 2)).home == "Fox"


def test_a_result_that_keeps_the_winner_is_always_taken():
    cup, results, _plate_tie = played_eight()
    check_correction(cup, results, TieKey(1, 1), TieResult(games=((61, 59),)))


def test_once_the_next_tie_is_played_only_a_reset_changes_the_winner():
    cup, results, plate_tie = played_eight()
    error = refused(check_correction, cup, results, TieKey(1, 1), AWAY)
    assert str(error) == "tie 1 of round 1: its winner can change only while tie 1 of " \
                         "round 2 is unplayed, or by an admin who resets the ties after it"
    assert not correction_allowed(cup, results, TieKey(1, 1), AWAY)
    with pytest.raises(CupError):
        corrected(cup, results, TieKey(1, 1), AWAY)
    reset = corrected(cup, results, TieKey(1, 1), AWAY, reset=True)
    assert set(results) - set(reset) == {TieKey(2, 1), plate_tie}
    current = bracket(cup, reset)
    assert current.tie(TieKey(2, 1)).home == "Bell"
    assert "Anchor" in (current.tie(plate_tie).home, current.tie(plate_tie).away)


def test_a_played_plate_tie_also_holds_a_winner_in_place():
    cup, results, plate_tie = played_eight()
    results = {key: result for key, result in results.items() if key != TieKey(2, 1)}
    error = refused(check_correction, cup, results, TieKey(1, 1), AWAY)
    assert error.params["next"] == str(plate_tie)


def test_a_correction_taking_a_bye_out_of_a_drawn_plate_needs_the_plate_drawn_again():
    cup = draw(FIVE, PLATE, pairs=FIVE_PAIRS)
    results = {TieKey(1, 2): AWAY, TieKey(2, 1): AWAY, TieKey(2, 2): HOME}
    plated = draw_plate(cup, results, seed=8)
    error = refused(corrected, plated, results, TieKey(2, 1), HOME)
    assert str(error) == 'tie 1 of round 2: "Anchor" had a bye and went into the plate\'s ' \
                         'draw as its loser; for "Anchor" to have won it, the plate is ' \
                         'drawn again'
    again, kept = plate_undrawn(plated, corrected(cup, results, TieKey(2, 1), HOME))
    assert again == cup and kept[TieKey(2, 1)] == HOME
    assert plate_entries(again, kept) == (TieKey(1, 2), TieKey(2, 2))


def test_a_correction_putting_a_bye_into_a_drawn_plate_needs_the_plate_drawn_again():
    """The other way: "Anchor" won its first tie played, so the plate was drawn without
    it; a correction that makes it lose would leave it out of the plate for good."""
    cup = draw(FIVE, PLATE, pairs=FIVE_PAIRS)
    results = {TieKey(1, 2): AWAY, TieKey(2, 1): HOME, TieKey(2, 2): HOME}
    plated = draw_plate(cup, results, seed=8)
    assert TieKey(2, 1) not in plate_entries(cup, results)
    error = refused(corrected, plated, results, TieKey(2, 1), AWAY)
    assert error.code == "cup_plate_redraw_in"
    assert str(error) == 'tie 1 of round 2: "Anchor" had a bye and had won it when the ' \
                         'plate was drawn; for "Anchor" to have lost it and go into the ' \
                         'plate, the plate is drawn again'
    again, kept = plate_undrawn(plated, corrected(cup, results, TieKey(2, 1), AWAY))
    assert TieKey(2, 1) in plate_entries(again, kept)


# -- whole cups ------------------------------------------------------------------------


def play_out(cup: Cup, rng: random.Random) -> tuple[Cup, dict[TieKey, TieResult]]:
    """Every tie played (each winner at random), each round and the plate drawn as soon
    as they can be, until nothing more can be played or drawn."""
    results: dict[TieKey, TieResult] = {}
    while True:
        current = bracket(cup, results)
        waiting = [tie for tie in current.ties
                   if not tie.bye and not tie.played and tie.home and tie.away]
        for tie in waiting:
            results[tie.key] = won_by(rng.choice([Side.HOME, Side.AWAY]))
        if waiting:
            continue
        drawn = None
        if cup.format.timing is DrawTiming.ROUND_BY_ROUND:
            for plate in (False, True):
                if drawn is None and (not plate or cup.plate is not None):
                    try:
                        drawn = draw_next_round(cup, results, rng.randrange(1000), plate=plate)
                    except CupError as error:
                        assert error.code in ("cup_round_unfinished", "cup_final_drawn")
        if drawn is None and cup.format.plate and cup.plate is None:
            try:
                drawn = draw_plate(cup, results, rng.randrange(1000))
            except CupError as error:
                assert error.code in ("cup_plate_too_few", "cup_plate_waits",
                                      "cup_plate_waits_round")
        if drawn is None:
            return cup, results
        cup = drawn


def losses(current: Bracket, plate: bool) -> Counter[str]:
    return Counter(tie.loser for tie in current.ties
                   if tie.key.plate == plate and tie.loser is not None)


@settings(max_examples=150, deadline=None)
@given(count=st.integers(2, 40), method=st.sampled_from([DrawMethod.RANDOM,
                                                         DrawMethod.SEEDED]),
       timing=st.sampled_from(list(DrawTiming)), plate=st.booleans(),
       seed=st.integers(0, 2**32), rng=st.randoms(use_true_random=False))
def test_a_whole_cup_knocks_every_entrant_out_once_but_its_winner(count, method, timing,
                                                                  plate, seed, rng):
    entrants = [f"Team {number}" for number in range(count)]
    seeds = entrants[:rng.randint(1, count)] if method is DrawMethod.SEEDED else ()
    cup = draw(entrants, CupFormat(method=method, timing=timing, plate=plate), seed=seed,
               seeds=seeds)
    cup, results = play_out(cup, rng)
    current = bracket(cup, results)

    main_losses = losses(current, plate=False)
    assert set(main_losses.values()) == {1}
    assert len(main_losses) == count - 1
    assert current.winner is not None and current.winner not in main_losses
    assert sum(1 for tie in current.ties if tie.played and not tie.key.plate) == count - 1
    assert all(tie.home is not None for tie in current.ties)
    assert not any(tie.bye and tie.played for tie in current.ties)

    if not plate:
        assert cup.plate is None
        return
    first_losers = set()
    for name in entrants:
        first = next(tie for tie in current.ties if not tie.key.plate and not tie.bye
                     and name in (tie.home, tie.away))
        if first.loser == name:
            first_losers.add(name)
    if len(first_losers) < 2:
        assert cup.plate is None
        return
    entered = {current.tie(key).loser for key in plate_entries(cup, results)}
    assert entered == first_losers
    assert len(plate_entries(cup, results)) == len(first_losers)
    plate_played = [tie for tie in current.ties if tie.played and tie.key.plate]
    assert len(plate_played) == len(first_losers) - 1
    assert set(losses(current, plate=True).values()) == {1}
    assert current.plate_winner in first_losers
    assert current.plate_winner not in losses(current, plate=True)


@settings(max_examples=100, deadline=None)
@given(count=st.integers(2, 24), seed=st.integers(0, 2**32),
       rng=st.randoms(use_true_random=False), data=st.data())
def test_a_correction_without_reset_is_taken_exactly_when_no_affected_tie_is_played(
        count, seed, rng, data):
    cup = draw([f"Team {number}" for number in range(count)], CupFormat(plate=True),
               seed=seed)
    cup, results = play_out(cup, rng)
    key = data.draw(st.sampled_from(sorted(results, key=lambda key: key.order)))
    flipped = AWAY if bracket(cup, results).tie(key).winner == \
        bracket(cup, results).tie(key).home else HOME
    played = {after for after in affected_by_correction(cup, results, key)
              if after in results}
    allowed = correction_allowed(cup, results, key, flipped)
    try:
        reset = corrected(cup, results, key, flipped, reset=True)
    except CupError as error:  # a bye's entrant taken out of the plate drawn, or put in
        assert error.code in ("cup_plate_redraw", "cup_plate_redraw_in")
        assert not allowed
        return
    assert allowed == (not played)
    assert set(results) - set(reset) == played
    assert bracket(cup, reset).tie(key).winner != bracket(cup, results).tie(key).winner


# -- the module stays pure ---------------------------------------------------------------


def test_the_cup_rules_import_no_django():
    code = "import sys, matches.rules.cup; assert 'django' not in sys.modules, 'django'"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_every_public_name_is_listed():
    public = {name for name, value in vars(rules_cup).items()
              if not name.startswith("_") and getattr(value, "__module__", None)
              == rules_cup.__name__}
    assert public <= set(rules_cup.__all__)
