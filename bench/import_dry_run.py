"""Wall-clock time of ``manage.py import_match --dry-run`` on N generated records.

Writes N records (``matches.rules.simulate``) to a temporary ``.jsonl`` file — by
default mixed: the four shapes of ``bench/replay.py`` in turn (two- and four-player All
Fives, two-player Five Up, four-player Fives and Threes with double-nine and drawing);
``--shape all-fives`` for two-player All Fives only — then runs, in a subprocess,
start-up included, ``--runs`` times:

    python manage.py import_match --dry-run --json FILE

and prints the best and the median run (the machine may be shared: the best run is the
command's own cost, the others add whatever else ran).

    .venv/bin/python bench/import_dry_run.py               # N = 1000, mixed, 5 runs
    .venv/bin/python bench/import_dry_run.py --matches 200 --shape all-fives --keep
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replay import CASES  # noqa: E402  (bench/replay.py: its shapes)

from matches.rules import ALL_FIVES, Game  # noqa: E402
from matches.rules.simulate import simulated_record  # noqa: E402

Shape = tuple[Game, int, dict[str, Any] | None]
SHAPES: dict[str, list[Shape]] = {
    "mixed": [(game, players, options) for _, game, players, options in CASES],
    "all-fives": [(ALL_FIVES, 2, None)]}

COMMAND = "import_match"


def command_exists(python: str) -> bool:
    """Whether ``manage.py`` knows the command (``help`` lists every command)."""
    listed = subprocess.run([python, "manage.py", "help", "--commands"], cwd=ROOT,
                            capture_output=True, text=True)
    if listed.returncode != 0:
        sys.stderr.write(listed.stderr)
        raise SystemExit(f"error: `manage.py help --commands` failed (exit {listed.returncode})")
    return COMMAND in listed.stdout.split()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000, help="records to import (1000)")
    parser.add_argument("--seed", type=int, default=1, help="base seed of the simulation (1)")
    parser.add_argument("--shape", choices=SHAPES, default="mixed",
                        help="mixed: the four shapes of bench/replay.py in turn (default); "
                             "all-fives: two-player All Fives only")
    parser.add_argument("--runs", type=int, default=5, help="runs of the command (5)")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter that runs manage.py (this one)")
    parser.add_argument("--keep", action="store_true", help="keep the .jsonl file")
    args = parser.parse_args(argv)

    if not command_exists(args.python):
        print(f"error: manage.py has no `{COMMAND}` command yet; nothing to time.",
              file=sys.stderr)
        return 2

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False,
                                     encoding="utf-8") as handle:
        shapes = SHAPES[args.shape]
        for i in range(args.matches):
            game, players, options = shapes[i % len(shapes)]
            record = simulated_record(game, players, seed=args.seed * 1_000_003 + i,
                                      options=options)
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        path = Path(handle.name)
    size = path.stat().st_size
    try:
        command = [args.python, "manage.py", COMMAND, "--dry-run", "--json", str(path)]
        runs = []
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
            runs.append(time.perf_counter() - start)
            if done.returncode != 0:
                break
    finally:
        if args.keep:
            print(f"kept {path}")
        else:
            path.unlink()
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        print(f"error: `{' '.join(command)}` exited with {done.returncode}", file=sys.stderr)
        return 1
    last = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
    print(f"command said: {last[0][:200]}")
    best = min(runs)
    print(f"{args.matches} {args.shape} records ({size / 1e6:.1f} MB) verified with --dry-run "
          f"in {best:.2f} s wall clock at best, start-up included "
          f"({args.matches / best:.0f} records/s); median of {len(runs)} runs "
          f"{statistics.median(runs):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
