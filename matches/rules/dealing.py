"""Dealing pip totals jointly: whether one deal of the unseen tiles gives every seat the
pip total it declared (a settlement by pips), searched within a budget of steps.

>>> by_value = [0] * 13; by_value[12] = 1  # the unseen tiles: the one 6-6 (12 pips)
>>> dealable(by_value, [(1, 12), (1, 12)], DEAL_BUDGET)  # two seats cannot both hold it
False
>>> dealable(by_value, [(1, 12)], DEAL_BUDGET)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

# -- dealing pip totals jointly ------------------------------------------------------
#
# Pip totals that are each possible alone may still be impossible together: two seats
# cannot both hold the one 12-12. `dealable` looks for one deal of the unseen tiles that
# gives every seat its total (and its tile count, where the round tracked it). Only the
# pip values matter, not which tiles, so the unseen tiles are a count per value
# (`avail[v]`: how many are worth v pips) and a seat takes a multiset of values. The tiles
# no seat takes (the boneyard, or tiles never dealt) are one more "seat", the rest: its
# count and total are what the seats leave, so every deal is an exact partition and the
# last seat left takes exactly what remains.
#
# The search is depth first, seat by seat, always on the seat with the least room (the
# one closest to the least or the most its count can hold), taking its values from the
# highest down. It prunes with bounds: what the lower values can still give the seat,
# and what the other seats need together (those with the most pips a tile compete for
# the big tiles, those with the fewest for the small ones); and it remembers the states
# (tiles left, seats left) that failed. A check runs inside a web request, and the
# problem is hard in general (think of totals that clash only modulo 3), so the search
# counts its steps: after `DEAL_BUDGET` it gives up and answers None, and the caller
# accepts the totals, each of which passed alone: it never refuses what may be a real
# deal. A count rather than a clock, so that a record replays the same on any machine
# and on either build. Measured (November 2026): real deals and typos in them (one total
# off, two swapped or reversed, one wild; every game, set and table size, tracked and
# called; 120,000 of them) took at most about 2,500 steps, the refused ones under 1,200,
# and none ran out; a step costs about 2 µs in plain Python and 0.4 µs compiled, so the
# hopeless inputs built to exhaust the budget take some 10 ms and 2 ms.

AT_LEAST_ONE: Final = -1  # a seat's count is unknown (a called round): one tile or more
_ANY: Final = -2  # the rest of a called round: any number of tiles, none included
DEAL_BUDGET: Final = 5_000  # steps of the search; a step is about one call of `take`


def dealable(avail: list[int], needs: Sequence[tuple[int, int]], budget: int) -> bool | None:
    """Whether the tiles (``avail[v]`` of them worth v pips) can be dealt to the seats.

    Why: totals that are each possible alone can still clash (two seats cannot both
    hold the one 12-12), so a settlement by pips needs one deal that serves them all.
    ``needs`` holds each seat's (tile count, pip total); the count is ``AT_LEAST_ONE``
    where it is unknown. Each tile goes to one seat at most. None: the search ran out of
    its ``budget`` of steps before it could tell.
    """
    tiles = sum(avail)
    pips = sum(value * count for value, count in enumerate(avail))
    held = sum(count for count, _ in needs)
    rest = pips - sum(total for _, total in needs)
    counted = all(count >= 0 for count, _ in needs)
    if rest < 0 or counted and held > tiles:
        return False
    seats = sorted([*needs, (tiles - held if counted else _ANY, rest)])
    return _Dealer(list(avail), budget).place(tuple(seats))


class _Left:
    """The tiles left when a seat starts to take its own, summed up for the bounds.

    ``low[j]`` and ``high[j]``: the j smallest and the j largest together; ``at_least[v]``:
    how many are worth v or more. ``rich`` and ``poor``: the other seats' needs as
    growing groups (tiles, pips), from the most pips a tile down and from the fewest up.
    """

    def __init__(self, avail: list[int]) -> None:
        values: list[int] = []
        for value, count in enumerate(avail):
            values.extend([value] * count)
        tiles = len(values)
        self.odd = sum(avail[1::2])  # tiles worth odd pips
        self.tiles = tiles
        self.low = [0] * (tiles + 1)
        self.high = [0] * (tiles + 1)
        for j in range(tiles):
            self.low[j + 1] = self.low[j] + values[j]
            self.high[j + 1] = self.high[j] + values[tiles - 1 - j]
        self.pips = self.low[tiles]
        self.at_least = [0] * (len(avail) + 1)
        for value in range(len(avail) - 1, -1, -1):
            self.at_least[value] = self.at_least[value + 1] + avail[value]
        self.rich: list[tuple[int, int]] = []
        self.poor: list[tuple[int, int]] = []
        self.total = 0  # the pips of the seat taking its tiles now

    def fit(self, count: int, total: int) -> bool:
        """Whether one seat's need fits the tiles left, on its own."""
        if count >= 0:
            return count <= self.tiles and self.low[count] <= total <= self.high[count]
        if count == AT_LEAST_ONE:
            return self.tiles > 0 and self.low[1] <= total <= self.pips
        return total <= self.pips

    def groups_fit(self, rich: list[tuple[int, int]], poor: list[tuple[int, int]],
                   taken: int, pips: int) -> bool:
        """Whether the groups still fit once ``taken`` tiles worth ``pips`` are gone.

        Those tiles and the best k of what is left are k + taken of these tiles: at
        most ``high[k + taken]``, at least ``low[k + taken]``, together.
        """
        for tiles, total in rich:
            if tiles + taken > self.tiles or self.high[tiles + taken] - pips < total:
                return False
        for tiles, total in poor:
            if tiles + taken > self.tiles or max(self.low[tiles],
                                                 self.low[tiles + taken] - pips) > total:
                return False
        return True

    def room(self, count: int, total: int) -> int:
        """How far a seat's total is from the least or the most it could hold."""
        if count >= 0:
            return min(total - self.low[count], self.high[count] - total)
        return min(total, self.pips - total)


