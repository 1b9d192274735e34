"""Scores in the table's words, the paper tally and the board's geometry."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from matches import rules
from matches.rules.simulate import simulated_match
from matches.scoring import presenters


@pytest.mark.parametrize(("value", "shown"), [
    (0, "0"), (250, "250"), (Fraction(5, 2), "2½"), (Fraction(1, 2), "½"),
    (Fraction(-3, 2), "−1½"), (-4, "−4"), (Fraction(10, 2), "5"),
])
def test_show_score_writes_halves_as_a_half_sign(value, shown):
    assert presenters.show_score(value) == shown


@pytest.mark.parametrize(("raw", "fifties", "strokes", "apart"), [
    (0, None, None, None),
    (-5, None, None, None),
    (5, 0, 1, ""),
    (45, 0, 9, ""),
    (50, 1, 0, ""),
    (135, 2, 7, ""),
    (Fraction(5, 2), 0, 0, "2½"),
    (Fraction(25, 2), 0, 2, "2½"),  # two strokes and 2½ apart, not 10½
    (Fraction(85, 2), 0, 8, "2½"),
    (Fraction(155, 2), 1, 5, "2½"),
])
def test_tally_is_a_stroke_per_five_and_a_big_x_per_fifty(raw, fifties, strokes, apart):
    tally = presenters.tally(raw)
    if fifties is None:
        assert tally is None
        return
    assert tally is not None
    assert (tally.fifties, tally.strokes, tally.apart) == (fifties, strokes, apart)
    assert len(tally.fifty_xs) == fifties and len(tally.stroke_xs) == strokes


def layout(notation: str, policy=rules.SpinnerPolicy.FIRST_DOUBLE) -> rules.Layout:
    return rules.Layout.from_notation(notation, policy)


def test_an_empty_table_draws_nothing():
    assert presenters.board(None).empty
    assert presenters.board(rules.Layout()).empty


def test_doubles_lie_crosswise_and_the_spinner_is_marked():
    board = presenters.board(layout("1-4 1-1@1-4:1 4-4@1-4:4"))
    shapes = {shape.tile: shape for shape in board.tiles}
    assert (shapes["1-4"].width, shapes["1-4"].height) == (2, 1)
    assert (shapes["1-1"].width, shapes["1-1"].height) == (1, 2)
    assert shapes["1-1"].spinner and not shapes["4-4"].spinner
    assert shapes["4-4"].newest and not shapes["1-4"].newest


def test_tiles_never_overlap_along_a_line_and_flanks_leave_the_spinner_crosswise():
    board = presenters.board(layout("1-4 1-1@1-4:1 4-4@1-4:4 3-4@4-4:4 1-2@1-1:1 1-5@1-1:1 "
                                    "1-3@1-1:1"))
    shapes = {shape.tile: shape for shape in board.tiles}
    boxes = [(s.x, s.y, s.x + s.width, s.y + s.height) for s in board.tiles]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            assert overlap[0] <= 0 or overlap[1] <= 0, (a, b)
    spinner, north, south = shapes["1-1"], shapes["1-5"], shapes["1-3"]
    assert (north.width, north.height) == (1, 2) == (south.width, south.height)
    assert north.y + north.height == spinner.y and south.y == spinner.y + spinner.height


def test_open_ends_are_marked_and_a_flank_once_both_line_sides_are_filled():
    before = presenters.board(layout("1-4 1-1@1-4:1 4-4@1-4:4"))
    assert sorted(end.point for end in before.ends) == ["1-1:1", "4-4:4"]
    assert not any(end.flank for end in before.ends)
    after = presenters.board(layout("1-4 1-1@1-4:1 4-4@1-4:4 1-2@1-1:1"))
    # both flanks of the spinner are open ends: each is drawn (one point names both)
    assert [end.point for end in after.ends if end.flank] == ["1-1:1", "1-1:1"]
    flanks = [(end.x, end.y) for end in after.ends if end.flank]
    assert flanks[0] != flanks[1]


def test_a_lone_opening_spinner_shows_both_of_its_open_ends():
    board = presenters.board(layout("5-5"))
    assert [(end.point, end.x, end.flank) for end in board.ends] == [
        ("5-5:5", -0.5, False), ("5-5:5", 0.5, False)]
    assert board.ends_clockwise == ["5-5"]  # a terminal double: both halves count


@pytest.mark.parametrize(("notation", "clockwise"), [
    ("5-5 0-5@5-5:5", ["0", "5-5"]),  # left, then the free side of the double
    ("5-5 0-5@5-5:5 1-5@5-5:5 2-5@5-5:5", ["0", "2", "1"]),  # west, north, east
    ("5-5 0-5@5-5:5 1-5@5-5:5 2-5@5-5:5 3-5@5-5:5", ["0", "2", "1", "3"]),  # then south
    ("1-4 1-1@1-4:1 4-4@1-4:4", ["1-1", "4-4"]),  # two terminal doubles
])
def test_the_ends_are_listed_clockwise_from_the_left(notation, clockwise):
    board = presenters.board(layout(notation))
    assert board.ends_clockwise == clockwise
    ends = layout(notation)
    # the same ends the engine adds up, only ordered for the eye
    assert sorted(board.ends_clockwise) == sorted(
        f"{end.value}-{end.value}" if end.double else str(end.value)
        for end in ends.scoring_ends())


def test_values_above_six_are_written_not_drawn():
    board = presenters.board(layout("7-9", rules.SpinnerPolicy.NONE))
    halves = board.tiles[0].halves
    assert [(h.value, h.text, h.spots) for h in halves] == [(7, True, []), (9, True, [])]
    # parted by a space: the tile's text reads "7 9", the words of its name "7-9"
    assert str(board.tiles[0].svg).endswith(
        '<text x="-0.5" y="0.21999999999999997" class="domino-number">7</text> '
        '<text x="0.5" y="0.21999999999999997" class="domino-number">9</text>')
    assert '<text x="1.5" y="0.72" class="domino-number">9</text>' in presenters.tile_svg("7-9")


def test_a_tile_face_is_its_rectangle_its_divider_and_its_pips():
    board = presenters.board(layout("1-2", rules.SpinnerPolicy.NONE))

    assert board.tiles[0].svg == (
        '<rect x="-1.0" y="-0.5" width="2.0" height="1.0" rx="0.12" class="domino-face"/>'
        '<line x1="0.0" y1="-0.5" x2="0.0" y2="0.5" class="domino-divider"/>'
        '<circle cx="-0.5" cy="0.0" r="0.09" class="pip"/>'
        '<circle cx="0.27" cy="-0.22999999999999998" r="0.09" class="pip"/>'
        '<circle cx="0.73" cy="0.22999999999999998" r="0.09" class="pip"/>')


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000),
       game=st.sampled_from([rules.ALL_FIVES, rules.FIVE_UP, rules.FIVES_AND_THREES]),
       events=st.integers(min_value=1, max_value=60))
def test_every_table_lists_the_engines_scoring_ends_and_draws_each_open_end(seed, game,
                                                                            events):
    # stopped after any number of events: mid-round tables, not only finished ones
    match = simulated_match(game, 2, seed=seed, max_rounds=3, stop_after_events=events)
    for rnd in match.rounds:
        if not rnd.tracked or not len(rnd.layout):
            continue
        board = presenters.board(rnd.layout)
        assert sorted(board.ends_clockwise) == sorted(
            f"{end.value}-{end.value}" if end.double else str(end.value)
            for end in rnd.layout.scoring_ends())
        # every open point of the engine has a dot; a double's point may have two
        assert {end.point for end in board.ends} == {
            str(point) for point in rnd.layout.open_points()}


# -- ends in words --------------------------------------------------------------------


def test_an_end_is_named_as_a_player_says_it_never_in_notation():
    assert presenters.end_label(rules.AttachmentPoint.parse("1-4:4")) == "On the 4 of 1-4"
    assert presenters.end_label(rules.AttachmentPoint.parse("5-5:5")) == "On the double 5"
    assert presenters.end_label(rules.AttachmentPoint.parse("5-5:5"), flank=True) == (
        "On the side of the double 5")
    with translation.override("uk"):
        assert presenters.end_label(rules.AttachmentPoint.parse("1-4:4")) == "На 4 плитки 1-4"
    with translation.override("ru"):
        assert presenters.end_label(rules.AttachmentPoint.parse("0-0:0"), flank=True) == (
            "Вбок от дубля 0")


def test_a_placement_is_said_in_words():
    tile = rules.Tile.parse("0-5")
    assert presenters.placed_words(tile, None) == "0-5 to open"
    assert presenters.placed_words(tile, rules.AttachmentPoint.parse("5-5:5")) == (
        "0-5 on the double 5")
    assert presenters.placed_words(tile, rules.AttachmentPoint.parse("3-5:5")) == (
        "0-5 on the 5 of 3-5")
