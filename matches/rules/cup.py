"""Knockout cups: the draw, the bracket, a level tie, and what a correction affects.

>>> cup = draw(["Ann", "Bob", "Cy", "Dee", "Eve"], CupFormat(method=DrawMethod.SEEDED),
...            seeds=["Ann", "Bob"], seed=7)
>>> for tie in bracket(cup, {}).rounds[0]:
...     print(tie)
tie 1 of round 1: Ann, a bye
tie 2 of round 1: Eve v Cy
tie 3 of round 1: Bob, a bye
tie 4 of round 1: Dee, a bye
>>> results = {TieKey(1, 2): TieResult(games=((61, 40), (12, 61), (61, 55)))}
>>> after = bracket(cup, results)
>>> print(after.tie(TieKey(2, 1)), "|", after.round_name(2))
tie 1 of round 2: Ann v Eve | Semi-finals
>>> bracket(cup, {TieKey(3, 1): TieResult(walkover=Side.HOME)})
Traceback (most recent call last):
...
matches.rules.errors.CupError: tie 1 of round 3: neither side is known yet

A cup is drawn once (:func:`draw`) into a :class:`Cup`: its first round's pairs and,
for each later round drawn, which ties of the round before feed each tie. Everything
else (who is in which tie, who won, who went through) is worked out from the results so
far by :func:`bracket`, so a corrected result moves its new winner on by itself; the
caller stores the cup and the results, never a derived bracket.

The draw rounds the entrants up to the next power of two with byes, placed as a seeded
draw places them (:func:`slot_ranks`): never a bye against a bye, and the byes go to the
top of the order. A random draw is reproducible: the same seed and entrants always give
the same draw (:func:`shuffled`), so a club can witness it from the seed on the page.
The plate, if the cup has one, takes the loser of each entrant's first tie played (a
bye is not one: whoever had a bye and loses in round 2 goes into the plate); it is drawn
at random once all of them are known (:func:`draw_plate`).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Final

from .errors import CupError, Message, shown
from .fixtures import checked_entrants
from .league import Night, Side, game_winner, games_won, score_pair

# for each tie of a round after the first, the positions (from 1) of the two ties of the
# round before whose winners meet in it, home first
Feeders = tuple[tuple[int, int], ...]
MIN_ENTRANTS: Final = 2


# -- the format ----------------------------------------------------------------------


class DrawMethod(enum.Enum):
    """How the first round is drawn."""

    RANDOM = "random"  # from a seed, shown on the page so that the club can witness it
    SEEDED = "seeded"  # seeds kept apart by the standard placement; the rest at random
    BY_HAND = "by_hand"  # the first round's pairs given by the secretary


class DrawTiming(enum.Enum):
    """Whether every round is drawn with the first, or each when the one before ends."""

    ALL_AT_ONCE = "all_at_once"  # a fixed bracket: a tie's winner has its place waiting
    ROUND_BY_ROUND = "round_by_round"  # each later round drawn at random from its winners


class LevelTie(enum.Enum):
    """How a tie level on games won is decided (a cup tie cannot be drawn)."""

    DECIDING_GAME = "deciding_game"  # the result then includes a deciding game
    TOTAL_POINTS = "total_points"  # most points over the tie's games; level: a decider


@dataclass(frozen=True)
class CupFormat:
    """How a cup is run: its draw, whether it has a plate for the losers of their first
    tie played, how a level tie is decided, and the games a walkover scores (for the
    side that turned up, for the other).

    >>> CupFormat().walkover, CupFormat(level_tie=LevelTie.TOTAL_POINTS).plate
    ((1, 0), False)
    >>> CupFormat(walkover=(0, 3))
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: a walkover scores two whole numbers from 0, more for \
the side that turned up, not [0, 3]
    """

    method: DrawMethod = DrawMethod.RANDOM
    timing: DrawTiming = DrawTiming.ALL_AT_ONCE
    plate: bool = False
    level_tie: LevelTie = LevelTie.DECIDING_GAME
    walkover: tuple[int, int] = (1, 0)

    def __post_init__(self) -> None:
        walkover = score_pair(self.walkover)
        if walkover is None or walkover[0] <= walkover[1]:
            raise CupError.of("cup_walkover", value=shown(self.walkover))
        object.__setattr__(self, "walkover", walkover)


# -- ties and their results ----------------------------------------------------------


@dataclass(frozen=True)
class TieKey:
    """A tie's place: its round and its position in the round (both from 1), in the
    cup or in its plate.

    >>> print(TieKey(2, 3))
    tie 3 of round 2
    >>> print(TieKey(1, 1, plate=True))
    plate tie 1 of round 1
    """

    round: int
    position: int
    plate: bool = False

    def __str__(self) -> str:
        return f"{'plate ' if self.plate else ''}tie {self.position} of round {self.round}"

    @property
    def order(self) -> tuple[bool, int, int]:
        """Sorts the cup's ties before the plate's, each by round, then position."""
        return self.plate, self.round, self.position


# a place in a first round as drawn: an entrant's name in the cup's own draw, or (in the
# plate's draw) the cup's tie whose loser takes the place
Entry = str | TieKey


@dataclass(frozen=True)
class TieResult:
    """A tie's result: its games' final scores (home first), in the order played, with
    the deciding game's score if the tie was level and the cup decides it by one; or a
    walkover to the side that turned up.

    >>> TieResult(games=((61, 40), (50, 61)), decider=(61, 58)).games_won
    (1, 1)
    >>> TieResult(games=[(61, 40)], walkover=Side.AWAY)
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: a tie's result has games or a walkover, not both
    """

    games: tuple[tuple[int, int], ...] = ()
    decider: tuple[int, int] | None = None
    walkover: Side | None = None

    def __post_init__(self) -> None:
        games = tuple(_game(score, place) for place, score in enumerate(self.games, start=1))
        object.__setattr__(self, "games", games)
        if self.walkover is not None:
            if games or self.decider is not None:
                raise CupError.of("cup_result_both")
            return
        if not games:
            raise CupError.of("cup_result_empty")
        if self.decider is not None:
            decider = score_pair(self.decider)
            if decider is None or decider[0] == decider[1]:
                raise CupError.of("cup_decider_score", value=shown(self.decider))
            object.__setattr__(self, "decider", decider)

    @property
    def games_won(self) -> tuple[int, int]:
        """Games won by home and away, the deciding game aside."""
        return games_won(self.games)

    @property
    def points(self) -> tuple[int, int]:
        """Points scored by home and away over the games, the deciding game aside."""
        return sum(score[0] for score in self.games), sum(score[1] for score in self.games)


def can_end_level(night: Night) -> bool:
    """Whether a tie played as ``night`` can end level on games won: a set of an even
    number of games (no game ends level; a race ends when a side has won it). Only such
    a night needs room for a deciding game.

    >>> can_end_level(Night(games=4)), can_end_level(Night(games=3)), can_end_level(Night())
    (True, False, False)
    >>> can_end_level(Night(race_to=3))
    False
    """
    return night.race_to is None and night.games % 2 == 0


def tie_winner(result: TieResult, level_tie: LevelTie, key: TieKey) -> Side:
    """The side that won tie ``key`` with ``result``, a level tie decided as ``level_tie``
    says: by the result's deciding game, or by points over the games and, if those are
    level too, by a deciding game. A deciding game where none is played is refused.

    >>> level = TieResult(games=((61, 40), (55, 61)))
    >>> tie_winner(level, LevelTie.TOTAL_POINTS, TieKey(1, 2))
    <Side.HOME: 'home'>
    >>> tie_winner(level, LevelTie.DECIDING_GAME, TieKey(1, 2))
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: tie 2 of round 1 is level at 1-1 in games: the cup \
decides a level tie by a deciding game, which the result does not give
    """
    if result.walkover is not None:
        return result.walkover
    home, away = result.games_won
    if home != away:
        if result.decider is not None:
            raise CupError.of("cup_decider_not_level", tie=str(key), home=home, away=away)
        return Side.HOME if home > away else Side.AWAY
    if level_tie is LevelTie.TOTAL_POINTS:
        home_points, away_points = result.points
        if home_points != away_points:
            if result.decider is not None:
                raise CupError.of("cup_decider_points", tie=str(key), home_points=home_points,
                                  away_points=away_points)
            return Side.HOME if home_points > away_points else Side.AWAY
        if result.decider is None:
            raise CupError.of("cup_points_level", tie=str(key), home=home, away=away,
                              home_points=home_points, away_points=away_points)
    elif result.decider is None:
        raise CupError.of("cup_decider_needed", tie=str(key), home=home, away=away)
    winner = game_winner(result.decider)
    assert winner is not None  # a level decider is refused with the result
    return winner


# -- the draw ------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """One bracket's draw (the cup's or its plate's): ``size`` places (a power of two),
    the first round's pairs (away None: a bye for home), and the feeders of each later
    round drawn so far (all of them for a draw made all at once)."""

    size: int
    first_round: tuple[tuple[Entry, Entry | None], ...]
    later_rounds: tuple[Feeders, ...] = ()

    @property
    def rounds(self) -> int:
        """How many rounds the bracket has, the final included."""
        return self.size.bit_length() - 1


@dataclass(frozen=True)
class Cup:
    """A drawn cup: its format, its entrants as given, its draw and, once drawn, its
    plate's. What the caller stores; :func:`bracket` reads it with the results."""

    format: CupFormat
    entrants: tuple[str, ...]
    main: Draw
    plate: Draw | None = None


