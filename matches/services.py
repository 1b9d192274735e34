"""Writes. Every change to a match goes through the rules engine here, atomically.

Each service replays the stored events, applies the one new action in the engine
(a :class:`~matches.rules.RulesError` stops it before anything is written), then
stores the action and refreshes the cached scores in the same transaction, so the
cache always equals a fresh replay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.models import (
    Event,
    EventKind,
    Match,
    MatchStatus,
    Player,
    Round,
    RoundEnd,
    RoundMode,
    RoundSide,
    Seat,
    Side,
)
from matches.record_files import RecordSource
from matches.selectors import match_engine, score_decimal

PLAYERS_DIFFERENT = _("Each player needs a different name: %(name)s sits twice.")
OUT_OF_DATE = _("That tap was already recorded, or the match moved on meanwhile: "
                "here is the table as it stands now.")


class OutOfDate(Exception):
    """The scorer's page had seen a different number of actions than the match holds.

    Every scoring write may carry ``expected_seq`` (the number of actions its page
    showed); a tap repeated after a dropped connection, or a second scorer's stale
    page, is then refused instead of being applied twice.
    """

    def __init__(self) -> None:
        super().__init__(str(OUT_OF_DATE))


def player_get_or_create(*, name: str) -> Player:
    name = name.strip()
    player = Player.objects.filter(name__iexact=name).order_by(Lower("name")).first()
    if player is None:
        player = Player(name=name)
        player.full_clean()
        player.save()
    return player


@transaction.atomic
def match_create(*, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 created_by: User | None = None) -> Match:
    """A new match with its seats and sides; the first round is started separately."""
    engine = rules.Match(rules.game_for(game), list(players), dict(options or {}))
    return _store_match(engine, created_by=created_by)


@transaction.atomic
def match_start(*, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                starter: int | None = None, mode: str = RoundMode.TRACKED,
                created_by: User | None = None) -> tuple[Match, Round]:
    """A new match and its first round, together or not at all (no starter: draw lots)."""
    match = match_create(game=game, players=players, options=options, created_by=created_by)
    return match, round_start(match=match, starter=starter, mode=mode, draw_lots=True)


@transaction.atomic
def round_start(*, match: Match, starter: int | None, mode: str = RoundMode.TRACKED,
                draw_lots: bool = False, expected_seq: int | None = None) -> Round:
    """Open the next round with ``starter``.

    With ``draw_lots`` and no starter, the seat that must start (the previous round's
    finisher, in All Fives and Five Up) starts, or else the engine draws lots; the
    returned round's ``lots_drawn`` (not stored) says which, for the page to announce.
    """
    match, engine = _locked_engine(match, expected_seq)
    lots_drawn = False
    if starter is None and draw_lots:
        starter = engine.required_starter()
        if starter is None:
            starter, lots_drawn = engine.draw_lots(), True
    rules_mode = rules.RoundMode.CALLED if mode == RoundMode.CALLED else rules.RoundMode.TRACKED
    engine.do(rules.StartRound(starter, rules_mode))
    round_ = Round(match=match, number=len(engine.rounds), mode=mode, starter=starter)
    round_.full_clean()
    round_.save()
    round_.lots_drawn = lots_drawn
    _sync(match, engine, [round_])
    return round_


@transaction.atomic
def event_record(*, match: Match, action: rules.Event,
                 expected_seq: int | None = None) -> Event:
    """Record a play, draw, pass or called placement in the current round."""
    match, engine = _locked_engine(match, expected_seq)
    return _event_store(match, engine, action)


def placement_record(*, match: Match, tile: rules.Tile, at: rules.AttachmentPoint | None = None,
                     claim: int | None = None, expected_seq: int | None = None) -> Event:
    """The seat whose turn it is places ``tile`` at ``at`` (the opening takes no point)."""
    return _turn_record(match, lambda seat: rules.Play(seat, tile, at, claim), expected_seq)


def draw_record(*, match: Match, tiles: int, expected_seq: int | None = None) -> Event:
    """The seat whose turn it is draws ``tiles`` from the boneyard, one at a time."""
    return _turn_record(match, lambda seat: rules.Draw(seat, tiles), expected_seq)


def pass_record(*, match: Match, expected_seq: int | None = None) -> Event:
    """The seat whose turn it is passes (refused while the boneyard holds tiles)."""
    return _turn_record(match, rules.Pass, expected_seq)


@transaction.atomic
def _turn_record(match: Match, build: Callable[[int], rules.Event],
                 expected_seq: int | None) -> Event:
    match, engine = _locked_engine(match, expected_seq)
    rnd = engine.current_round
    # with no seat to act (no round, or it ended) the engine refuses whatever seat is named
    seat = rnd.turn if rnd is not None and rnd.turn is not None else 0
    return _event_store(match, engine, build(seat))


def _event_store(match: Match, engine: rules.Match, action: rules.Event) -> Event:
    award = engine.do(action)
    round_ = match.rounds.order_by("-number").first()
    assert round_ is not None  # the engine refuses an event before the first round
    event = _event_row(match, round_, action, award,
                       number=match.events.count() + 1)
    event.full_clean()
    event.save()
    _copy_end(round_, engine.rounds[-1])
    round_.save(update_fields=["end", "finisher"])
    _sync(match, engine, [round_])
    return event


@transaction.atomic
def round_settle(*, match: Match, hands: Sequence[Sequence[rules.Tile]] | None = None,
                 pips: Sequence[int] | None = None, result: rules.RoundEnd | None = None,
                 domino_seat: int | None = None, expected_seq: int | None = None) -> Round:
    """Settle the ended round from each hand's remaining tiles or pip totals."""
    match, engine = _locked_engine(match, expected_seq)
    engine.settle(hands=hands, pips=pips, result=result, domino_seat=domino_seat)
    rnd = engine.rounds[-1]
    round_ = match.rounds.get(number=rnd.number)
    _copy_end(round_, rnd)
    round_.settled = True
    round_.hands = _hands_text(hands) if hands is not None else None
    round_.pips = list(pips) if pips is not None else None
    round_.full_clean()
    round_.save()
    _sync(match, engine, [round_])
    return round_


