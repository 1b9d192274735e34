"""Tiles and the three sets.

>>> Tile(5, 3)
Tile(3, 5)
>>> Tile.parse("[5|3]") == Tile.parse("3-5")
True
>>> str(Tile(6, 6)), Tile(6, 6).is_double, Tile(2, 4).pips
('6-6', True, 6)
>>> DOUBLE_SIX.size, DOUBLE_SIX.pips, DOUBLE_TWELVE.size
(28, 168, 91)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Final

from .errors import NotationError, TileNotInSet

# digits 0-9 only: ``\d`` takes any script's digits ("٥-٥" read as 5-5)
_TILE_RE: Final = re.compile(
    r"^\s*(?:\[\s*([0-9]{1,2})\s*\|\s*([0-9]{1,2})\s*\]|([0-9]{1,2})\s*-\s*([0-9]{1,2}))\s*$")


class Tile:
    """An unordered pair of pip values, kept canonically as ``low-high``.

    Instances are immutable and interned: ``Tile(3, 5) is Tile(5, 3)``, so object
    identity is equality and the default (C-level) hash serves: tiles are dictionary
    keys on every placement.
    """

    # No __slots__ and no ordering methods: a class compiled by mypyc with either
    # loses the default identity hash. Interned, there are at most 91 tiles anyway.
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}
    _parsed: ClassVar[dict[str, Tile]] = {}

    low: int
    high: int
    is_double: bool
    pips: int
    _text: str

    def __new__(cls, a: int, b: int) -> Tile:
        if type(a) is not int or type(b) is not int or a < 0 or b < 0:
            raise NotationError.of("tile_pips", a=repr(a), b=repr(b))
        key = (a, b) if a <= b else (b, a)
        tile = cls._interned.get(key)
        if tile is None:
            tile = super().__new__(cls)
            tile._fill(key[0], key[1])
            cls._interned[key] = tile
        return tile

    def _fill(self, low: int, high: int) -> None:
        # past __setattr__, which refuses every later change (spelled out in full:
        # mypyc compiles exactly this call to a plain store)
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "is_double", low == high)
        object.__setattr__(self, "pips", low + high)
        object.__setattr__(self, "_text", f"{low}-{high}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Tile is immutable")

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.low, self.high))

    @classmethod
    def parse(cls, text: object) -> Tile:
        """Read ``"3-5"`` or ``"[3|5]"`` (either order)."""
        if not isinstance(text, str):
            raise NotationError.of("not_a_tile", text=str(text).lower())
        tile = cls._parsed.get(text)
        if tile is not None:
            return tile
        match = _TILE_RE.match(text)
        if match is None:
            raise NotationError.of("not_a_tile", text=repr(text))
        a, b = (int(g) for g in match.groups() if g is not None)
        tile = cls(a, b)
        if len(cls._parsed) < 10_000:  # bounded: only well-formed inputs reach here
            cls._parsed[text] = tile
        return tile

    def other(self, value: int) -> int:
        """The half that is not ``value`` (``value`` itself for a double)."""
        return self.high if value == self.low else self.low

    def has(self, value: int) -> bool:
        return value == self.low or value == self.high

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


@dataclass(frozen=True)
class TileSet:
    """A complete set: every pair of values from 0 to ``top`` once."""

    slug: str
    top: int

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(Tile(a, b) for a in range(self.top + 1) for b in range(a, self.top + 1))

    @property
    def size(self) -> int:
        return (self.top + 1) * (self.top + 2) // 2

    @property
    def pips(self) -> int:
        return sum(tile.pips for tile in self.tiles)

    def check(self, tile: Tile) -> Tile:
        if tile.high > self.top:
            raise TileNotInSet.of("tile_not_in_set", tile=str(tile), set=self.slug)
        return tile

    def check_value(self, value: int) -> int:
        if not 0 <= value <= self.top:
            raise TileNotInSet.of("value_not_in_set", value=value, set=self.slug)
        return value

    def __str__(self) -> str:
        return self.slug



DOUBLE_SIX: Final = TileSet("double-six", 6)
DOUBLE_NINE: Final = TileSet("double-nine", 9)
DOUBLE_TWELVE: Final = TileSet("double-twelve", 12)
SETS: Final = {s.slug: s for s in (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE)}
