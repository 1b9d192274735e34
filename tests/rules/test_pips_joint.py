"""Pip totals checked together: one deal of the unseen tiles must give every seat its total.

Each total may be possible alone and the totals still impossible together (two seats
cannot both hold the one 9-9); ``Match._check_pips`` refuses those after the per-seat
checks, with ``matches.rules.dealing.dealable`` doing the search.
"""

import random
import time
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.rules import (
    ALL_FIVES,
    DOUBLE_SIX,
    DOUBLE_TWELVE,
    FIVE_UP,
    FIVES_AND_THREES,
    AttachmentPoint,
    HandsMismatch,
    Match,
    Round,
    RoundEnd,
    RoundMode,
    ScoringEnd,
    Tile,
)
from matches.rules.dealing import AT_LEAST_ONE, DEAL_BUDGET, dealable
from matches.rules.games import FIVES_AND_THREES_DEAL

NAMES = ["Olena", "Taras", "Iryna", "Bohdan", "Mykola"]


def run(match, *steps):
    """Plays and passes in compact notation: ``0:5-5``, ``1:0-5@5-5:5``, ``1:pass``."""
    for step in steps:
        seat_text, _, rest = step.partition(":")
        seat = int(seat_text)
        if rest == "pass":
            match.pass_(seat)
        else:
            tile, _, at = rest.partition("@")
            match.play(seat, Tile.parse(tile), AttachmentPoint.parse(at) if at else None)


def current(match: Match) -> Round:
    assert match.current_round is not None
    return match.current_round


def joint(*holds):
    """The joint refusal's message, for ``pytest.raises(match=...)``: seats and totals."""
    names = [name for name, _ in holds]
    totals = [str(total) for _, total in holds]

    def listed(words):
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"

    return (r"^pips: no way to deal the unseen tiles so that "
            f"{listed(names)} hold {listed(totals)} together$")


def blocked_after_9_9(**options):
    """Fives and Threes, five seats, double-nine: seat 0 sets the 9-9 and all pass."""
    match = Match(FIVES_AND_THREES, NAMES, {"set": "double-nine", **options}, labels=NAMES)
    match.start_round(starter=0)
    run(match, "0:9-9", "1:pass", "2:pass", "3:pass", "4:pass", "0:pass")
    assert current(match).blocked
    return match


# -- the bug report -------------------------------------------------------------------

def test_five_seats_whose_totals_fit_alone_but_not_together_are_refused():
    # All 55 tiles are dealt (11 each), so the hands hold every pip not on the table:
    # 495 - 18 = 477. Each total below is possible alone, but they add up to 476.
    match = blocked_after_9_9()
    assert current(match).counts == [10, 11, 11, 11, 11]
    pips = [80, 100, 99, 98, 99]
    with pytest.raises(HandsMismatch, match=joint(*zip(NAMES, pips, strict=True))):
        match.settle(pips=pips)
    # refused: Fives and Threes settled the round as it ended, and no count is kept
    assert current(match).pips is None and current(match).settle is None
    match.settle(pips=[80, 100, 99, 98, 100])  # 477: the same seats, one pip more
    assert current(match).pips == (80, 100, 99, 98, 100)


def test_seats_competing_for_the_same_big_and_small_tiles_are_refused():
    # Three tiles each: 45 is possible alone (8-9 + 7-9 + 8-8 = 49 at most), but three
    # seats of 45 need 135 from the nine biggest tiles left, which hold 134. And two
    # seats of 3 in three tiles both need the 0-0 and the 0-1.
    for pips in ([4, 45, 45, 45, 3], [30, 41, 30, 3, 3]):
        match = blocked_after_9_9(hand_size=3)
        assert current(match).counts == [2, 3, 3, 3, 3]
        with pytest.raises(HandsMismatch, match=joint(*zip(NAMES, pips, strict=True))):
            match.settle(pips=pips)
    # 1-1 0-3 | 8-9 7-8 6-7 | 8-8 6-9 5-9 | 7-9 7-7 6-8 | 0-0 0-1 0-2
    match = blocked_after_9_9(hand_size=3)
    match.settle(pips=[5, 45, 45, 44, 3])
    assert current(match).pips == (5, 45, 45, 44, 3)


