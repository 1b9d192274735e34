"""A match: rounds of events, the score per side and the winner, replayable and undoable.

>>> match = Match(ALL_FIVES, ["Olena", "Taras"], labels=["Olena", "Taras"])
>>> _ = match.start_round(starter=0)
>>> match.play(0, Tile(5, 5)).counted
10
>>> match.play(1, Tile(0, 5), AttachmentPoint.parse("5-5:5"), claim=10).counted
10
>>> match.pass_(0)
Traceback (most recent call last):
...
matches.rules.errors.BoneyardNotEmpty: Olena cannot pass while the boneyard holds 10 tiles
>>> _ = match.undo(); [str(t) for t in match.current_round.layout.tiles]
['5-5']
"""

from __future__ import annotations

import enum
import functools
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .dealing import AT_LEAST_ONE, DEAL_BUDGET, dealable
from .errors import (
    BoneyardNotEmpty,
    ClaimMismatch,
    DrawRefused,
    DuplicateEnd,
    HandsMismatch,
    MatchOver,
    Message,
    NotYourTurn,
    RoundOver,
    RulesError,
    TileNotInSet,
)
from .games import ALL_FIVES, ZERO, Game, MatchOptions, Settlement
from .layout import AttachmentPoint, Layout, ScoringEnd, SpinnerPolicy
from .tiles import Tile

Score = Fraction | int  # whole points stay ints; a three-player split brings in halves


class RoundMode(enum.Enum):
    TRACKED = "tracked"  # every play, draw and pass
    CALLED = "ends"  # only the scoring ends of scoring placements


class RoundEnd(enum.Enum):
    DOMINO = "domino"
    BLOCKED = "blocked"


# -- events --------------------------------------------------------------------------
#
# Events and awards are values: compared by their fields, and nothing changes them once
# made. Their __init__ is written out rather than generated: replay makes two per
# placement, and a written __init__ is what the compiled build (matches.rules.native)
# turns into a plain C constructor; a generated one, or a NamedTuple's __new__, stays a
# Python call. Not frozen: getting past a freeze (object.__setattr__ per field) made a
# replay on plain Python half as slow again (callgrind: 37k to 54k instructions an event).


@dataclass(init=False)
class Play:
    seat: int
    tile: Tile
    at: AttachmentPoint | None
    claim: Score | None

    def __init__(self, seat: int, tile: Tile, at: AttachmentPoint | None = None,
                 claim: Score | None = None) -> None:
        self.seat = seat
        self.tile = tile
        self.at = at
        self.claim = claim


@dataclass(init=False)
class Draw:
    seat: int
    tiles: int  # how many, drawn one at a time

    def __init__(self, seat: int, tiles: int = 1) -> None:
        self.seat = seat
        self.tiles = tiles


@dataclass(init=False)
class Pass:
    seat: int

    def __init__(self, seat: int) -> None:
        self.seat = seat


@dataclass(init=False)
class Call:
    """A scoring placement in a called round: the scoring ends it left."""

    seat: int
    ends: tuple[ScoringEnd, ...]
    claim: Score | None
    goes_out: bool  # the seat's last tile (Fives and Threes' bonus; ends the round)

    def __init__(self, seat: int, ends: tuple[ScoringEnd, ...], claim: Score | None = None,
                 goes_out: bool = False) -> None:
        self.seat = seat
        self.ends = ends
        self.claim = claim
        self.goes_out = goes_out

    @property
    def end_sum(self) -> int:
        """The sum of the scoring ends it lists."""
        return sum(end.points for end in self.ends)


Event = Play | Draw | Pass | Call


@dataclass(frozen=True, slots=True)
class StartRound:
    starter: int | None
    mode: RoundMode = RoundMode.TRACKED


@dataclass(frozen=True, slots=True)
class Settle:
    """The round's remaining tiles (``hands``) or pip totals (``pips``), one per seat.

    A called round also gives its ``result``: the seat that went out, or None if blocked.
    The result and the count may come apart: a result alone ends a called round, which
    then waits for its count like a tracked round that ended by itself (where remaining
    tiles score nothing, it is settled at once). A count given for a round already
    settled without one (Fives and Threes) is checked and kept, and scores nothing.
    """

    hands: tuple[tuple[Tile, ...], ...] | None = None
    pips: tuple[int, ...] | None = None
    result: RoundEnd | None = None
    domino_seat: int | None = None