@transaction.atomic
def event_undo(*, match: Match, expected_seq: int | None = None) -> rules.Action:
    """Take back the last action: an event, a settlement or the start of a round."""
    match, engine = _locked_engine(match, expected_seq)
    undone = engine.undo()
    round_ = match.rounds.order_by("-number").first()
    assert round_ is not None
    touched: list[Round] = []
    if isinstance(undone, rules.StartRound):
        round_.delete()
    elif isinstance(undone, rules.Settle):
        round_.settled = False
        round_.hands = round_.pips = None
        if round_.mode == RoundMode.CALLED and not engine.rounds[-1].ended:
            round_.end, round_.finisher = RoundEnd.NONE, None
        round_.save()
        touched.append(round_)
    else:
        match.events.order_by("-number").first().delete()  # type: ignore[union-attr]
        _copy_end(round_, engine.rounds[-1])
        round_.save(update_fields=["end", "finisher"])
        touched.append(round_)
    _sync(match, engine, touched)
    return undone


@transaction.atomic
def match_import(*, document: Mapping[str, Any],
                 created_by: User | None = None) -> Match:
    """Verify a ``domino-match/1`` record by replaying it, then store it whole."""
    engine = rules.replay(document)
    match = _store_match(engine, created_by=created_by)
    sides = {side.index: side for side in match.sides.all()}
    number = 0
    events: list[Event] = []
    rounds: list[Round] = []
    for rnd in engine.rounds:
        settle = rnd.settle
        round_ = Round(
            match=match, number=rnd.number,
            mode=RoundMode.CALLED if not rnd.tracked else RoundMode.TRACKED,
            starter=rnd.starter, settled=rnd.settled,
            hands=_hands_text(settle.hands) if settle and settle.hands is not None else None,
            pips=list(settle.pips) if settle and settle.pips is not None else None,
        )
        _copy_end(round_, rnd)
        round_.full_clean(validate_constraints=False)
        round_.save()
        rounds.append(round_)
        for action, award in zip(rnd.events, rnd.awards, strict=True):
            number += 1
            events.append(_event_row(match, round_, action, award, number=number))
    Event.objects.bulk_create(events)
    _sync(match, engine, rounds, sides=sides)
    return match


def record_import(*, source: RecordSource,
                  created_by: User | None = None) -> tuple[Match | None, str | None]:
    """Store one record read from a file, or say why it was refused (then nothing is)."""
    if source.document is None:
        return None, source.error
    try:
        return match_import(document=source.document, created_by=created_by), None
    except rules.RulesError as error:
        return None, str(error)
    except ValidationError as error:  # e.g. a player's name longer than the column
        return None, "; ".join(error.messages)