def bracket_size(entrants: int) -> int:
    """The places of a cup of ``entrants``: the next power of two (the rest are byes).

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 8, 9)]
    [2, 4, 4, 8, 8, 16]
    """
    return 1 << (entrants - 1).bit_length()


def slot_ranks(size: int) -> tuple[int, ...]:
    """The standard seeded placement: which rank (1 first) takes each place of a bracket
    of ``size``, top to bottom, each first-round pair's better rank first. Rank 1 and 2
    can only meet in the final, ranks 1 to 4 not before the semi-finals, and so on; rank
    ``r`` meets rank ``size + 1 - r`` first, so the byes (the ranks past the entrants)
    go to the top ranks.

    >>> slot_ranks(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    ranks = [1]
    while len(ranks) < size:
        total = 2 * len(ranks) + 1
        ranks = [rank for top in ranks for rank in (top, total - top)]
    return tuple(ranks)


def shuffled[T](items: Sequence[T], seed: int) -> list[T]:
    """``items`` in a random order that ``seed`` fixes for good: a Fisher–Yates shuffle
    from the last place down, each place ``i`` swapped with place
    ``int(r * (i + 1))``, ``r`` the next number of ``random.Random(seed).random()``
    (the one sequence Python promises to keep from version to version).

    >>> shuffled(["Ann", "Bob", "Cy", "Dee"], 2026)
    ['Dee', 'Cy', 'Bob', 'Ann']
    """
    generator = random.Random(seed)
    order = list(items)
    for index in range(len(order) - 1, 0, -1):
        other = int(generator.random() * (index + 1))
        order[index], order[other] = order[other], order[index]
    return order


def draw(entrants: Sequence[str], format: CupFormat, *,
         seed: int | None = None, seeds: Sequence[str] = (),
         pairs: Sequence[Sequence[str | None]] | None = None) -> Cup:
    """The cup's draw, as its ``format`` says.

    - Random: the entrants in the order given, :func:`shuffled` by ``seed``, take the
      ranks of :func:`slot_ranks` in that order (the first drawn get the byes).
    - Seeded: ``seeds`` (seed 1 first) take the top ranks; the other entrants, in the
      order given and shuffled by ``seed``, the ranks after them (with at most one
      unseeded entrant there is nothing to shuffle, and ``seed`` may be left out).
    - By hand: ``pairs`` is the first round, ``[home, away]`` each, ``away`` None for a
      bye; every entrant drawn once, as many pairs as the bracket has first-round ties.

    Drawn all at once, every later round follows the bracket (the winners of ties 1 and
    2 meet in tie 1 of the next round, and so on); round by round, the later rounds are
    drawn by :func:`draw_next_round`.

    >>> draw(["Ann", "Bob", "Cy"], CupFormat(method=DrawMethod.BY_HAND),
    ...      pairs=[["Bob", None], ["Cy", "Ann"]]).main.first_round
    (('Bob', None), ('Cy', 'Ann'))
    >>> draw(["Ann", "Bob", "Cy"], CupFormat(method=DrawMethod.BY_HAND),
    ...      pairs=[["Bob", None], ["Cy", "Bob"]])
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: pair 2: "Bob" is already drawn in pair 1
    """
    names = checked_entrants(entrants, error=CupError)
    if len(names) < 2:
        raise CupError.of("cup_too_few_entrants", count=len(names))
    size = bracket_size(len(names))
    if format.method is not DrawMethod.SEEDED and seeds:
        raise CupError.of("cup_seeds_unwanted")
    if format.method is not DrawMethod.BY_HAND and pairs is not None:
        raise CupError.of("cup_pairs_unwanted")
    first_round: tuple[tuple[Entry, Entry | None], ...]
    if format.method is DrawMethod.BY_HAND:
        if seed is not None:
            raise CupError.of("cup_by_hand_seed")
        if pairs is None:
            raise CupError.of("cup_pairs_needed")
        first_round = _checked_pairs(pairs, names, size)
    else:
        top = checked_seeds(seeds, names) if format.method is DrawMethod.SEEDED else []
        rest = [name for name in names if name not in top]
        if len(rest) > 1 or seed is not None:
            rest = shuffled(rest, _checked_seed(seed))
        first_round = _placed([*top, *rest], size)
    later = _standard_feeders(size) if format.timing is DrawTiming.ALL_AT_ONCE else ()
    return Cup(format, tuple(names), Draw(size, first_round, later))


def draw_next_round(cup: Cup, results: Mapping[TieKey, TieResult], seed: int, *,
                    plate: bool = False) -> Cup:
    """The cup (or, with ``plate``, its plate) with its next round drawn, in a cup drawn
    round by round: the last round drawn has to be finished; its ties' winners, in tie
    order, are :func:`shuffled` by ``seed`` and paired in that order, the first of each
    pair at home.

    >>> cup = draw(["Ann", "Bob", "Cy", "Dee"],
    ...            CupFormat(timing=DrawTiming.ROUND_BY_ROUND), seed=1)
    >>> draw_next_round(cup, {}, seed=5)
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: tie 1 of round 1 has no winner yet: round 1 finishes \
before the next is drawn
    """
    if cup.format.timing is DrawTiming.ALL_AT_ONCE:
        raise CupError.of("cup_drawn_at_once")
    target = _plate_draw(cup) if plate else cup.main
    current = bracket(cup, results)
    rounds = current.plate_rounds if plate else current.rounds
    last = rounds[-1]
    if len(last) == 1:
        raise CupError.of("cup_final_drawn")
    for tie in last:
        if tie.winner is None:
            raise CupError.of("cup_round_unfinished", tie=str(tie.key), round=tie.key.round)
    order = shuffled([tie.key.position for tie in last], _checked_seed(seed))
    feeders = tuple((order[index], order[index + 1]) for index in range(0, len(order), 2))
    drawn = replace(target, later_rounds=(*target.later_rounds, feeders))
    return replace(cup, plate=drawn) if plate else replace(cup, main=drawn)


def plate_entries(cup: Cup, results: Mapping[TieKey, TieResult]) -> tuple[TieKey, ...]:
    """The cup's ties whose losers go into the plate: each entrant's first tie played
    (a first-round tie, or for an entrant with a bye, its round-2 tie if it lost it),
    by round and position. Refused until every one of them has been played.

    >>> cup = draw(["Ann", "Bob", "Cy"], CupFormat(method=DrawMethod.BY_HAND, plate=True),
    ...            pairs=[["Ann", None], ["Bob", "Cy"]])
    >>> home_win = TieResult(games=((61, 12),))
    >>> plate_entries(cup, {TieKey(1, 2): home_win, TieKey(2, 1): home_win})
    (TieKey(round=1, position=2, plate=False),)
    """
    current = bracket(cup, results)
    entries: list[TieKey] = []
    for tie in current.rounds[0]:
        if not tie.bye:
            if tie.winner is None:
                raise CupError.of("cup_plate_waits", tie=str(tie.key))
            entries.append(tie.key)
    for tie in current.rounds[0]:
        if not tie.bye:
            continue
        if tie.next is None:
            raise CupError.of("cup_plate_waits_round", round=2)
        after = current.tie(tie.next)
        if after.winner is None:
            raise CupError.of("cup_plate_waits", tie=str(after.key))
        if after.loser == tie.home:
            entries.append(after.key)
    return tuple(sorted(entries, key=lambda key: key.order))


def draw_plate(cup: Cup, results: Mapping[TieKey, TieResult], seed: int) -> Cup:
    """The cup with its plate drawn at random (as a random draw is, from ``seed``) among
    the losers of :func:`plate_entries`; all at once or round by round as the cup is.

    >>> cup = draw(["Ann", "Bob", "Cy", "Dee"], CupFormat(plate=True), seed=3)
    >>> away_win = TieResult(games=((40, 61),))
    >>> plated = draw_plate(cup, {TieKey(1, 1): away_win, TieKey(1, 2): away_win}, seed=9)
    >>> plated.plate.first_round
    ((TieKey(round=1, position=2, plate=False), TieKey(round=1, position=1, plate=False)),)
    """
    if not cup.format.plate:
        raise CupError.of("cup_no_plate")
    if cup.plate is not None:
        raise CupError.of("cup_plate_drawn")
    entries = plate_entries(cup, results)
    if len(entries) < MIN_ENTRANTS:
        raise CupError.of("cup_plate_too_few", count=len(entries))
    size = bracket_size(len(entries))
    first_round = _placed(shuffled(entries, _checked_seed(seed)), size)
    later = _standard_feeders(size) if cup.format.timing is DrawTiming.ALL_AT_ONCE else ()
    return replace(cup, plate=Draw(size, first_round, later))


# -- the bracket ---------------------------------------------------------------------


@dataclass(frozen=True)
class Tie:
    """A tie as the results so far make it. ``home`` and ``away`` are None while they
    wait on an earlier tie (``away`` is None for a bye: ``home`` goes through without
    playing). ``score`` is games won, home first (the deciding game counted; a walkover
    as the format scores it). ``next`` is the tie the winner goes into (None for the
    final, or a round not drawn yet); ``plate_next`` the plate tie the loser goes into."""

    key: TieKey
    home: str | None
    away: str | None
    bye: bool = False
    result: TieResult | None = None
    winner: str | None = None
    loser: str | None = None
    score: tuple[int, int] | None = None
    next: TieKey | None = None
    plate_next: TieKey | None = None

    @property
    def played(self) -> bool:
        """Whether the tie has a result (a bye never has)."""
        return self.result is not None

    def __str__(self) -> str:
        if self.bye:
            return f"{self.key}: {self.home or '?'}, a bye"
        return f"{self.key}: {self.home or '?'} v {self.away or '?'}"


@dataclass(frozen=True)
class Bracket:
    """The cup's rounds of ties (and its plate's, once drawn) as the results make them."""

    rounds: tuple[tuple[Tie, ...], ...]
    total_rounds: int
    plate_rounds: tuple[tuple[Tie, ...], ...] = ()
    plate_total_rounds: int = 0

    @cached_property
    def _by_key(self) -> dict[TieKey, Tie]:
        return {tie.key: tie for tie in self.ties}

    @property
    def ties(self) -> tuple[Tie, ...]:
        """Every tie drawn, the cup's then the plate's, round by round."""
        return tuple(tie for ties in (*self.rounds, *self.plate_rounds) for tie in ties)

    def tie(self, key: TieKey) -> Tie:
        """The tie at ``key``; refused if the draw has none there."""
        found = self._by_key.get(key)
        if found is None:
            raise CupError.of("cup_no_such_tie", tie=str(key))
        return found

    @property
    def winner(self) -> str | None:
        """Who won the cup: the final's winner, once the final is drawn and played."""
        return _final_winner(self.rounds, self.total_rounds)

    @property
    def plate_winner(self) -> str | None:
        """Who won the plate, once its final is played."""
        return _final_winner(self.plate_rounds, self.plate_total_rounds)

    def round_name(self, number: int, *, plate: bool = False) -> Message:
        """Round ``number``'s name (of the plate, with ``plate``): see :func:`round_name`."""
        return round_name(number, self.plate_total_rounds if plate else self.total_rounds)


