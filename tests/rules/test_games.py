"""The three games' seams: options, placement points, settlement (RULES.md §4)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from matches.rules import (
    ALL_FIVES,
    DOUBLE_NINE,
    DOUBLE_SIX,
    DOUBLE_TWELVE,
    FIVE_UP,
    FIVES_AND_THREES,
    GAMES,
    ImpossibleScore,
    OptionError,
    RulesError,
    SpinnerPolicy,
    Unit,
    game_for,
    round_to_five,
)
from matches.rules.games import ADVANCED_DIVISORS

# -- placement points ------------------------------------------------------------------


@pytest.mark.parametrize("end_sum", range(0, 37))
def test_all_fives_scores_positive_multiples_of_five_raw(end_sum):
    expected = end_sum if end_sum and end_sum % 5 == 0 else 0
    assert ALL_FIVES.placement_points(end_sum) == expected


@pytest.mark.parametrize("end_sum", range(0, 61))
def test_five_up_scores_a_fifth_of_multiples_of_five(end_sum):
    expected = end_sum // 5 if end_sum and end_sum % 5 == 0 else 0
    assert FIVE_UP.placement_points(end_sum) == expected


@pytest.mark.parametrize(("end_sum", "points"), [
    (0, 0), (3, 1), (5, 1), (6, 2), (9, 3), (10, 2), (12, 4), (15, 8), (20, 4), (21, 7),
    (30, 16), (4, 0), (7, 0), (11, 0), (13, 0), (14, 0)])
def test_fives_and_threes_default_divisors(end_sum, points):
    assert FIVES_AND_THREES.placement_points(end_sum) == points
    assert FIVES_AND_THREES.placement_points(end_sum, divisors=(3, 5)) == points


@pytest.mark.parametrize(("end_sum", "points"), [
    (0, 0), (7, 1), (11, 1), (13, 1), (14, 2), (15, 8), (21, 10), (22, 2), (26, 2), (33, 14),
    (35, 12), (8, 0)])
def test_fives_and_threes_advanced_divisors(end_sum, points):
    assert ADVANCED_DIVISORS == (3, 5, 7, 11, 13)
    assert FIVES_AND_THREES.placement_points(end_sum, divisors=ADVANCED_DIVISORS) == points


def test_game_units_and_policies():
    assert (ALL_FIVES.unit, FIVE_UP.unit, FIVES_AND_THREES.unit) == (
        Unit.RAW, Unit.DISPLAY, Unit.POINTS)
    assert (ALL_FIVES.policy, FIVE_UP.policy, FIVES_AND_THREES.policy) == (
        SpinnerPolicy.FIRST_DOUBLE, SpinnerPolicy.EVERY_DOUBLE, SpinnerPolicy.NONE)
    assert (ALL_FIVES.max_called_ends, FIVES_AND_THREES.max_called_ends) == (4, 2)
    assert FIVES_AND_THREES.going_out_bonus == 1 and ALL_FIVES.going_out_bonus == 0


# -- rounding --------------------------------------------------------------------------

@pytest.mark.parametrize(("pips", "rounded"), [
    (0, 0), (1, 0), (2, 0), (3, 5), (4, 5), (5, 5), (6, 5), (7, 5), (8, 10), (9, 10),
    (10, 10), (11, 10), (12, 10), (13, 15), (14, 15), (47, 45), (48, 50), (168, 170)])
def test_round_to_five(pips, rounded):
    assert round_to_five(pips) == rounded


@given(st.integers(0, 2000))
def test_round_to_five_is_the_nearest_multiple(pips):
    rounded = round_to_five(pips)
    assert rounded % 5 == 0
    assert abs(rounded - pips) <= 2
    assert (rounded > pips) == (pips % 5 >= 3)


# -- games and options -----------------------------------------------------------------

def test_game_for_known_slugs():
    for slug, game in GAMES.items():
        assert game_for(slug) is game and game.slug == slug


@pytest.mark.parametrize(("slug", "shown"), [
    ("fives-threes", "'fives-threes'"), ("muggins", "'muggins'"), (None, "None"),
    (["all-fives"], "['all-fives']")])
def test_unknown_game(slug, shown):
    with pytest.raises(OptionError) as excinfo:
        game_for(slug)
    assert str(excinfo.value) == (f"unknown game {shown} (expected one of all-fives, five-up, "
                                  "fives-and-threes)")


@pytest.mark.parametrize(("game", "players", "given", "message"), [
    (ALL_FIVES, 6, {}, "all-fives is for 2 to 4 players, not 6"),
    (ALL_FIVES, 1, {}, "all-fives is for 2 to 4 players, not 1"),
    (FIVE_UP, 5, {}, "five-up is for 2 to 4 players, not 5"),
    (FIVES_AND_THREES, 1, {"set": "double-twelve"},
     "fives-and-threes with double-twelve is for 2 to 12 players, not 1"),
    (FIVES_AND_THREES, 6, {}, "fives-and-threes with double-six is for 2 to 5 players, not 6"),
    (FIVES_AND_THREES, 12, {"set": "double-nine"},
     "fives-and-threes with double-nine is for 2 to 11 players, not 12"),
    (ALL_FIVES, 2, {"target": 0}, "option target must be a positive integer, not 0"),
    (FIVE_UP, 2, {"target": -5}, "option target must be a positive integer, not -5"),
    (ALL_FIVES, 2, {"target": "250"}, "option target must be a positive integer, not '250'"),
    (ALL_FIVES, 2, {"target": True}, "option target must be a positive integer, not True"),
    (ALL_FIVES, 2, {"target": 250.0}, "option target must be a positive integer, not 250.0"),
    (ALL_FIVES, 2, {"hand_size": 0}, "option hand_size must be a positive integer, not 0"),
    (FIVE_UP, 2, {"drawing": True}, "option 'drawing' does not apply to five-up"),
    (ALL_FIVES, 2, {"set": "double-nine"}, "option 'set' does not apply to all-fives"),
    (ALL_FIVES, 2, {"immediate_end": False},
     "option 'immediate_end' does not apply to all-fives"),
    (FIVES_AND_THREES, 2, {"colour": "red"},
     "option 'colour' does not apply to fives-and-threes"),
    (FIVES_AND_THREES, 2, {"set": "double-ten"},
     "option set must be one of double-six, double-nine, double-twelve, not 'double-ten'"),
    (FIVES_AND_THREES, 2, {"set": ["double-six"]},
     "option set must be one of double-six, double-nine, double-twelve, not ['double-six']"),
    (FIVES_AND_THREES, 2, {"deal": {"full": True}},
     "option deal must be 'full' or 'short', not {'full': True}"),
    (FIVES_AND_THREES, 2, {"deal": "long"}, "option deal must be 'full' or 'short', not 'long'"),
    (FIVES_AND_THREES, 2, {"drawing": 1}, "option drawing must be true or false, not 1"),
    (FIVES_AND_THREES, 2, {"immediate_end": "no"},
     "option immediate_end must be true or false, not 'no'"),
    (FIVES_AND_THREES, 2, {"divisors": [1, 5]},
     "option divisors must be a list of different whole numbers of at least 2, not [1, 5]"),
    (FIVES_AND_THREES, 2, {"divisors": []},
     "option divisors must be a list of different whole numbers of at least 2, not []"),
    (FIVES_AND_THREES, 2, {"divisors": [3, 3]},
     "option divisors must be a list of different whole numbers of at least 2, not [3, 3]"),
    (ALL_FIVES, 4, {"hand_size": 8},
     "option hand_size must be a positive integer with hand_size x 4 players <= 28 tiles, "
     "not 8"),
    (FIVES_AND_THREES, 5, {"set": "double-twelve", "hand_size": 91},
     "option hand_size must be a positive integer with hand_size x 5 players <= 91 tiles, "
     "not 91"),
    (FIVES_AND_THREES, 5, {"set": "double-nine", "hand_size": 12},
     "option hand_size must be a positive integer with hand_size x 5 players <= 55 tiles, "
     "not 12"),
])
def test_option_errors(game, players, given, message):
    with pytest.raises(OptionError) as excinfo:
        game.options(players, given)
    assert str(excinfo.value) == message


@pytest.mark.parametrize(("game", "players", "given", "option"), [
    (ALL_FIVES, 2, {"target": 0}, "target"),
    (ALL_FIVES, 2, {"target": 10**7}, "target"),
    (ALL_FIVES, 4, {"hand_size": 8}, "hand_size"),
    (FIVE_UP, 2, {"hand_size": -1}, "hand_size"),
    (FIVES_AND_THREES, 2, {"set": "double-ten"}, "set"),
    (FIVES_AND_THREES, 2, {"deal": "long"}, "deal"),
    (FIVES_AND_THREES, 2, {"drawing": 1}, "drawing"),
    (FIVES_AND_THREES, 2, {"divisors": [1]}, "divisors"),
])
def test_an_option_error_names_its_option_in_its_params(game, players, given, option):
    # a form puts the refusal beside the option's own field by this, not by the English
    with pytest.raises(OptionError) as excinfo:
        game.options(players, given)
    assert excinfo.value.params["option"] == option


def test_each_game_names_its_sets_default_first():
    assert ALL_FIVES.tile_sets == FIVE_UP.tile_sets == (DOUBLE_SIX,)
    assert FIVES_AND_THREES.tile_sets == (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE)
    assert all(game.options(game.players[0]).tile_set is game.tile_sets[0]
               for game in GAMES.values())


@pytest.mark.parametrize(("game", "players", "target", "hand_size", "drawing"), [
    (ALL_FIVES, 2, 250, 9, True), (ALL_FIVES, 3, 200, 7, True), (ALL_FIVES, 4, 200, 5, True),
    (FIVE_UP, 2, 61, 5, True), (FIVE_UP, 3, 61, 5, True), (FIVE_UP, 4, 61, 5, True),
    (FIVES_AND_THREES, 2, 61, 14, False), (FIVES_AND_THREES, 5, 61, 5, False),
])
def test_defaults(game, players, target, hand_size, drawing):
    options = game.options(players)
    assert (options.target, options.hand_size, options.drawing) == (target, hand_size, drawing)
    assert options.tile_set is DOUBLE_SIX
    assert options.divisors == (3, 5) and options.immediate_end is True
    assert options.deal == "full" and dict(options.given) == {}


@pytest.mark.parametrize(("tile_set", "deal", "players", "hand_size"), [
    (DOUBLE_SIX, "full", 2, 14), (DOUBLE_SIX, "full", 3, 9), (DOUBLE_SIX, "full", 4, 7),
    (DOUBLE_SIX, "short", 2, 5), (DOUBLE_SIX, "short", 4, 7), (DOUBLE_SIX, "short", 5, 5),
    (DOUBLE_NINE, "full", 2, 16), (DOUBLE_NINE, "full", 4, 13), (DOUBLE_NINE, "full", 5, 11),
    (DOUBLE_NINE, "full", 6, 8), (DOUBLE_NINE, "full", 11, 5), (DOUBLE_NINE, "short", 3, 10),
    (DOUBLE_NINE, "short", 8, 6), (DOUBLE_TWELVE, "full", 5, 16), (DOUBLE_TWELVE, "full", 6, 15),
    (DOUBLE_TWELVE, "full", 7, 13), (DOUBLE_TWELVE, "full", 9, 10),
    (DOUBLE_TWELVE, "full", 12, 7), (DOUBLE_TWELVE, "short", 9, 10),
    (DOUBLE_TWELVE, "short", 10, 9), (DOUBLE_TWELVE, "short", 11, 8),
    (DOUBLE_TWELVE, "short", 12, 7),
])
def test_fives_and_threes_deal_table(tile_set, deal, players, hand_size):
    options = FIVES_AND_THREES.options(players, {"set": tile_set.slug, "deal": deal})
    assert options.tile_set is tile_set and options.deal == deal
    assert options.hand_size == hand_size
    assert players * hand_size <= tile_set.size


def test_given_options_are_kept_and_applied():
    given = {"set": "double-nine", "drawing": True, "divisors": [3, 5, 7, 11, 13],
             "immediate_end": False, "target": 101, "hand_size": 6}
    options = FIVES_AND_THREES.options(4, given)
    assert (options.target, options.hand_size, options.drawing, options.immediate_end) == (
        101, 6, True, False)
    assert options.divisors == (3, 5, 7, 11, 13)
    assert dict(options.given) == given
    assert not FIVES_AND_THREES.ends_on_placement(options)
    assert not FIVES_AND_THREES.refuses_overshoot(options)
    assert FIVES_AND_THREES.refuses_overshoot(FIVES_AND_THREES.options(4))


def test_ends_on_placement_by_game():
    assert ALL_FIVES.ends_on_placement(ALL_FIVES.options(2))
    assert not FIVE_UP.ends_on_placement(FIVE_UP.options(2))
    assert not ALL_FIVES.refuses_overshoot(ALL_FIVES.options(2))


@pytest.mark.parametrize("game", [ALL_FIVES, FIVE_UP])
def test_four_players_play_in_partnerships_opposite(game):
    assert game.sides(4) == ((0, 2), (1, 3))
    assert game.sides(3) == ((0,), (1,), (2,))
    assert game.sides(2) == ((0,), (1,))


def test_fives_and_threes_has_no_partnerships():
    assert FIVES_AND_THREES.sides(4) == ((0,), (1,), (2,), (3,))


# -- settlement: All Fives -------------------------------------------------------------

def af_settle(pips, finisher=None):
    players = len(pips)
    return ALL_FIVES.settle(ALL_FIVES.options(players), players, pips, finisher)


@pytest.mark.parametrize(("opponent", "award"), [
    (0, 0), (1, 0), (2, 0), (3, 5), (5, 5), (12, 10), (13, 15), (14, 15), (27, 25), (28, 30)])
def test_all_fives_domino_awards_opponents_pips_rounded(opponent, award):
    settlement = af_settle([0, opponent], finisher=0)
    assert settlement.awards == (award, 0)
    assert settlement.winner == 0


def test_all_fives_domino_steps_show_the_rounding():
    settlement = af_settle([12, 0], finisher=1)
    assert settlement.awards == (0, 10)
    assert "12 rounds down to 10 (remainder 2)" in settlement.steps
    assert "13 rounds up to 15 (remainder 3)" in af_settle([0, 13], finisher=0).steps


def test_all_fives_partnership_excludes_partners_pips():
    settlement = af_settle([0, 7, 20, 6], finisher=0)
    assert settlement.awards == (15, 0)  # 7 + 6 = 13 → 15; partner's 20 not counted
    assert settlement.winner == 0
    settlement = af_settle([9, 4, 2, 0], finisher=3)
    assert settlement.awards == (0, 10)  # 9 + 2 = 11 → 10
    # one partner went out, the pair wins
    assert "seat 3 went out: seat 1 + seat 3 win the round" in settlement.steps
    assert "seat 1 + seat 3 went out and wins the round" not in settlement.steps


def test_a_partnership_is_said_in_the_plural_and_one_player_in_the_singular():
    names = ["Ann", "Bo", "Cy", "Di"]
    out = ALL_FIVES.settle(ALL_FIVES.options(4), 4, [0, 7, 20, 6], 0, names)
    assert out.steps[-1] == "Ann + Cy score 15"
    blocked = ALL_FIVES.settle(ALL_FIVES.options(4), 4, [3, 5, 6, 3], None, names)
    assert "blocked: Bo + Di have the lowest total and win the round" in blocked.steps
    assert blocked.steps[-1] == "Bo + Di score 10"
    alone = ALL_FIVES.settle(ALL_FIVES.options(2), 2, [4, 13], None, ["Ann", "Bo"])
    assert "blocked: Ann has the lowest total and wins the round" in alone.steps
    assert alone.steps[-1] == "Ann scores 15"


def test_all_fives_three_players_domino_takes_both_opponents_rounded_once():
    settlement = af_settle([7, 0, 7], finisher=1)
    assert settlement.awards == (0, 15, 0)  # 14 → 15 (not 5 + 5)


def test_all_fives_two_player_block_lowest_wins():
    settlement = af_settle([4, 13])
    assert settlement.awards == (15, 0)  # 4 + 13 = 17 → 15: the winner gets the opponents' 13
    settlement = af_settle([9, 6])
    assert settlement.awards == (0, 10) and settlement.winner == 1


@pytest.mark.parametrize("pips", [[8, 8], [3, 5, 5, 3], [0, 0]])
def test_all_fives_block_tie_with_two_sides_gives_nothing(pips):
    settlement = af_settle(pips)
    assert all(award == 0 for award in settlement.awards)
    assert settlement.winner is None
    assert "blocked with equal lowest totals: no remainder award" in settlement.steps


def test_all_fives_four_player_block_compares_partnership_totals():
    settlement = af_settle([3, 5, 6, 3])  # 9 against 8
    assert settlement.awards == (0, 10) and settlement.winner == 1


def test_all_fives_three_player_block_unique_lowest_gets_both_rounded_once():
    settlement = af_settle([2, 7, 7])
    assert settlement.awards == (15, 0, 0)  # 14 → 15, not 5 + 5
    assert settlement.winner == 0


@pytest.mark.parametrize(("pips", "awards"), [
    ([3, 3, 5], (Fraction(5, 2), Fraction(5, 2), 0)),  # the third hand's 5 → 2.5 each
    ([3, 3, 7], (Fraction(5, 2), Fraction(5, 2), 0)),  # 7 → 5 → 2.5 each
    ([4, 9, 4], (5, 0, 5)),  # 9 → 10 → 5 each
    ([3, 3, 12], (5, 5, 0)),  # 12 → 10 → 5 each
    ([1, 1, 2], (0, 0, 0)),  # 2 → 0: nothing to split
])
def test_all_fives_three_player_block_two_tied_split_the_third_hand(pips, awards):
    settlement = af_settle(pips)
    assert settlement.awards == awards
    assert not any(isinstance(award, float) for award in settlement.awards)
    assert settlement.winner is None


def test_all_fives_split_halves_are_exact_fractions():
    settlement = af_settle([3, 3, 5])
    assert settlement.awards[0] == Fraction(5, 2)
    assert isinstance(settlement.awards[0], Fraction)
    assert "split equally: 2½ each" in settlement.steps


def test_all_fives_three_way_tie_gives_nothing():
    settlement = af_settle([6, 6, 6])
    assert settlement.awards == (0, 0, 0) and settlement.winner is None


# -- settlement: Five Up and Fives and Threes ------------------------------------------

def fu_settle(pips, finisher=None):
    players = len(pips)
    return FIVE_UP.settle(FIVE_UP.options(players), players, pips, finisher)


@pytest.mark.parametrize(("hand", "deduction"), [
    (0, 0), (1, 0), (2, 0), (3, -1), (5, -1), (7, -1), (8, -2), (12, -2), (13, -3)])
def test_five_up_deducts_per_hand(hand, deduction):
    assert fu_settle([0, hand], finisher=0).awards == (0, deduction)


def test_five_up_partners_are_rounded_separately():
    assert fu_settle([3, 0, 3, 0], finisher=1).awards == (-2, 0)  # not 6 → 5 → −1
    assert fu_settle([2, 1, 2, 1], finisher=None).awards == (0, 0)  # not 4 → 5 → −1


def test_five_up_says_who_went_out_rather_than_their_zero_pips():
    assert fu_settle([0, 7], finisher=0).steps == (
        "seat 0 went out: no tiles, no deduction",
        "seat 1: 7 rounds down to 5 (remainder 2), −1")
    # blocked, a hand of 0 pips is still only a count
    assert fu_settle([0, 7]).steps[0] == "seat 0: 0 is a multiple of 5, no deduction"


def test_five_up_blocked_round_still_deducts_and_credits_nobody():
    settlement = fu_settle([7, 8, 3])
    assert settlement.awards == (-1, -2, -1)
    assert settlement.winner is None


def test_fives_and_threes_remaining_tiles_score_nothing():
    options = FIVES_AND_THREES.options(3)
    settlement = FIVES_AND_THREES.settle(options, 3, [10, 0, 25], 1)
    assert settlement.awards == (0, 0, 0)
    assert settlement.steps == ("remaining tiles score nothing",)


# -- final scores (a game kept on paper and keyed in) ------------------------------------


def _final(game, score, players=2, **options):
    game.check_final_score(game.options(players, options), score)


@pytest.mark.parametrize(("game", "score", "options"), [
    (ALL_FIVES, (250, 40), {}), (ALL_FIVES, (245, 415), {}),  # one award of 170 from 245
    (ALL_FIVES, (0, 250), {}), (ALL_FIVES, (65, 60), {"target": 61}),
    (FIVE_UP, (61, 40), {}), (FIVE_UP, (75, 70), {}),  # both past 61: the higher wins
    (FIVE_UP, (0, 900), {}),  # level leaders play on, round after round
    (FIVES_AND_THREES, (61, 60), {}), (FIVES_AND_THREES, (0, 61), {}),
    (FIVES_AND_THREES, (41, 3), {"target": 41}),
    (FIVES_AND_THREES, (64, 62), {"immediate_end": False}),  # every award counts
])
def test_a_final_score_a_game_can_end_with_is_accepted(game, score, options):
    _final(game, score, **options)


@pytest.mark.parametrize(("game", "score", "options", "message"), [
    (FIVES_AND_THREES, (40, 50), {},
     "neither side has reached the target 61, so 40-50 is not a final score"),
    (ALL_FIVES, (200, 150), {},  # 200 is the target of four, not two
     "neither side has reached the target 250, so 200-150 is not a final score"),
    (FIVE_UP, (60, 59), {}, "neither side has reached the target 61, so 60-59 is not a "
                            "final score"),
    (FIVES_AND_THREES, (64, 20), {},
     "fives-and-threes is won exactly on the target 61 (an award that would pass it does "
     "not count), so 64 is past it"),
    (FIVES_AND_THREES, (61, 62), {},
     "both sides are at or past the target 61: fives-and-threes ends as soon as one side "
     "reaches it (61-62)"),
    (ALL_FIVES, (255, 250), {},
     "both sides are at or past the target 250: all-fives ends as soon as one side "
     "reaches it (255-250)"),
    (ALL_FIVES, (251, 40), {},
     "all-fives scores go in fives (every award is a multiple of 5), so 251 cannot be a "
     "score"),
    (ALL_FIVES, (250, 42), {},
     "all-fives scores go in fives (every award is a multiple of 5), so 42 cannot be a "
     "score"),
    (ALL_FIVES, (420, 40), {},
     "420 is out of reach: all-fives ends with the award that takes a side from at most "
     "245 to the target 250, and one award gives at most 170"),
    (FIVE_UP, (61, 61), {}, "61-61 is level: a game ends with a winner"),
])
def test_a_final_score_no_game_can_end_with_is_refused(game, score, options, message):
    with pytest.raises(ImpossibleScore) as refused:
        _final(game, score, **options)
    assert str(refused.value) == message
    assert isinstance(refused.value, RulesError) and refused.value.code.startswith("final_")


def test_all_fives_takes_the_target_of_its_table():
    _final(ALL_FIVES, (200, 150), players=4)  # partnerships play to 200
    _final(ALL_FIVES, (200, 150), players=2, target=200)
