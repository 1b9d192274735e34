"""The layout: a tree of placed tiles, its open ends and its end sum.

Every double has two line sides; a spinner also has two flanks, open only once both
line sides are filled. ``c-d:v`` names the ``v`` end of tile ``c-d``; for a double it
takes the next free slot (line side A, line side B, flank A, flank B).

The worked table of RULES.md §2, in notation (each placement ``tile@point``):

>>> layout = Layout.from_notation("1-4 1-1@1-4:1 4-4@1-4:4", SpinnerPolicy.FIRST_DOUBLE)
>>> layout.end_sum
10
>>> layout.place(Tile(3, 4), AttachmentPoint.parse("4-4:4")).end_sum
5
>>> [str(point) for point in layout.legal_points(Tile(1, 2))]
['1-1:1']
>>> layout
Layout.from_notation('1-4 1-1@1-4:1 4-4@1-4:4 3-4@4-4:4', SpinnerPolicy.FIRST_DOUBLE)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

from .errors import IllegalPlacement, NotationError, TileOnTable
from .tiles import Tile


class Slot(enum.Enum):
    """Where a tile joins a double."""

    LINE_A = "line A"
    LINE_B = "line B"
    FLANK_A = "flank A"
    FLANK_B = "flank B"

    @property
    def is_flank(self) -> bool:
        return self in (Slot.FLANK_A, Slot.FLANK_B)


SLOT_ORDER: Final = (Slot.LINE_A, Slot.LINE_B, Slot.FLANK_A, Slot.FLANK_B)


class SpinnerPolicy(enum.Enum):
    """Which doubles may branch (RULES.md §4)."""

    NONE = "none"  # Fives and Threes: a plain line
    FIRST_DOUBLE = "first-double"  # All Fives: only the round's first double
    EVERY_DOUBLE = "every-double"  # Five Up: every double, on branches too


class AttachmentPoint(NamedTuple):
    """The ``value`` end of ``tile``, written ``c-d:v``."""

    tile: Tile
    value: int

    @classmethod
    def parse(cls, text: object) -> AttachmentPoint:
        point = _PARSED_POINTS.get(text) if isinstance(text, str) else None
        if point is not None:
            return point
        if not isinstance(text, str) or text.count(":") != 1:
            shown = repr(text) if isinstance(text, str) else \
                "null" if text is None else str(text).lower()
            raise NotationError.of("not_an_attachment_point", text=shown)
        tile_text, _, value_text = text.partition(":")
        value_text = value_text.strip()
        if not value_text.isdigit() or not value_text.isascii():
            raise NotationError.of("not_an_attachment_point", text=repr(text))
        point = cls(Tile.parse(tile_text), int(value_text))
        if len(_PARSED_POINTS) < 10_000:  # bounded: only well-formed inputs reach here
            _PARSED_POINTS[text] = point
        return point

    def __str__(self) -> str:
        return f"{self.tile}:{self.value}"


_PARSED_POINTS: dict[str, AttachmentPoint] = {}


@dataclass(frozen=True, slots=True)
class ScoringEnd:
    """One logical scoring end: an open value, or a terminal double counting both halves."""

    value: int
    double: bool = False

    @property
    def points(self) -> int:
        return 2 * self.value if self.double else self.value

    @classmethod
    def parse(cls, text: object) -> ScoringEnd:
        """``"4"`` is an ordinary end, ``"6-6"`` a terminal double."""
        if isinstance(text, str) and text.isdigit() and text.isascii():
            return cls(int(text))
        tile = Tile.parse(text)
        if not tile.is_double:
            raise NotationError.of("not_a_scoring_end", text=repr(text))
        return cls(tile.low, double=True)

    def __str__(self) -> str:
        return f"{self.value}-{self.value}" if self.double else str(self.value)


class _Node:
    """A placed tile. Doubles count filled slots; other tiles keep their open values."""

    # no list of children: a node points only to its parent, so a layout holds no
    # reference cycles and is freed by reference counting, without the cyclic collector
    __slots__ = ("tile", "parent", "parent_key", "joined", "spinner", "capacity", "filled", "open")

    def __init__(self, tile: Tile, parent: _Node | None, parent_key: Slot | int | None,
                 joined: int | None, spinner: bool) -> None:
        self.tile = tile
        self.parent = parent
        self.parent_key = parent_key  # the parent's slot (double) or end value (other tile)
        self.joined = joined  # this tile's value that touches the parent
        self.spinner = spinner
        self.capacity = 4 if spinner else 2  # slots: two line sides, and two flanks if a spinner
        # a double attached to the layout uses line side A for that connection
        self.filled = 0 if parent is None else 1
        if tile.is_double:
            self.open: list[int] = []
        elif joined is None:
            self.open = [tile.low, tile.high]
        else:
            self.open = [tile.other(joined)]

    @property
    def terminal(self) -> bool:
        """A double with a free line side counts both halves."""
        return self.filled < 2


class PlacementResult(NamedTuple):
    """What a placement did: where it went and the end sum it left."""

    tile: Tile
    at: AttachmentPoint | None
    slot: Slot | None  # the slot of a double it joined, if any
    spinner: bool  # whether the placed tile (a double) is a spinner
    end_sum: int


class Layout:
    """The tiles on the table in one round. Owns the tree and can undo placements."""

    def __init__(self, policy: SpinnerPolicy = SpinnerPolicy.NONE) -> None:
        self.policy = policy
        self.end_sum = 0
        self._nodes: dict[Tile, _Node] = {}
        self._order: list[tuple[_Node, int]] = []  # each node with the end sum before it
        self._doubles = 0

    # -- reading ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._nodes)

    def __contains__(self, tile: object) -> bool:
        return tile in self._nodes

    @property
    def tiles(self) -> list[Tile]:
        """The tiles on the table, in the order they were placed."""
        return [node.tile for node, _ in self._order]

    @property
    def opening(self) -> Tile | None:
        return self._order[0][0].tile if self._order else None

    def is_spinner(self, tile: Tile) -> bool:
        node = self._nodes.get(tile)
        return node is not None and node.spinner

    @property
    def doubles_placed(self) -> int:
        """How many doubles are on the table (All Fives spins only the first)."""
        return self._doubles

    def free_slots(self, tile: Tile) -> int:
        """How many more tiles the placed double ``tile`` takes, a spinner's flanks
        included; 0 when it is full, or not a double on the table."""
        node = self._nodes.get(tile)
        if node is None or not tile.is_double:
            return 0
        return node.capacity - node.filled

    def next_slot(self, tile: Tile) -> Slot | None:
        """The slot ``d-d:d`` would take on a placed double, or None if it is full."""
        node = self._nodes[tile]
        return SLOT_ORDER[node.filled] if node.filled < node.capacity else None

    def open_points(self) -> list[AttachmentPoint]:
        """Every attachment point that can take a tile now, in placement order."""
        points = []
        for node, _ in self._order:
            if node.tile.is_double:
                if node.filled < node.capacity:
                    points.append(AttachmentPoint(node.tile, node.tile.low))
            else:
                points.extend(AttachmentPoint(node.tile, value) for value in node.open)
        return points

    def legal_points(self, tile: Tile) -> list[AttachmentPoint]:
        """Where ``tile`` may join (empty for the opening, which needs no point)."""
        if tile in self._nodes:
            return []
        return [point for point in self.open_points() if tile.has(point.value)]

    def can_place(self, tile: Tile) -> bool:
        return not self._nodes or bool(self.legal_points(tile))

    def scoring_ends(self) -> list[ScoringEnd]:
        """The logical scoring ends, whose points add up to :attr:`end_sum`."""
        ends = []
        for node, _ in self._order:
            if node.tile.is_double:
                if node.terminal:
                    ends.append(ScoringEnd(node.tile.low, double=True))
            else:
                ends.extend(ScoringEnd(value) for value in node.open)
        return ends

    def walk(self) -> Iterator[tuple[Tile, Tile | None, Slot | int | None, bool]]:
        """Each placement as (tile, parent tile, parent's slot or end value, spinner)."""
        for node, _ in self._order:
            parent = node.parent.tile if node.parent else None
            yield node.tile, parent, node.parent_key, node.spinner

    # -- acting ----------------------------------------------------------------------

    def place(self, tile: Tile, at: AttachmentPoint | None = None) -> PlacementResult:
        """Put ``tile`` on the table; the opening takes no point, every later tile one."""
        end_sum = self.put(tile, at)
        node = self._order[-1][0]
        slot = node.parent_key if isinstance(node.parent_key, Slot) else None
        return PlacementResult(tile, at, slot, node.spinner, end_sum)

    def preview(self, tile: Tile, at: AttachmentPoint | None = None) -> PlacementResult:
        """What :meth:`place` would do, leaving the layout as it is."""
        result = self.place(tile, at)
        self.undo()
        return result

    def put(self, tile: Tile, at: AttachmentPoint | None = None) -> int:
        """:meth:`place`, answering only the end sum: all that a replay needs."""
        nodes = self._nodes
        if tile in nodes:
            raise TileOnTable.of("tile_on_table", tile=str(tile))
        before = self.end_sum
        if not nodes:
            if at is not None:
                raise IllegalPlacement.of("opening_attached", tile=str(tile), at=str(at))
            node = _Node(tile, None, None, None, tile.is_double and self._becomes_spinner(tile))
            self.end_sum = tile.pips
        else:
            if at is None:
                raise IllegalPlacement.of("needs_attachment_point", tile=str(tile))
            parent = nodes.get(at.tile)
            if parent is None:
                raise IllegalPlacement.of("point_tile_not_on_table", at=str(at),
                                          end_tile=str(at.tile))
            value = at.value
            # (the comparisons are spelled out: this runs for every placement of a replay)
            if value != at.tile.low and value != at.tile.high:
                raise IllegalPlacement.of("point_no_such_end", at=str(at), end_tile=str(at.tile),
                                          value=value)
            if value != tile.low and value != tile.high:
                raise IllegalPlacement.of("tile_cannot_join", tile=str(tile), value=value,
                                          at=str(at))
            delta = 0
            if parent.tile.is_double:
                if parent.filled >= parent.capacity:
                    if parent.spinner:
                        raise IllegalPlacement.of("spinner_full", tile=str(tile), at=str(at),
                                                  double=str(parent.tile))
                    raise IllegalPlacement.of("double_full", tile=str(tile), at=str(at),
                                              double=str(parent.tile))
                key: Slot | int = SLOT_ORDER[parent.filled]
                parent.filled += 1
                if parent.filled == 2:  # its last line side is filled: now internal
                    delta -= 2 * value
            else:
                if value not in parent.open:
                    raise IllegalPlacement.of("end_taken", tile=str(tile), at=str(at), value=value,
                                              end_tile=str(at.tile))
                parent.open.remove(value)
                delta -= value
                key = value
            node = _Node(tile, parent, key, value, tile.is_double and self._becomes_spinner(tile))
            # a new double is terminal (both halves); any other tile adds its outer end
            delta += tile.pips if tile.is_double else (
                tile.high if value == tile.low else tile.low)
            self.end_sum += delta
        nodes[tile] = node
        self._order.append((node, before))
        if tile.is_double:
            self._doubles += 1
        return self.end_sum

    def undo(self) -> Tile:
        """Take back the last placement exactly."""
        node, before = self._order.pop()
        del self._nodes[node.tile]
        parent = node.parent
        if parent is not None:
            if parent.tile.is_double:
                parent.filled -= 1
            else:
                parent.open.append(node.joined)  # type: ignore[arg-type]
                parent.open.sort()
        if node.tile.is_double:
            self._doubles -= 1
        self.end_sum = before
        return node.tile

    def _becomes_spinner(self, tile: Tile) -> bool:
        if not tile.is_double:
            return False
        if self.policy is SpinnerPolicy.EVERY_DOUBLE:
            return True
        if self.policy is SpinnerPolicy.FIRST_DOUBLE:
            return self._doubles == 0
        return False

    # -- notation --------------------------------------------------------------------

    def notation(self) -> str:
        """Placements in order, ``tile`` for the opening and ``tile@c-d:v`` after it."""
        parts = []
        for node, _ in self._order:
            if node.parent is None:
                parts.append(str(node.tile))
            else:
                parts.append(f"{node.tile}@{node.parent.tile}:{node.joined}")
        return " ".join(parts)

    @classmethod
    def from_notation(cls, text: str, policy: SpinnerPolicy = SpinnerPolicy.NONE) -> Layout:
        layout = cls(policy)
        for part in text.split():
            tile_text, _, point_text = part.partition("@")
            point = AttachmentPoint.parse(point_text) if point_text else None
            layout.place(Tile.parse(tile_text), point)
        return layout

    def __repr__(self) -> str:
        return f"Layout.from_notation({self.notation()!r}, SpinnerPolicy.{self.policy.name})"
