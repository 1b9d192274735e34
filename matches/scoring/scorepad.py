"""The scorepad's view of a match: everything the page shows, built from the engine.

A read: it replays the stored events (selectors) and describes the table — whose
turn, the board, which tiles can still be tapped, where a chosen tile may go and what
it would score — without deciding any rule itself.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from uuid import UUID

from django.urls import get_script_prefix, reverse
from django.utils.translation import gettext as _

from matches import rules
from matches.core import messages as rules_messages
from matches.scoring import presenters
from matches.scoring.models import Match

SHOWN_ROUNDS = 12  # rounds in the scorepad's table, the newest
# the match's pages and scoring actions the scorepad links to or posts to
LINKED = ("play", "draw", "pass", "call", "settle", "round", "undo", "scorers", "history",
          "rename", "abandon", "delete", "detail", "record_json")


@dataclass
class SeatView:
    position: int
    name: str
    side: int
    tiles: int | None  # tiles in hand, tracked rounds only
    turn: bool


@dataclass
class SideView:
    index: int
    names: str
    score: str
    raw: str | None  # Five Up: the raw points beside the display points
    tally: presenters.Tally | None
    winner: bool
    leading: bool


@dataclass
class PickTile:
    tile: str
    on_table: bool
    playable: bool
    selected: bool


@dataclass
class Choice:
    """A legal end for the chosen tile, with what placing it there would make."""

    point: str
    label: str
    end_sum: int
    points: int  # what would count: the going-out bonus in, an overshoot's award out
    flank: bool
    refused: bool = False  # Fives and Threes: the award would pass the target
    # a double's end: how many more tiles it takes (a spinner's flanks included), so
    # that a page without a connection stops offering it once they are placed
    free: int | None = None
    spinner: bool = False


@dataclass
class TileChoices:
    """A playable tile and every end it may join: the page offers them without asking."""

    tile: str
    choices: list[Choice]


@dataclass
class AwardView:
    who: str
    what: str
    ends: str
    end_sum: int
    points: str  # the placement's own points (what counted, when no bonus)
    refused: str | None
    bonus: int = 0  # the going-out bonus, named apart
    total: str = ""  # points and bonus together: what counted


@dataclass
class RoundView:
    number: int
    mode: str
    placements: list[str]
    settlement: list[str]
    scores: list[str]
    finisher: str | None
    blocked: bool
    steps: list[str]
    ended: bool
    won_here: bool
    miscalls: list[str] = field(default_factory=list)  # wrong calls, recorded at the rules' points


@dataclass
class ScorepadView:
    match: Match
    engine: rules.Match
    version: int  # the match version this page shows: its writes name it
    phase: str
    unit: str
    names: list[str]
    seats: list[SeatView]
    sides: list[SideView]
    board: presenters.Board
    ends_text: str
    end_sum: int
    boneyard: int | None
    round_number: int | None
    mode: str | None
    turn_name: str | None
    turn_seat: int | None
    picker: list[PickTile] = field(default_factory=list)
    selected: str | None = None
    choices: list[Choice] = field(default_factory=list)
    last_award: AwardView | None = None
    rounds: list[RoundView] = field(default_factory=list)
    required_starter: int | None = None
    winner: str | None = None
    called_ends: int = 4
    can_undo: bool = False
    value_range: range = range(7)
    drawing: bool = True
    next_caller: int = 0  # called rounds: the seat after the last one that scored
    went_out: int | None = None  # the seat that went out, while its round awaits the count
    round_blocked: bool = False  # the round awaiting its count ended blocked
    tile_choices: list[TileChoices] = field(default_factory=list)  # every playable tile's
    points_by_sum: list[int] = field(default_factory=list)  # called rounds: the engine's table
    # called rounds: the most each seat's side may still make at once (engine.room), where
    # an award that would pass the target is refused; empty where any award counts
    room_by_seat: list[str] = field(default_factory=list)
    going_out_bonus: int = 0
    starter_rule: str = "lots"  # how the next round's starter is found: lots, double, finisher
    last_mode: str = "tracked"  # the mode of the round before: the next one offers it first
    tie_note: str = ""  # a side at or past the target: why play goes on
    earlier_rounds: int = 0  # rounds before the ones shown
    total_rounds: int = 0
    # which doubles spin, and how many are down: a page without a connection works out
    # the ends a double placed offline opens
    spinner_policy: str = "none"
    doubles_placed: int = 0
    # the passes in a row since the last placement: the page offline knows the round is
    # blocked when every seat has passed
    passes: int = 0

    @property
    def count_title(self) -> str:
        """The heading of a round waiting for its count, also said in the bar by the tap
        that ended it: blocked, or over (someone went out)."""
        words = (_("Round %(number)s is blocked — count the hands") if self.round_blocked
                 else _("Round %(number)s is over — count the hands"))
        return words % {"number": self.round_number}

    @property
    def rounds_key(self) -> str:
        """Everything the rounds table shows, as the key of its cached drawing
        (``{% cache %}`` in ``templates/matches/scorepad.html``, with the language)."""
        return repr((str(self.match.public_id), self.phase == "finished", self.total_rounds,
                     [side.names for side in self.sides], self.rounds))

    @property
    def urls(self) -> dict[str, str]:
        """The addresses the scorepad links to or posts to (:data:`LINKED`), by name."""
        return _urls(self.match.public_id, get_script_prefix())

    @property
    def out_by_call(self) -> bool:
        """Fives and Threes: going out (its bonus) is marked on the last call."""
        return bool(self.going_out_bonus)


@functools.lru_cache(maxsize=256)
def _urls(public_id: UUID, prefix: str) -> dict[str, str]:
    # reversed once per match (and script prefix) in a process, not a dozen times a tap
    return {name: reverse(f"matches:{name}", kwargs={"public_id": public_id})
            for name in LINKED}


def build(match: Match, engine: rules.Match, *, selected: str | None = None,
          miscalls: dict[int, list[str]] | None = None) -> ScorepadView:
    """The scorepad of ``match``; ``miscalls``: the wrong calls noted per round number."""
    game = engine.game
    names = list(engine.names or [])
    rnd = engine.current_round
    tracked_play = rnd is not None and rnd.tracked and engine.phase == "play"
    seats = [
        SeatView(position=seat, name=names[seat], side=engine.side_of[seat],
                 tiles=rnd.counts[seat] if rnd is not None and rnd.tracked else None,
                 turn=bool(tracked_play and rnd is not None and rnd.turn == seat))
        for seat in range(engine.players)
    ]
    top = max(engine.scores)
    sides = []
    for index, seats_of_side in enumerate(engine.sides):
        score = engine.scores[index]
        raw = game.raw_points(score)
        sides.append(SideView(
            index=index, names=" & ".join(names[s] for s in seats_of_side),
            score=presenters.show_score(score),
            raw=presenters.show_score(raw) if game.unit is rules.Unit.DISPLAY else None,
            tally=presenters.tally(raw) if game.unit is not rules.Unit.POINTS else None,
            winner=engine.winner == index, leading=score == top and score > 0))
    layout = rnd.layout if rnd is not None and rnd.tracked else None
    board = presenters.board(layout)
    view = ScorepadView(
        match=match, engine=engine, version=match.version, phase=engine.phase,
        unit=rules_messages.unit_name(game.unit), names=names, seats=seats, sides=sides,
        board=board, ends_text=" + ".join(board.ends_clockwise),
        end_sum=layout.end_sum if layout else 0,
        boneyard=rnd.boneyard if rnd is not None and engine.options.drawing else None,
        round_number=rnd.number if rnd else None,
        mode=rnd.mode.value if rnd else None,
        turn_name=names[rnd.turn] if tracked_play and rnd and rnd.turn is not None else None,
        turn_seat=rnd.turn if tracked_play and rnd else None,
        required_starter=engine.required_starter(),
        winner=(rules_messages.listed([names[seat] for seat in engine.sides[engine.winner]])
                if engine.winner is not None else None),
        called_ends=game.called_ends_limit(engine.options.tile_set),
        can_undo=bool(engine.log),
        value_range=range(engine.options.tile_set.top + 1),
        drawing=engine.options.drawing,
        going_out_bonus=game.going_out_bonus,
    )
    view.starter_rule = ("finisher" if view.required_starter is not None
                         else "double" if game.starter_holds_highest_double else "lots")
    if engine.rounds:
        view.last_mode = engine.rounds[-1].mode.value
    if rnd is not None and not rnd.tracked and engine.phase == "play":
        top_sum = view.called_ends * 2 * engine.options.tile_set.top
        view.points_by_sum = [game.placement_points(total, engine.options.divisors)
                              for total in range(top_sum + 1)]
        rooms = [engine.room(engine.side_of[seat]) for seat in range(engine.players)]
        view.room_by_seat = [str(room) for room in rooms if room is not None]
    if layout is not None:
        view.spinner_policy = layout.policy.value
        view.doubles_placed = layout.doubles_placed
        view.passes = rnd.passes if rnd is not None else 0
        on_table = set(layout.tiles)
        open_values = {point.value for point in layout.open_points()}
        chosen = None
        if selected:
            try:
                chosen = rules.Tile.parse(selected)
            except rules.RulesError:
                chosen = None
            if chosen not in engine.options.tile_set.tiles:
                chosen = None  # not of this set: refused as such, not as having no end
        view.picker = [
            PickTile(str(tile), tile in on_table,
                     tile not in on_table and (not layout or tile.low in open_values
                                               or tile.high in open_values),
                     tile == chosen)
            for tile in engine.options.tile_set.tiles
        ]
        if tracked_play:
            assert rnd is not None and rnd.turn is not None  # a tracked round in play
            view.tile_choices = [TileChoices(t.tile, _choices(engine, rnd, rnd.turn,
                                                              rules.Tile.parse(t.tile)))
                                 for t in view.picker if t.playable]
        if chosen is not None and chosen not in on_table and tracked_play:
            view.selected = str(chosen)
            view.choices = next((offered.choices for offered in view.tile_choices
                                 if offered.tile == view.selected), [])
    if rnd is not None and not rnd.tracked:
        if rnd.events:
            view.next_caller = (rnd.events[-1].seat + 1) % engine.players
        elif rnd.starter is not None:
            view.next_caller = rnd.starter
    if rnd is not None:
        view.last_award = _last_award(engine, rnd)
        if engine.phase == "settle":
            view.went_out, view.round_blocked = rnd.finisher, rnd.blocked
    view.rounds = _rounds(engine, miscalls or {})
    view.total_rounds = len(engine.rounds)
    view.earlier_rounds = view.total_rounds - len(view.rounds)
    view.tie_note = _tie_note(engine, sides)
    return view


def _tie_note(engine: rules.Match, sides: list[SideView]) -> str:
    """Why a match whose leader reached the target goes on: the round is not settled
    yet, or the leaders are level."""
    if engine.finished:
        return ""
    target = engine.options.target
    top = max(engine.scores)
    level = [side.names for side, score in zip(sides, engine.scores, strict=True)
             if score == top]
    if top < target:
        return ""
    rnd = engine.current_round
    if len(level) < 2 or (rnd is not None and not rnd.settled
                          and not engine.game.ends_on_placement(engine.options)):
        # past the target mid-round where the match is decided only after the round
        # (Five Up; Fives and Threes without its immediate end): not won yet, and sides
        # level now may not be once the count's deductions are in
        return _("%(sides)s reached the target %(target)s: the winner is decided once this "
                 "round is settled.") % {"sides": rules_messages.listed(level),
                                         "target": target}
    return _("%(sides)s are level on %(score)s, at or past the target %(target)s: a match "
             "needs one side ahead alone, so play goes on.") % {
        "sides": rules_messages.listed(level), "score": presenters.show_score(top),
        "target": target}


def _choices(engine: rules.Match, rnd: rules.Round, seat: int,
             tile: rules.Tile) -> list[Choice]:
    """Every end ``tile`` may join when ``seat`` places it, with the award the engine
    would give: its last tile's bonus in, an award that would pass the target out."""
    layout = rnd.layout
    goes_out = rnd.counts[seat] == 1

    def award(end_sum: int) -> tuple[int, bool]:
        given = engine.award_for(seat, end_sum, goes_out=goes_out)
        return int(given.counted), given.refusal is not None

    if not len(layout):
        placed = layout.preview(tile)
        points, refused = award(placed.end_sum)
        return [Choice("", _("Open with %(tile)s") % {"tile": str(tile)}, placed.end_sum,
                       points, False, refused)]
    choices = []
    for point in layout.legal_points(tile):
        placed = layout.preview(tile, point)
        slot = placed.slot  # the slot of the double it joins, if any
        label = presenters.end_label(point, flank=bool(slot and slot.is_flank))
        points, refused = award(placed.end_sum)
        choices.append(Choice(str(point), label, placed.end_sum, points,
                              bool(slot and slot.is_flank), refused,
                              layout.free_slots(point.tile) if slot is not None else None,
                              layout.is_spinner(point.tile)))
    return choices