def test_counts_make_totals_impossible_though_their_sum_fits():
    # One tile each: 18 is the 9-9 alone, and there is one 9-9; 37 pips are plenty.
    match = Match(FIVES_AND_THREES, 3, {"set": "double-nine", "hand_size": 2})
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "2:5-6@5-5:5", "0:pass", "1:pass", "2:pass")
    assert current(match).counts == [1, 1, 1]
    with pytest.raises(HandsMismatch, match=joint(("seat 0", 18), ("seat 1", 18),
                                                  ("seat 2", 1))):
        match.settle(pips=[18, 18, 1])
    match.settle(pips=[18, 17, 1])
    # The same totals with the counts unknown (a called round): 8-8 + 0-2 is 18 too.
    called = Match(FIVES_AND_THREES, 3, {"set": "double-nine"})
    called.start_round(mode=RoundMode.CALLED)
    called.settle(result=RoundEnd.BLOCKED, pips=[18, 18, 1])


def test_a_deal_that_fits_together_is_accepted_and_scored():
    # All Fives, four seats in partnerships, all 28 tiles dealt: the hands hold the
    # 168 - 12 = 156 pips left.
    match = Match(ALL_FIVES, 4, {"hand_size": 7})
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "2:pass", "3:pass", "0:pass")
    assert current(match).counts == [6, 7, 7, 7]
    with pytest.raises(HandsMismatch, match=joint(("seat 0", 30), ("seat 1", 40),
                                                  ("seat 2", 40), ("seat 3", 45))):
        match.settle(pips=[30, 40, 40, 45])  # 155: one pip is nowhere
    settlement = match.settle(pips=[30, 40, 40, 46])
    # 30 + 40 = 70 against 40 + 46 = 86: seats 0 and 2 win 86, rounded to 85
    assert settlement is not None and settlement.awards == (85, 0)
    assert match.scores == [85, 0]
    assert current(match).pips == (30, 40, 40, 46)


def test_called_rounds_check_the_totals_together_with_any_counts():
    def called_with_6_6():
        match = Match(FIVES_AND_THREES, 3)
        match.start_round(mode=RoundMode.CALLED)
        match.call(0, [ScoringEnd.parse("6-6")])  # the 6-6 is on the table
        return match

    # two seats with no pips both need the 0-0
    with pytest.raises(HandsMismatch, match=joint(("seat 0", 0), ("seat 1", 0),
                                                  ("seat 2", 7))):
        called_with_6_6().settle(result=RoundEnd.BLOCKED, pips=[0, 0, 7])
    # 168 pips, but the 6-6 is on the table: 156 are left for the hands
    with pytest.raises(HandsMismatch, match=joint(("seat 0", 84), ("seat 1", 84),
                                                  ("seat 2", 0))):
        called_with_6_6().settle(result=RoundEnd.BLOCKED, pips=[84, 84, 0])
    called_with_6_6().settle(result=RoundEnd.BLOCKED, pips=[78, 78, 0])
    nothing_called = Match(FIVES_AND_THREES, 3)
    nothing_called.start_round(mode=RoundMode.CALLED)
    nothing_called.settle(result=RoundEnd.BLOCKED, pips=[84, 84, 0])


def test_the_seat_that_went_out_is_left_out_of_the_message():
    match = Match(FIVES_AND_THREES, ["Olena", "Taras", "Iryna"], labels=NAMES[:3])
    match.start_round(mode=RoundMode.CALLED)
    match.call(2, [ScoringEnd.parse("5")], goes_out=True)
    with pytest.raises(HandsMismatch, match=joint(("Olena", 0), ("Taras", 0))):
        match.settle(pips=[0, 0, 0])
    match.settle(pips=[0, 1, 0])


def test_each_seats_own_message_comes_first():
    # a total impossible alone keeps its precise message, even if the totals also clash
    match = blocked_after_9_9(hand_size=3)
    with pytest.raises(HandsMismatch, match=r"^pips: no 3 unseen tiles add up to 50 \(Taras\)$"):
        match.settle(pips=[3, 50, 45, 45, 3])


# -- the search -----------------------------------------------------------------------

def by_value(values, width):
    avail = [0] * width
    for value in values:
        avail[value] += 1
    return avail


