"""Wall-clock time of ``manage.py import_match --dry-run`` on N generated records.

Writes N two-player All Fives records (``matches.rules.simulate``) to a temporary
``.jsonl`` file, then runs, in a subprocess, start-up included:

    python manage.py import_match --dry-run --json FILE

    .venv/bin/python bench/import_dry_run.py               # N = 1000
    .venv/bin/python bench/import_dry_run.py --matches 200 --keep
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.rules import ALL_FIVES  # noqa: E402
from matches.rules.simulate import simulated_record  # noqa: E402

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
        for i in range(args.matches):
            record = simulated_record(ALL_FIVES, 2, seed=args.seed * 1_000_003 + i)
            handle.write(json.dumps(record, separators=(",", ":")) + "\n")
        path = Path(handle.name)
    size = path.stat().st_size
    try:
        command = [args.python, "manage.py", COMMAND, "--dry-run", "--json", str(path)]
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        seconds = time.perf_counter() - start
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
    print(f"{args.matches} records ({size / 1e6:.1f} MB) imported with --dry-run in "
          f"{seconds:.2f} s wall clock, start-up included "
          f"({args.matches / seconds:.0f} records/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