def _groups(seats: Sequence[tuple[int, int]], rich: bool) -> list[tuple[int, int]]:
    """The counted seats as growing groups (tiles, pips), the most pips a tile first if
    ``rich``, else the fewest: the groups that compete hardest for the big or small tiles."""
    order = sorted([(total / count, count, total) for count, total in seats if count > 0],
                   reverse=rich)
    groups: list[tuple[int, int]] = []
    tiles = pips = 0
    for _, count, total in order:
        tiles += count
        pips += total
        groups.append((tiles, pips))
    return groups


def _parities_fit(odd: int, tiles: int, seats: Sequence[tuple[int, int]]) -> bool:
    """Whether the ``odd`` tiles worth odd pips (of ``tiles``) can be shared out: an odd
    total needs an odd number of them, an even total an even number, and every one goes
    to some seat."""
    even = tiles - odd
    least = most = 0  # the odd tiles the seats need at least, and can take at most
    for count, total in seats:
        parity = total % 2
        fewest = max(parity, count - even)  # a seat of unknown count: count < 0
        fewest += (fewest - parity) % 2
        top = min(count, odd) if count >= 0 else odd
        top -= (top - parity) % 2
        if fewest > top:
            return False
        least += fewest
        most += top
    return least <= odd <= most


class _Dealer:
    """One search of `dealable`: the tiles left, the steps left, the failed states."""

    def __init__(self, avail: list[int], budget: int) -> None:
        self.avail = avail
        self.steps = budget
        self.failed: set[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = set()

    def place(self, seats: tuple[tuple[int, int], ...]) -> bool | None:
        """Deal the tiles left to ``seats`` (sorted (count, total) pairs) exactly."""
        key = (tuple(self.avail), seats)
        if key in self.failed:
            return False
        found = self.deal(seats)
        if found is False:
            self.failed.add(key)
        return found

    def deal(self, seats: tuple[tuple[int, int], ...]) -> bool | None:
        """`place` without the memory: check the bounds, then let the tightest seat take."""
        avail = self.avail
        left = _Left(avail)
        # summing up the tiles and the seats costs as much as some tens of `take`
        self.steps -= 1 + left.tiles // 3 + 2 * len(seats)
        if self.steps < 0:
            return None
        best = -1
        room = 0
        for index, (count, total) in enumerate(seats):
            if not left.fit(count, total):
                return False
            slack = left.room(count, total)
            if best < 0 or slack < room:
                best, room = index, slack
        if len(seats) == 1:  # the last seat takes what is left (the totals add up to it)
            count, total = seats[0]
            return total == left.pips and (count == left.tiles or count < 0)
        # groups of seats: those with the most pips a tile, and the fewest, together
        if not (left.groups_fit(_groups(seats, True), _groups(seats, False), 0, 0)
                and _parities_fit(left.odd, left.tiles, seats)):
            return False
        # seats of unknown count take one tile each at least: the j smallest totals
        # together need the j smallest tiles at least
        smallest = sorted([total for count, total in seats if count == AT_LEAST_ONE])
        if len(smallest) > left.tiles:
            return False
        pips = 0
        for j, total in enumerate(smallest):
            pips += total
            if pips < left.low[j + 1]:
                return False
        count, total = seats[best]
        others = seats[:best] + seats[best + 1:]
        if len(others) > 1:  # one other seat only: it takes what this one leaves
            left.rich = _groups(others, True)
            left.poor = _groups(others, False)
            left.total = total
        # a seat with more pips a tile than the tiles left tries the fewest big tiles
        # first, leaving the big ones to the others; one with fewer, the most
        sparing = count > 0 and total * left.tiles > left.pips * count
        return self.take(count, total, count if count >= 0 else 0, len(avail) - 1, sparing,
                         others, left)

    def take(self, count: int, total: int, left: int, value: int, sparing: bool,
             seats: tuple[tuple[int, int], ...], tiles: _Left) -> bool | None:
        """Give one seat ``total`` more pips in tiles worth ``value`` or less, then go on.

        ``count`` is the seat's kind (a tile count, ``AT_LEAST_ONE`` or ``_ANY``); for a
        counted seat ``left`` is how many tiles it still takes, otherwise how many it took.
        ``tiles`` describes the tiles as they were before this seat took any: the values
        below ``value`` are still all there.
        """
        self.steps -= 1
        if self.steps < 0:
            return None
        avail = self.avail
        counted = count >= 0
        if counted and left == 0:
            return False if total else self.place(seats)
        if not counted and total == 0 and (left > 0 or count == _ANY):
            # done; the 0-0 could come too, but it is as well left to the others
            return self.place(seats)
        value = min(value, total)  # a tile worth more than what is left cannot come
        while value > 0 and not avail[value]:
            value -= 1
        if value < 0:
            return False
        most = min(avail[value], total // value if value else avail[value])
        if counted:
            most = min(most, left)
        below = tiles.at_least[value]  # tiles worth `value` or more: the lower ones after
        high = tiles.high
        first, stop, step = (0, most + 1, 1) if sparing else (most, -1, -1)
        for taken in range(first, stop, step):
            more = total - taken * value
            if counted:
                after = left - taken  # tiles still to take, all worth less than `value`
                if after > tiles.tiles - below or not tiles.low[after] <= more <= (
                        high[below + after] - high[below]):
                    continue
            else:
                after = left + taken
                if more > high[tiles.tiles] - high[below]:  # all the lower tiles together
                    continue
            avail[value] -= taken
            if taken and not tiles.groups_fit(
                    tiles.rich, tiles.poor, count - after if counted else after,
                    tiles.total - more):
                found: bool | None = False  # the others could no longer be served
            else:
                found = self.take(count, more, after, value - 1, sparing, seats, tiles)
            avail[value] += taken
            if found is not False:
                return found
        return False