def brute_force(values, needs):
    """Whether the tiles (their pip values) can go to the seats: each tile to one seat or
    none, tile by tile; a need is (count, total), count ``AT_LEAST_ONE`` if unknown."""
    values = tuple(sorted(values, reverse=True))
    pips_after = [sum(values[index:]) for index in range(len(values) + 1)]

    @cache
    def deal(index, seats):
        # a seat: (tiles it still takes, pips it still needs); unknown counts: -1 until
        # the seat has a tile, then -2 (any number more). Seats in any order: sorted.
        if sum(total for _, total in seats) > pips_after[index] or sum(
                max(count, 0) for count, _ in seats) > len(values) - index:
            return False
        if index == len(values):
            return all(total == 0 and count in (0, -2) for count, total in seats)
        value = values[index]
        if deal(index + 1, seats):
            return True
        for seat, (count, total) in enumerate(seats):
            if total >= value and count != 0:
                after = count - 1 if count > 0 else -2
                rest = seats[:seat] + ((after, total - value),) + seats[seat + 1:]
                if deal(index + 1, tuple(sorted(rest))):
                    return True
        return False

    return deal(0, tuple(sorted(needs)))


# small cases the brute force settles fast: up to a dozen tiles, four seats
small_needs = st.lists(st.tuples(st.sampled_from([AT_LEAST_ONE, 1, 1, 2, 2, 3, 4]),
                                 st.integers(0, 30)), min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(values=st.lists(st.integers(0, 12), min_size=1, max_size=12), needs=small_needs,
       called=st.booleans())
def test_the_search_agrees_with_a_brute_force(values, needs, called):
    if called:
        needs = [(AT_LEAST_ONE, total) for _, total in needs]
    else:
        needs = [(max(count, 1), total) for count, total in needs]
    found = dealable(by_value(values, 13), needs, DEAL_BUDGET)
    assert found is brute_force(values, needs)


# Games and tables as the engine allows them, drawing on where it may be.
TABLES = [(ALL_FIVES, 2, {"hand_size": 14}), (ALL_FIVES, 3, {}), (ALL_FIVES, 4, {}),
          (FIVE_UP, 2, {}), (FIVE_UP, 4, {"hand_size": 7})] + [
    (FIVES_AND_THREES, players, {"set": tile_set, "deal": deal, "drawing": drawing})
    for deal, sets in FIVES_AND_THREES_DEAL.items()
    for tile_set, table in sets.items()
    for players in table
    for drawing in (False, True)
    if deal == "full" or players in (2, 5, 12)]


def play_a_round(game, players, options, rng, called):
    """Deal real hands and play a round to its end: some legal plays (tracked) or some
    called doubles, then passes. Returns the match and the hands at the end."""
    match = Match(game, players, {**options, "target": 10**6})
    tiles = list(match.options.tile_set.tiles)
    rng.shuffle(tiles)
    if called:
        match.start_round(mode=RoundMode.CALLED)
        doubles = [tile for tile in tiles if tile.is_double][:rng.randrange(4)]
        for double in doubles:  # on the table: called as scoring ends
            match.call(rng.randrange(players), [ScoringEnd.parse(str(double))])
        tiles = [tile for tile in tiles if tile not in doubles]
        # any hands of one tile or more: a called round does not know the counts
        sizes = [rng.randrange(1, len(tiles) // players + 1) for _ in range(players)]
        hands = [[tiles.pop() for _ in range(size)] for size in sizes]
        return match, hands
    size = match.options.hand_size
    hands = [tiles[seat * size:(seat + 1) * size] for seat in range(players)]
    boneyard = tiles[players * size:] if match.options.drawing else []
    match.start_round(starter=rng.randrange(players))
    rnd = current(match)
    plays = rng.randrange(1, 3 * players)  # the first opens the round
    while rnd.end is None:
        seat = rnd.turn
        assert seat is not None
        hand = hands[seat]
        moves: list[tuple[Tile, AttachmentPoint | None]] = [
            (tile, point) for tile in hand for point in rnd.layout.legal_points(tile)]
        if not rnd.layout:
            moves = [(tile, None) for tile in hand]
        if plays and moves:
            tile, point = rng.choice(moves)
            hand.remove(tile)
            match.play(seat, tile, point)
            plays -= 1
            continue
        plays = 0  # from here on, every seat draws what is left and passes: a block
        if boneyard:
            match.draw(seat, len(boneyard))
            hand.extend(boneyard)
            boneyard = []
        match.pass_(seat)
    return match, hands


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32), called=st.booleans())
def test_a_real_deal_is_never_refused(table, seed, called):
    game, players, options = table
    match, hands = play_a_round(game, players, options, random.Random(seed), called)
    rnd = current(match)
    pips = [sum(tile.pips for tile in hand) for hand in hands]
    # the search itself finds the deal, well within its budget
    on_table = set(rnd.layout.tiles) if rnd.tracked else {
        Tile(end.value, end.value) for event in rnd.events
        for end in getattr(event, "ends", ()) if end.double}
    unseen = [tile.pips for tile in match.options.tile_set.tiles if tile not in on_table]
    needs = [(len(hand) if rnd.tracked else AT_LEAST_ONE, total)
             for hand, total in zip(hands, pips, strict=True) if hand]
    width = 2 * match.options.tile_set.top + 1
    assert dealable(by_value(unseen, width), needs, DEAL_BUDGET) is True
    if rnd.tracked:
        settlement = match.settle(pips=pips)
    else:
        settlement = match.settle(result=RoundEnd.BLOCKED, pips=pips)
    assert current(match).pips == tuple(pips) and settlement is current(match).settlement


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), hand_size=st.integers(1, 3), seed=st.integers(0, 2**32),
       called=st.booleans(), data=st.data())
