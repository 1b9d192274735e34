"""What the pages draw: the board as SVG geometry, tallies and scores in each game's unit.

Pure presentation built from the rules engine's state; no rule is decided here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import segno
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from matches import rules
from matches.scoring.changelog import action_from_doc, describe, describe_abandon, describe_restore
from matches.scoring.models import Change, ChangeKind, Match, ScorerGrant
from matches.scoring.selectors.play import show_decimal

UNIT = 20  # SVG units per tile half

SLOTS = list(rules.Slot)  # the order a double's slots fill: line A, line B, flanks
SLOT_INDEX = {slot: index for index, slot in enumerate(SLOTS)}

# (dx, dy) directions on the board
EAST, WEST, NORTH, SOUTH = (1, 0), (-1, 0), (0, -1), (0, 1)

PIP_SPOTS: dict[int, list[tuple[float, float]]] = {
    0: [],
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


show_score = rules.show_points  # the engine's own words for a score (halves as ½)


# -- the board -------------------------------------------------------------------------


@dataclass
class Half:
    """One unit square of a tile at (x, y), its pips in the same coordinates."""

    x: float
    y: float
    value: int
    spots: list[tuple[float, float]]
    text: bool  # values above 6 are written, not drawn

    @property
    def text_x(self) -> float:
        return self.x + 0.5

    @property
    def text_y(self) -> float:
        return self.y + 0.72


def half(x: float, y: float, value: int) -> Half:
    return Half(x, y, value, [(x + sx, y + sy) for sx, sy in PIP_SPOTS.get(value, [])],
                value > 6)


@dataclass
class TileShape:
    tile: str
    x: float
    y: float
    width: float
    height: float
    halves: list[Half]
    spinner: bool
    double: bool
    newest: bool
    divider: tuple[float, float, float, float]

    @property
    def svg(self) -> SafeString:
        """This tile's face, where it lies on the board."""
        return _board_tile_svg(self.x, self.y, self.width, self.height, self.divider,
                               tuple((h.x, h.y, h.value) for h in self.halves))


# Tiles are drawn on every tap and every poll, a dozen boards or more: as markup written
# here, not templates (a template's loop costs about ten times as much), and kept per
# process by what they show. Every value is a number: nothing needs escaping.


def _halves_svg(halves: Sequence[Half]) -> str:
    """A tile's two halves: its pips drawn or, above six, its number written. Two
    numbers are parted by a space: a 7-9's text then reads "7 9", which its tile
    button's name ("7-9") holds word for word, as WCAG's label in name asks ("79" is not
    in it)."""
    return (" " if all(h.text for h in halves) else "").join(
        f'<text x="{h.text_x}" y="{h.text_y}" class="domino-number">{h.value}</text>'
        if h.text else
        "".join(f'<circle cx="{sx}" cy="{sy}" r="0.09" class="pip"/>' for sx, sy in h.spots)
        for h in halves)


@functools.lru_cache(maxsize=4096)
def _board_tile_svg(x: float, y: float, width: float, height: float,
                    divider: tuple[float, float, float, float],
                    halves: tuple[tuple[float, float, int], ...]) -> SafeString:
    # a tile keeps its place as the board grows (the other processes' taps add tiles a
    # process has not drawn yet)
    x1, y1, x2, y2 = divider
    return SafeString(
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="0.12" '
        f'class="domino-face"/><line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" '
        f'class="domino-divider"/>{_halves_svg([half(*h) for h in halves])}')


@dataclass
class OpenEnd:
    x: float
    y: float
    point: str
    flank: bool


@dataclass
class Board:
    tiles: list[TileShape] = field(default_factory=list)
    ends: list[OpenEnd] = field(default_factory=list)
    view_box: str = "0 0 100 40"
    width: int = 320
    height: int = 120
    empty: bool = True
    ends_clockwise: list[str] = field(default_factory=list)  # "5", "6-6": scoring ends


def _perp(direction: tuple[int, int]) -> tuple[int, int]:
    dx, dy = direction
    return (-dy, dx)