Action = StartRound | Play | Draw | Pass | Call | Settle


@dataclass(init=False)
class Award:
    """What one placement scored: the end sum, the points and what counted."""

    seat: int
    side: int
    end_sum: int
    points: int
    bonus: int
    counted: Score
    refused: str | None  # why an award did not count (Fives and Threes overshoot)
    refusal: Message | None  # the same as a code and its parameters, for translation

    def __init__(self, seat: int, side: int, end_sum: int, points: int, bonus: int,
                 counted: Score, refusal: Message | None = None) -> None:
        self.seat = seat
        self.side = side
        self.end_sum = end_sum
        self.points = points
        self.bonus = bonus
        self.counted = counted
        self.refused = str(refusal) if refusal is not None else None
        self.refusal = refusal

    @property
    def announced(self) -> int:
        return self.points + self.bonus


# -- rounds --------------------------------------------------------------------------


@dataclass
class Round:
    number: int
    mode: RoundMode
    starter: int | None
    layout: Layout
    counts: list[int]  # tiles in each hand: dealt + drawn − played
    boneyard: int
    turn: int | None
    sides: int
    passes: int = 0
    end: RoundEnd | None = None
    finisher: int | None = None
    events: list[Event] = field(default_factory=list)
    awards: list[Award | None] = field(default_factory=list)
    placements: list[Score] = field(default_factory=list)
    # what the table gave for the round's end, its result and count merged (a called
    # round may have them in two Settle actions); None until it gave either
    settle: Settle | None = None
    settlement: Settlement | None = None
    pips: tuple[int, ...] | None = None
    won_here: bool = False  # the match was won during this round, before its settlement
    # each pass: the seat and the values its open ends showed then (see pass_notes)
    passed_at: list[tuple[int, frozenset[int]]] = field(default_factory=list)
    # what the shown hands say about the round's passes, for the table to see: notes,
    # not refusals (the pass happened at the table; the round still counts)
    notes: tuple[Message, ...] = ()
    scores: list[Score] = field(default_factory=list)  # running scores after the round
    tracked: bool = field(init=False)  # mode is TRACKED, kept as a plain attribute

    def __post_init__(self) -> None:
        if not self.placements:
            self.placements = [ZERO] * self.sides
        # a plain attribute, not a property: replay reads it for every event
        self.tracked = self.mode is RoundMode.TRACKED

    @property
    def ended(self) -> bool:
        return self.end is not None

    @property
    def settled(self) -> bool:
        return self.settlement is not None

    @property
    def blocked(self) -> bool:
        return self.end is RoundEnd.BLOCKED

    @property
    def settlement_awards(self) -> list[Score]:
        """What the settlement gave each side: nothing yet before it."""
        return list(self.settlement.awards) if self.settlement else [ZERO] * self.sides


# -- the match -----------------------------------------------------------------------