def round_name(number: int, rounds: int) -> Message:
    """Round ``number`` of ``rounds`` as the cup's pages name it.

    >>> [str(round_name(number, 4)) for number in (1, 2, 3, 4)]
    ['Round 1', 'Quarter-finals', 'Semi-finals', 'Final']
    """
    left = rounds - number
    if left == 0:
        return Message("cup_round_final")
    if left == 1:
        return Message("cup_round_semi_finals")
    if left == 2:
        return Message("cup_round_quarter_finals")
    return Message("cup_round_number", number=number)


def bracket(cup: Cup, results: Mapping[TieKey, TieResult]) -> Bracket:
    """The cup's ties after ``results`` (by tie; a plate's keyed with ``plate=True``):
    byes go through, each result's winner to its place in the next round drawn, each
    plate entrant's loser to the plate. A result for a tie the draw does not have, for
    a bye, or for a tie whose sides are not both known yet is refused.
    """
    for key in sorted(results, key=lambda key: key.order):
        if not _has_tie(cup.plate if key.plate else cup.main, key):
            raise CupError.of("cup_no_such_tie", tie=str(key))
    plate_next: dict[TieKey, TieKey] = {}
    if cup.plate is not None:
        for position, pair in enumerate(cup.plate.first_round, start=1):
            for entry in pair:
                if isinstance(entry, TieKey):
                    plate_next[entry] = TieKey(1, position, plate=True)
    main = _rounds(cup.main, results, cup.format, plate=False, losers={},
                   plate_next=plate_next)
    if cup.plate is None:
        return Bracket(main, cup.main.rounds)
    had_byes = {tie.home for tie in main[0] if tie.bye}
    for entry in plate_next:
        after_bye = main[entry.round - 1][entry.position - 1]
        if entry.round > 1 and after_bye.winner in had_byes and after_bye.loser not in had_byes:
            raise CupError.of("cup_plate_redraw", tie=str(entry), name=shown(after_bye.winner))
    # and the other way: one with a bye who won its first tie played when the plate was
    # drawn, and now lost it, has a place in the plate that the plate does not have
    for tie in main[0]:
        if tie.bye and tie.next is not None and tie.next not in plate_next:
            after = main[tie.next.round - 1][tie.next.position - 1]
            if after.winner is not None and after.loser == tie.home:
                raise CupError.of("cup_plate_redraw_in", tie=str(after.key),
                                  name=shown(tie.home))
    losers = {tie.key: tie.loser for ties in main for tie in ties}
    plate = _rounds(cup.plate, results, cup.format, plate=True, losers=losers, plate_next={})
    return Bracket(main, cup.main.rounds, plate, cup.plate.rounds)


