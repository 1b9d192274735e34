"""``manage.py import_match --dry-run``: records verified by a process that loads only what
it uses.

Verifying a record takes the engine about a millisecond; setting Django up (every model,
the admin, the app's registrations) took half a second before the first one. So
``manage.py`` hands a dry run whose arguments are plain (``--dry-run``, ``--json``, paths)
to :func:`main`, which reads the settings and sets up no app, and imports the engine, the
file reader and the store's checks (:mod:`matches.scoring.record_checks`) alone. Any other
argument (``--help``, ``--verbosity``, ``--settings``, ``--no-color``…) goes through
Django's command as before, which writes the same lines through :func:`verify`.

A long ``.jsonl`` file (:data:`RECORDS_A_PROCESS` records a process at least) is shared
among as many processes as the machine gives this one cores: each verifies a run of its
lines into a file of its own, and their lines are written in the file's order, so the
output is the same byte for byte as one process's, only sooner (1,000 mixed records on
two cores: 1.59 s became 1.00 s, start-up included; bench/README.md).

The command speaks the site's language, English, whose messages are their own
translation (the catalogues hold Ukrainian and Russian); a site set to another language
keeps Django's path, which loads the catalogues and so needs the apps set up.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate
from pathlib import Path
from typing import IO, Any, NamedTuple

from matches import rules
from matches.records.files import RecordSource, decode, is_lines, line_sources, record_sources

UNREADABLE = "cannot read the file: {error}"
REFUSED = "{refused} of {total} records refused."
COMMAND = "import_match"
DRY_RUN = "--dry-run"
JSON = "--json"
# a process of its own pays for itself from about this many records (a fork, a file)
RECORDS_A_PROCESS = 100


class Verified(NamedTuple):
    """How many records a dry run read and how many of them it refused."""

    total: int
    refused: int


class Share(NamedTuple):
    """Lines ``start`` to ``stop`` (0-based) of a ``.jsonl`` file, verified by another
    process: its pid, the pipe it says its counts on, the file it writes its lines to."""

    start: int
    stop: int
    pid: int
    counts: int
    output: IO[str]


def path_sources(paths: Iterable[Path]) -> Iterator[RecordSource]:
    """Each record of each file, in order; a file that cannot be read is one refusal."""
    for path in paths:
        yield from _read(path)[1]


def _read(path: Path) -> tuple[list[str] | None, Iterable[RecordSource]]:
    """A file's records, and its lines if it is a ``.jsonl`` file that can be read."""
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, [RecordSource(name, None, None,
                                   UNREADABLE.format(error=error.strerror or error))]
    if not is_lines(name):
        return None, record_sources(name, data)
    try:
        lines = rules.json_lines(decode(data))
    except UnicodeDecodeError:
        return None, record_sources(name, data)  # which says where
    return lines, line_sources(name, lines)


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


def verify_files(paths: Iterable[Path], *, as_json: bool, out: IO[str],
                 processes: int) -> Verified:
    """What :func:`verify` of :func:`path_sources` writes to ``out``, the records of a
    long ``.jsonl`` file shared among up to ``processes`` processes (each takes a run of
    its lines; their lines are written in the file's order)."""
    total = refused = 0
    for path in paths:
        lines, sources = _read(path)
        if lines is not None and processes > 1 and len(lines) >= 2 * RECORDS_A_PROCESS:
            verified = _verify_shared(str(path), lines, as_json=as_json, out=out,
                                      processes=min(processes, len(lines) // RECORDS_A_PROCESS))
        else:
            verified = verify(sources, as_json=as_json, write=_lines_to(out))
        total += verified.total
        refused += verified.refused
    return Verified(total, refused)


def _verify_shared(name: str, lines: Sequence[str], *, as_json: bool, out: IO[str],
                   processes: int) -> Verified:
    """The lines of one ``.jsonl`` file in ``processes`` runs of about equal size: this
    process verifies the first while forked ones verify the others, each into a file of
    its own; then their lines are written after this one's, in order. A share whose
    process failed (killed, out of memory) is verified here instead: nothing is lost."""
    sizes = list(accumulate(len(line) for line in lines))
    cuts = [0, *(bisect_left(sizes, sizes[-1] * k // processes) + 1
                 for k in range(1, processes)), len(lines)]
    runs = [(start, stop) for start, stop in zip(cuts, cuts[1:], strict=False) if start < stop]
    out.flush()  # what is written already is not written again by a forked process
    write = _lines_to(out)
    shares = [_forked(name, lines, start, stop, as_json=as_json) for start, stop in runs[1:]]
    total = refused = 0
    for (start, stop), share in zip(runs, [None, *shares], strict=True):
        verified = _finished(share, out) if share is not None else None
        if verified is None:  # the first share, or one whose process failed (or never ran)
            verified = verify(line_sources(name, lines[start:stop], first=start + 1),
                              as_json=as_json, write=write)
        total += verified.total
        refused += verified.refused
    return Verified(total, refused)


def _forked(name: str, lines: Sequence[str], start: int, stop: int, *,
            as_json: bool) -> Share | None:
    """Lines ``start`` to ``stop`` verified by a forked process; None if none could be
    forked (too many processes, no memory: this one verifies them then)."""
    # closed by _finished, once its lines are copied
    output = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
    counts, said = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for end in (counts, said):
            os.close(end)
        output.close()
        return None
    if pid == 0:  # the forked process: verify, say the counts, and leave at once
        status = 1
        try:
            os.close(counts)
            verified = verify(line_sources(name, lines[start:stop], first=start + 1),
                              as_json=as_json, write=_lines_to(output))
            output.flush()
            os.write(said, f"{verified.total} {verified.refused}".encode())
            status = 0
        finally:
            os._exit(status)  # nothing of the parent's (its buffers, its exit) runs here
    os.close(said)
    return Share(start, stop, pid, counts, output)


def _lines_to(out: IO[str]) -> Callable[[str], object]:
    """What :func:`verify` writes with: each line to ``out``, ended."""
    return lambda text: out.write(text + "\n")


def _finished(share: Share, out: IO[str]) -> Verified | None:
    """A forked share's counts once its lines are copied to ``out``; None if it failed."""
    with os.fdopen(share.counts, "rb") as counts, share.output as output:
        said = counts.read().split()
        _pid, status = os.waitpid(share.pid, 0)
        if status != 0 or len(said) != 2:
            return None
        output.seek(0)
        while chunk := output.read(1 << 16):
            out.write(chunk)
    return Verified(int(said[0]), int(said[1]))


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
    verified = verify_files(paths, as_json=as_json, out=out, processes=_processes())
    out.flush()
    if verified.refused:
        message = f"CommandError: {REFUSED.format(**verified._asdict())}"
        if sys.stderr.isatty():
            message = _error_style(message)
        sys.stderr.write(message + "\n")
        return 1
    return 0


def _processes() -> int:
    """How many processes may verify at once: the cores this process may run on, where
    a process can be forked."""
    if not hasattr(os, "fork"):
        return 1
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return len(cores) if cores else (os.cpu_count() or 1)


def _error_style(message: str) -> str:
    """As Django's command styles an error on a terminal (only there: pipes get plain
    text), loaded only then."""
    from django.core.management.color import color_style

    return str(color_style().ERROR(message))
