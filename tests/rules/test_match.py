"""A match through its public API: turns, drawing, ends of rounds, scores, undo (RULES.md §3-4)."""

import copy
from fractions import Fraction

import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from matches.rules import (
    ALL_FIVES,
    FIVE_UP,
    FIVES_AND_THREES,
    AttachmentPoint,
    BoneyardNotEmpty,
    ClaimMismatch,
    DrawRefused,
    DuplicateEnd,
    HandsMismatch,
    IllegalPlacement,
    Layout,
    Match,
    MatchOver,
    NotYourTurn,
    Round,
    RoundEnd,
    RoundMode,
    RoundOver,
    RulesError,
    ScoringEnd,
    Tile,
    TileNotInSet,
    TileOnTable,
    export,
    summary,
)
from matches.rules.simulate import simulated_match
from matches.rules.tiles import DOUBLE_SIX


def act(match, step):
    """One step in compact notation: ``0:5-5``, ``1:0-5@5-5:5=10`` (claim), ``0:draw2``,
    ``1:pass``."""
    seat_text, _, rest = step.partition(":")
    seat = int(seat_text)
    claim = None
    if "=" in rest:
        rest, _, claim_text = rest.partition("=")
        claim = Fraction(claim_text) if "." in claim_text else int(claim_text)
    if rest == "pass":
        return match.pass_(seat)
    if rest.startswith("draw"):
        return match.draw(seat, int(rest[4:] or 1))
    tile, _, at = rest.partition("@")
    return match.play(seat, Tile.parse(tile), AttachmentPoint.parse(at) if at else None, claim)


def run(match, *steps):
    """Play the steps in order; returns the last result."""
    result = None
    for step in steps:
        result = act(match, step)
    return result


def current(match: Match) -> Round:
    """The round in play: these tests reach for it only once a round has started."""
    assert match.current_round is not None
    return match.current_round


def tiles(*texts):
    return [Tile.parse(text) for text in texts]


def ends(*texts):
    return [ScoringEnd.parse(text) for text in texts]


def state(match):
    return export(match), summary(match), match.phase, len(match.log)


def short_round(game=ALL_FIVES, **options):
    """Two players, two tiles each: seat 0 dominoes on its second play."""
    match = Match(game, 2, {"hand_size": 2, **options})
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")
    return match


# -- turns, draws and passes -----------------------------------------------------------

def test_turn_order_is_enforced():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5")
    with pytest.raises(NotYourTurn) as excinfo:
        run(match, "0:0-5@5-5:5")
    assert str(excinfo.value) == "it is seat 1's turn, not seat 0's"


def test_turn_order_message_uses_labels():
    match = Match(ALL_FIVES, ["Olena", "Taras"], labels=["Olena", "Taras"])
    match.start_round(starter=1)
    with pytest.raises(NotYourTurn) as excinfo:
        run(match, "0:5-5")
    assert str(excinfo.value) == "it is Taras's turn, not Olena's"


def test_play_passes_clockwise_and_a_draw_keeps_the_turn():
    match = Match(ALL_FIVES, 3)
    match.start_round(starter=2)
    rnd = current(match)
    run(match, "2:5-5")
    assert rnd.turn == 0
    run(match, "0:draw3")
    assert rnd.turn == 0 and rnd.counts == [10, 7, 6] and rnd.boneyard == 4
    run(match, "0:0-5@5-5:5")
    assert rnd.turn == 1


def test_a_pass_is_refused_while_the_boneyard_holds_tiles():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5")
    with pytest.raises(BoneyardNotEmpty) as excinfo:
        run(match, "1:pass")
    assert str(excinfo.value) == "seat 1 cannot pass while the boneyard holds 10 tiles"


def test_a_draw_larger_than_the_boneyard_is_refused():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5", "1:draw4")
    with pytest.raises(DrawRefused) as excinfo:
        run(match, "1:draw7")
    assert str(excinfo.value) == "seat 1 cannot draw 7: the boneyard holds 6"
    run(match, "1:draw6", "1:pass")
    assert current(match).boneyard == 0


def test_a_draw_of_no_tiles_is_refused():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5")
    with pytest.raises(DrawRefused) as excinfo:
        match.draw(1, 0)
    assert str(excinfo.value) == "a draw is of 1 tile or more, not 0"