# -- corrections ---------------------------------------------------------------------


def affected_by_correction(cup: Cup, results: Mapping[TieKey, TieResult],
                           key: TieKey) -> tuple[TieKey, ...]:
    """The ties drawn after tie ``key`` whose sides depend on its winner or its loser:
    the tie its winner went into and each after it to the last round drawn, the plate
    tie its loser went into and its chain, and so on from each of those. These are the
    ties an admin resets to change the tie's winner once they are played. A plate's
    places are kept by tie, so a new loser takes the old one's place; but a result that
    would take an entrant with a bye out of a plate already drawn, or put one in, is refused
    (:func:`bracket`): that plate is drawn again (:func:`plate_undrawn`). A bye is
    refused: it has no result to correct.

    >>> cup = draw(["Ann", "Bob", "Cy", "Dee"], CupFormat(plate=True), seed=3)
    >>> away_win = TieResult(games=((40, 61),))
    >>> results = {TieKey(1, 1): away_win, TieKey(1, 2): away_win}
    >>> [str(key) for key in affected_by_correction(draw_plate(cup, results, seed=9),
    ...                                             results, TieKey(1, 2))]
    ['tie 1 of round 2', 'plate tie 1 of round 1']
    """
    current = bracket(cup, results)
    tie = current.tie(key)
    if tie.bye:  # no result, so no winner to change: its side went through unplayed
        raise CupError.of("cup_result_for_bye", tie=str(key), name=shown(tie.home))
    found: set[TieKey] = set()
    waiting = [key]
    while waiting:
        tie = current.tie(waiting.pop())
        for after in (tie.next, tie.plate_next):
            if after is not None and after not in found:
                found.add(after)
                waiting.append(after)
    return tuple(sorted(found, key=lambda after: after.order))