# -- internals -----------------------------------------------------------------------


def _locked_engine(match: Match, expected_seq: int | None) -> tuple[Match, rules.Match]:
    """The match row, locked for this transaction (two phones cannot interleave writes),
    and its replay; refused if the scorer's page was out of date."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    engine = match_engine(match)
    if expected_seq is not None and expected_seq != len(engine.log):
        raise OutOfDate
    return match, engine


def _store_match(engine: rules.Match, *, created_by: User | None) -> Match:
    names = engine.names or [f"Seat {seat + 1}" for seat in range(engine.players)]
    seen: set[str] = set()
    for name in names:
        if name.strip().casefold() in seen:  # one player cannot hold two seats
            raise ValidationError({"players": ValidationError(
                PLAYERS_DIFFERENT, code="players_different", params={"name": name.strip()})})
        seen.add(name.strip().casefold())
    match = Match(game=engine.game.slug, options=dict(engine.options.given),
                  player_count=engine.players, target=engine.options.target,
                  created_by=created_by)
    match.full_clean()
    match.save()
    sides = [Side(match=match, index=index) for index in range(len(engine.sides))]
    Side.objects.bulk_create(sides)
    for position, name in enumerate(names):
        seat = Seat(match=match, position=position, player=player_get_or_create(name=name),
                    side=sides[engine.side_of[position]])
        seat.full_clean()
        seat.save()
    return match


def _copy_end(round_: Round, rnd: rules.Round) -> None:
    """How the engine's round ended (so far), onto its row."""
    round_.end = rnd.end.value if rnd.end else RoundEnd.NONE
    round_.finisher = rnd.finisher


def _hands_text(hands: Sequence[Sequence[rules.Tile]]) -> list[list[str]]:
    return [[str(tile) for tile in hand] for hand in hands]


def _event_row(match: Match, round_: Round, action: rules.Action, award: rules.Award | None,
               *, number: int) -> Event:
    event = Event(match=match, round=round_, number=number, seat=action.seat)  # type: ignore[union-attr]
    claim = getattr(action, "claim", None)
    if claim is not None:
        event.claim = score_decimal(claim)
    if isinstance(action, rules.Play):
        event.kind = EventKind.PLAY
        event.tile = str(action.tile)
        event.at = str(action.at) if action.at else ""
    elif isinstance(action, rules.Draw):
        event.kind, event.tiles_drawn = EventKind.DRAW, action.tiles
    elif isinstance(action, rules.Pass):
        event.kind = EventKind.PASS
    elif isinstance(action, rules.Call):
        event.kind = EventKind.CALL
        event.ends = [str(end) for end in action.ends]
        event.goes_out = action.goes_out
    if award is not None:
        event.end_sum = award.end_sum
        event.points = score_decimal(award.counted)
        event.refused = award.refused or ""
    return event


def _sync(match: Match, engine: rules.Match, rounds: Sequence[Round], *,
          sides: dict[int, Side] | None = None) -> None:
    """Refresh the cached scores and status from the engine's state."""
    sides = sides or {side.index: side for side in match.sides.all()}
    for index, score in enumerate(engine.scores):
        side = sides[index]
        side.score = score_decimal(score)
    Side.objects.bulk_update(list(sides.values()), ["score"])
    by_number = {rnd.number: rnd for rnd in engine.rounds}
    for round_ in rounds:
        rnd = by_number.get(round_.number)
        if rnd is None:
            continue
        running = engine.scores_after(rnd)
        awards = rnd.settlement_awards
        RoundSide.objects.filter(round=round_).delete()
        RoundSide.objects.bulk_create([
            RoundSide(round=round_, side=sides[index],
                      placements=score_decimal(rnd.placements[index]),
                      settlement=score_decimal(awards[index]),
                      score=score_decimal(running[index]))
            for index in range(len(sides))
        ])
    finished = engine.winner is not None
    match.status = MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS
    match.winner_side = engine.winner
    if finished and match.finished_at is None:
        match.finished_at = max(timezone.now(), match.started_at)
    elif not finished:
        match.finished_at = None
    match.save(update_fields=["status", "winner_side", "finished_at"])