class Match:
    """One match of one game: owns the rounds, the scores and the winner."""

    def __init__(self, game: Game = ALL_FIVES, players: int | Sequence[str] = 2,
                 options: Mapping[str, Any] | MatchOptions | None = None, *,
                 labels: Sequence[str] | None = None) -> None:
        # messages say "seat 2" (the record's words) unless the table gave labels (names)
        self.labels = tuple(labels) if labels is not None else None
        if isinstance(players, int):
            self.names: tuple[str, ...] | None = None
            self.players = players
        else:
            self.names = tuple(players)
            self.players = len(self.names)
        self.game = game
        self.options = (options if isinstance(options, MatchOptions)
                        else game.options(self.players, options))
        self.sides = game.sides(self.players)
        self.side_of = [0] * self.players
        for side, seats in enumerate(self.sides):
            for seat in seats:
                self.side_of[seat] = side
        # the game's seams, looked up once: replay runs them for every placement
        self._points = game.placement_points
        self._divisors = self.options.divisors
        self._points_by_sum = _points_by_sum(game, self.options.divisors,
                                             self.options.tile_set.pips)
        self._refuses_overshoot = game.refuses_overshoot(self.options)
        self._ends_on_placement = game.ends_on_placement(self.options)
        self._counts_remaining = game.counts_remaining
        self._target = self.options.target
        self._top = self.options.tile_set.top
        self.scores: list[Score] = [ZERO] * len(self.sides)
        self.rounds: list[Round] = []
        self.winner: int | None = None
        self.log: list[Action] = []

    # -- reading ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def status(self) -> str:
        return "finished" if self.finished else "in-progress"

    @property
    def current_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def phase(self) -> str:
        """What the table does next: ``start``, ``play``, ``settle`` or ``finished``."""
        if self.finished:
            return "finished"
        rnd = self.current_round
        if rnd is None or rnd.settled:
            return "start"
        if rnd.ended:
            return "settle"
        return "play"

    def scores_after(self, rnd: Round) -> list[Score]:
        """Each side's running score after ``rnd``; for the round in play, as it stands."""
        return rnd.scores or self.scores

    def who(self, seat: int) -> str:
        return self.labels[seat] if self.labels else f"seat {seat}"

    def required_starter(self) -> int | None:
        """The seat that must open the next round, or None if any may (a draw of lots)."""
        rnd = self.current_round
        if rnd is None or not self.game.starter_follows_finisher:
            return None
        return rnd.finisher

    # -- acting ----------------------------------------------------------------------

    def do(self, action: Action) -> Any:
        """Apply any action; a rules error leaves the match exactly as it was."""
        if type(action) is Play:
            result: Any = self._event(action)  # the common case first
        elif isinstance(action, StartRound):
            result = self._start_round(action)
        elif isinstance(action, Settle):
            result = self._settle(action)
        else:
            result = self._event(action)
        self.log.append(action)
        return result

    def start_round(self, starter: int | None = None,
                    mode: RoundMode = RoundMode.TRACKED) -> Round:
        return self.do(StartRound(starter, mode))  # type: ignore[no-any-return]

    def play(self, seat: int, tile: Tile, at: AttachmentPoint | None = None,
             claim: Score | None = None) -> Award:
        return self.do(Play(seat, tile, at, claim))  # type: ignore[no-any-return]

    def draw(self, seat: int, count: int = 1) -> None:
        self.do(Draw(seat, count))

    def pass_(self, seat: int) -> None:
        self.do(Pass(seat))

    def call(self, seat: int, ends: Sequence[ScoringEnd], claim: Score | None = None,
             goes_out: bool = False) -> Award:
        return self.do(Call(seat, tuple(ends), claim, goes_out))  # type: ignore[no-any-return]

    def settle(self, *, hands: Sequence[Sequence[Tile]] | None = None,
               pips: Sequence[int] | None = None, result: RoundEnd | None = None,
               domino_seat: int | None = None) -> Settlement | None:
        """Settle the ended round; None if only a called round's result was given (its
        count is still to come)."""
        settle = Settle(tuple(tuple(h) for h in hands) if hands is not None else None,
                        tuple(pips) if pips is not None else None, result, domino_seat)
        return self.do(settle)  # type: ignore[no-any-return]

    def undo(self) -> Action:
        """Take back the last action (an event, a settlement or a round's start)."""
        if not self.log:
            raise RulesError.of("nothing_to_undo")
        last = self.log[-1]
        fresh = Match.replay(self.game, self.names or self.players, self.options, self.log[:-1],
                             labels=self.labels)
        # what play changes; everything else follows from the game, seats and options
        self.scores, self.rounds, self.winner, self.log = (
            fresh.scores, fresh.rounds, fresh.winner, fresh.log)
        return last

    @classmethod
    def replay(cls, game: Game, players: int | Sequence[str],
               options: Mapping[str, Any] | MatchOptions | None,
               actions: Sequence[Action], *, labels: Sequence[str] | None = None) -> Match:
        match = cls(game, players, options, labels=labels)
        for action in actions:
            match.do(action)
        return match

    def draw_lots(self, choice: Callable[[Sequence[int]], int] | None = None) -> int:
        """A neutral draw of lots for the starter: each seat draws, ties draw again.

        Uses a secure random source; ``choice`` may be given for tests. Refused where
        the holder of the highest double starts (Fives and Threes): no lots there.
        """
        if self.game.starter_holds_highest_double:
            raise RulesError.of("starter_holds_double")
        pick = choice or (lambda seats: secrets.randbelow(7))
        seats = list(range(self.players))
        while len(seats) > 1:
            drawn = {seat: pick(seats) for seat in seats}
            best = max(drawn.values())
            seats = [seat for seat in seats if drawn[seat] == best]
        return seats[0]

    # -- internals -------------------------------------------------------------------

    def _check_seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.players:
            raise RulesError.of("seat_not_at_table", seat=repr(seat), last=self.players - 1)
        return seat

    def _start_round(self, action: StartRound) -> Round:
        if self.finished:
            raise MatchOver.of("match_won_no_round")
        previous = self.current_round
        if previous is not None and not previous.settled:
            if previous.ended:
                raise RoundOver.of("round_not_settled", round=previous.number)
            raise RoundOver.of("round_not_ended", round=previous.number)
        starter = action.starter
        if starter is None:
            if action.mode is RoundMode.TRACKED:
                raise RulesError.of("starter_holds_double"
                                    if self.game.starter_holds_highest_double
                                    else "starter_needed")
        else:
            self._check_seat(starter)
            required = self.required_starter()
            if required is not None and starter != required:
                raise RulesError.of("wrong_starter", required=self.who(required),
                                    round=previous.number,  # type: ignore[union-attr]
                                    starter=self.who(starter))
        options = self.options
        boneyard = (options.tile_set.size - self.players * options.hand_size
                    if options.drawing else 0)
        rnd = Round(
            number=len(self.rounds) + 1,
            mode=action.mode,
            starter=starter,
            layout=Layout(self.game.policy),
            counts=[options.hand_size] * self.players,
            boneyard=boneyard,
            turn=starter,
            sides=len(self.sides),
        )
        self.rounds.append(rnd)
        return rnd

    def _open_round(self) -> Round:
        if self.finished:
            raise MatchOver.of("match_won_no_event")
        rnd = self.current_round
        if rnd is None:
            raise RoundOver.of("no_round")
        if rnd.end is not None:
            raise RoundOver.of("round_ended", end=rnd.end.value)
        return rnd

    def _event(self, event: Event) -> Award | None:
        rnd = self.rounds[-1] if self.rounds else None
        if rnd is None or rnd.end is not None or self.winner is not None:
            rnd = self._open_round()  # raises the reason
        seat = event.seat
        if type(seat) is not int or not 0 <= seat < self.players:
            self._check_seat(seat)
        award: Award | None
        if type(event) is Call:
            if rnd.tracked:
                raise RulesError.of("round_is_tracked")
            award = self._call(rnd, event)
        else:
            if not rnd.tracked:
                raise RulesError.of("round_is_called")
            if rnd.turn != seat:
                raise NotYourTurn.of("not_your_turn",
                                     turn=self.who(rnd.turn),  # type: ignore[arg-type]
                                     who=self.who(seat))
            if type(event) is Play:
                award = self._play(rnd, event)
            elif not rnd.layout:
                raise RulesError.of("opens_with_play", who=self.who(seat))
            elif isinstance(event, Draw):
                self._draw(rnd, event)
                award = None
            else:
                self._pass(rnd, seat)
                award = None
        rnd.events.append(event)
        rnd.awards.append(award)
        if rnd.end is not None and not self._counts_remaining and self.winner is None:
            # remaining tiles score nothing: no count to wait for
            self._close(rnd, None, None)
        return award

    def _play(self, rnd: Round, play: Play) -> Award:
        seat = play.seat
        if play.tile.high > self._top:
            self.options.tile_set.check(play.tile)
        end_sum = rnd.layout.put(play.tile, play.at)
        domino = rnd.counts[seat] == 1
        try:
            award = self._score(rnd, seat, end_sum, domino, play.claim)
        except RulesError:
            rnd.layout.undo()
            raise
        rnd.counts[seat] -= 1
        rnd.passes = 0
        rnd.turn = (seat + 1) % self.players
        if domino:
            rnd.end, rnd.finisher, rnd.turn = RoundEnd.DOMINO, seat, None
        return award

    def _draw(self, rnd: Round, draw: Draw) -> None:
        if not self.options.drawing:
            raise DrawRefused.of("drawing_off")
        count = draw.tiles
        if type(count) is not int or count < 1:
            raise DrawRefused.of("draw_count", count=repr(count))
        if count > rnd.boneyard:
            raise DrawRefused.of("draw_too_many", who=self.who(draw.seat), count=count,
                                 boneyard=rnd.boneyard)
        rnd.boneyard -= count
        rnd.counts[draw.seat] += count

    def _pass(self, rnd: Round, seat: int) -> None:
        if rnd.boneyard and self.options.drawing:
            raise BoneyardNotEmpty.of("boneyard_not_empty", who=self.who(seat),
                                      boneyard=rnd.boneyard)
        rnd.passes += 1
        rnd.passed_at.append((seat, frozenset(p.value for p in rnd.layout.open_points())))
        rnd.turn = (seat + 1) % self.players
        if rnd.passes == self.players:
            rnd.end, rnd.turn = RoundEnd.BLOCKED, None

    def _call(self, rnd: Round, call: Call) -> Award:
        limit = self.game.called_ends_limit(self.options.tile_set)
        if not call.ends:
            raise RulesError.of("call_no_ends")
        if len(call.ends) > limit:
            raise RulesError.of("call_too_many_ends", game=self.game.slug, limit=limit,
                                count=len(call.ends))
        doubles: set[int] = set()
        shown: Counter[int] = Counter()
        for end in call.ends:
            if not end.double:
                self.options.tile_set.check_value(end.value)
                shown[end.value] += 1
                # each such end is its own tile v-x, x not v: the set has ``top`` of them
                if shown[end.value] > self._top:
                    raise DuplicateEnd.of("ends_of_value_too_many", value=end.value,
                                          count=shown[end.value], most=self._top)
                continue
            if not 0 <= end.value <= self._top:
                raise TileNotInSet.of("end_not_double_of_set", end=str(end))
            if end.value in doubles:  # a terminal double is one tile: the set has one
                raise DuplicateEnd.of("duplicate_end", end=str(end))
            doubles.add(end.value)
        if doubles:
            self._check_spinners_left(len(call.ends), doubles)
        if len(shown) > 1:
            self._check_tiles_for_ends(shown)
        award = self._score(rnd, call.seat, call.end_sum, call.goes_out, call.claim)
        if call.goes_out:
            rnd.end, rnd.finisher = RoundEnd.DOMINO, call.seat
        return award

    def _check_spinners_left(self, count: int, doubles: set[int]) -> None:
        """A terminal double is no spinner with open flanks: past the line's two ends,
        only the set's other doubles can open ends (two flanks each, where the game lets
        them be spinners)."""
        left = self._top + 1 - len(doubles)
        if self.game.policy is SpinnerPolicy.FIRST_DOUBLE:
            left = min(left, 1)
        elif self.game.policy is SpinnerPolicy.NONE:
            left = 0
        most = 2 + 2 * left
        if count > most:
            raise RulesError.of("call_ends_past_spinners", count=count, most=most,
                                doubles=", ".join(f"{d}-{d}" for d in sorted(doubles)))

    def _check_tiles_for_ends(self, shown: Counter[int]) -> None:
        """Each non-double end is a tile of its own, and a tile v-w shows v or w, not both:
        the values shown most need no more tiles than the set has with any of them (for
        the k values shown most, every tile but those with neither: Hall's condition)."""
        values = self._top + 1
        total = 0
        named: list[int] = []
        for value, count in sorted(shown.items(), key=lambda item: (-item[1], item[0])):
            total += count
            named.append(value)
            others = values - len(named)
            tiles = (values * (values - 1) - others * (others - 1)) // 2
            if total > tiles:
                raise DuplicateEnd.of("ends_share_tiles", count=total, most=tiles,
                                      values=", ".join(str(v) for v in sorted(named)))

    def award_for(self, seat: int, end_sum: int, *, goes_out: bool) -> Award:
        """What a placement by ``seat`` that makes ``end_sum`` would be awarded now,
        going out or not; nothing changes. The scorepad shows it before the tap.

        >>> from matches.rules.games import FIVES_AND_THREES
        >>> match = Match(FIVES_AND_THREES, 2, {"target": 5})
        >>> match.scores = [3, 0]
        >>> match.award_for(0, 6, goes_out=False).counted   # 6 makes 2: 3 + 2 is 5
        2
        >>> match.award_for(0, 6, goes_out=True).counted    # 2 + 1 would pass 5
        0
        """
        side = self.side_of[seat]
        table = self._points_by_sum
        points = table[end_sum] if end_sum < len(table) else self._points(end_sum, self._divisors)
        bonus = self.game.going_out_bonus if goes_out else 0
        total = points + bonus
        if total and self._refuses_overshoot and self.scores[side] + total > self._target:
            refused = Message("refused_overshoot", total=total,
                              side=tuple(self.who(seat) for seat in self.sides[side]),
                              score=_show(self.scores[side]), target=self._target)
            return Award(seat, side, end_sum, points, bonus, ZERO, refused)
        return Award(seat, side, end_sum, points, bonus, total)

    def room(self, side: int) -> Score | None:
        """The most ``side`` may still make with one placement where an award that would
        pass the target is refused (Fives and Threes' immediate end); None elsewhere."""
        if not self._refuses_overshoot:
            return None
        return self._target - self.scores[side]

    def _score(self, rnd: Round, seat: int, end_sum: int, goes_out: bool,
               claim: Score | None) -> Award:
        """Score one placement; checks the claim before anything changes."""
        award = self.award_for(seat, end_sum, goes_out=goes_out)
        counted, points, total = award.counted, award.points, award.announced
        if claim is not None and claim != counted and claim != total and claim != points:
            raise ClaimMismatch.of("claim_mismatch", claim=_show(Fraction(claim)), total=total,
                                   end_sum=end_sum)
        side = award.side
        if counted:
            self.scores[side] += counted
            rnd.placements[side] += counted
            if self._ends_on_placement and self.scores[side] >= self._target:
                self._check_winner(rnd, during_round=True)
        return award

    def wins_with(self, seat: int, end_sum: int, *, goes_out: bool = False) -> bool:
        """Whether a placement by ``seat`` that makes ``end_sum`` would win the match at
        once, mid-round (where a placement can: All Fives, Fives and Threes with
        immediate end); nothing changes. A record reads from it that a called round's
        winning placement was its seat's last tile (see :mod:`matches.rules.record`).

        >>> match = Match(ALL_FIVES, 2, {"target": 20})
        >>> match.scores = [10, 15]
        >>> match.wins_with(0, 10), match.wins_with(0, 5), match.wins_with(1, 5)
        (True, False, True)
        """
        if not self._ends_on_placement:
            return False
        award = self.award_for(seat, end_sum, goes_out=goes_out)
        if not award.counted:
            return False
        scores = list(self.scores)
        scores[award.side] += award.counted
        return _leader(scores, self._target) is not None

    def _check_winner(self, rnd: Round, *, during_round: bool) -> None:
        winner = _leader(self.scores, self.options.target)
        if winner is not None:
            self.winner = winner
            rnd.won_here = during_round
            if during_round:
                rnd.scores = list(self.scores)

    # -- settlement ------------------------------------------------------------------

    def _settle(self, settle: Settle) -> Settlement | None:
        rnd = self.current_round
        if (rnd is not None and rnd.settled and not self._counts_remaining
                and not rnd.won_here and not _counted(rnd.settle)):
            return self._count_after(rnd, settle)
        if self.finished:
            raise MatchOver.of("match_won_no_count")
        if rnd is None or rnd.settled:
            raise RoundOver.of("no_round_to_settle")
        end, finisher = rnd.end, rnd.finisher
        if rnd.tracked:
            if end is None:
                raise RoundOver.of("round_not_over")
            self._check_result(rnd, settle)
        else:
            end, finisher = self._called_result(rnd, settle)
        # a called round keeps its result with its count, in one Settle (the record's way)
        given = settle if rnd.tracked else Settle(settle.hands, settle.pips, end, finisher)
        if not _counted(settle):
            if self._counts_remaining:
                if rnd.end is None:  # a called round's result alone: its count comes later
                    rnd.end, rnd.finisher, rnd.settle, rnd.turn = end, finisher, given, None
                    return None
                raise HandsMismatch.of("count_required", end=end.value)
            rnd.end, rnd.finisher = end, finisher
            return self._close(rnd, given, None)
        pips = self._count(rnd, settle, finisher)
        rnd.end, rnd.finisher = end, finisher
        return self._close(rnd, given, pips)

    def _close(self, rnd: Round, settle: Settle | None,
               pips: tuple[int, ...] | None) -> Settlement:
        """Settle the ended round: the game's settlement, the scores, then the targets."""
        settlement = self.game.settle(self.options, self.players, pips, rnd.finisher,
                                      self.labels)
        rnd.settle, rnd.pips, rnd.settlement = settle, pips, settlement
        rnd.turn = None
        for side, award in enumerate(settlement.awards):
            self.scores[side] += award
        self._check_winner(rnd, during_round=False)
        rnd.scores = list(self.scores)
        return settlement

    def _count_after(self, rnd: Round, settle: Settle) -> Settlement:
        """A count for a round settled without one: checked and kept, scoring nothing.

        Why: in Fives and Threes a round is settled as it ends, yet a record may still
        give its hands or pips, and they must agree with the round like anywhere else.
        """
        if not _counted(settle):
            raise RoundOver.of("settled_when_ended", round=rnd.number, game=self.game.slug)
        self._check_result(rnd, settle)
        rnd.pips = self._count(rnd, settle, rnd.finisher)
        rnd.settle = settle if rnd.tracked else Settle(settle.hands, settle.pips, rnd.end,
                                                       rnd.finisher)
        assert rnd.settlement is not None  # settled: the caller checked
        return rnd.settlement

    def _count(self, rnd: Round, settle: Settle, finisher: int | None) -> tuple[int, ...]:
        """Each seat's remaining pips from the hands or the pip totals, checked."""
        if settle.hands is not None and settle.pips is not None:
            raise HandsMismatch.of("hands_and_pips")
        if settle.hands is not None:
            pips = self._hands_pips(rnd, settle.hands, finisher)
            rnd.notes = self._pass_notes(rnd, settle.hands)
            return pips
        assert settle.pips is not None  # _counted: one of the two is given
        return self._check_pips(rnd, settle.pips, finisher)

    def _pass_notes(self, rnd: Round, hands: Sequence[Sequence[Tile]]) -> tuple[Message, ...]:
        """A pass the shown hands prove was against the rules: the seat still holds a
        tile that fitted an open end when it passed. Every tile of a hand at the count
        was in it at the pass, as nothing is drawn after one (a pass waits for an empty
        boneyard; without drawing there is no draw at all). One note a seat."""
        notes = []
        noted: set[int] = set()
        for seat, values in rnd.passed_at:
            fitting = [str(tile) for tile in hands[seat]
                       if tile.low in values or tile.high in values]
            if fitting and seat not in noted:
                noted.add(seat)
                notes.append(Message("pass_held_fit", who=self.who(seat),
                                     tiles=", ".join(fitting)))
        return tuple(notes)

    def _check_result(self, rnd: Round, settle: Settle) -> None:
        """A result given for a round that has already ended must be how it ended."""
        end = rnd.end
        assert end is not None  # the callers check that the round has ended
        seat = rnd.finisher if end is RoundEnd.DOMINO else None
        if settle.result is None or (settle.result is end
                                     and settle.domino_seat in (None, seat)):
            return  # not said, or said as it was (a domino's seat may go unsaid)
        if not rnd.tracked and seat is not None and any(
                type(event) is Call and event.goes_out for event in rnd.events):
            raise RulesError.of("went_out_last_call", who=self.who(seat))
        if seat is not None:
            raise RulesError.of("result_domino_differs", who=self.who(seat))
        raise RulesError.of("result_blocked_differs")

    def _called_result(self, rnd: Round, settle: Settle) -> tuple[RoundEnd, int | None]:
        if rnd.end is not None:  # a going-out call, or a result given before, ended it
            self._check_result(rnd, settle)
            return rnd.end, rnd.finisher
        if settle.result is None:
            raise RulesError.of("result_needed")
        if settle.result is RoundEnd.BLOCKED:
            return RoundEnd.BLOCKED, None
        seat = self._check_seat(settle.domino_seat)
        if self.game.going_out_bonus:
            raise RulesError.of("mark_going_out", game=self.game.slug, who=self.who(seat))
        return RoundEnd.DOMINO, seat

    def _hands_pips(self, rnd: Round, hands: Sequence[Sequence[Tile]],
                    finisher: int | None) -> tuple[int, ...]:
        if len(hands) != self.players:
            raise HandsMismatch.of("hands_count", given=len(hands), seats=self.players)
        shown: dict[Tile, int] = {}
        on_table = self._known_on_table(rnd)
        for seat, hand in enumerate(hands):
            who = self.who(seat)
            if seat == finisher and hand:
                raise HandsMismatch.of("hands_went_out", who=who, count=len(hand))
            if rnd.tracked and seat != finisher and len(hand) != rnd.counts[seat]:
                raise HandsMismatch.of("hands_held", who=who, count=len(hand),
                                       held=rnd.counts[seat])
            if not rnd.tracked and seat != finisher and not hand:
                raise HandsMismatch.of("hands_empty", who=who)
            for tile in hand:
                if tile.high > self._top:
                    raise TileNotInSet.of("hands_not_in_set", who=who, tile=str(tile),
                                          set=self.options.tile_set.slug)
                if tile in on_table:
                    raise HandsMismatch.of("hands_on_table", who=who, tile=str(tile))
                if tile in shown:
                    raise HandsMismatch.of("hands_shown_twice", who=who, tile=str(tile),
                                           other=self.who(shown[tile]))
                shown[tile] = seat
        return tuple(sum(tile.pips for tile in hand) for hand in hands)

    def _check_pips(self, rnd: Round, pips: Sequence[int],
                    finisher: int | None) -> tuple[int, ...]:
        if len(pips) != self.players:
            raise HandsMismatch.of("pips_count", given=len(pips), seats=self.players)
        on_table = self._known_on_table(rnd)
        unseen = [t.pips for t in self.options.tile_set.tiles if t not in on_table]
        for seat, total in enumerate(pips):
            who = self.who(seat)
            if type(total) is not int or total < 0:
                raise HandsMismatch.of("pips_negative", who=who, total=str(total))
            if seat == finisher:
                if total:
                    raise HandsMismatch.of("pips_went_out", who=who, total=total)
                continue
            count = rnd.counts[seat] if rnd.tracked else None
            if not _reachable(unseen, total, count):
                if count == 1:
                    raise HandsMismatch.of("pips_one_tile", total=total, who=who)
                if count is not None:
                    raise HandsMismatch.of("pips_tiles", count=count, total=total, who=who)
                raise HandsMismatch.of("pips_unseen", total=total, who=who)
        # Each total is possible alone; now all of them at once, from one set of tiles.
        # None (the search gave up: see DEAL_BUDGET) accepts, like the checks above.
        holders = [seat for seat in range(self.players) if seat != finisher
                   and (not rnd.tracked or rnd.counts[seat] > 0)]
        needs = [(rnd.counts[seat] if rnd.tracked else AT_LEAST_ONE, pips[seat])
                 for seat in holders]
        by_value = [0] * (2 * self.options.tile_set.top + 1)
        for value in unseen:
            by_value[value] += 1
        if dealable(by_value, needs, DEAL_BUDGET) is False:
            names = tuple(self.who(seat) for seat in holders)
            totals = tuple(str(pips[seat]) for seat in holders)
            if len(holders) == 1:
                raise HandsMismatch.of("pips_deal_one", who=names[0], total=totals[0])
            raise HandsMismatch.of("pips_deal", names=names, totals=totals)
        return tuple(pips)

    def _known_on_table(self, rnd: Round) -> set[Tile] | Layout:
        if rnd.tracked:
            return rnd.layout
        # a called round names only its terminal doubles: those are certainly on the table
        return {Tile(end.value, end.value) for event in rnd.events
                if isinstance(event, Call) for end in event.ends if end.double}