@functools.cache
def tile_svg(tile: str) -> SafeString:
    """A small domino for the pickers, as SVG markup: the same for every page, so each
    process draws each tile once."""
    low, high = (int(value) for value in tile.split("-"))
    return SafeString(
        '<svg class="domino" viewBox="0 0 2 1" width="56" height="28" aria-hidden="true">'
        '<rect x="0.04" y="0.04" width="1.92" height="0.92" rx="0.12" class="domino-face"/>'
        '<line x1="1" y1="0.14" x2="1" y2="0.86" class="domino-divider"/>'
        f'{_halves_svg([half(0, 0, low), half(1, 0, high)])}</svg>')


def board(layout: rules.Layout | None) -> Board:
    """Lay the tree out on a grid: lines run straight, flanks leave a spinner crosswise."""
    result = Board()
    if layout is None or not len(layout):
        return result
    result.empty = False
    # exits[(tile, key)] = (point, direction) where a child of that end or slot starts
    exits: dict[tuple[rules.Tile, object], tuple[tuple[float, float], tuple[int, int]]] = {}
    placed = list(layout.walk())
    halves: list[tuple[int, tuple[float, float]]]  # each half's value and centre
    for index, (tile, parent, key, spinner) in enumerate(placed):
        if parent is None:
            if tile.is_double:
                rect = (-0.5, -1.0, 1.0, 2.0)
                exits[(tile, rules.Slot.LINE_A)] = ((-0.5, 0), WEST)
                exits[(tile, rules.Slot.LINE_B)] = ((0.5, 0), EAST)
                exits[(tile, rules.Slot.FLANK_A)] = ((0, -1), NORTH)
                exits[(tile, rules.Slot.FLANK_B)] = ((0, 1), SOUTH)
                halves = [(tile.low, (0, -0.5)), (tile.high, (0, 0.5))]
            else:
                rect = (-1.0, -0.5, 2.0, 1.0)
                exits[(tile, tile.low)] = ((-1, 0), WEST)
                exits[(tile, tile.high)] = ((1, 0), EAST)
                halves = [(tile.low, (-0.5, 0)), (tile.high, (0.5, 0))]
        else:
            (ex, ey), direction = exits[(parent, key)]
            dx, dy = direction
            px, py = _perp(direction)
            joined = key if isinstance(key, int) else parent.low
            if tile.is_double:
                # crosswise: one unit along the line, two across
                cx, cy = ex + dx * 0.5, ey + dy * 0.5
                rect = _rect_around(cx, cy, along=1, across=2, direction=direction)
                exits[(tile, rules.Slot.LINE_B)] = ((ex + dx, ey + dy), direction)
                exits[(tile, rules.Slot.FLANK_A)] = ((cx + px, cy + py), (px, py))
                exits[(tile, rules.Slot.FLANK_B)] = ((cx - px, cy - py), (-px, -py))
                halves = [(tile.low, (cx + px * 0.5, cy + py * 0.5)),
                          (tile.high, (cx - px * 0.5, cy - py * 0.5))]
            else:
                cx, cy = ex + dx, ey + dy
                rect = _rect_around(cx, cy, along=2, across=1, direction=direction)
                outer = tile.other(joined)
                exits[(tile, outer)] = ((ex + 2 * dx, ey + 2 * dy), direction)
                halves = [(joined, (ex + dx * 0.5, ey + dy * 0.5)),
                          (outer, (ex + dx * 1.5, ey + dy * 1.5))]
        x, y, w, h = rect
        divider = ((x + w / 2, y, x + w / 2, y + h) if w > h else (x, y + h / 2, x + w, y + h / 2))
        result.tiles.append(TileShape(
            tile=str(tile), x=x, y=y, width=w, height=h, spinner=spinner, double=tile.is_double,
            newest=index == len(placed) - 1, divider=divider,
            # each half is a unit square around its centre
            halves=[half(hx - 0.5, hy - 0.5, value) for value, (hx, hy) in halves]))
    # children per (tile, slot or end value): what is free, and which ends still score
    taken = {(parent, key) for _, parent, key, _ in placed if parent is not None}
    centres = {rules.Tile.parse(t.tile): (t.x + t.width / 2, t.y + t.height / 2)
               for t in result.tiles}
    scoring: list[tuple[tuple[float, float], str]] = []  # where each scoring end is, its words
    for tile, parent, _, spinner in placed:
        if tile.is_double:
            # a double that joined the line fills its line side A by joining
            slots = SLOTS if parent is None else SLOTS[1:]
            free = [slot for slot in slots if (tile, slot) not in taken]
            filled = 4 - len(free)
            capacity = 4 if spinner else 2
            # a double takes its line sides first, then (a spinner) its flanks: every
            # slot of the tier now open is an end the next tile may join
            tier = [slot for slot in free if slot.is_flank == (filled >= 2)
                    and SLOT_INDEX[slot] < capacity]
            for slot in tier:
                (ex, ey), _ = exits[(tile, slot)]
                result.ends.append(OpenEnd(ex, ey, str(rules.AttachmentPoint(tile, tile.low)),
                                           slot.is_flank))
            if filled < 2:  # terminal: both halves count, where the free line side is
                line_free = [slot for slot in free if not slot.is_flank]
                at = (centres[tile] if len(line_free) == 2
                      else exits[(tile, line_free[0])][0])
                scoring.append((at, f"{tile.low}-{tile.low}"))
        else:
            for value in (tile.low, tile.high):
                if (tile, value) in exits and (tile, value) not in taken:
                    (ex, ey), _ = exits[(tile, value)]
                    result.ends.append(OpenEnd(ex, ey, str(rules.AttachmentPoint(tile, value)),
                                               False))
                    scoring.append(((ex, ey), str(value)))
    # the ends in the order a player reads them round the table: clockwise from the left
    scoring.sort(key=lambda end: (math.atan2(end[0][1], end[0][0]) - math.pi) % math.tau)
    result.ends_clockwise = [words for _, words in scoring]
    xs = [t.x for t in result.tiles] + [t.x + t.width for t in result.tiles]
    ys = [t.y for t in result.tiles] + [t.y + t.height for t in result.tiles]
    pad = 0.6
    min_x, min_y = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    result.view_box = f"{min_x:g} {min_y:g} {width:g} {height:g}"
    result.width = int(width * UNIT)
    result.height = int(height * UNIT)
    return result


