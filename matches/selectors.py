"""Reads: stored rows back into the rules engine, records, summaries and lists."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Prefetch, QuerySet

from matches import rules
from matches.models import Event, EventKind, Match, Round, RoundEnd, RoundMode, Seat


def match_list(*, status: str | None = None, game: str | None = None,
               public_ids: Sequence[str] | None = None) -> QuerySet[Match]:
    matches = Match.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")), "sides")
    if public_ids is not None:
        matches = matches.filter(public_id__in=public_ids)
    if status:
        matches = matches.filter(status=status)
    if game:
        matches = matches.filter(game=game)
    return matches


def match_names(match: Match) -> list[str]:
    return [seat.player.name for seat in match.seats.select_related("player").order_by("position")]


def event_action(event: Event) -> rules.Event:
    """One stored event as the engine's value object."""
    claim = claim_value(event.claim)
    if event.kind == EventKind.PLAY:
        return rules.Play(event.seat, rules.Tile.parse(event.tile),
                          rules.AttachmentPoint.parse(event.at) if event.at else None, claim)
    if event.kind == EventKind.DRAW:
        return rules.Draw(event.seat, event.tiles_drawn or 0)
    if event.kind == EventKind.PASS:
        return rules.Pass(event.seat)
    return rules.Call(event.seat, tuple(rules.ScoringEnd.parse(e) for e in event.ends or ()),
                      claim, event.goes_out)


def round_settle_action(round_: Round) -> rules.Settle:
    hands = (tuple(tuple(rules.Tile.parse(t) for t in hand) for hand in round_.hands)
             if round_.hands is not None else None)
    pips = tuple(round_.pips) if round_.pips is not None else None
    result = None
    if round_.mode == RoundMode.CALLED:
        result = rules.RoundEnd(round_.end) if round_.end else None
    return rules.Settle(hands, pips, result, round_.finisher if result else None)


def match_actions(match: Match) -> list[rules.Action]:
    """Every action of the match, in order: round starts, events and settlements."""
    rounds = list(match.rounds.order_by("number"))
    events_by_round: dict[int, list[Event]] = {}
    for event in match.events.order_by("number"):
        events_by_round.setdefault(event.round_id, []).append(event)
    actions: list[rules.Action] = []
    for round_ in rounds:
        mode = rules.RoundMode.CALLED if round_.mode == RoundMode.CALLED else \
            rules.RoundMode.TRACKED
        actions.append(rules.StartRound(round_.starter, mode))
        actions.extend(event_action(event) for event in events_by_round.get(round_.pk, ()))
        if round_.settled:
            actions.append(round_settle_action(round_))
    return actions


def match_engine(match: Match) -> rules.Match:
    """The match replayed through the rules engine from its stored events."""
    names = match_names(match)
    return rules.Match.replay(match.rules_game, names, match.options, match_actions(match),
                              labels=names)


def match_record(match: Match) -> dict[str, Any]:
    """The ``domino-match/1`` document of a stored match."""
    return rules.export(match_engine(match))


def match_summary(match: Match) -> dict[str, Any]:
    return rules.summary(match_engine(match))


def claim_value(claim: Decimal | None) -> int | Fraction | None:
    if claim is None:
        return None
    return int(claim) if claim == claim.to_integral_value() else Fraction(claim)


def score_decimal(value: int | Fraction) -> Decimal:
    """An exact score (whole or half) as the database stores it."""
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(value.numerator) / Decimal(value.denominator)


__all__ = ["RoundEnd", "match_actions", "match_engine", "match_list", "match_record",
           "match_summary"]
