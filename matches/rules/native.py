"""The engine's compiled build: the same modules compiled by mypyc, used only while fresh.

``scripts/build_engine.py`` (run by ``scripts/setup``) compiles the modules below into
``_compiled/`` and stamps them with a digest of their sources. The package puts that
directory first on its ``__path__`` only if the stamp matches the sources and this
interpreter; otherwise (never built, no C compiler, a source edited since) it runs the
same modules as plain Python. This module itself is never compiled.

``SCOREKEEPER_ENGINE=python`` forces plain Python; ``SCOREKEEPER_ENGINE=compiled``
makes a missing or stale build an import error instead of a fallback.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
import warnings
from collections.abc import Mapping, MutableSequence
from pathlib import Path
from typing import Final

# Every module but the package's __init__ and this one, in dependency order.
MODULES: Final = ("errors", "tiles", "layout", "games", "dealing", "match", "record", "simulate",
                  "fixtures", "league", "signoff")
# Modules kept plain Python even in a compiled build (found beside it on the package's
# path, importing the compiled modules): not hot, and not stamped, so editing them
# leaves the build fresh.
PLAIN: Final = ("cup", "cup_record")
PACKAGE_DIR: Final = Path(__file__).resolve().parent
BUILD_DIR: Final = PACKAGE_DIR / "_compiled"
STAMP: Final = BUILD_DIR / "STAMP"
GROUP: Final = "matches.rules.engine"  # mypyc's shared library: matches.rules.engine__mypyc
ENVIRONMENT: Final = "SCOREKEEPER_ENGINE"


class CompiledEngineUnavailable(ImportError):
    """``SCOREKEEPER_ENGINE=compiled`` was asked for, but the build is missing or stale."""


def stamp() -> str:
    """What a fresh build's STAMP holds: the sources' digest and this interpreter's ABI."""
    digest = hashlib.sha256()
    for name in MODULES:
        digest.update(name.encode())
        digest.update((PACKAGE_DIR / f"{name}.py").read_bytes())
    return f"{digest.hexdigest()} {sys.implementation.cache_tag} " \
           f"{importlib.machinery.EXTENSION_SUFFIXES[0]}\n"


def why_not_fresh(build_dir: Path = BUILD_DIR) -> str | None:
    """Why the compiled build in ``build_dir`` cannot be used, or None if it can."""
    try:
        built = (build_dir / STAMP.name).read_text()
    except FileNotFoundError:
        return "it has not been built (scripts/setup builds it)"
    if built != stamp():
        return "it is older than its sources or built for another Python (scripts/setup " \
               "rebuilds it)"
    return None


def activate(package_path: MutableSequence[str], *, build_dir: Path = BUILD_DIR,
             environ: Mapping[str, str] = os.environ) -> bool:
    """Put the compiled build first on the package's path if it is fresh; say if it was."""
    wanted = environ.get(ENVIRONMENT, "")
    if wanted == "python":
        return False
    if wanted not in ("", "compiled"):
        raise ImportError(f"{ENVIRONMENT} must be 'python' or 'compiled', not {wanted!r}")
    reason = why_not_fresh(build_dir)
    if reason is not None:
        if wanted == "compiled":
            raise CompiledEngineUnavailable(f"the compiled rules engine is unavailable: {reason}")
        if (build_dir / STAMP.name).exists():  # built once, now stale: say so; never built: quiet
            warnings.warn(f"matches.rules runs as plain Python: the compiled build is not "
                          f"used because {reason}", RuntimeWarning, stacklevel=3)
        return False
    package_path.insert(0, str(build_dir))
    return True