def _rect_around(cx: float, cy: float, *, along: float, across: float,
                 direction: tuple[int, int]) -> tuple[float, float, float, float]:
    w, h = (along, across) if direction[0] else (across, along)
    return (cx - w / 2, cy - h / 2, w, h)


# -- ends in words ----------------------------------------------------------------------


def end_label(point: rules.AttachmentPoint, *, flank: bool = False) -> str:
    """An end a tile may join, as a player names it and its button says it: "On the 4
    of 1-4", "On the double 5" (a double's end in the line), "On the side of the double
    5" (a spinner's flank). Never the notation "1-4:4"."""
    if not point.tile.is_double:
        return gettext("On the %(value)s of %(tile)s") % {"value": point.value,
                                                          "tile": str(point.tile)}
    if flank:
        return gettext("On the side of the double %(value)s") % {"value": point.value}
    return gettext("On the double %(value)s") % {"value": point.value}


def placed_words(tile: rules.Tile, at: rules.AttachmentPoint | None) -> str:
    """A placement in words: "4-4 on the 4 of 1-4", "0-5 on the double 5", "5-5 to
    open"."""
    if at is None:
        return gettext("%(tile)s to open") % {"tile": str(tile)}
    if at.tile.is_double:
        return gettext("%(tile)s on the double %(value)s") % {"tile": str(tile),
                                                              "value": at.value}
    return gettext("%(tile)s on the %(value)s of %(end)s") % {
        "tile": str(tile), "value": at.value, "end": str(at.tile)}


