"""Tiles and the three sets (RULES.md §1)."""

import pytest

from matches.rules import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, SETS, NotationError, Tile
from matches.rules.errors import TileNotInSet


@pytest.mark.parametrize("text", ["3-5", "5-3", "[3|5]", "[5|3]", " 3 - 5 ", "[ 5 | 3 ]"])
def test_parse_accepts_both_notations_in_either_order(text):
    assert Tile.parse(text) == Tile(3, 5)


def test_parse_reads_two_digit_values():
    assert Tile.parse("12-10") == Tile(10, 12)
    assert str(Tile.parse("[12|12]")) == "12-12"


def test_tile_is_unordered():
    assert Tile(3, 5) == Tile(5, 3)
    assert Tile(3, 5) is Tile(5, 3)
    assert hash(Tile(3, 5)) == hash(Tile(5, 3))
    assert Tile(3, 5) != Tile(3, 4)


@pytest.mark.parametrize(("text", "canonical"),
                         [("5-3", "3-5"), ("[5|3]", "3-5"), ("6-6", "6-6"), ("0-12", "0-12")])
def test_canonical_output_is_low_high(text, canonical):
    tile = Tile.parse(text)
    assert str(tile) == canonical
    assert repr(tile) == f"Tile({tile.low}, {tile.high})"


def test_tile_properties():
    tile = Tile(2, 4)
    assert (tile.low, tile.high, tile.pips, tile.is_double) == (2, 4, 6, False)
    assert Tile(6, 6).is_double and Tile(6, 6).pips == 12
    assert tile.other(2) == 4 and tile.other(4) == 2
    assert Tile(5, 5).other(5) == 5
    assert tile.has(4) and not tile.has(3)


def test_tile_is_immutable():
    with pytest.raises(AttributeError, match="Tile is immutable"):
        Tile(1, 2).low = 3


def test_tiles_hash_by_identity():
    assert {Tile(3, 5): "a"}[Tile(5, 3)] == "a"
    assert hash(Tile(3, 5)) == hash(Tile(5, 3)) != hash(Tile(3, 4))


@pytest.mark.parametrize(("text", "message"), [
    ("3_5", "'3_5' is not a tile (write it as a-b)"),
    ("x", "'x' is not a tile (write it as a-b)"),
    ("", "'' is not a tile (write it as a-b)"),
    ("3-", "'3-' is not a tile (write it as a-b)"),
    ("[3|5", "'[3|5' is not a tile (write it as a-b)"),
    ("3-5-6", "'3-5-6' is not a tile (write it as a-b)"),
    ("-3-5", "'-3-5' is not a tile (write it as a-b)"),
    ("123-4", "'123-4' is not a tile (write it as a-b)"),
])
def test_parse_refuses_bad_notation(text, message):
    with pytest.raises(NotationError) as excinfo:
        Tile.parse(text)
    assert str(excinfo.value) == message


@pytest.mark.parametrize(("value", "message"), [
    (53, "53 is not a tile (write it as a-b)"),
    (None, "none is not a tile (write it as a-b)"),
    (True, "true is not a tile (write it as a-b)"),
    ([3, 5], "[3, 5] is not a tile (write it as a-b)"),
])
def test_parse_refuses_non_strings_with_json_spelling(value, message):
    with pytest.raises(NotationError) as excinfo:
        Tile.parse(value)
    assert str(excinfo.value) == message


def test_negative_pips_are_not_a_tile():
    with pytest.raises(NotationError, match=r"-1-3 is not a tile \(pips are whole numbers"):
        Tile(-1, 3)


@pytest.mark.parametrize(("tile_set", "slug", "top", "size", "pips"), [
    (DOUBLE_SIX, "double-six", 6, 28, 168),
    (DOUBLE_NINE, "double-nine", 9, 55, 495),
    (DOUBLE_TWELVE, "double-twelve", 12, 91, 1092),
])
def test_set_sizes_and_pips(tile_set, slug, top, size, pips):
    assert tile_set.slug == slug and str(tile_set) == slug
    assert tile_set.top == top
    assert tile_set.size == size == len(tile_set.tiles) == len(set(tile_set.tiles))
    assert tile_set.pips == pips
    assert SETS[slug] is tile_set


def test_each_tile_appears_once_per_set():
    tiles = DOUBLE_SIX.tiles
    assert tiles[0] == Tile(0, 0) and tiles[-1] == Tile(6, 6)
    assert sum(tile.is_double for tile in tiles) == 7


def test_tile_not_in_set_message():
    with pytest.raises(TileNotInSet) as excinfo:
        DOUBLE_SIX.check(Tile(6, 7))
    assert str(excinfo.value) == "tile 6-7 is not in the double-six set"


def test_tile_in_set_is_returned():
    assert DOUBLE_SIX.check(Tile(6, 6)) is Tile(6, 6)
    assert DOUBLE_TWELVE.check(Tile(12, 13 - 1)) is Tile(12, 12)


def test_value_not_in_set_message():
    assert DOUBLE_NINE.check_value(9) == 9
    with pytest.raises(TileNotInSet) as excinfo:
        DOUBLE_NINE.check_value(10)
    assert str(excinfo.value) == "10 is not a value of the double-nine set"


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        Tile.parse("nope")
