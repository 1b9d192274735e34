"""The shared sample records (``shared/samples``), a sibling folder of the repository.

In CI and here the layout is ``<parent>/<clone>`` next to ``<parent>/shared/samples``;
tests that need the samples skip with a clear reason when that folder is absent.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLES_DIR = (REPO_ROOT.parent / "shared" / "samples").resolve()
MISSING = f"the shared sample records are not at {SAMPLES_DIR} (a sibling of the repository)"


def _names(kind: str) -> list[str]:
    folder = SAMPLES_DIR / kind
    if not folder.is_dir():
        return []
    return sorted(path.name for path in folder.glob("*.json")
                  if not path.name.endswith(".expected.json"))


def sample_params(kind: str) -> list[Any]:
    """``valid`` or ``invalid`` sample file names for ``parametrize``; one skip if absent."""
    names = _names(kind)
    return names or [pytest.param(None, marks=pytest.mark.skip(reason=MISSING))]


def sample_text(kind: str, name: str) -> str:
    return (SAMPLES_DIR / kind / name).read_text(encoding="utf-8")


def sample_document(name: str) -> dict[str, Any]:
    return json.loads(sample_text("valid", name))


def expected_summary(name: str) -> dict[str, Any]:
    return json.loads(sample_text("valid", name.removesuffix(".json") + ".expected.json"))


def sample_kind(name: str) -> str:
    return sample_text("invalid", name.removesuffix(".json") + ".kind").strip()
