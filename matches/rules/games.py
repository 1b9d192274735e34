"""The three games as data plus a few hooks: spinners, points, settlement, targets.

>>> ALL_FIVES.placement_points(15), FIVE_UP.placement_points(15)
(15, 3)
>>> FIVES_AND_THREES.placement_points(15, divisors=(3, 5)), FIVES_AND_THREES.placement_points(
...     21, divisors=(3, 5, 7, 11, 13))
(8, 10)
>>> [round_to_five(p) for p in (0, 1, 2, 3, 4, 5, 12, 13)]
[0, 0, 0, 5, 5, 5, 10, 15]
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any, Final

from .errors import ImpossibleScore, Message, OptionError
from .layout import SpinnerPolicy
from .tiles import DOUBLE_NINE, DOUBLE_SIX, DOUBLE_TWELVE, TileSet

ZERO: Final = 0  # scores stay ints; a three-player split brings in a Fraction

DEFAULT_DIVISORS: Final = (3, 5)
# No table plays to more (61 to 250 are usual; tests play "endless" matches to 10**6); a
# bound keeps scores far inside a database column, so a record asking for 10**29 is
# refused here rather than by the database. The new-match form asks for far less.
MAX_TARGET: Final = 1_000_000
ADVANCED_DIVISORS: Final = (3, 5, 7, 11, 13)
DEALS: Final = ("full", "short")  # Fives and Threes: the first is the default

# RULES.md §4.3: tiles dealt to each player, by deal, set and player count.
FIVES_AND_THREES_DEAL: Final[dict[str, dict[str, dict[int, int]]]] = {
    "full": {
        "double-six": {2: 14, 3: 9, 4: 7, 5: 5},
        "double-nine": {2: 16, 3: 16, 4: 13, 5: 11, 6: 8, 7: 7, 8: 6, 9: 6, 10: 5, 11: 5},
        "double-twelve": {2: 16, 3: 16, 4: 16, 5: 16, 6: 15, 7: 13, 8: 11, 9: 10, 10: 9,
                          11: 8, 12: 7},
    },
    "short": {
        "double-six": {2: 5, 3: 5, 4: 7, 5: 5},
        "double-nine": {2: 10, 3: 10, 4: 10, 5: 10, 6: 8, 7: 7, 8: 6, 9: 6, 10: 5, 11: 5},
        "double-twelve": {2: 10, 3: 10, 4: 10, 5: 10, 6: 10, 7: 10, 8: 10, 9: 10, 10: 9,
                          11: 8, 12: 7},
    },
}


def round_to_five(pips: int) -> int:
    """Nearest multiple of 5: remainder 1–2 rounds down, 3–4 up (RULES.md §4.1)."""
    remainder = pips % 5
    return pips - remainder if remainder <= 2 else pips + 5 - remainder


class Unit(enum.Enum):
    RAW = "raw points"
    DISPLAY = "display points"
    POINTS = "points"


@dataclass(frozen=True)
class MatchOptions:
    """Every option of a match, defaults filled in. ``given`` keeps what was asked for."""

    target: int
    tile_set: TileSet
    hand_size: int
    drawing: bool
    deal: str = DEALS[0]
    divisors: tuple[int, ...] = DEFAULT_DIVISORS
    immediate_end: bool = True
    given: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Settlement:
    """Per-side changes after a round, and the steps that led there.

    The steps are words for the table, written only when shown: a replay settles
    every round and reads none of them.
    """

    awards: tuple[Fraction | int, ...]
    explain: Callable[[], list[Message]] = field(compare=False, repr=False)
    winner: int | None = None  # the round's winning side, where the game has one

    @cached_property
    def messages(self) -> tuple[Message, ...]:
        """The steps as codes and parameters, for the app to say in the reader's language."""
        return tuple(self.explain())

    @property
    def steps(self) -> tuple[str, ...]:
        """The steps in English."""
        return tuple(str(message) for message in self.messages)