def test_drawing_off_in_fives_and_threes_is_refused():
    match = Match(FIVES_AND_THREES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5")
    assert current(match).boneyard == 0
    with pytest.raises(DrawRefused) as excinfo:
        run(match, "1:draw1")
    assert str(excinfo.value) == "drawing is off in this match: there is no boneyard"
    run(match, "1:pass")  # nothing to draw from: a pass is allowed


def test_drawing_on_in_fives_and_threes_gives_a_boneyard():
    match = Match(FIVES_AND_THREES, 4, {"set": "double-nine", "drawing": True})
    match.start_round(starter=0)
    assert current(match).boneyard == 55 - 4 * 13
    run(match, "0:9-9", "1:draw1")
    with pytest.raises(BoneyardNotEmpty):
        run(match, "1:pass")
    run(match, "1:draw2", "1:pass")  # the boneyard is empty now


def test_the_round_opens_with_a_play():
    match = Match(FIVES_AND_THREES, 2)
    match.start_round(starter=0)
    with pytest.raises(RulesError) as excinfo:
        run(match, "0:pass")
    assert str(excinfo.value) == "the round opens with a play: seat 0 places the first tile"


def test_a_seat_not_at_the_table_is_refused():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    with pytest.raises(RulesError) as excinfo:
        match.play(5, Tile(5, 5))
    assert str(excinfo.value) == "seat 5 is not at this table (seats 0 to 1)"
    with pytest.raises(RulesError, match="seat 2 is not at this table"):
        Match(ALL_FIVES, 2).start_round(starter=2)


def test_events_need_a_round_in_play():
    match = Match(ALL_FIVES, 2)
    with pytest.raises(RoundOver) as excinfo:
        run(match, "0:5-5")
    assert str(excinfo.value) == "no round is in play: start a round first"
    with pytest.raises(RulesError, match="^a tracked round needs a starter$"):
        match.start_round()


def test_a_tile_outside_the_set_or_already_played_is_refused():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:6-6")
    with pytest.raises(TileNotInSet, match="^tile 6-7 is not in the double-six set$"):
        run(match, "1:6-7@6-6:6")
    with pytest.raises(TileOnTable, match="^tile 6-6 is already on the table$"):
        run(match, "1:6-6@6-6:6")
    with pytest.raises(IllegalPlacement, match="^tile 1-2 has no 6 to join 6-6:6$"):
        run(match, "1:1-2@6-6:6")


# -- the end of a round ----------------------------------------------------------------

def test_domino_is_detected_by_the_hand_count():
    match = short_round()
    rnd = current(match)
    assert rnd.end is RoundEnd.DOMINO and rnd.finisher == 0 and rnd.turn is None
    assert rnd.counts == [0, 1]
    assert match.phase == "settle"
    with pytest.raises(RoundOver) as excinfo:
        run(match, "1:pass")
    assert str(excinfo.value) == "the round already ended (domino)"


def test_drawn_tiles_count_toward_the_hand():
    match = Match(ALL_FIVES, 2, {"hand_size": 1})
    match.start_round(starter=0)
    run(match, "0:5-5")  # one tile dealt, one played: domino at once
    assert current(match).finisher == 0
    match = Match(ALL_FIVES, 2, {"hand_size": 2})
    match.start_round(starter=0)
    run(match, "0:5-5", "1:draw1", "1:0-5@5-5:5", "0:5-6@5-5:5")
    assert current(match).counts == [0, 2]


def test_a_block_needs_every_seat_to_pass_in_a_row():
    match = Match(FIVES_AND_THREES, 3)
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "2:pass", "0:3-6@6-6:6", "1:pass", "2:pass")
    assert match.phase == "play" and current(match).turn == 0
    run(match, "0:pass")
    rnd = current(match)
    assert rnd.end is RoundEnd.BLOCKED and rnd.blocked and rnd.finisher is None
    assert match.phase == "start"  # Fives and Threes counts no hands: settled at once


def test_a_block_in_a_drawing_game_once_the_boneyard_is_empty():
    match = Match(ALL_FIVES, 2, {"hand_size": 14})
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "0:pass")
    assert current(match).blocked


NO_SIXES = [f"{low}-{high}" for high in range(6) for low in range(high + 1)]


def test_a_pass_the_count_proves_was_against_the_rules_is_noted_not_refused():
    match = Match(ALL_FIVES, ["Ann", "Bo"], {"hand_size": 14}, labels=["Ann", "Bo"])
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "0:pass")  # only a 6 could join

    settlement = match.settle(hands=[tiles(*NO_SIXES[:13]),
                                     tiles(*NO_SIXES[13:], "0-6", "3-6", "1-6", "2-6",
                                           "4-6", "5-6")])

    rnd = match.rounds[-1]
    assert settlement is not None and settlement.winner == 0  # the round counts as played
    # Ann held no 6 when she passed; Bo held six of them
    assert [str(note) for note in rnd.notes] == [
        "note: Bo passed holding 0-6, 3-6, 1-6, 2-6, 4-6, 5-6, which fitted an open end "
        "(a pass is for a player who cannot play)"]


def test_a_pass_is_noted_only_where_the_hands_are_shown():
    by_pips = Match(ALL_FIVES, ["Ann", "Bo"], {"hand_size": 14})
    by_pips.start_round(starter=0)
    run(by_pips, "0:6-6", "1:pass", "0:pass")
    ann = sum(t.pips for t in tiles(*NO_SIXES[:13]))
    by_pips.settle(pips=[ann, 168 - 12 - ann])  # the set's pips, less the 6-6 and Ann's

    assert by_pips.rounds[-1].notes == ()


def test_settling_before_the_round_ends_is_refused():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5")
    with pytest.raises(RoundOver) as excinfo:
        match.settle(pips=[0, 0])
    assert str(excinfo.value) == ("the round has not ended: it ends by itself when a hand is "
                                  "empty or every seat has passed")
    with pytest.raises(RoundOver, match="^round 1 has not ended$"):
        match.start_round(starter=0)


def test_the_next_round_waits_for_the_settlement():
    match = short_round()
    with pytest.raises(RoundOver) as excinfo:
        match.start_round(starter=0)
    assert str(excinfo.value) == ("round 1 has ended but is not settled: give its hands or "
                                  "pips first")


def test_phases():
    match = Match(ALL_FIVES, 2, {"hand_size": 2, "target": 20})
    assert match.phase == "start" and match.status == "in-progress"
    match.start_round(starter=0)
    assert match.phase == "play"
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")
    assert match.phase == "settle"
    match.settle(hands=[[], tiles("1-1")])
    assert match.phase == "start"
    assert match.scores == [10, 10]


# -- winning ---------------------------------------------------------------------------

def test_all_fives_is_won_at_once_by_a_placement_mid_round():
    match = Match(ALL_FIVES, 2, {"target": 15})
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5")
    assert match.scores == [10, 10] and not match.finished
    award = run(match, "0:5-6@5-5:5")  # 0 + 6 = 6: nothing
    award = run(match, "1:1-6@5-6:6")  # 0 + 1 = 1
    award = run(match, "0:1-4@1-6:1")  # 0 + 4 = 4
    award = run(match, "1:1-0@0-5:0")  # 1 + 4 = 5 → 15
    assert award.counted == 5 and match.finished and match.winner == 1
    assert match.phase == "finished" and match.status == "finished"
    assert current(match).won_here and current(match).end is None
    with pytest.raises(MatchOver) as excinfo:
        run(match, "0:4-4@1-4:4")
    assert str(excinfo.value) == "the match was already won; no event may follow"
    with pytest.raises(MatchOver, match="^the match was already won; no round may follow$"):
        match.start_round(starter=0)
    with pytest.raises(MatchOver, match="^the match was won during this round; it takes no"):
        match.settle(pips=[10, 10])


def test_all_fives_partners_share_one_score():
    match = Match(ALL_FIVES, 4)
    match.start_round(starter=3)
    run(match, "3:5-5", "0:0-5@5-5:5", "1:5-6@5-5:5", "2:1-6@5-6:6")
    assert match.scores == [10, 10]  # seat 3's 10 (side 1), seat 0's 10 (side 0)
    award = run(match, "3:0-4@0-5:0")
    assert (award.side, award.end_sum, award.counted) == (1, 5, 5)
    assert match.scores == [10, 15]


