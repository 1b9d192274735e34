"""The layout: placements, slots, spinners, scoring ends and undo (RULES.md §2, §4)."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.rules import (
    ALL_FIVES,
    FIVE_UP,
    FIVES_AND_THREES,
    AttachmentPoint,
    IllegalPlacement,
    Layout,
    NotationError,
    ScoringEnd,
    Slot,
    SpinnerPolicy,
    Tile,
    TileOnTable,
)
from matches.rules.tiles import DOUBLE_SIX

AF = SpinnerPolicy.FIRST_DOUBLE
FU = SpinnerPolicy.EVERY_DOUBLE
FT = SpinnerPolicy.NONE

# The worked layout of RULES.md §2 (seed 000 for All Fives, seed 004 for Five Up).
ROW5 = "1-4 1-1@1-4:1 4-4@1-4:4"
ROW6 = ROW5 + " 3-4@4-4:4"
ROW7 = ROW6 + " 1-2@1-1:1"
ROW8 = ROW7 + " 1-5@1-1:1"
ROW9A = ROW8 + " 5-5@1-5:5"
ROW9 = ROW9A + " 0-5@5-5:5"
ROW10 = ROW9 + " 1-3@1-1:1"


def ends(layout):
    """The scoring ends as a multiset of their notation (``"4"``, ``"6-6"``)."""
    return Counter(str(end) for end in layout.scoring_ends())


def points(layout):
    return {str(point) for point in layout.open_points()}


def place(layout, text):
    tile_text, _, point_text = text.partition("@")
    return layout.place(Tile.parse(tile_text),
                        AttachmentPoint.parse(point_text) if point_text else None)


# -- the worked table (All Fives) ------------------------------------------------------

@pytest.mark.parametrize(("notation", "expected_ends", "end_sum"), [
    ("1-4", ["4", "1"], 5),
    ("1-4 1-1@1-4:1", ["1-1", "4"], 6),
    ("3-6 6-6@3-6:6", ["3", "6-6"], 15),
    ("0-0", ["0-0"], 0),
    ("2-2", ["2-2"], 4),
    (ROW5, ["1-1", "4-4"], 10),
    (ROW6, ["1-1", "3"], 5),
    (ROW7, ["2", "3"], 5),
    (ROW8, ["2", "5", "3"], 10),
    (ROW9A, ["2", "5-5", "3"], 15),
    (ROW9, ["0", "2", "3"], 5),
    (ROW10, ["0", "2", "3", "3"], 8),
])
def test_worked_table_all_fives(notation, expected_ends, end_sum):
    layout = Layout.from_notation(notation, AF)
    assert layout.end_sum == end_sum
    assert ends(layout) == Counter(expected_ends)
    assert sum(end.points for end in layout.scoring_ends()) == end_sum


@pytest.mark.parametrize("notation", [
    "1-4", "1-4 1-1@1-4:1", "3-6 6-6@3-6:6", "0-0", "2-2", ROW5, ROW6, ROW7, ROW8, ROW9, ROW10])
def test_worked_table_end_sums_are_the_same_in_five_up(notation):
    assert Layout.from_notation(notation, FU).end_sum == Layout.from_notation(notation, AF).end_sum


@pytest.mark.parametrize(("notation", "end_sum", "raw", "display"), [
    ("1-4", 5, 5, 1), ("1-4 1-1@1-4:1", 6, 0, 0), ("3-6 6-6@3-6:6", 15, 15, 3),
    ("0-0", 0, 0, 0), ("2-2", 4, 0, 0), (ROW5, 10, 10, 2), (ROW6, 5, 5, 1),
    (ROW8, 10, 10, 2), (ROW9, 5, 5, 1), (ROW10, 8, 0, 0),
])
def test_worked_table_placement_points(notation, end_sum, raw, display):
    layout = Layout.from_notation(notation, AF)
    assert layout.end_sum == end_sum
    assert ALL_FIVES.placement_points(end_sum) == raw
    assert FIVE_UP.placement_points(end_sum) == display


# -- legal continuation points listed in the seeds -------------------------------------

# seed 000 (All Fives: only the first double, 1-1, is a spinner)
ALL_FIVES_POINTS = [
    ("1-4", {"1-4:4", "1-4:1"}),
    ("1-4 1-1@1-4:1", {"1-1:1", "1-4:4"}),
    ("3-6 6-6@3-6:6", {"3-6:3", "6-6:6"}),
    ("0-0", {"0-0:0"}),
    ("2-2", {"2-2:2"}),
    (ROW5, {"1-1:1", "4-4:4"}),
    (ROW6, {"1-1:1", "3-4:3"}),
    (ROW7, {"1-1:1", "1-2:2", "3-4:3"}),
    (ROW8, {"1-1:1", "1-2:2", "1-5:5", "3-4:3"}),
    (ROW9, {"0-5:0", "1-1:1", "1-2:2", "3-4:3"}),
    (ROW10, {"0-5:0", "1-2:2", "1-3:3", "3-4:3"}),
]
# seed 004 (Five Up: every double is a spinner, 4-4 and 5-5 included)
FIVE_UP_POINTS = [
    (ROW5, {"1-1:1", "4-4:4"}),
    (ROW6, {"1-1:1", "3-4:3", "4-4:4"}),
    (ROW7, {"1-1:1", "1-2:2", "3-4:3", "4-4:4"}),
    (ROW8, {"1-1:1", "1-2:2", "1-5:5", "3-4:3", "4-4:4"}),
    (ROW9, {"0-5:0", "1-1:1", "1-2:2", "3-4:3", "4-4:4", "5-5:5"}),
    (ROW10, {"0-5:0", "1-2:2", "1-3:3", "3-4:3", "4-4:4", "5-5:5"}),
]


@pytest.mark.parametrize(("notation", "expected"), ALL_FIVES_POINTS)
def test_open_points_all_fives(notation, expected):
    assert points(Layout.from_notation(notation, AF)) == expected


@pytest.mark.parametrize(("notation", "expected"), FIVE_UP_POINTS)
def test_open_points_five_up(notation, expected):
    assert points(Layout.from_notation(notation, FU)) == expected


def test_flanks_of_4_4_open_in_five_up_only():
    four = AttachmentPoint.parse("4-4:4")
    five_up = Layout.from_notation(ROW6, FU)
    all_fives = Layout.from_notation(ROW6, AF)
    assert five_up.is_spinner(Tile(4, 4)) and not all_fives.is_spinner(Tile(4, 4))
    assert four in five_up.legal_points(Tile(4, 6))
    assert four not in all_fives.legal_points(Tile(4, 6))
    assert five_up.next_slot(Tile(4, 4)) is Slot.FLANK_A
    assert all_fives.next_slot(Tile(4, 4)) is None
    assert five_up.place(Tile(4, 6), four).slot is Slot.FLANK_A
    with pytest.raises(IllegalPlacement) as excinfo:
        all_fives.place(Tile(4, 6), four)
    assert str(excinfo.value) == ("cannot join 4-6 at 4-4:4: double 4-4 is not a spinner and "
                                  "both its line sides are filled")


def test_spinners_by_policy():
    layout = Layout.from_notation(ROW9, AF)
    assert [t for t in layout.tiles if layout.is_spinner(t)] == [Tile(1, 1)]
    layout = Layout.from_notation(ROW9, FU)
    assert [t for t in layout.tiles if layout.is_spinner(t)] == [Tile(1, 1), Tile(4, 4),
                                                                 Tile(5, 5)]
    layout = Layout.from_notation(ROW5, FT)
    assert not any(layout.is_spinner(t) for t in layout.tiles)


def test_opening_double_is_the_all_fives_spinner():
    layout = Layout.from_notation("6-6 3-6@6-6:6", AF)
    assert layout.is_spinner(Tile(6, 6))
    result = place(layout, "2-6@6-6:6")
    assert result.slot is Slot.LINE_B
    assert place(layout, "3-3@3-6:3").spinner is False


def test_legal_points_for_the_opening_and_for_a_placed_tile_are_empty():
    layout = Layout(AF)
    assert layout.legal_points(Tile(3, 5)) == [] and layout.can_place(Tile(3, 5))
    place(layout, "3-5")
    assert layout.legal_points(Tile(3, 5)) == []
    assert [str(p) for p in layout.legal_points(Tile(1, 3))] == ["3-5:3"]
    assert not layout.can_place(Tile(1, 2))


def test_a_spinner_takes_line_sides_then_flanks_in_order():
    layout = Layout.from_notation("5-5", AF)
    spinner = AttachmentPoint.parse("5-5:5")
    slots = []
    for text in ("0-5", "5-6", "2-5", "3-5"):
        assert layout.next_slot(Tile(5, 5)) is not None
        slots.append(layout.place(Tile.parse(text), spinner).slot)
    assert slots == [Slot.LINE_A, Slot.LINE_B, Slot.FLANK_A, Slot.FLANK_B]
    assert [s is not None and s.is_flank for s in slots] == [False, False, True, True]
    assert layout.next_slot(Tile(5, 5)) is None
    assert layout.end_sum == 0 + 6 + 2 + 3
    with pytest.raises(IllegalPlacement) as excinfo:
        layout.place(Tile(1, 5), spinner)
    assert str(excinfo.value) == ("cannot join 1-5 at 5-5:5: spinner 5-5 has both line sides "
                                  "and both flanks filled")


@pytest.mark.parametrize(("notation", "policy", "double", "free"), [
    ("5-5", AF, "5-5", 4),  # the opening spinner: both line sides and both flanks
    ("5-5 0-5@5-5:5 5-6@5-5:5", AF, "5-5", 2),  # its flanks
    ("5-5 0-5@5-5:5 5-6@5-5:5 2-5@5-5:5 3-5@5-5:5", AF, "5-5", 0),
    ("5-5 5-6@5-5:5 6-6@5-6:6", AF, "6-6", 1),  # not the first double: one line side
    ("5-5 5-6@5-5:5 6-6@5-6:6 2-6@6-6:6", AF, "6-6", 0),
    ("3-5 5-5@3-5:5", FU, "5-5", 3),  # every double spins; its link used line A
    ("3-3", FT, "3-3", 2),  # no spinners: two line sides
    ("3-5", AF, "3-5", 0),  # not a double
    ("3-5", AF, "6-6", 0),  # not on the table
])
def test_free_slots_say_how_many_more_tiles_a_double_takes(notation, policy, double, free):
    layout = Layout.from_notation(notation, policy)
    tile = Tile.parse(double)
    assert layout.free_slots(tile) == free
    if tile.is_double and tile in layout:  # the slot it would take, while it has one
        assert (free > 0) == (layout.next_slot(tile) is not None)


def test_doubles_placed_counts_the_doubles_on_the_table_and_undo_takes_one_back():
    layout = Layout.from_notation("5-5 5-6@5-5:5 6-6@5-6:6", AF)
    assert layout.doubles_placed == 2
    layout.undo()
    assert layout.doubles_placed == 1


def test_an_attached_spinner_used_line_a_for_its_connection():
    layout = Layout.from_notation("3-5 5-5@3-5:5", FU)
    slots = [place(layout, text).slot for text in ("5-6@5-5:5", "2-5@5-5:5", "1-5@5-5:5")]
    assert slots == [Slot.LINE_B, Slot.FLANK_A, Slot.FLANK_B]
    with pytest.raises(IllegalPlacement, match="spinner 5-5 has both line sides"):
        place(layout, "0-5@5-5:5")


def test_unused_flanks_add_nothing():
    layout = Layout.from_notation("5-5 0-5@5-5:5 5-6@5-5:5", AF)
    assert layout.end_sum == 6
    assert ends(layout) == Counter(["0", "6"])
    assert points(layout) == {"5-5:5", "0-5:0", "5-6:6"}


def test_placement_result_fields():
    layout = Layout(AF)
    first = layout.place(Tile(1, 4))
    assert (first.tile, first.at, first.slot, first.spinner, first.end_sum) == (
        Tile(1, 4), None, None, False, 5)
    at = AttachmentPoint.parse("1-4:1")
    second = layout.place(Tile(1, 1), at)
    assert (second.tile, second.at, second.slot, second.spinner, second.end_sum) == (
        Tile(1, 1), at, None, True, 6)
    third = place(layout, "1-2@1-1:1")
    assert third.slot is Slot.LINE_B and third.end_sum == 6


def test_preview_says_what_a_placement_would_do_and_leaves_the_layout_as_it_was():
    layout = Layout.from_notation("5-5 0-5@5-5:5 5-6@5-5:5", AF)
    before = repr(layout)
    flank = layout.preview(Tile(4, 5), AttachmentPoint.parse("5-5:5"))
    assert (flank.slot, flank.end_sum) == (Slot.FLANK_A, 10)
    assert repr(layout) == before and layout.end_sum == 6 and Tile(4, 5) not in layout
    with pytest.raises(TileOnTable):
        layout.preview(Tile(0, 5), AttachmentPoint.parse("5-6:6"))
    assert repr(layout) == before


def test_reading_the_layout():
    layout = Layout.from_notation(ROW7, AF)
    assert len(layout) == 5 and Tile(3, 4) in layout and Tile(3, 3) not in layout
    assert layout.opening == Tile(1, 4) and Layout().opening is None
    assert layout.tiles == [Tile(1, 4), Tile(1, 1), Tile(4, 4), Tile(3, 4), Tile(1, 2)]
    assert list(layout.walk()) == [
        (Tile(1, 4), None, None, False),
        (Tile(1, 1), Tile(1, 4), 1, True),
        (Tile(4, 4), Tile(1, 4), 4, False),
        (Tile(3, 4), Tile(4, 4), Slot.LINE_B, False),
        (Tile(1, 2), Tile(1, 1), Slot.LINE_B, False),
    ]


# -- Fives and Threes: a plain line ---------------------------------------------------

@pytest.mark.parametrize(("notation", "end_sum"), [
    ("4-4", 8),
    ("0-0", 0),
    ("3-4 4-4@3-4:4", 11),
    ("3-4 4-4@3-4:4 4-5@4-4:4", 8),
    ("6-6 3-6@6-6:6", 15),
    ("6-6 3-6@6-6:6 6-2@6-6:6", 5),
    ("3-3 3-6@3-3:3 6-6@3-6:6", 18),
])
def test_fives_and_threes_double_at_an_end_counts_both_halves(notation, end_sum):
    layout = Layout.from_notation(notation, FT)
    assert layout.end_sum == end_sum
    assert sum(end.points for end in layout.scoring_ends()) == end_sum


def test_fives_and_threes_doubles_are_never_spinners():
    layout = Layout.from_notation("4-4 2-4@4-4:4 4-5@4-4:4", FT)
    assert not layout.is_spinner(Tile(4, 4))
    assert FIVES_AND_THREES.policy is FT
    with pytest.raises(IllegalPlacement, match="double 4-4 is not a spinner"):
        place(layout, "4-6@4-4:4")


# -- refusals --------------------------------------------------------------------------

@pytest.mark.parametrize(("notation", "placement", "error", "message"), [
    ("", "6-6@4-6:4", IllegalPlacement,
     "6-6 is the opening tile; there is nothing to attach it to at 4-6:4"),
    ("5-5", "5-9", IllegalPlacement, "tile 5-9 needs an attachment point (c-d:v)"),
    ("5-5", "4-9@4-9:9", IllegalPlacement,
     "attachment point 4-9:9: tile 4-9 is not on the table"),
    ("1-4", "3-5@1-4:3", IllegalPlacement, "attachment point 1-4:3: tile 1-4 has no 3 end"),
    ("4-5", "0-3@4-5:4", IllegalPlacement, "tile 0-3 has no 4 to join 4-5:4"),
    ("2-6 6-6@2-6:6 4-6@6-6:6", "1-6@2-6:6", IllegalPlacement,
     "cannot join 1-6 at 2-6:6: the 6 end of 2-6 is already taken"),
    ("1-1 1-4@1-1:1 4-4@1-4:4 3-4@4-4:4", "0-4@4-4:4", IllegalPlacement,
     "cannot join 0-4 at 4-4:4: double 4-4 is not a spinner and both its line sides "
     "are filled"),
    ("0-0 0-1@0-0:0 0-2@0-0:0 0-3@0-0:0 0-4@0-0:0", "0-5@0-0:0", IllegalPlacement,
     "cannot join 0-5 at 0-0:0: spinner 0-0 has both line sides and both flanks filled"),
    ("0-0 0-1@0-0:0", "0-1@0-0:0", TileOnTable,
     "tile 0-1 is already on the table"),
    ("0-0", "0-0", TileOnTable, "tile 0-0 is already on the table"),
])
def test_illegal_placements_all_fives(notation, placement, error, message):
    layout = Layout.from_notation(notation, AF)
    before = (layout.notation(), layout.end_sum, points(layout))
    with pytest.raises(error) as excinfo:
        place(layout, placement)
    assert str(excinfo.value) == message
    assert (layout.notation(), layout.end_sum, points(layout)) == before


def test_refusal_messages_match_the_reference_samples():
    """Same wording as samples/manifest.json (attach-*, *-double-*, opening-attached)."""
    cases = [
        ("4-5", "0-3@4-5:4", "tile 0-3 has no 4 to join 4-5:4"),
        ("5-5 5-6@5-5:5 2-6@5-6:6", "1-6@5-6:6",
         "cannot join 1-6 at 5-6:6: the 6 end of 5-6 is already taken"),
    ]
    for notation, placement, message in cases:
        layout = Layout.from_notation(notation, AF)
        with pytest.raises(IllegalPlacement) as excinfo:
            place(layout, placement)
        assert str(excinfo.value) == message


def test_from_notation_refuses_a_bad_point():
    with pytest.raises(NotationError) as excinfo:
        Layout.from_notation("1-4 1-1@1-4", AF)
    assert str(excinfo.value) == "'1-4' is not an attachment point (write it as c-d:v)"


@pytest.mark.parametrize(("text", "message"), [
    ("1-4", "'1-4' is not an attachment point (write it as c-d:v)"),
    ("1-4:x", "'1-4:x' is not an attachment point (write it as c-d:v)"),
    ("1-4:1:1", "'1-4:1:1' is not an attachment point (write it as c-d:v)"),
    ("x:1", "'x' is not a tile (write it as a-b)"),
    (5, "5 is not an attachment point (write it as c-d:v)"),
    (None, "null is not an attachment point (write it as c-d:v)"),
])
def test_attachment_point_notation_errors(text, message):
    with pytest.raises(NotationError) as excinfo:
        AttachmentPoint.parse(text)
    assert str(excinfo.value) == message


def test_attachment_point_parse_and_str():
    point = AttachmentPoint.parse("[4|1]:4")
    assert point == AttachmentPoint(Tile(1, 4), 4)
    assert str(point) == "1-4:4"


@pytest.mark.parametrize(("text", "end", "pts"), [
    ("4", ScoringEnd(4), 4), ("0", ScoringEnd(0), 0), ("6-6", ScoringEnd(6, double=True), 12),
    ("[5|5]", ScoringEnd(5, double=True), 10), ("12", ScoringEnd(12), 12)])
def test_scoring_end_parse(text, end, pts):
    assert ScoringEnd.parse(text) == end
    assert end.points == pts


@pytest.mark.parametrize(("text", "message"), [
    ("3-4", "'3-4' is not a scoring end (a value, or d-d for a double)"),
    ("x", "'x' is not a tile (write it as a-b)"),
    (4, "4 is not a tile (write it as a-b)"),
])
def test_scoring_end_parse_errors(text, message):
    with pytest.raises(NotationError) as excinfo:
        ScoringEnd.parse(text)
    assert str(excinfo.value) == message


# -- notation, repr and undo -----------------------------------------------------------

@pytest.mark.parametrize("policy", list(SpinnerPolicy))
def test_repr_evaluates_back_to_an_equal_layout(policy):
    layout = Layout.from_notation(ROW10 if policy is not FT else "3-4 4-4@3-4:4", policy)
    again = eval(repr(layout), {"Layout": Layout, "SpinnerPolicy": SpinnerPolicy})
    assert again.notation() == layout.notation()
    assert again.policy is policy and again.end_sum == layout.end_sum


def test_notation_is_canonical():
    layout = Layout.from_notation("[4|1] [1|1]@[4|1]:1 4-4@4-1:4", AF)
    assert layout.notation() == ROW5
    assert repr(Layout()) == "Layout.from_notation('', SpinnerPolicy.NONE)"


def test_undo_restores_end_sum_and_open_points():
    layout = Layout.from_notation(ROW9, AF)
    before = (layout.end_sum, layout.open_points(), layout.scoring_ends())
    place(layout, "1-3@1-1:1")
    assert layout.undo() == Tile(1, 3)
    assert (layout.end_sum, layout.open_points(), layout.scoring_ends()) == before
    assert layout.next_slot(Tile(1, 1)) is Slot.FLANK_B


def _snapshot(layout):
    return (layout.notation(), layout.end_sum, layout.open_points(), layout.scoring_ends(),
            [layout.next_slot(t) for t in layout.tiles if t.is_double],
            [layout.is_spinner(t) for t in layout.tiles])


def _random_layout(rng, policy, steps):
    """Place up to ``steps`` random legal tiles, snapshotting after each placement."""
    layout = Layout(policy)
    snapshots = [_snapshot(layout)]
    free = list(DOUBLE_SIX.tiles)
    for _ in range(steps):
        choices: list[tuple[Tile, AttachmentPoint | None]]
        if not layout:
            choices = [(tile, None) for tile in free]
        else:
            choices = [(tile, point) for tile in free for point in layout.legal_points(tile)]
        if not choices:
            break
        tile, point = rng.choice(choices)
        free.remove(tile)
        result = layout.place(tile, point)
        assert result.end_sum == layout.end_sum
        snapshots.append(_snapshot(layout))
    return layout, snapshots


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), policy=st.sampled_from(list(SpinnerPolicy)),
       steps=st.integers(0, 28))
def test_undo_all_returns_to_empty_through_every_earlier_state(rng, policy, steps):
    layout, snapshots = _random_layout(rng, policy, steps)
    while snapshots:
        assert _snapshot(layout) == snapshots.pop()
        if layout:
            layout.undo()
    assert len(layout) == 0 and layout.end_sum == 0 and layout.open_points() == []


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), policy=st.sampled_from(list(SpinnerPolicy)),
       steps=st.integers(1, 28))
def test_place_undo_place_gives_the_same_layout(rng, policy, steps):
    layout, _ = _random_layout(rng, policy, steps)
    notation, end_sum = layout.notation(), layout.end_sum
    node = list(layout.walk())[-1]
    tile, parent, _key, _spinner = node
    last_point = notation.split()[-1].partition("@")[2]
    layout.undo()
    layout.place(tile, AttachmentPoint.parse(last_point) if parent is not None else None)
    assert (layout.notation(), layout.end_sum) == (notation, end_sum)
    again = eval(repr(layout), {"Layout": Layout, "SpinnerPolicy": SpinnerPolicy})
    assert _snapshot(again) == _snapshot(layout)


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), policy=st.sampled_from(list(SpinnerPolicy)),
       steps=st.integers(0, 28))
def test_end_sum_is_the_sum_of_the_scoring_ends(rng, policy, steps):
    _, snapshots = _random_layout(rng, policy, steps)
    for _notation, end_sum, _points, scoring_ends, _slots, _spinners in snapshots:
        assert end_sum == sum(end.points for end in scoring_ends)


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), steps=st.integers(0, 28))
def test_all_fives_end_sum_never_exceeds_36(rng, steps):
    _, snapshots = _random_layout(rng, AF, steps)
    for _notation, end_sum, _points, scoring_ends, _slots, spinners in snapshots:
        assert 0 <= end_sum <= 36
        assert len(scoring_ends) <= 4
        assert sum(spinners) <= 1