class Game:
    """What the three games share; subclasses override the seams."""

    slug: str = ""
    name: str = ""
    unit: Unit = Unit.RAW
    policy: SpinnerPolicy = SpinnerPolicy.NONE
    players: tuple[int, int] = (2, 4)
    partnerships_at: int | None = 4  # player count that plays in two partnerships
    max_called_ends: int | None = None
    starter_follows_finisher = True
    starter_holds_highest_double = False  # else a draw of lots, when no finisher starts
    going_out_bonus = 0
    # whether remaining tiles score at the settlement; where they do not, a round is
    # settled as it ends and its hands or pips are optional (match-record.md, Fine points)
    counts_remaining = True
    own_options: frozenset[str] = frozenset()  # options beyond target and hand_size
    # the sets it is played with, its default first; another needs "set" in own_options
    tile_sets: tuple[TileSet, ...] = (DOUBLE_SIX,)

    def raw_points(self, score: Fraction | int) -> Fraction | int:
        """A score as pips counted at the table: one display point (Five Up) stands for
        5 raw points (RULES.md §4.2); other games score raw points already.

        >>> FIVE_UP.raw_points(61), ALL_FIVES.raw_points(150)
        (305, 150)"""
        return score * 5 if self.unit is Unit.DISPLAY else score

    def called_ends_limit(self, tile_set: TileSet) -> int:
        """The most scoring ends a called placement can name: the game's own limit, or,
        where every double is a spinner (Five Up), the line's two ends and two flanks
        for each double of the set.

        >>> from .tiles import DOUBLE_SIX
        >>> FIVE_UP.called_ends_limit(DOUBLE_SIX), ALL_FIVES.called_ends_limit(DOUBLE_SIX)
        (16, 4)
        """
        if self.max_called_ends is not None:
            return self.max_called_ends
        return 2 + 2 * (tile_set.top + 1)

    # -- seats and sides -------------------------------------------------------------

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Seats of each side: partners opposite (0+2, 1+3) with four in two partnerships."""
        if players == self.partnerships_at:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(players))

    # -- options ---------------------------------------------------------------------

    def default_target(self, players: int) -> int:
        raise NotImplementedError

    def default_hand_size(self, players: int, tile_set: TileSet, deal: str) -> int:
        raise NotImplementedError

    def check_players(self, players: int, tile_set: TileSet) -> None:
        low, high = self.players
        if not low <= players <= high:
            raise OptionError.of("players_range", game=self.slug, low=low, high=high,
                                 players=players)

    def options(self, players: int, given: Mapping[str, Any] | None = None) -> MatchOptions:
        """Validate ``given`` (a record's ``options``) and fill in the defaults."""
        given = dict(given or {})
        for key in given:
            if key not in ("target", "hand_size") and key not in self.own_options:
                raise OptionError.of("option_not_for_game", option=repr(key), game=self.slug)
        tile_set = self.tile_sets[0]
        if "set" in given:
            sets = {choice.slug: choice for choice in self.tile_sets}
            if type(given["set"]) is not str or given["set"] not in sets:
                raise OptionError.of("option_set", option="set", choices=", ".join(sets),
                                     value=repr(given["set"]))
            tile_set = sets[given["set"]]
        deal = given.get("deal", DEALS[0])
        if type(deal) is not str or deal not in DEALS:
            raise OptionError.of("option_deal", option="deal", value=repr(deal))
        self.check_players(players, tile_set)
        for flag in ("drawing", "immediate_end"):
            if flag in given and type(given[flag]) is not bool:
                raise OptionError.of("option_flag", option=flag, value=repr(given[flag]))
        divisors = given.get("divisors", list(DEFAULT_DIVISORS))
        if (not isinstance(divisors, list) or not divisors
                or any(type(d) is not int or d < 2 for d in divisors)
                or len(set(divisors)) != len(divisors)):
            raise OptionError.of("option_divisors", option="divisors", value=repr(divisors))
        for key in ("target", "hand_size"):
            if key in given and (type(given[key]) is not int or given[key] < 1):
                raise OptionError.of("option_positive", option=key, value=repr(given[key]))
        if "target" in given and given["target"] > MAX_TARGET:
            raise OptionError.of("option_target_max", option="target", most=MAX_TARGET,
                                 value=repr(given["target"]))
        hand_size = given.get("hand_size") or self.default_hand_size(players, tile_set, deal)
        if players * hand_size > tile_set.size:
            raise OptionError.of("option_hand_size", option="hand_size", players=players,
                                 tiles=tile_set.size, value=str(hand_size))
        return MatchOptions(
            target=given.get("target") or self.default_target(players),
            tile_set=tile_set,
            hand_size=hand_size,
            drawing=self.drawing(given),
            deal=deal,
            divisors=tuple(divisors),
            immediate_end=given.get("immediate_end", True),
            given=given,
        )

    def drawing(self, given: Mapping[str, Any]) -> bool:
        return True

    # -- scoring ---------------------------------------------------------------------

    def placement_points(self, end_sum: int, divisors: Sequence[int] = DEFAULT_DIVISORS) -> int:
        """Points for a placement leaving ``end_sum``, in the game's unit."""
        raise NotImplementedError

    def settle(self, options: MatchOptions, players: int, pips: Sequence[int] | None,
               finisher: int | None, labels: Sequence[str] | None = None) -> Settlement:
        """The round's settlement from each seat's remaining pips.

        ``pips`` is None only where remaining tiles score nothing (``counts_remaining``
        is False) and the table gave no count.
        """
        raise NotImplementedError

    def ends_on_placement(self, options: MatchOptions) -> bool:
        """Whether reaching the target ends the match at once, mid-round."""
        return True

    def refuses_overshoot(self, options: MatchOptions) -> bool:
        return False

    # -- final scores ----------------------------------------------------------------

    # Between two sides every award is a multiple of this (All Fives: 5; its halves come
    # only from a three-player split).
    award_step: int = 1

    def largest_award(self, options: MatchOptions) -> int | None:
        """The most one award can give a side, where that bounds how far past the target
        a game can end (All Fives); None where it does not."""
        return None

    def check_final_score(self, options: MatchOptions, score: tuple[int, int]) -> None:
        """Refuse (:class:`ImpossibleScore`) a final score, the two sides' in either
        order, that no game between two sides under ``options`` can end with.

        The winner is at or past the target and ahead (tied leaders play on). Where the
        game ends the moment a side reaches the target (All Fives; Fives and Threes
        with immediate end), the other side is short of it; where an award may not pass
        the target (Fives and Threes with immediate end), the winner is on it exactly;
        where one award is bounded (All Fives), the winner is at most one award past
        the highest score below the target. Where the target is checked after a round
        (Five Up; Fives and Threes without immediate end), both sides may be past it
        and level leaders play on: any winning score is possible.

        >>> options = FIVES_AND_THREES.options(2)
        >>> FIVES_AND_THREES.check_final_score(options, (58, 61))
        >>> FIVES_AND_THREES.check_final_score(options, (64, 20))
        Traceback (most recent call last):
        ...
        matches.rules.errors.ImpossibleScore: fives-and-threes is won exactly on the target \
61 (an award that would pass it does not count), so 64 is past it
        >>> FIVE_UP.check_final_score(FIVE_UP.options(2), (70, 64))   # both past 61
        >>> ALL_FIVES.check_final_score(ALL_FIVES.options(2), (415, 40))
        >>> ALL_FIVES.check_final_score(ALL_FIVES.options(2), (420, 40))
        Traceback (most recent call last):
        ...
        matches.rules.errors.ImpossibleScore: 420 is out of reach: all-fives ends with the \
award that takes a side from at most 245 to the target 250, and one award gives at most 170
        """
        shown = f"{score[0]}-{score[1]}"
        low, high = sorted(score)
        target = options.target
        if low == high:
            raise ImpossibleScore.of("final_level", score=shown)
        if high < target:
            raise ImpossibleScore.of("final_short_of_target", target=target, score=shown)
        for points in score:
            if points % self.award_step:
                raise ImpossibleScore.of("final_not_fives", game=self.slug, points=points)
        if not self.ends_on_placement(options):
            return
        if low >= target:
            raise ImpossibleScore.of("final_both_at_target", target=target, game=self.slug,
                                     score=shown)
        if self.refuses_overshoot(options) and high > target:
            raise ImpossibleScore.of("final_past_target", game=self.slug, target=target,
                                     points=high)
        award = self.largest_award(options)
        before = (target - 1) // self.award_step * self.award_step  # the most short of it
        if award is not None and high > before + award:
            raise ImpossibleScore.of("final_out_of_reach", points=high, game=self.slug,
                                     before=before, target=target, award=award)

    def __repr__(self) -> str:
        return f"<Game {self.slug}>"


class AllFives(Game):
    slug = "all-fives"
    name = "All Fives"
    unit = Unit.RAW
    policy = SpinnerPolicy.FIRST_DOUBLE
    max_called_ends: int | None = 4

    def default_target(self, players: int) -> int:
        return 250 if players == 2 else 200

    def default_hand_size(self, players: int, tile_set: TileSet, deal: str) -> int:
        return {2: 9, 3: 7, 4: 5}[players]

    def placement_points(self, end_sum: int, divisors: Sequence[int] = DEFAULT_DIVISORS) -> int:
        return end_sum if end_sum > 0 and end_sum % 5 == 0 else 0

    award_step = 5  # placements score multiples of 5, remainder awards are rounded to them

    def largest_award(self, options: MatchOptions) -> int | None:
        """A placement scores at most 35 (RULES.md §4.1); a remainder award at most all
        the set's pips, rounded: 170 in double-six."""
        return max(35, round_to_five(options.tile_set.pips))

    def settle(self, options: MatchOptions, players: int, pips: Sequence[int] | None,
               finisher: int | None, labels: Sequence[str] | None = None) -> Settlement:
        assert pips is not None  # the match asks every round of a counting game for its count
        sides = self.sides(players)
        side_pips = [sum(pips[seat] for seat in seats) for seats in sides]
        awards: list[Fraction | int] = [ZERO] * len(sides)
        winner: int | None = None
        lows: list[int] = []
        third: int | None = None  # three players, two tie for lowest: split the third hand
        if finisher is not None:
            winner = next(i for i, seats in enumerate(sides) if finisher in seats)
        else:
            lowest = min(side_pips)
            lows = [i for i, total in enumerate(side_pips) if total == lowest]
            if len(lows) == 1:
                winner = lows[0]
            elif len(lows) == 2 and len(sides) == 3:
                third = next(i for i in range(3) if i not in lows)
                for i in lows:
                    awards[i] = Fraction(round_to_five(side_pips[third]), 2)
            # otherwise equal lowest totals: no remainder award
        opponents = sum(total for i, total in enumerate(side_pips) if i != winner)
        if winner is not None:
            awards[winner] = round_to_five(opponents)

        def explain() -> list[Message]:
            names = [_side_name(seats, labels) for seats in sides]
            # a partnership ("Ann + Cy") takes the plural verb
            pair = winner is not None and len(sides[winner]) > 1
            steps = []
            for name, seats, total in zip(names, sides, side_pips, strict=True):
                shown = " + ".join(str(pips[seat]) for seat in seats)
                steps.append(Message("step_pips_sum", side=name, shown=shown, total=total)
                             if len(seats) > 1 else Message("step_pips", side=name, total=total))
            if finisher is not None and winner is not None and len(sides[winner]) > 1:
                # a partnership: one player went out, the pair wins
                steps.append(Message("step_partner_went_out", side=names[winner],
                                     seat=_side_name((finisher,), labels)))
            elif finisher is not None and winner is not None:
                steps.append(Message("step_went_out", side=names[winner]))
            elif winner is not None:
                steps.append(Message("step_blocked_lowest_pair" if pair
                                     else "step_blocked_lowest", side=names[winner]))
            elif third is not None:
                steps.append(Message("step_blocked_tie", first=names[lows[0]],
                                     second=names[lows[1]]))
                steps.append(_rounding_step(side_pips[third], round_to_five(side_pips[third])))
                steps.append(Message("step_split", points=show_points(awards[lows[0]])))
            else:
                steps.append(Message("step_no_award"))
            if winner is not None:
                steps.append(Message("step_opponents_pips", pips=opponents))
                steps.append(_rounding_step(opponents, round_to_five(opponents)))
                steps.append(Message("step_scores_pair" if pair else "step_scores",
                                     side=names[winner], points=str(awards[winner])))
            return steps

        return Settlement(tuple(awards), explain, winner)


class FiveUp(Game):
    slug = "five-up"
    name = "Five Up"
    unit = Unit.DISPLAY
    policy = SpinnerPolicy.EVERY_DOUBLE

    def default_target(self, players: int) -> int:
        return 61

    def default_hand_size(self, players: int, tile_set: TileSet, deal: str) -> int:
        return 5

    def placement_points(self, end_sum: int, divisors: Sequence[int] = DEFAULT_DIVISORS) -> int:
        return end_sum // 5 if end_sum > 0 and end_sum % 5 == 0 else 0

    def settle(self, options: MatchOptions, players: int, pips: Sequence[int] | None,
               finisher: int | None, labels: Sequence[str] | None = None) -> Settlement:
        assert pips is not None  # the match asks every round of a counting game for its count
        sides = self.sides(players)
        awards: list[Fraction | int] = [ZERO] * len(sides)
        # each hand is rounded on its own, partners included: never add before rounding
        for side, seats in enumerate(sides):
            for seat in seats:
                awards[side] -= round_to_five(pips[seat]) // 5

        def explain() -> list[Message]:
            steps = []
            for seat in range(players):
                held = pips[seat]
                rounded = round_to_five(held)
                remainder = held % 5
                kind = ("multiple" if remainder == 0 else "down" if remainder <= 2 else "up")
                code = f"step_deduct_{kind}" if rounded else f"step_no_deduction_{kind}"
                side = _side_name((seat,), labels)
                if seat == finisher and held == 0:  # said as such, not as "0 pips"
                    steps.append(Message("step_out_no_deduction", side=side))
                    continue
                if remainder == 0:
                    message = (Message(code, side=side, pips=held, cost=rounded // 5) if rounded
                               else Message(code, side=side, pips=held))
                elif rounded:
                    message = Message(code, side=side, pips=held, rounded=rounded,
                                      remainder=remainder, cost=rounded // 5)
                else:
                    message = Message(code, side=side, pips=held, rounded=rounded,
                                      remainder=remainder)
                steps.append(message)
            return steps

        return Settlement(tuple(awards), explain)

    def ends_on_placement(self, options: MatchOptions) -> bool:
        return False


class FivesAndThrees(Game):
    slug = "fives-and-threes"
    name = "Fives and Threes"
    unit = Unit.POINTS
    policy = SpinnerPolicy.NONE
    players = (2, 12)
    partnerships_at: int | None = None
    max_called_ends: int | None = 2
    starter_follows_finisher = False  # the highest double starts each round
    starter_holds_highest_double = True
    going_out_bonus = 1
    counts_remaining = False  # RULES.md §4.3: remaining tiles score nothing
    own_options = frozenset({"set", "deal", "drawing", "divisors", "immediate_end"})
    tile_sets: tuple[TileSet, ...] = (DOUBLE_SIX, DOUBLE_NINE, DOUBLE_TWELVE)

    def default_target(self, players: int) -> int:
        return 61

    def check_players(self, players: int, tile_set: TileSet) -> None:
        table = FIVES_AND_THREES_DEAL["full"][tile_set.slug]
        low, high = min(table), max(table)
        if not low <= players <= high:
            raise OptionError.of("players_range_set", game=self.slug, set=tile_set.slug, low=low,
                                 high=high, players=players)

    def default_hand_size(self, players: int, tile_set: TileSet, deal: str) -> int:
        return FIVES_AND_THREES_DEAL[deal][tile_set.slug][players]

    def drawing(self, given: Mapping[str, Any]) -> bool:
        return bool(given.get("drawing", False))

    def placement_points(self, end_sum: int, divisors: Sequence[int] = DEFAULT_DIVISORS) -> int:
        if end_sum <= 0:
            return 0
        return sum(end_sum // d for d in divisors if end_sum % d == 0)

    def settle(self, options: MatchOptions, players: int, pips: Sequence[int] | None,
               finisher: int | None, labels: Sequence[str] | None = None) -> Settlement:
        return Settlement((ZERO,) * players, lambda: [Message("step_nothing_remaining")])

    def ends_on_placement(self, options: MatchOptions) -> bool:
        return options.immediate_end

    def refuses_overshoot(self, options: MatchOptions) -> bool:
        return options.immediate_end


ALL_FIVES: Final = AllFives()
FIVE_UP: Final = FiveUp()
FIVES_AND_THREES: Final = FivesAndThrees()
GAMES: Final[dict[str, Game]] = {g.slug: g for g in (ALL_FIVES, FIVE_UP, FIVES_AND_THREES)}


def game_for(slug: object) -> Game:
    try:
        return GAMES[slug]  # type: ignore[index]
    except (KeyError, TypeError):
        raise OptionError.of("unknown_game", value=repr(slug),
                             choices=", ".join(GAMES)) from None


def _side_name(seats: Sequence[int], labels: Sequence[str] | None = None) -> str:
    return " + ".join(labels[seat] if labels else f"seat {seat}" for seat in seats)


def show_points(value: Fraction | int) -> str:
    """A score as the table writes it: halves as ½ (never a float), minus as −.

    >>> show_points(Fraction(5, 2)), show_points(Fraction(-1, 2)), show_points(-4)
    ('2½', '−½', '−4')
    """
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value)).replace("-", "−")
    sign = "−" if value < 0 else ""
    whole = abs(value.numerator) // 2  # scores are whole or half: the denominator is 2
    return f"{sign}{whole}½" if whole else f"{sign}½"


def _rounding_step(pips: int, rounded: int) -> Message:
    remainder = pips % 5
    if remainder == 0:
        return Message("step_multiple", pips=pips)
    code = "step_rounds_down" if remainder <= 2 else "step_rounds_up"
    return Message(code, pips=pips, rounded=rounded, remainder=remainder)