def test_five_up_does_not_end_mid_round_and_tied_leaders_play_on():
    match = Match(FIVE_UP, 2, {"hand_size": 2, "target": 2})
    match.start_round(starter=0)
    assert run(match, "0:5-5").counted == 2  # 10 raw → 2 display points, the target
    assert not match.finished
    assert run(match, "1:0-5@5-5:5").counted == 2  # 10 + 0
    run(match, "0:5-6@5-5:5")
    assert not match.finished and match.phase == "settle"
    settlement = match.settle(hands=[[], tiles("1-1")])  # 2 pips cost nothing
    assert settlement is not None and settlement.awards == (0, 0)
    assert match.scores == [2, 2] and not match.finished  # tied at the target: play on
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")
    match.settle(hands=[[], tiles("3-4")])  # 7 pips → 5 → −1
    assert match.scores == [4, 3]
    assert match.finished and match.winner == 0
    assert not current(match).won_here


def test_five_up_settlement_can_decide_the_match():
    match = Match(FIVE_UP, 2, {"hand_size": 2, "target": 2})
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")
    match.settle(hands=[[], tiles("1-2")])  # 3 pips → 5 → −1
    assert match.scores == [2, 1] and match.winner == 0


def ft_called_to(score, target=61):
    """A Fives and Threes match (called round) where seat 0 has ``score`` points."""
    match = Match(FIVES_AND_THREES, 2, {"target": target})
    match.start_round(mode=RoundMode.CALLED)
    while match.scores[0] + 8 <= score:
        match.call(0, ends("6-6", "3"))  # 15 → 5 + 3 = 8
    while match.scores[0] < score:
        match.call(0, ends("3"))  # 3 → 1
    assert match.scores[0] == score
    return match


def test_fives_and_threes_overshoot_is_refused_and_play_goes_on():
    match = ft_called_to(60)
    award = match.call(0, ends("6", "3"))  # 9 → 3: 63 would pass 61
    assert (award.points, award.counted) == (3, 0)
    assert award.refused == "3 would take seat 0 from 60 past the target 61"
    assert match.scores[0] == 60 and not match.finished
    award = match.call(0, ends("3"), claim=1)
    assert award.counted == 1 and match.finished and match.winner == 0


def test_fives_and_threes_overshoot_claim_may_be_the_points_or_zero():
    for claim in (3, 0):
        match = ft_called_to(60)
        assert match.call(0, ends("6", "3"), claim=claim).counted == 0
    match = ft_called_to(60)
    with pytest.raises(ClaimMismatch, match="^claim 2 differs from the 3 the rules give"):
        match.call(0, ends("6", "3"), claim=2)


def test_fives_and_threes_going_out_past_the_target_is_refused():
    match = ft_called_to(59)
    award = match.call(0, ends("3", "3"), goes_out=True)  # 6 → 2, + 1 bonus = 3: 62 > 61
    assert (award.end_sum, award.points, award.bonus, award.announced) == (6, 2, 1, 3)
    assert award.counted == 0 and award.refused
    assert match.scores[0] == 59 and not match.finished
    assert current(match).end is RoundEnd.DOMINO and current(match).finisher == 0


def test_fives_and_threes_tracked_going_out_overshoot():
    match = Match(FIVES_AND_THREES, 2, {"hand_size": 2, "target": 3})
    match.start_round(starter=0)
    assert run(match, "0:1-2").counted == 1  # 3 → 1
    assert run(match, "1:2-4@1-2:2").counted == 1  # 1 + 4 = 5 → 1
    award = run(match, "0:4-5@2-4:4=0")  # 1 + 5 = 6 → 2, + 1 for going out; 1 + 3 > 3
    assert (award.points, award.bonus, award.counted) == (2, 1, 0)
    assert match.scores == [1, 1] and current(match).finisher == 0
    assert match.phase == "start" and current(match).settlement_awards == [0, 0]


def test_fives_and_threes_reaching_the_target_exactly_wins_at_once():
    match = Match(FIVES_AND_THREES, 2, {"hand_size": 3, "target": 2})
    match.start_round(starter=0)
    assert run(match, "0:0-3").counted == 1  # 3 → 1
    assert run(match, "1:3-3@0-3:3").counted == 2  # 0 + 6 = 6 → 2: exactly the target
    assert match.finished and match.winner == 1 and current(match).won_here


def test_fives_and_threes_immediate_end_off_checks_the_target_once_the_round_is_settled():
    match = Match(FIVES_AND_THREES, 2, {"hand_size": 2, "target": 3, "immediate_end": False})
    match.start_round(starter=0)
    run(match, "0:1-2", "1:2-4@1-2:2")
    award = run(match, "0:4-5@2-4:4")
    assert (award.counted, award.refused) == (3, None)
    # targets are checked once the round is settled: at once, remaining tiles score nothing
    assert match.scores == [4, 1] and match.finished and match.winner == 0
    assert not current(match).won_here
    match.settle(hands=[[], tiles("6-6")])  # a count may still come: checked and kept
    assert current(match).pips == (0, 12) and match.scores == [4, 1]


def test_claim_mismatch_message():
    match = Match(FIVE_UP, 2)
    match.start_round(starter=0)
    run(match, "0:3-6")
    with pytest.raises(ClaimMismatch) as excinfo:
        run(match, "1:6-6@3-6:6=4")
    assert str(excinfo.value) == "claim 4 differs from the 3 the rules give (end sum 15)"
    assert run(match, "1:6-6@3-6:6=3").counted == 3


def test_claim_of_a_half_is_shown_as_a_decimal():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    with pytest.raises(ClaimMismatch) as excinfo:
        run(match, "0:5-5=2.5")
    assert str(excinfo.value) == "claim 2.5 differs from the 10 the rules give (end sum 10)"


# -- a failing event changes nothing ---------------------------------------------------

