"""matches.scoring.scorepad: what the scorer's page says, read from the engine."""

from __future__ import annotations

import pytest

from matches import rules
from matches.scoring import scorepad
from matches.scoring.selectors.play import match_engine
from matches.scoring.services.play import event_record, match_create, round_settle, round_start
from tests.support.helpers import A, T, two_player_all_fives

pytestmark = pytest.mark.django_db


def test_sides_at_the_target_are_told_why_play_goes_on_level_or_mid_round():
    match = match_create(game="five-up", players=["Olena", "Taras"],
                                  options={"target": 61})
    engine = match_engine(match)
    engine.scores = [61, 61]  # level at the target after a round: no winner yet

    view = scorepad.build(match, engine)

    assert view.tie_note == ("Olena and Taras are level on 61, at or past the target 61: "
                             "a match needs one side ahead alone, so play goes on.")
    # one side past the target while the match goes on: Five Up decides the winner only
    # after the round's count (its deductions may bring the leader back below)
    engine.scores = [62, 61]
    assert scorepad.build(match, engine).tie_note == (
        "Olena reached the target 61: the winner is decided once this round is settled.")
    engine.scores = [60, 58]
    assert scorepad.build(match, engine).tie_note == ""


def test_five_up_sides_level_at_the_target_mid_round_wait_for_the_count_not_play_on():
    match = match_create(game="five-up", players=["Olena", "Taras"],
                                  options={"target": 61})
    round_start(match=match, starter=0)
    engine = match_engine(match)
    engine.scores = [61, 61]  # level in the middle of a round: its count may part them

    assert scorepad.build(match, engine).tie_note == (
        "Olena and Taras reached the target 61: the winner is decided once this round is "
        "settled.")


def test_all_fives_sides_level_at_the_target_mid_round_play_on_to_the_next_award():
    match = match_create(game="all-fives", players=["Olena", "Taras", "Iryna"],
                                  options={"target": 61})
    round_start(match=match, starter=0)
    engine = match_engine(match)
    engine.scores = [61, 61, 40]  # a split took both at once: the next award decides

    assert scorepad.build(match, engine).tie_note == (
        "Olena and Taras are level on 61, at or past the target 61: a match needs one side "
        "ahead alone, so play goes on.")


def test_the_going_out_bonus_is_named_apart_from_the_placements_points():
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"],
                                  options={"hand_size": 1})
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("3-6")))  # 9: 3, +1 out

    award = scorepad.build(match, match_engine(match)).last_award

    assert award is not None
    assert (award.points, award.bonus, award.total) == ("3", 1, "4")


def test_every_playable_tile_carries_its_ends_and_what_each_would_make():
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))

    view = scorepad.build(match, match_engine(match))

    offered = {choices.tile: [(c.point, c.end_sum, c.points) for c in choices.choices]
               for choices in view.tile_choices}
    playable = {t.tile for t in view.picker if t.playable}
    assert set(offered) == playable
    assert offered["0-6"] == [("0-5:0", 16, 0)]
    assert offered["5-6"] == [("5-5:5", 6, 0)]
    assert offered["0-0"] == [("0-5:0", 10, 10)]


def test_the_next_round_offers_the_mode_of_the_last_and_the_games_starter():
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"])
    round_start(match=match, starter=None, mode="ends")
    round_settle(match=match, result=rules.RoundEnd.BLOCKED)

    view = scorepad.build(match, match_engine(match))

    assert (view.phase, view.last_mode, view.starter_rule) == ("start", "ends", "double")


def test_five_up_scores_are_shown_with_their_raw_points_and_tally():
    match = match_create(game="five-up", players=["Olena", "Taras"])
    engine = match_engine(match)
    engine.scores = [3, 0]  # display points: 15 and 0 pips counted at the table

    sides = scorepad.build(match, engine).sides

    assert [(side.score, side.raw) for side in sides] == [("3", "15"), ("0", "0")]
    assert sides[0].tally is not None and sides[0].tally.strokes == 3


def test_all_fives_scores_are_raw_points_already():
    match = two_player_all_fives()
    engine = match_engine(match)
    engine.scores = [15, 0]

    sides = scorepad.build(match, engine).sides

    assert [(side.score, side.raw) for side in sides] == [("15", None), ("0", None)]