def check_correction(cup: Cup, results: Mapping[TieKey, TieResult], key: TieKey,
                     result: TieResult) -> None:
    """Refuse giving tie ``key`` the ``result`` without an admin's reset: a result that
    changes the tie's winner is taken only while no tie it affects
    (:func:`affected_by_correction`) has been played. A first result, or one that keeps
    the winner, is always taken (if it is a result the tie can have at all).

    >>> cup = draw(["Ann", "Bob", "Cy", "Dee"], CupFormat(), seed=3)
    >>> home, away = TieResult(games=((61, 40),)), TieResult(games=((40, 61),))
    >>> played = {TieKey(1, 1): home, TieKey(1, 2): home, TieKey(2, 1): home}
    >>> check_correction(cup, played, TieKey(1, 1), TieResult(games=((61, 55),)))
    >>> check_correction(cup, played, TieKey(1, 1), away)
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: tie 1 of round 1: its winner can change only while tie \
1 of round 2 is unplayed, or by an admin who resets the ties after it
    """
    current = bracket(cup, results)
    before = current.tie(key)
    after = bracket(cup, {**results, key: result}).tie(key)
    if before.winner is None or before.winner == after.winner:
        return
    for affected in affected_by_correction(cup, results, key):
        if current.tie(affected).played:
            raise CupError.of("cup_correction_played", tie=str(key), next=str(affected))