@pytest.mark.parametrize("bad", [
    lambda m: run(m, "0:3-6@5-6:6"),  # wrong turn
    lambda m: run(m, "1:3-4@5-6:6"),  # 3-4 has no 6
    lambda m: run(m, "1:1-6@5-6:6=5"),  # claim mismatch (end sum 0 + 1)
    lambda m: run(m, "1:pass"),  # boneyard holds tiles
    lambda m: run(m, "1:draw99"),
    lambda m: run(m, "1:5-5@5-6:5"),  # already on the table
    lambda m: run(m, "1:4-4@5-5:5"),  # no 4 on 5-5
    lambda m: m.start_round(starter=1),
    lambda m: m.settle(pips=[0, 0]),
    lambda m: m.call(1, ends("5")),
])
def test_a_failing_event_leaves_the_match_as_it_was(bad):
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")
    before = copy.deepcopy(state(match))
    rnd = current(match)
    layout_before = (rnd.layout.notation(), rnd.layout.end_sum, rnd.layout.open_points(),
                     list(rnd.counts), rnd.boneyard, rnd.turn, list(match.scores))
    with pytest.raises(RulesError):
        bad(match)
    assert state(match) == before
    assert (rnd.layout.notation(), rnd.layout.end_sum, rnd.layout.open_points(),
            list(rnd.counts), rnd.boneyard, rnd.turn, list(match.scores)) == layout_before


def test_a_failing_settlement_leaves_the_match_as_it_was():
    match = short_round()
    before = copy.deepcopy(state(match))
    bad: dict[str, list]
    for bad in ({"hands": [[], tiles("5-5")]}, {"pips": [0, 99]}, {"hands": [[], []]}):
        with pytest.raises(HandsMismatch):
            match.settle(**bad)
        assert state(match) == before


# -- undo ------------------------------------------------------------------------------

def test_undo_steps_back_through_events_a_settlement_and_a_round_start():
    match = Match(ALL_FIVES, 2, {"hand_size": 2})
    snapshots = [state(match)]
    match.start_round(starter=0)
    snapshots.append(state(match))
    for step in ("0:5-5", "1:draw2", "1:0-5@5-5:5", "0:5-6@5-5:5"):
        act(match, step)
        snapshots.append(state(match))
    match.settle(hands=[[], tiles("1-1", "2-3", "4-4")])
    snapshots.append(state(match))
    match.start_round(starter=0)
    snapshots.append(state(match))
    run(match, "0:1-1")
    snapshots.append(state(match))
    assert match.scores == [10 + 15, 10]  # 2 + 5 + 8 = 15
    undone = []
    while len(snapshots) > 1:
        assert state(match) == snapshots.pop()
        undone.append(type(match.undo()).__name__)
    assert state(match) == snapshots.pop()
    assert undone == ["Play", "StartRound", "Settle", "Play", "Play", "Draw", "Play",
                      "StartRound"]
    with pytest.raises(RulesError, match="^there is nothing to undo$"):
        match.undo()


def test_undo_of_a_winning_placement_reopens_the_match():
    match = Match(ALL_FIVES, 2, {"target": 10})
    match.start_round(starter=0)
    run(match, "0:5-5")
    assert match.finished
    match.undo()
    assert not match.finished and match.phase == "play" and match.scores == [0, 0]


# -- settlement checks -----------------------------------------------------------------

@pytest.mark.parametrize(("settle", "message"), [
    ({"hands": [[], tiles("1-1", "2-2")]}, "hands: seat 1 shows 2 tiles but holds 1"),
    ({"hands": [[], tiles("5-5")]}, "hands: seat 1 shows 5-5, which is on the table"),
    ({"hands": [tiles("1-1"), tiles("1-1")]}, "hands: seat 0 shows 1 tiles, but went out"),
    ({"hands": [[]]}, "hands: 1 hands given for 2 seats"),
    ({}, "the round ended (domino); its hands or pips are required"),
    ({"hands": [[], tiles("1-1")], "pips": [0, 2]}, "give hands or pips, not both"),
    ({"pips": [0, 42]}, "pips: no unseen tile adds up to 42 (seat 1)"),
    ({"pips": [0, -2]}, "pips: seat 1 cannot hold -2 pips"),
    ({"pips": [3, 2]}, "pips: seat 0 went out and cannot hold 3 pips"),
    ({"pips": [0]}, "pips: 1 totals given for 2 seats"),
])
def test_settlement_checks(settle, message):
    match = short_round()
    with pytest.raises(HandsMismatch) as excinfo:
        match.settle(**settle)
    assert str(excinfo.value) == message


def test_duplicate_tiles_in_hands_are_refused():
    match = Match(FIVES_AND_THREES, 3, {"hand_size": 2})
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "2:pass", "0:pass")
    with pytest.raises(HandsMismatch) as excinfo:
        match.settle(hands=[tiles("0-1"), tiles("0-0", "1-1"), tiles("0-0", "2-2")])
    assert str(excinfo.value) == "hands: seat 2 shows 0-0 and seat 1 also shows it"


def test_hands_outside_the_set_are_refused():
    match = short_round()
    with pytest.raises(TileNotInSet) as excinfo:
        match.settle(hands=[[], tiles("6-7")])
    assert str(excinfo.value) == "hands: seat 1 shows 6-7, which is not in the double-six set"


def test_hands_outside_a_larger_set_are_refused_in_a_called_round():
    match = Match(FIVES_AND_THREES, 3, {"set": "double-twelve", "hand_size": 3})
    match.start_round(mode=RoundMode.CALLED)
    match.call(1, ends("6-6", "3"))
    with pytest.raises(TileNotInSet) as excinfo:
        match.settle(result=RoundEnd.BLOCKED, hands=[tiles("12-13"), tiles("1-2"), tiles("0-0")])
    assert str(excinfo.value) == ("hands: seat 0 shows 12-13, which is not in the "
                                  "double-twelve set")
    assert not current(match).settled  # refused: the round still waits for its count