def test_the_settlement_agrees_with_a_brute_force(players, hand_size, seed, called, data):
    # double-six, small hands: the brute force over the 27 or 28 unseen tiles is cheap
    rng = random.Random(seed)
    match = Match(FIVES_AND_THREES, players, {"hand_size": hand_size})
    if called:
        match.start_round(mode=RoundMode.CALLED)
        if rng.random() < 0.5:
            match.call(0, [ScoringEnd.parse("6-6")])
        totals = data.draw(st.lists(st.integers(0, 14), min_size=players, max_size=players))
        on_table = {Tile(6, 6)} if current(match).events else set()
        needs = [(AT_LEAST_ONE, total) for total in totals]
    else:
        match.start_round(starter=0)
        match.play(0, rng.choice(DOUBLE_SIX.tiles))
        for seat in [*range(1, players), 0]:
            if current(match).end is None:
                match.pass_(seat)
        rnd = current(match)
        totals = data.draw(st.lists(st.integers(0, 24), min_size=players, max_size=players))
        if rnd.finisher is not None:
            totals[rnd.finisher] = 0
        on_table = set(rnd.layout.tiles)
        needs = [(count, total) for count, total in zip(rnd.counts, totals, strict=True)
                 if count]
    unseen = [tile.pips for tile in DOUBLE_SIX.tiles if tile not in on_table]
    try:
        if called:
            match.settle(result=RoundEnd.BLOCKED, pips=totals)
        else:
            match.settle(pips=totals)
    except HandsMismatch:
        accepted = False
    else:
        accepted = True
    assert accepted is brute_force(unseen, needs)


# -- hostile input --------------------------------------------------------------------

def test_a_hopeless_search_gives_up_within_its_budget():
    # Double-twelve with only the tiles worth a multiple of 3 left, and three worth 2, 4
    # and 8: four seats of five tiles want totals of 2 mod 3, so each needs the 2 or the 8
    # (or all three). Bounds and parities see nothing wrong and the search could run
    # for long: it stops after its budget and answers None, and the settlement stands.
    avail = [0] * 25
    for tile in DOUBLE_TWELVE.tiles:
        if tile.pips % 3 == 0:
            avail[tile.pips] += 1
    for value in (2, 4, 8):
        avail[value] += 1
    needs = [(5, 50), (5, 56), (5, 62), (5, 50)]
    assert dealable(avail, needs, 100) is None
    started = time.perf_counter()
    assert dealable(avail, needs, DEAL_BUDGET) is None
    assert time.perf_counter() - started < 1  # some 10 ms in plain Python, 2 compiled