def correction_allowed(cup: Cup, results: Mapping[TieKey, TieResult], key: TieKey,
                       result: TieResult) -> bool:
    """Whether :func:`check_correction` takes the result without a reset."""
    try:
        check_correction(cup, results, key, result)
    except CupError:
        return False
    return True


def corrected(cup: Cup, results: Mapping[TieKey, TieResult], key: TieKey,
              result: TieResult, *, reset: bool = False) -> dict[TieKey, TieResult]:
    """The results with tie ``key``'s result given or corrected. With ``reset`` (an
    admin's), the results of the ties it affects are dropped first, so its winner may
    change after them; without it, :func:`check_correction` has to allow it.
    """
    if reset:
        dropped = set(affected_by_correction(cup, results, key))
        new = {tie: given for tie, given in results.items() if tie not in dropped}
    else:
        check_correction(cup, results, key, result)
        new = dict(results)
    new[key] = result
    bracket(cup, new)
    return new


def plate_undrawn(cup: Cup, results: Mapping[TieKey, TieResult]
                  ) -> tuple[Cup, dict[TieKey, TieResult]]:
    """The cup with its plate's draw and the plate's results dropped, for an admin to
    draw it again (:func:`draw_plate`) when a correction changes who goes into it.

    >>> cup = draw(["Ann", "Bob", "Cy", "Dee"], CupFormat(plate=True), seed=3)
    >>> away_win = TieResult(games=((40, 61),))
    >>> results = {TieKey(1, 1): away_win, TieKey(1, 2): away_win}
    >>> plated = draw_plate(cup, results, seed=9)
    >>> plate_undrawn(plated, {**results, TieKey(1, 1, plate=True): away_win}) == (cup, results)
    True
    """
    return replace(cup, plate=None), {key: result for key, result in results.items()
                                      if not key.plate}