def _leader(scores: Sequence[Score], target: int) -> int | None:
    """The side that wins with these scores: the single highest of those at or over the
    target; None if none is there, or the highest are tied (they play on)."""
    reached = [side for side, score in enumerate(scores) if score >= target]
    if not reached:
        return None
    top = max(scores[side] for side in reached)
    leaders = [side for side in reached if scores[side] == top]
    return leaders[0] if len(leaders) == 1 else None


def _counted(settle: Settle | None) -> bool:
    """Whether a settlement gave the round's count (hands or pips), not just its result."""
    return settle is not None and (settle.hands is not None or settle.pips is not None)


@functools.cache
def _points_by_sum(game: Game, divisors: tuple[int, ...], most: int) -> tuple[int, ...]:
    """Placement points for every end sum up to ``most``: a lookup instead of a call."""
    return tuple(game.placement_points(end_sum, divisors) for end_sum in range(most + 1))


def _reachable(tiles: Sequence[int], total: int, count: int | None) -> bool:
    """Whether ``count`` of the tiles (any number from 1 if None) add up to ``total``."""
    if count is None:
        sums = 1  # bit s set: some non-empty selection adds up to s
        for pips in tiles:
            sums |= sums << pips
        # total 0 needs a real tile worth 0 (the 0-0), not the empty selection
        return total > 0 and bool(sums >> total & 1) or (total == 0 and 0 in tiles)
    by_count = [1] + [0] * count  # by_count[k]: bit s set if k tiles add up to s
    for pips in tiles:
        for k in range(count, 0, -1):
            by_count[k] |= by_count[k - 1] << pips
    return bool(by_count[count] >> total & 1)


def _show(value: Score) -> str:
    if type(value) is int:
        return str(value)
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
