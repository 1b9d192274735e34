"""Random legal matches, played with real (simulated) hands.

Used by the property tests, the benchmark and the demo club: every record it writes
is a complete, legal ``domino-match/1`` document.

>>> from matches.rules import replay
>>> document = simulated_record(ALL_FIVES, 2, seed=7)
>>> replay(document).finished
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .games import ALL_FIVES, Game
from .layout import AttachmentPoint
from .match import Draw, Match, Pass, Play, RoundEnd, RoundMode, Settle, StartRound
from .record import export
from .tiles import Tile

NAMES = ("Olena", "Taras", "Iryna", "Bohdan", "Mykola", "Oksana", "Petro", "Halyna", "Yurii",
         "Sofiia", "Andrii", "Marta")


def simulated_record(game: Game = ALL_FIVES, players: int = 2, *, seed: int = 0,
                     options: Mapping[str, Any] | None = None, claims: bool = True,
                     max_rounds: int = 200, finish: bool = True,
                     pips: bool = False) -> dict[str, Any]:
    """Play a whole match at random and return its record."""
    match = simulated_match(game, players, seed=seed, options=options, claims=claims,
                            max_rounds=max_rounds, finish=finish, pips=pips)
    return export(match)


def simulated_match(game: Game = ALL_FIVES, players: int = 2, *, seed: int = 0,
                    options: Mapping[str, Any] | None = None, claims: bool = True,
                    max_rounds: int = 200, finish: bool = True, pips: bool = False,
                    stop_after_events: int | None = None) -> Match:
    rng = random.Random(seed)
    match = Match(game, list(NAMES[:players]), options)
    events = 0
    while not match.finished and len(match.rounds) < max_rounds:
        starter = match.required_starter()
        if starter is None:
            starter = rng.randrange(players)
        match.do(StartRound(starter, RoundMode.TRACKED))
        hands, boneyard = _deal(match, rng)
        rnd = match.rounds[-1]
        while rnd.end is None and not match.finished:
            if stop_after_events is not None and events >= stop_after_events:
                return match
            seat = rnd.turn
            assert seat is not None
            choice = _choose(match, hands[seat], rng)
            drawn = 0
            while choice is None and match.options.drawing and boneyard:
                hands[seat].append(boneyard.pop())
                drawn += 1
                choice = _choose(match, hands[seat], rng)
            if drawn:
                match.do(Draw(seat, drawn))
                events += 1
            if choice is None:
                match.do(Pass(seat))
            else:
                tile, point = choice
                hands[seat].remove(tile)
                end_sum = match.rounds[-1].layout.preview(tile, point).end_sum
                claim = (game.placement_points(end_sum, match.options.divisors)
                         if claims and rng.random() < 0.5 else None)
                try:
                    match.do(Play(seat, tile, point, claim))
                except Exception:  # a going-out claim may differ (bonus, overshoot): drop it
                    match.do(Play(seat, tile, point))
            events += 1
        if match.finished:
            break
        if not finish and rng.random() < 0.1:
            return match
        if pips:
            match.do(Settle(pips=tuple(sum(t.pips for t in hand) for hand in hands)))
        else:
            match.do(Settle(hands=tuple(tuple(hand) for hand in hands)))
    return match


def _deal(match: Match, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    tiles = list(match.options.tile_set.tiles)
    rng.shuffle(tiles)
    size = match.options.hand_size
    hands = [tiles[i * size:(i + 1) * size] for i in range(match.players)]
    rest = tiles[match.players * size:]
    return hands, (rest if match.options.drawing else [])


def _choose(match: Match, hand: Sequence[Tile],
            rng: random.Random) -> tuple[Tile, AttachmentPoint | None] | None:
    layout = match.rounds[-1].layout
    if not layout:
        return (rng.choice(hand), None) if hand else None
    options = [(tile, point) for tile in hand for point in layout.legal_points(tile)]
    return rng.choice(options) if options else None


__all__ = ["NAMES", "RoundEnd", "simulated_match", "simulated_record"]
