"""``manage.py import_match --dry-run``: records verified by a process that loads only what
it uses.

Verifying a record takes the engine about a millisecond; setting Django up (every model,
the admin, the app's registrations) took half a second before the first one. So
``manage.py`` hands a dry run whose arguments are plain (``--dry-run``, ``--json``, paths)
to :func:`main`, which reads the settings and sets up no app, and imports the engine, the
file reader and the store's checks (:mod:`matches.scoring.record_checks`) alone. Any other
argument (``--help``, ``--verbosity``, ``--settings``, ``--no-color``…) goes through
Django's command as before, which writes the same lines through :func:`verify`.

The command speaks the site's language, English, whose messages are their own
translation (the catalogues hold Ukrainian and Russian); a site set to another language
keeps Django's path, which loads the catalogues and so needs the apps set up.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from matches.records.files import RecordSource, record_sources

UNREADABLE = "cannot read the file: {error}"
REFUSED = "{refused} of {total} records refused."
COMMAND = "import_match"
DRY_RUN = "--dry-run"
JSON = "--json"


class Verified(NamedTuple):
    """How many records a dry run read and how many of them it refused."""

    total: int
    refused: int


def path_sources(paths: Iterable[Path]) -> Iterator[RecordSource]:
    """Each record of each file, in order; a file that cannot be read is one refusal."""
    for path in paths:
        try:
            data = path.read_bytes()
        except OSError as error:
            yield RecordSource(str(path), None, None,
                               UNREADABLE.format(error=error.strerror or error))
            continue
        yield from record_sources(str(path), data)


def verify(sources: Iterable[RecordSource], *, as_json: bool,
           write: Callable[[str], object]) -> Verified:
    """Verify each record as storing it would, writing one line per record in input order:
    its summary (``as_json``) or "valid (game, status)", or why it is refused."""
    from matches.scoring.record_checks import record_check  # the engine: after the files

    total = refused = 0
    for source in sources:
        total += 1
        summary: dict[str, Any] | None = None
        error = source.error
        if source.document is not None:
            summary, error = record_check(document=source.document)
        refused += error is not None
        write(line(source, summary, error, as_json=as_json))
    return Verified(total, refused)


def line(source: RecordSource, summary: dict[str, Any] | None, error: str | None, *,
         as_json: bool) -> str:
    if error is not None:
        return json_line({"error": error}) if as_json else f"{source.label}: refused: {error}"
    assert summary is not None
    if as_json:
        return json_line(summary)
    return f"{source.label}: valid ({summary['game']}, {summary['status']})"


def json_line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))


def plain_arguments(argv: Sequence[str]) -> tuple[list[Path], bool] | None:
    """The paths and ``--json`` of ``import_match --dry-run [--json] PATH…``, or None if
    ``argv`` (``manage.py``'s, from the command's name on) asks anything more."""
    if len(argv) < 2 or argv[0] != COMMAND or DRY_RUN not in argv[1:]:
        return None
    paths = [Path(arg) for arg in argv[1:] if arg not in (DRY_RUN, JSON)]
    if not paths or any(str(path).startswith("-") for path in paths):
        return None
    return paths, JSON in argv[1:]


def main(argv: Sequence[str]) -> int | None:
    """Run a plain dry run without setting Django up; its exit status, or None when
    ``argv`` is not one (the caller then runs Django's command)."""
    arguments = plain_arguments(argv)
    if arguments is None:
        return None
    from django.conf import settings

    if settings.LANGUAGE_CODE != "en":
        return None
    # English is the messages' own text: no catalogue to read, so no app registry needed
    settings.USE_I18N = False
    paths, as_json = arguments
    # A record's parsed JSON is thousands of small objects that reference counting frees
    # when the record is done; at the default threshold the collector walks each of them
    # a few times while it is parsed and replayed (about 5 % of the instructions of
    # 1,000 records). The process is this command's alone.
    gc.set_threshold(100_000, 20, 20)
    out = sys.stdout
    verified = verify(path_sources(paths), as_json=as_json,
                      write=lambda text: out.write(text + "\n"))
    out.flush()
    if verified.refused:
        message = f"CommandError: {REFUSED.format(**verified._asdict())}"
        if sys.stderr.isatty():
            message = _error_style(message)
        sys.stderr.write(message + "\n")
        return 1
    return 0


def _error_style(message: str) -> str:
    """As Django's command styles an error on a terminal (only there: pipes get plain
    text), loaded only then."""
    from django.core.management.color import color_style

    return str(color_style().ERROR(message))