def test_pips_must_be_reachable_with_the_seats_tile_count():
    match = Match(FIVES_AND_THREES, 2, {"hand_size": 3})
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "0:pass")
    assert current(match).counts == [2, 3]
    match.settle(pips=[1, 31])  # 0-0 + 0-1; 5-6 + 4-6 + 5-5, the most three tiles can hold
    match3 = Match(FIVES_AND_THREES, 2, {"hand_size": 3})
    match3.start_round(starter=0)
    run(match3, "0:6-6", "1:pass", "0:pass")
    with pytest.raises(HandsMismatch, match=r"^pips: no 3 unseen tiles add up to 32 \(seat 1\)$"):
        match3.settle(pips=[1, 32])
    match2 = Match(FIVES_AND_THREES, 2, {"hand_size": 3})
    match2.start_round(starter=0)
    run(match2, "0:6-6", "1:pass", "0:pass")
    with pytest.raises(HandsMismatch, match=r"^pips: no 2 unseen tiles add up to 0 \(seat 0\)$"):
        match2.settle(pips=[0, 3])  # two tiles cannot total 0: only one 0-0


def test_settlement_awards_land_on_the_winning_side():
    match = short_round()
    settlement = match.settle(hands=[[], tiles("3-4")])  # 7 → 5
    assert settlement.awards == (5, 0)
    assert match.scores == [10 + 5, 10]
    assert current(match).scores == [15, 10]


def test_a_rounds_settlement_and_running_scores_before_and_after_it_is_settled():
    match = short_round()
    first = current(match)
    assert first.settlement_awards == [0, 0]
    assert match.scores_after(first) == [10, 10]  # the round in play: as it stands
    match.settle(hands=[[], tiles("3-4")])
    match.start_round(starter=0)
    run(match, "0:5-5")
    assert first.settlement_awards == [5, 0]
    assert match.scores_after(first) == [15, 10]  # fixed once settled
    assert match.scores_after(current(match)) == [25, 10]


# -- starters --------------------------------------------------------------------------

@pytest.mark.parametrize("game", [ALL_FIVES, FIVE_UP])
def test_the_next_starter_must_be_the_previous_finisher(game):
    match = short_round(game)
    match.settle(hands=[[], tiles("1-1")])
    assert match.required_starter() == 0
    with pytest.raises(RulesError) as excinfo:
        match.start_round(starter=1)
    assert str(excinfo.value) == "seat 0 placed the last tile of round 1 and must start, not seat 1"
    match.start_round(starter=0)


def test_wrong_starter_message_uses_labels():
    match = Match(ALL_FIVES, ["Olena", "Taras"], {"hand_size": 2},
                  labels=["Olena", "Taras"])
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")
    match.settle(pips=[0, 2])
    with pytest.raises(RulesError, match="^Olena placed the last tile of round 1 and must "
                                         "start, not Taras$"):
        match.start_round(starter=1)


def test_any_seat_may_start_after_a_block():
    match = Match(ALL_FIVES, 2, {"hand_size": 14})
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "0:pass")
    settlement = match.settle(pips=[70, 86])
    assert settlement is not None and settlement.awards == (85, 0)
    assert match.required_starter() is None
    match.start_round(starter=1)


def test_any_seat_may_start_in_fives_and_threes():
    match = short_round(FIVES_AND_THREES)
    match.settle(hands=[[], tiles("1-1")])
    assert match.required_starter() is None
    match.start_round(starter=1)


def test_draw_lots_redraws_ties():
    match = Match(ALL_FIVES, 3)
    values = iter([3, 5, 5, 6, 2])
    seen = []

    def choice(seats):
        seen.append(list(seats))
        return next(values)

    assert match.draw_lots(choice) == 1
    assert seen == [[0, 1, 2]] * 3 + [[1, 2]] * 2


def test_draw_lots_without_a_choice_returns_a_seat():
    match = Match(ALL_FIVES, 4)
    assert all(0 <= match.draw_lots() < 4 for _ in range(20))


def test_fives_and_threes_draws_no_lots_the_highest_doubles_holder_starts():
    match = Match(FIVES_AND_THREES, 3)
    with pytest.raises(RulesError, match="^whoever holds the highest double starts the "
                                         "round: say who$"):
        match.draw_lots()
    with pytest.raises(RulesError, match="^whoever holds the highest double starts"):
        match.start_round(starter=None)
    with pytest.raises(RulesError, match="^a tracked round needs a starter$"):
        Match(ALL_FIVES, 2).start_round(starter=None)


# -- called rounds through the API -----------------------------------------------------

def test_called_and_tracked_events_do_not_mix():
    match = Match(ALL_FIVES, 2)
    match.start_round(starter=0)
    with pytest.raises(RulesError, match="^this round is tracked: enter the tile played"):
        match.call(0, ends("5"))
    match = Match(ALL_FIVES, 2)
    match.start_round(mode=RoundMode.CALLED)
    with pytest.raises(RulesError, match="^this round is called: enter the scoring ends"):
        run(match, "0:5-5")


def test_called_round_limits_and_checks():
    match = Match(ALL_FIVES, 2)
    match.start_round(mode=RoundMode.CALLED)
    assert match.call(1, ends("6-6", "3")).counted == 15
    with pytest.raises(RulesError, match="^all-fives has at most 4 scoring ends, not 5$"):
        match.call(0, ends("1", "1", "1", "1", "1"))
    with pytest.raises(RulesError, match="^a called placement lists at least one scoring end$"):
        match.call(0, [])
    with pytest.raises(TileNotInSet, match="^7 is not a value of the double-six set$"):
        match.call(0, ends("7"))
    with pytest.raises(TileNotInSet) as excinfo:
        match.call(0, ends("2", "7-7"))
    assert str(excinfo.value) == "end '7-7' is not a double of the set"
    with pytest.raises(DuplicateEnd) as duplicate:
        match.call(0, ends("0-0", "0-0"))
    assert str(duplicate.value) == "end 0-0 is listed twice: the set has one 0-0"
    assert isinstance(duplicate.value, RulesError)
    with pytest.raises(DuplicateEnd, match="^end 5-5 is listed twice: the set has one 5-5$"):
        match.call(0, [ScoringEnd(5, double=True), ScoringEnd(1), ScoringEnd(5, double=True)])
    with pytest.raises(ClaimMismatch, match=r"^claim 10 differs from the 5 the rules give "
                                            r"\(end sum 5\)$"):
        match.call(0, ends("2", "3"), claim=10)
    match.settle(result=RoundEnd.DOMINO, domino_seat=1, pips=[12, 0])
    assert match.scores == [0, 15 + 10]