def _last_award(engine: rules.Match, rnd: rules.Round) -> AwardView | None:
    names: tuple[str, ...] = engine.names or ()
    for event, award in zip(reversed(rnd.events), reversed(rnd.awards), strict=True):
        if award is None:
            continue
        if isinstance(event, rules.Play):
            what = presenters.placed_words(event.tile, event.at)
        else:
            what = _("a called placement")
        ends = ""
        if isinstance(event, rules.Call):
            ends = " + ".join(str(end.points) for end in event.ends)
        if award.refused:
            return AwardView(names[event.seat], what, ends, award.end_sum, "0",
                             rules_messages.refusal(award))
        # not refused: what counted is the placement's points and its bonus
        return AwardView(names[event.seat], what, ends, award.end_sum,
                         presenters.show_score(award.points), None, bonus=award.bonus,
                         total=presenters.show_score(award.counted))
    return None


def _rounds(engine: rules.Match, miscalls: dict[int, list[str]]) -> list[RoundView]:
    """The last SHOWN_ROUNDS rounds: the table stays small (and each tap's answer with
    it) however long the match; the match record has them all."""
    names: tuple[str, ...] = engine.names or ()
    views = []
    for rnd in engine.rounds[-SHOWN_ROUNDS:]:
        views.append(RoundView(
            number=rnd.number, mode=rnd.mode.value,
            placements=[presenters.show_score(v) for v in rnd.placements],
            settlement=[presenters.show_score(v) for v in rnd.settlement_awards],
            scores=[presenters.show_score(v) for v in engine.scores_after(rnd)],
            finisher=names[rnd.finisher] if rnd.finisher is not None else None,
            blocked=rnd.blocked, ended=rnd.ended, won_here=rnd.won_here,
            steps=rules_messages.steps(rnd.settlement, rnd.notes),
            miscalls=miscalls.get(rnd.number, [])))
    return views
