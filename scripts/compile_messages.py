"""Compile the translation catalogues (locale/<lang>/LC_MESSAGES/django.po) into the .mo
files Django reads, in pure Python (Babel), so a machine without GNU gettext can do it.

The .po files are committed; the .mo files are not (.gitignore): scripts/setup runs this,
and scripts/prod runs scripts/setup. A catalogue whose .mo is newer than its .po is left
alone. Each catalogue is checked first: a translation whose placeholders differ from its
msgid's (a lost ``%(name)s``) stops the build, since Django would fail on it at render time.

    .venv/bin/python scripts/compile_messages.py           # compile what changed
    .venv/bin/python scripts/compile_messages.py --force   # compile everything
    .venv/bin/python scripts/compile_messages.py --merge-pending
        # first merge locale/_pending/<name>.<lang>.po fragments into the catalogues
        # (a catalogue's own non-empty translation wins), then compile

``--merge-pending`` is the pure-Python stand-in for
``msgcat --use-first locale/_pending/X.uk.po locale/uk/LC_MESSAGES/django.po``; run
``manage.py makemessages`` afterwards so the catalogues keep only the msgids in the code.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
PENDING = LOCALE / "_pending"


def catalogues() -> list[Path]:
    """Every django.po under locale/<lang>/LC_MESSAGES (not the pending fragments)."""
    return sorted(path for path in LOCALE.glob("*/LC_MESSAGES/*.po")
                  if not path.is_relative_to(PENDING))


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def problems(catalog: Catalog) -> list[str]:
    """Babel's checks (placeholders kept, the right number of plural forms)."""
    found = []
    for message, errors in catalog.check():
        if message.fuzzy:
            continue  # not compiled: msgmerge's guess, waiting for a translator
        for error in errors:
            found.append(f"{message.id!r}: {error}")
    return found


def compile_one(po: Path, force: bool) -> bool:
    """Write po's .mo beside it; False when the catalogue has errors."""
    mo = po.with_suffix(".mo")
    if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return True
    catalog = read(po)
    errors = problems(catalog)
    if errors:
        for error in errors:
            print(f"{po.relative_to(ROOT)}: {error}", file=sys.stderr)
        return False
    with mo.open("wb") as target:
        write_mo(target, catalog, use_fuzzy=False)
    return True


def fit_plurals(string: str | tuple[str, ...] | list[str],
                count: int) -> str | tuple[str, ...] | list[str]:
    """A fragment's plural forms for a catalogue with ``count`` of them. Our catalogues
    follow CLDR (Django's own): a fourth Ukrainian or Russian form, for fractions, which
    a fragment with gettext's usual three lacks; it takes the "few" form, as counts here
    are whole."""
    if isinstance(string, str) or len(string) >= count:
        return string
    forms = tuple(string)
    return forms + (forms[min(1, len(forms) - 1)],) * (count - len(forms))


def merge_pending() -> int:
    """Fill each catalogue's empty translations from locale/_pending/*.<lang>.po."""
    merged = 0
    for po in catalogues():
        lang = po.parent.parent.name
        fragments = sorted(PENDING.glob(f"*.{lang}.po")) if PENDING.is_dir() else []
        if not fragments:
            continue
        catalog = read(po, locale=lang)
        for fragment in fragments:
            for message in read(fragment, locale=lang):
                if not message.id or not message.string or message.fuzzy:
                    continue
                mine = catalog.get(message.id, message.context)
                if mine is None:
                    # not (yet) in the catalogue: run makemessages first
                    continue
                elif mine.fuzzy or not (any(mine.string) if isinstance(mine.string, tuple)
                                        else mine.string):
                    # empty, or msgmerge's guess from a similar msgid (fuzzy)
                    mine.flags.discard("fuzzy")
                    mine.string = fit_plurals(message.string, catalog.num_plurals)
                    merged += 1
        with po.open("wb") as target:
            write_po(target, catalog, width=79, include_previous=False)
    return merged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="compile every catalogue")
    parser.add_argument("--merge-pending", action="store_true",
                        help="merge locale/_pending/*.<lang>.po into the catalogues first")
    args = parser.parse_args()
    if args.merge_pending:
        print(f"scripts/compile_messages.py: {merge_pending()} translations merged")
    ok = all([compile_one(po, args.force or args.merge_pending) for po in catalogues()])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