def test_a_called_five_up_placement_has_at_most_the_ends_its_spinners_can_make():
    # every double is a spinner: the line's 2 ends and 2 flanks for each of 7 doubles
    match = Match(FIVE_UP, 2)
    match.start_round(mode=RoundMode.CALLED)
    with pytest.raises(RulesError, match="^five-up has at most 16 scoring ends, not 17$"):
        match.call(0, ends(*["5"] * 17))
    # six 5s, five 0s (0-5 shows the 5), four 1s and a 6: sixteen tiles of their own
    sixteen = ends(*["5"] * 6, *["0"] * 5, *["1"] * 4, "6")  # 40 → 8
    assert match.call(0, sixteen).counted == 8


def test_a_terminal_double_opens_no_flanks_so_it_leaves_fewer_spinners():
    # six terminal doubles leave one double (the seventh) to be a spinner: 2 + 2 ends
    match = Match(FIVE_UP, 2)
    match.start_round(mode=RoundMode.CALLED)
    six = ends("0-0", "1-1", "2-2", "3-3", "4-4", "5-5")
    with pytest.raises(RulesError) as refused:
        match.call(0, six, claim=6)
    assert str(refused.value) == ("with the terminal doubles 0-0, 1-1, 2-2, 3-3, 4-4, 5-5 a "
                                  "layout shows at most 4 scoring ends, not 6")
    # sixteen ends, three of them terminal doubles: the other four doubles open 2 + 8
    with pytest.raises(RulesError, match="at most 10 scoring ends, not 16$"):
        match.call(0, ends("6-6", "5-5", "4-4", *["6"] * 6, *["5"] * 6, "4"))
    assert match.call(0, ends("1-1", "2-2", "3-3", "4-4")).counted == 4  # 0-0 spins: 20
    assert match.scores == [4, 0]


def test_a_tile_shows_one_of_its_values_so_two_values_share_their_tiles():
    # six 6s take 6-0 … 6-5; the 5s have 5-0 … 5-4 left: eleven tiles for twelve ends
    match = Match(FIVE_UP, 2)
    match.start_round(mode=RoundMode.CALLED)
    with pytest.raises(DuplicateEnd) as refused:
        match.call(0, ends(*["6"] * 6, *["5"] * 6, "4"))
    assert str(refused.value) == ("12 ends show the values 5, 6: the set has only 11 tiles "
                                  "besides the doubles with any of them")
    with pytest.raises(DuplicateEnd, match="^16 ends show the values 0, 1, 2: the set has "
                                           "only 15 tiles"):
        match.call(0, ends(*["0"] * 6, *["1"] * 5, *["2"] * 5))
    assert match.call(0, ends(*["6"] * 6, *["5"] * 4, "4")).counted == 12  # 60
    assert match.scores == [12, 0]


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from([ALL_FIVES, FIVE_UP, FIVES_AND_THREES]),
       rng=st.randoms(use_true_random=False), steps=st.integers(1, 28))
def test_the_ends_of_any_real_layout_are_a_call_the_rules_take(game, rng, steps):
    # the checks of a call only refuse ends no layout shows: here every layout's ends,
    # grown towards as many ends as it can (a tile on a spinner's flank when one fits)
    layout = Layout(game.policy)
    free = list(DOUBLE_SIX.tiles)
    for _ in range(steps):
        choices = [(tile, None) for tile in free] if not layout else [
            (tile, point) for tile in free for point in layout.legal_points(tile)]
        if not choices:
            break
        widening = [choice for choice in choices if choice[0].is_double
                    or (choice[1] is not None and layout.is_spinner(choice[1].tile))]
        tile, point = rng.choice(widening if widening and rng.random() < 0.7 else choices)
        free.remove(tile)
        layout.place(tile, point)
        scoring = layout.scoring_ends()
        if not scoring:
            continue
        match = Match(game, 2, {"target": 10_000} if game is not FIVE_UP else {"target": 2_000})
        match.start_round(mode=RoundMode.CALLED)
        award = match.call(0, list(scoring))
        assert award.end_sum == layout.end_sum


def test_no_more_ends_show_a_value_than_the_set_has_tiles_with_it():
    # a non-double end showing 5 is a tile 5-x of its own, x not 5: double-six has six
    match = Match(FIVE_UP, 2)
    match.start_round(mode=RoundMode.CALLED)
    with pytest.raises(DuplicateEnd) as refused:
        match.call(0, ends(*["5"] * 7))
    assert str(refused.value) == "7 ends show 5: the set has 6 tiles with a 5 besides the double"
    assert match.call(0, ends(*["5"] * 6, "5-5")).counted == 8  # 30 + 10 → 8
    assert match.scores == [8, 0]


def test_called_ends_may_repeat_values_but_not_doubles():
    match = Match(FIVES_AND_THREES, 2, {"set": "double-nine"})
    match.start_round(mode=RoundMode.CALLED)
    assert match.call(0, ends("3", "3")).counted == 2  # two open 3s: end sum 6
    assert match.call(1, ends("9-9", "0-0")).counted == 6  # end sum 18: 18 / 3
    with pytest.raises(DuplicateEnd) as duplicate:
        match.call(0, ends("9-9", "9-9"))
    assert str(duplicate.value) == "end 9-9 is listed twice: the set has one 9-9"
    with pytest.raises(TileNotInSet) as excinfo:
        match.call(0, ends("10-10"))
    assert str(excinfo.value) == "end '10-10' is not a double of the set"
    assert match.scores == [2, 6]  # the refused calls changed nothing
    assert len(current(match).events) == 2


# -- Fives and Threes: remaining tiles score nothing, so no count is waited for ----------

def test_fives_and_threes_domino_settles_the_round_at_once():
    match = short_round(FIVES_AND_THREES)  # 5-5 → 2; 10 → 2; 0 + 6 = 6 → 2, + 1 going out
    rnd = current(match)
    assert rnd.end is RoundEnd.DOMINO and rnd.finisher == 0 and rnd.settled
    assert match.phase == "start" and match.scores == [5, 2] and rnd.scores == [5, 2]
    assert rnd.settlement_awards == [0, 0]
    assert rnd.settlement is not None
    assert rnd.settlement.steps == ("remaining tiles score nothing",)
    assert (rnd.settle, rnd.pips) == (None, None)  # no count was given
    match.start_round(starter=1)  # nothing left to settle: the next round may start