# -- the tally ------------------------------------------------------------------------


@dataclass
class Tally:
    """The paper tally: a stroke per 5 raw points, a big X with four small x for 50, and
    what a stroke cannot show noted apart (``apart``: the 2½ of a split's half points,
    "" when the strokes say it all)."""

    fifties: int
    strokes: int
    apart: str

    @property
    def fifty_xs(self) -> list[int]:
        return [20 * i for i in range(self.fifties)]

    @property
    def stroke_xs(self) -> list[int]:
        return [20 * self.fifties + 3 + 4 * i for i in range(self.strokes)]

    @property
    def width(self) -> int:
        return 20 * self.fifties + 4 * self.strokes + 4


def tally(raw: int | Fraction) -> Tally | None:
    if raw <= 0:
        return None
    strokes = int(raw) // 5
    rest = raw - 5 * strokes
    return Tally(strokes // 10, strokes % 10, show_score(rest) if rest else "")


def phone_name(grant: ScorerGrant) -> str:
    """A scoring phone as the scorers' list names it, in the reader's language: what
    its scorer called it beside its kind ("Ann's phone (iPhone)"), else its kind alone
    (kept in English, see :func:`matches.scoring.views.play.phone_label`)."""
    kind = gettext(grant.label)
    if not grant.name:
        return kind
    return gettext("%(name)s (%(kind)s)") % {"name": grant.name, "kind": kind}


def qr_svg(url: str, *, title: str | None = None) -> str:
    """A QR code of ``url`` as inline SVG markup (segno), sized by the page's CSS, named
    ``title`` (by default, as the scorer's link)."""
    qr = segno.make(url, error="m")
    return qr.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True,
                         title=title or gettext("QR code of the scorer's link"))


def sparkline(values: list[float], *, width: int = 300, height: int = 80,
              pad: int = 6) -> str:
    """SVG polyline points for ``values`` left to right, scaled into the box; none for
    fewer than two values (one point draws nothing: the chart would be an empty box)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    inner = height - 2 * pad
    return " ".join(f"{pad + i * step:.1f},{height - pad - (v - low) / span * inner:.1f}"
                    for i, v in enumerate(values))


# changes that hold one engine action (an undo: the action it took back)
_ACTION_CHANGES = frozenset({ChangeKind.START, ChangeKind.PLAY, ChangeKind.DRAW,
                             ChangeKind.PASS, ChangeKind.CALL, ChangeKind.SETTLE,
                             ChangeKind.UNDO})


def change_words(change: Change, names: Sequence[str]) -> str:
    """What ``change`` did, in the reader's language: said again from the action it
    holds (a change is written in its scorer's language, and read in any). A rename
    says names only; an abandon or a restore logged before their actions kept what
    this needs is shown as it was written."""
    if change.kind == ChangeKind.IMPORT:
        return gettext("the match record")
    if change.kind == ChangeKind.ABANDON and "scores" in change.action:
        return describe_abandon(change.action["scores"])
    if change.kind == ChangeKind.RESTORE and "resumed" in change.action:
        assert change.restored_to is not None  # a restore names its version (constraint)
        return describe_restore(change.restored_to, resumed=change.action["resumed"])
    if change.kind not in _ACTION_CHANGES:
        return change.description
    words = describe(action_from_doc(change.action), names)
    called = getattr(change, "called_as", None)  # selectors.change_history's annotations
    if called is not None:
        words = gettext("%(what)s (called %(called)s; the rules give %(points)s)") % {
            "what": words, "called": show_decimal(called),
            "points": show_decimal(getattr(change, "called_points", None))}
    return words


def winner_names(match: Match) -> str:
    """The players of the sides that won ``match`` as the result counts, from its seats
    and its sides read by ``selectors.outcome.counted_results`` (which marks them)."""
    won = {side.pk for side in match.sides.all() if side.won}  # type: ignore[attr-defined]
    return " & ".join(seat.name for seat in match.seats.all() if seat.side_id in won)
