"""Replay throughput of the rules engine: how fast a record is verified, on one core.

Generates long random matches with ``matches.rules.simulate`` (not timed), then times
``replay(document)`` over all of them, best of several passes, with ``time.perf_counter``.

    .venv/bin/python bench/replay.py                 # 1000 matches per game
    .venv/bin/python bench/replay.py --matches 200 --seed 7 --passes 5
    SCOREKEEPER_ENGINE=python .venv/bin/python bench/replay.py   # the plain-Python engine
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matches.rules import (  # noqa: E402
    ALL_FIVES,
    COMPILED,
    FIVE_UP,
    FIVES_AND_THREES,
    Game,
    replay,
)
from matches.rules.simulate import simulated_record  # noqa: E402

# (label, game, players, options): the shapes a club imports most
CASES: list[tuple[str, Game, int, dict[str, Any] | None]] = [
    ("all-fives", ALL_FIVES, 2, None),
    ("all-fives", ALL_FIVES, 4, None),
    ("five-up", FIVE_UP, 2, None),
    ("fives-and-threes d9+draw", FIVES_AND_THREES, 4, {"set": "double-nine", "drawing": True}),
]


def generate(game: Game, players: int, options: dict[str, Any] | None, matches: int,
             seed: int) -> list[dict[str, Any]]:
    return [simulated_record(game, players, seed=seed * 1_000_003 + i, options=options)
            for i in range(matches)]


def events_in(document: dict[str, Any]) -> int:
    return sum(len(rnd["events"]) for rnd in document["rounds"])


def time_replay(documents: list[dict[str, Any]], passes: int) -> float:
    """Best wall time of ``passes`` passes replaying every document once."""
    best = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for document in documents:
            replay(document)
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="matches per game (1000)")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the simulation (1)")
    parser.add_argument("--passes", type=int, default=3, help="timed passes, best kept (3)")
    args = parser.parse_args(argv)
    if args.matches < 1 or args.passes < 1:
        parser.error("--matches and --passes must be at least 1")

    header = (f"{'game':<26} {'players':>7} {'matches':>7} {'events/match':>12} "
              f"{'matches/s':>10} {'µs/event':>9}")
    engine = "compiled (mypyc)" if COMPILED else "plain Python"
    print(f"Python {sys.version.split()[0]}, {engine} engine, best of {args.passes} passes, "
          "one core")
    print(header)
    print("-" * len(header))
    for label, game, players, options in CASES:
        documents = generate(game, players, options, args.matches, args.seed)
        events = sum(events_in(document) for document in documents)
        # The documents are this benchmark's fixture, held in memory only so that their
        # generation is not timed (a real import reads one record at a time). Freezing
        # them keeps the cyclic collector from re-walking that heap during the timing.
        gc.freeze()
        seconds = time_replay(documents, args.passes)
        count = len(documents)
        del documents
        gc.unfreeze()
        gc.collect()
        print(f"{label:<26} {players:>7} {count:>7} {events / count:>12.1f} "
              f"{count / seconds:>10.0f} {seconds / events * 1e6:>9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
