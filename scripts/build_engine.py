"""Compile the rules engine with mypyc into matches/rules/_compiled/, if it is not fresh.

    .venv/bin/python scripts/build_engine.py            # scripts/setup runs this
    .venv/bin/python scripts/build_engine.py --force    # rebuild even if fresh
    .venv/bin/python scripts/build_engine.py --check    # exit 1 unless the build is fresh

The compiled build is an optional speed-up of the very same sources (mypyc ships with
mypy, which already holds the engine to its strict flags). A machine without a C
compiler keeps the pure-Python engine: the build says why and exits 0 unless
``--strict`` is given. See matches/rules/native.py for how the build is chosen at import.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# The build itself runs on the plain modules: quiet about a stale build, and never
# holding the files it is about to replace.
os.environ["SCOREKEEPER_ENGINE"] = "python"

from matches.rules import native  # noqa: E402


def build() -> None:
    """Compile into a temporary directory, then swap the result in, stamp last."""
    from mypyc.build import mypycify
    from setuptools import Distribution

    os.chdir(ROOT)  # mypy names the modules from the paths, relative to here
    sources = [str((native.PACKAGE_DIR / f"{name}.py").relative_to(ROOT))
               for name in native.MODULES]
    with tempfile.TemporaryDirectory(prefix="engine-build-") as tmp:
        work = Path(tmp)
        extensions = mypycify(sources, opt_level="3", group_name=native.GROUP,
                              target_dir=str(work / "c"))
        distribution = Distribution({"name": "scorekeeper-engine", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        distribution.run_command("build_ext")
        built = sorted((work / "lib" / "matches" / "rules").glob("*.so"))
        if len(built) != len(native.MODULES) + 1:  # the modules and their shared library
            raise RuntimeError(f"mypyc built {len(built)} extension files, expected "
                               f"{len(native.MODULES) + 1}")
        shutil.rmtree(native.BUILD_DIR, ignore_errors=True)
        native.BUILD_DIR.mkdir()
        for path in built:
            shutil.copy2(path, native.BUILD_DIR / path.name)
    native.STAMP.write_text(native.stamp())


@contextlib.contextmanager
def compiler_output_to(log: Path) -> Iterator[None]:
    """Send everything written to stdout and stderr (gcc's too) to ``log``."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with log.open("wb") as sink:
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="rebuild even if fresh")
    parser.add_argument("--check", action="store_true", help="only say whether it is fresh")
    parser.add_argument("--strict", action="store_true", help="fail if the build fails")
    args = parser.parse_args(argv)
    reason = native.why_not_fresh()
    if args.check:
        print(f"compiled engine: {'fresh' if reason is None else 'not used: ' + reason}")
        return 0 if reason is None else 1
    if reason is None and not args.force:
        print("compiled engine: fresh")
        return 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="engine-log-") as tmp:
        log = Path(tmp) / "build.log"
        try:
            with compiler_output_to(log):
                build()
        except (Exception, SystemExit) as error:  # no compiler, a mypyc limit: plain Python
            shutil.rmtree(native.BUILD_DIR, ignore_errors=True)
            sys.stderr.write(log.read_text(errors="replace")[-4000:])
            print(f"compiled engine: not built ({type(error).__name__}: {error}); "
                  "the engine runs as plain Python", file=sys.stderr)
            return 1 if args.strict else 0
    print(f"compiled engine: built in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