# -- helpers -------------------------------------------------------------------------


def _checked_seed(seed: object) -> int:
    if seed is None:
        raise CupError.of("cup_seed_needed")
    if type(seed) is not int or seed < 0:
        raise CupError.of("cup_seed", value=shown(seed))
    return seed


def checked_seeds(seeds: Sequence[str], names: Sequence[str]) -> list[str]:
    """A seeded draw's ``seeds`` (seed 1 first) as given, after refusing none at all, one
    that is not among the entrants ``names``, or one seeded twice.

    >>> checked_seeds(["Bob"], ["Ann", "Bob"])
    ['Bob']
    >>> checked_seeds(["Bob", "Bob"], ["Ann", "Bob"])
    Traceback (most recent call last):
    ...
    matches.rules.errors.CupError: seed 2 "Bob" is already seed 1
    """
    if not seeds:
        raise CupError.of("cup_seeds_needed")
    entrants = set(names)
    places: dict[str, int] = {}
    for place, name in enumerate(seeds, start=1):
        if name not in entrants:
            raise CupError.of("cup_seed_not_entrant", place=place, name=shown(name))
        if name in places:
            raise CupError.of("cup_seeded_twice", place=place, name=shown(name),
                              other=places[name])
        places[name] = place
    return list(seeds)


def _checked_pairs(pairs: Sequence[Sequence[str | None]], names: Sequence[str],
                   size: int) -> tuple[tuple[Entry, Entry | None], ...]:
    if len(pairs) != size // 2:
        raise CupError.of("cup_pairs_count", count=len(names), expected=size // 2,
                          given=len(pairs))
    entrants = set(names)
    drawn: dict[str, int] = {}
    checked: list[tuple[Entry, Entry | None]] = []
    for place, pair in enumerate(pairs, start=1):
        if isinstance(pair, str) or len(pair) != 2:
            raise CupError.of("cup_pair_shape", place=place, value=shown(pair))
        home, away = pair[0], pair[1]
        if home is None and away is None:
            raise CupError.of("cup_bye_v_bye", place=place)
        if home is None:
            raise CupError.of("cup_pair_shape", place=place, value=shown(list(pair)))
        for name in (home, away):
            if name is None:
                continue
            if name not in entrants:
                raise CupError.of("cup_pair_not_entrant", place=place, name=shown(name))
            if name in drawn:
                raise CupError.of("cup_drawn_twice", place=place, name=shown(name),
                                  other=drawn[name])
            drawn[name] = place
        checked.append((home, away))
    for name in names:
        if name not in drawn:
            raise CupError.of("cup_not_drawn", name=shown(name))
    return tuple(checked)


def _placed(order: Sequence[Entry], size: int) -> tuple[tuple[Entry, Entry | None], ...]:
    """The first round with ``order[0]`` at rank 1 and so on (:func:`slot_ranks`); the
    ranks past the order are byes, each against one of the top ranks."""
    slots = [order[rank - 1] if rank <= len(order) else None for rank in slot_ranks(size)]
    pairs: list[tuple[Entry, Entry | None]] = []
    for index in range(0, size, 2):
        home = slots[index]
        assert home is not None  # more than half the places are taken: a bye meets a rank
        pairs.append((home, slots[index + 1]))
    return tuple(pairs)


def _standard_feeders(size: int) -> tuple[Feeders, ...]:
    """Every later round of a bracket drawn all at once: ties 1 and 2 feed tie 1."""
    rounds: list[Feeders] = []
    ties = size // 2
    while ties > 1:
        ties //= 2
        rounds.append(tuple((2 * tie - 1, 2 * tie) for tie in range(1, ties + 1)))
    return tuple(rounds)