def test_fives_and_threes_count_after_the_settlement_is_checked_and_kept():
    match = short_round(FIVES_AND_THREES)
    before = copy.deepcopy(state(match))
    with pytest.raises(HandsMismatch, match="^hands: seat 1 shows 2 tiles but holds 1$"):
        match.settle(hands=[[], tiles("1-1", "2-2")])
    with pytest.raises(HandsMismatch, match="^hands: seat 1 shows 5-5, which is on the table$"):
        match.settle(hands=[[], tiles("5-5")])
    with pytest.raises(HandsMismatch, match="^pips: seat 0 went out and cannot hold 3 pips$"):
        match.settle(pips=[3, 2])
    with pytest.raises(RulesError, match="^the round ended with seat 0's domino, not as given$"):
        match.settle(pips=[0, 2], result=RoundEnd.BLOCKED)
    with pytest.raises(RoundOver, match="^round 1 was settled when it ended: remaining tiles "
                                        "score nothing in fives-and-threes$"):
        match.settle()
    assert state(match) == before  # every refusal left the match as it was
    settlement = match.settle(hands=[[], tiles("1-1")], result=RoundEnd.DOMINO, domino_seat=0)
    rnd = current(match)
    assert settlement is rnd.settlement and rnd.pips == (0, 2)
    assert rnd.settle is not None and rnd.settle.hands == ((), (Tile(1, 1),))
    assert match.scores == [5, 2] and rnd.settlement_awards == [0, 0]  # still nothing
    with pytest.raises(RoundOver, match="^no round is waiting to be settled$"):
        match.settle(pips=[0, 2])  # the count is kept once


def test_fives_and_threes_block_is_settled_at_once_and_takes_a_count():
    match = Match(FIVES_AND_THREES, 2, {"hand_size": 3})
    match.start_round(starter=0)
    run(match, "0:6-6", "1:pass", "0:pass")
    rnd = current(match)
    assert rnd.blocked and rnd.settled and match.phase == "start"
    with pytest.raises(HandsMismatch, match=r"^pips: no 2 unseen tiles add up to 0 \(seat 0\)$"):
        match.settle(pips=[0, 3])
    match.settle(pips=[1, 31])
    assert rnd.pips == (1, 31) and match.scores == [4, 0]  # 12 → 4 + 0; the count: nothing


def test_fives_and_threes_called_going_out_settles_the_round_at_once():
    match = Match(FIVES_AND_THREES, 2)
    match.start_round(mode=RoundMode.CALLED)
    match.call(0, ends("6-6", "3"))
    award = match.call(1, ends("4", "2"), goes_out=True)  # 6 → 2, + 1 for going out
    rnd = current(match)
    assert award.counted == 3 and rnd.finisher == 1 and rnd.settled
    assert match.phase == "start" and match.scores == [8, 3]
    with pytest.raises(HandsMismatch, match="^hands: seat 1 shows 1 tiles, but went out$"):
        match.settle(hands=[tiles("1-2"), tiles("0-0")])
    with pytest.raises(RulesError, match="^seat 1 went out with the last call; the result "
                                         "must say so$"):
        match.settle(pips=[3, 0], result=RoundEnd.DOMINO, domino_seat=0)
    match.settle(pips=[3, 0], result=RoundEnd.DOMINO, domino_seat=1)
    assert rnd.settle is not None and rnd.settle.result is RoundEnd.DOMINO
    assert rnd.pips == (3, 0) and match.scores == [8, 3]


def test_fives_and_threes_called_block_is_settled_without_a_count():
    match = Match(FIVES_AND_THREES, 2)
    match.start_round(mode=RoundMode.CALLED)
    match.call(0, ends("6-6", "3"))
    settlement = match.settle(result=RoundEnd.BLOCKED)
    rnd = current(match)
    assert settlement is not None and settlement.awards == (0, 0)
    assert rnd.blocked and rnd.settled and rnd.pips is None and match.phase == "start"
    assert rnd.settle is not None and rnd.settle.result is RoundEnd.BLOCKED
    match.settle(pips=[4, 9])  # the count, given after: checked and kept with the result
    assert rnd.settle is not None and (rnd.settle.pips, rnd.settle.result) == (
        (4, 9), RoundEnd.BLOCKED)
    assert match.scores == [8, 0]


def test_fives_and_threes_round_won_during_play_takes_no_count():
    match = Match(FIVES_AND_THREES, 2, {"hand_size": 2, "target": 5})
    match.start_round(starter=0)
    run(match, "0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5")  # going out reaches 5 exactly
    rnd = current(match)
    assert match.finished and rnd.won_here and not rnd.settled
    with pytest.raises(MatchOver, match="^the match was won during this round; it takes no "
                                        "hands or pips$"):
        match.settle(hands=[[], tiles("1-1")])


def test_undo_of_the_going_out_play_unsettles_a_fives_and_threes_round():
    match = short_round(FIVES_AND_THREES)
    match.settle(pips=[0, 2])
    assert type(match.undo()).__name__ == "Settle"
    rnd = current(match)
    assert rnd.settled and rnd.pips is None  # settled still, as it ended: only the count went
    match.undo()
    rnd = current(match)
    assert not rnd.ended and not rnd.settled and match.phase == "play"
    assert match.scores == [2, 2]


# -- a called round's result before its count (All Fives, Five Up) ---------------------

def called_to_result(game=ALL_FIVES, **result):
    """Two calls of a called round, then its result alone (no count yet)."""
    match = Match(game, 2)
    match.start_round(mode=RoundMode.CALLED)
    match.call(0, ends("6-6", "3"))  # 15
    match.call(1, ends("2-2", "1"))  # 5
    assert match.settle(**result) is None  # nothing settled yet
    return match