def _has_tie(drawn: Draw | None, key: TieKey) -> bool:
    if drawn is None or key.round < 1 or key.position < 1:
        return False
    if key.round == 1:
        return key.position <= len(drawn.first_round)
    return (key.round - 2 < len(drawn.later_rounds)
            and key.position <= len(drawn.later_rounds[key.round - 2]))


def _plate_draw(cup: Cup) -> Draw:
    if not cup.format.plate:
        raise CupError.of("cup_no_plate")
    if cup.plate is None:
        raise CupError.of("cup_plate_not_drawn")
    return cup.plate


def _rounds(drawn: Draw, results: Mapping[TieKey, TieResult], format: CupFormat, *,
            plate: bool, losers: Mapping[TieKey, str | None],
            plate_next: Mapping[TieKey, TieKey]) -> tuple[tuple[Tie, ...], ...]:
    """One draw's rounds of ties; ``losers`` names the cup's ties' losers (the plate's
    entrants are places by tie), ``plate_next`` where each plate entrant's loser goes."""
    next_tie: dict[TieKey, TieKey] = {}
    for index, feeders in enumerate(drawn.later_rounds):
        for position, pair in enumerate(feeders, start=1):
            for before in pair:
                next_tie[TieKey(index + 1, before, plate)] = TieKey(index + 2, position, plate)

    def entrant(entry: Entry | None) -> str | None:
        if entry is None or isinstance(entry, str):
            return entry
        return losers.get(entry)

    sides = [(entrant(home), entrant(away), away is None) for home, away in drawn.first_round]
    rounds: list[tuple[Tie, ...]] = []
    for number in range(1, len(drawn.later_rounds) + 2):
        if number > 1:
            previous = rounds[-1]
            sides = [(previous[home - 1].winner, previous[away - 1].winner, False)
                     for home, away in drawn.later_rounds[number - 2]]
        ties: list[Tie] = []
        for position, (home, away, bye) in enumerate(sides, start=1):
            key = TieKey(number, position, plate)
            ties.append(_tie(key, home, away, bye, results.get(key), format,
                             next_tie.get(key), plate_next.get(key)))
        rounds.append(tuple(ties))
    return tuple(rounds)


def _tie(key: TieKey, home: str | None, away: str | None, bye: bool,
         result: TieResult | None, format: CupFormat, next: TieKey | None,
         plate_next: TieKey | None) -> Tie:
    if bye:
        if result is not None:
            raise CupError.of("cup_result_for_bye", tie=str(key), name=shown(home))
        return Tie(key, home, None, bye=True, winner=home, next=next, plate_next=plate_next)
    if result is None:
        return Tie(key, home, away, next=next, plate_next=plate_next)
    if home is None or away is None:
        if home is None and away is None:
            raise CupError.of("cup_sides_unknown", tie=str(key))
        raise CupError.of("cup_no_opponent", tie=str(key), name=shown(home or away))
    side = tie_winner(result, format.level_tie, key)
    winner, loser = (home, away) if side is Side.HOME else (away, home)
    return Tie(key, home, away, result=result, winner=winner, loser=loser,
               score=_score(result, side, format), next=next, plate_next=plate_next)


def _score(result: TieResult, side: Side, format: CupFormat) -> tuple[int, int]:
    if result.walkover is not None:
        turned_up, other = format.walkover
        return (turned_up, other) if side is Side.HOME else (other, turned_up)
    home, away = result.games_won
    if result.decider is not None:
        return (home + 1, away) if side is Side.HOME else (home, away + 1)
    return home, away


def _final_winner(rounds: Sequence[Sequence[Tie]], total: int) -> str | None:
    if total == 0 or len(rounds) < total:
        return None
    return rounds[-1][0].winner


def _game(score: object, place: int) -> tuple[int, int]:
    pair = score_pair(score)
    if pair is None:
        raise CupError.of("game_pair", place=place, value=shown(score))
    if pair[0] == pair[1]:
        raise CupError.of("game_level", place=place, home=pair[0], away=pair[1])
    return pair


__all__ = ["MIN_ENTRANTS", "Bracket", "Cup", "CupFormat", "Draw", "DrawMethod", "DrawTiming",
           "LevelTie", "Side", "Tie", "TieKey", "TieResult", "affected_by_correction",
           "bracket", "bracket_size", "can_end_level", "check_correction", "checked_seeds",
           "corrected", "correction_allowed", "draw", "draw_next_round", "draw_plate",
           "plate_entries", "plate_undrawn", "round_name", "shuffled", "slot_ranks",
           "tie_winner"]