@pytest.mark.parametrize("game", [ALL_FIVES, FIVE_UP])
def test_a_called_rounds_result_alone_ends_it_and_it_waits_for_its_count(game):
    match = called_to_result(game, result=RoundEnd.DOMINO, domino_seat=1)
    rnd = current(match)
    assert rnd.end is RoundEnd.DOMINO and rnd.finisher == 1 and rnd.turn is None
    assert match.phase == "settle" and not rnd.settled and rnd.settlement_awards == [0, 0]
    assert summary(match)["rounds"][0]["finisher"] == 1
    with pytest.raises(RoundOver, match="^round 1 has ended but is not settled: give its "
                                        "hands or pips first$"):
        match.start_round(starter=1)
    with pytest.raises(RoundOver, match=r"^the round already ended \(domino\)$"):
        match.call(0, ends("5"))
    with pytest.raises(HandsMismatch, match=r"^the round ended \(domino\); its hands or pips "
                                            "are required$"):
        match.settle(result=RoundEnd.DOMINO, domino_seat=1)
    with pytest.raises(RulesError, match="^the round ended with seat 1's domino, not as given$"):
        match.settle(pips=[12, 0], result=RoundEnd.DOMINO, domino_seat=0)
    settlement = match.settle(pips=[12, 0])  # the result is not said again
    assert settlement is not None and rnd.settled and match.phase == "start"
    assert rnd.settle is not None and (rnd.settle.pips, rnd.settle.result,
                                       rnd.settle.domino_seat) == ((12, 0), RoundEnd.DOMINO, 1)
    # the finisher starts the next round
    assert match.required_starter() == 1
    with pytest.raises(RulesError, match="^seat 1 placed the last tile of round 1 and must "
                                         "start, not seat 0$"):
        match.start_round(starter=0)
    match.start_round(starter=1)


def test_a_called_rounds_count_after_its_result_scores_as_one_settlement():
    apart = called_to_result(result=RoundEnd.DOMINO, domino_seat=1)
    apart.settle(pips=[12, 0], result=RoundEnd.DOMINO, domino_seat=1)  # said again: equal
    together = Match(ALL_FIVES, 2)
    together.start_round(mode=RoundMode.CALLED)
    together.call(0, ends("6-6", "3"))
    together.call(1, ends("2-2", "1"))
    together.settle(pips=[12, 0], result=RoundEnd.DOMINO, domino_seat=1)
    assert summary(apart) == summary(together) and apart.scores == [15, 5 + 10]
    assert export(apart) == export(together)  # the record merges the two settle actions
    assert len(apart.log) == len(together.log) + 1


def test_a_called_block_before_its_count_has_no_finisher():
    match = called_to_result(result=RoundEnd.BLOCKED)
    assert current(match).blocked and current(match).finisher is None
    assert match.phase == "settle"
    match.settle(pips=[12, 9])  # 9 is lower: seat 1 wins 12 → 10
    assert match.scores == [15, 5 + 10] and match.required_starter() is None


def test_undo_takes_back_a_called_rounds_count_then_its_result():
    match = called_to_result(result=RoundEnd.DOMINO, domino_seat=1)
    waiting = copy.deepcopy(state(match))
    match.settle(pips=[12, 0])
    assert type(match.undo()).__name__ == "Settle"
    assert state(match) == waiting and match.phase == "settle"
    match.undo()
    rnd = current(match)
    assert match.phase == "play" and rnd.end is None and rnd.finisher is None
    assert rnd.settle is None
    match.call(0, ends("5"))  # the round is open to calls again


# -- what the scorepad shows before a tap ------------------------------------------------


def test_the_preview_of_a_fives_and_threes_placement_refuses_what_would_pass_the_target():
    match = Match(FIVES_AND_THREES, ["Ann", "Bob"], {"target": 5, "hand_size": 2})
    match.start_round(starter=0)
    run(match, "0:3-3", "1:0-3@3-3:3")  # 6 makes 2 for Ann; 0 + 6 makes 2 for Bob

    assert match.scores == [2, 2] and match.room(0) == match.room(1) == 3
    assert match.award_for(0, 9, goes_out=False).counted == 3  # 3, to 5 exactly
    going_out = match.award_for(0, 9, goes_out=True)  # 3 + 1 would pass 5
    assert (going_out.points, going_out.bonus, going_out.counted) == (3, 1, 0)
    assert going_out.refusal is not None and going_out.refusal.code == "refused_overshoot"
    assert Match(ALL_FIVES, 2).room(0) is None


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from([ALL_FIVES, FIVE_UP, FIVES_AND_THREES]),
       players=st.integers(2, 4), seed=st.integers(0, 10_000), events=st.integers(0, 60),
       target=st.sampled_from([None, 7, 15]))
def test_the_preview_is_the_award_the_placement_then_gets(game, players, seed, events, target):
    options = {"target": target} if target is not None and game is FIVES_AND_THREES else {}
    match = simulated_match(game, players, seed=seed, options=options, finish=False,
                            stop_after_events=events)
    rnd = match.current_round
    if match.finished or rnd is None or rnd.end is not None or rnd.turn is None \
            or not rnd.layout:
        reject()  # no placement to preview
    seat = rnd.turn
    placements = [(tile, point) for tile in match.options.tile_set.tiles
                  if tile not in rnd.layout.tiles for point in rnd.layout.legal_points(tile)]
    assume(placements)
    tile, point = placements[seed % len(placements)]
    end_sum = rnd.layout.preview(tile, point).end_sum

    preview = match.award_for(seat, end_sum, goes_out=rnd.counts[seat] == 1)
    award = match.play(seat, tile, point)

    assert (preview.points, preview.bonus, preview.counted, preview.refused) == (
        award.points, award.bonus, award.counted, award.refused)


@settings(max_examples=40, deadline=None)
@given(game=st.sampled_from([ALL_FIVES, FIVE_UP]), players=st.integers(2, 4),
       seed=st.integers(0, 10_000))
def test_a_pass_made_only_when_no_tile_fits_is_never_noted(game, players, seed):
    # the simulated table passes only when its hand has no legal placement
    match = simulated_match(game, players, seed=seed, max_rounds=6)

    assume(any(rnd.passed_at for rnd in match.rounds))
    assert [rnd.notes for rnd in match.rounds] == [()] * len(match.rounds)
