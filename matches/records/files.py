"""Files of ``domino-match/1`` records, as the import command and the import page read them.

``.jsonl`` holds one record per non-blank line, anything else one record. Parsing is
``rules.iter_documents``; this module only adds the line numbers (so a refusal can say
``games.jsonl:7``) and turns undecodable bytes into a refusal rather than a crash.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.core import messages as rules_messages

NOT_UTF8 = _("the file is not UTF-8 text (byte {position} cannot be read): save it as UTF-8")
# a record written over several lines, uploaded as .jsonl: every line of it is refused
NOT_ONE_LINE = _("a .jsonl file holds one whole record on each line; a record written "
                 "over several lines goes in a .json file of its own")


@dataclass(frozen=True, slots=True)
class RecordSource:
    """One record of a file (or why it could not be read), and where it came from."""

    name: str
    line: int | None  # 1-based, for .jsonl only
    document: dict[str, Any] | None
    error: str | None = None

    @property
    def label(self) -> str:
        return f"{self.name}:{self.line}" if self.line is not None else self.name


def is_lines(name: str) -> bool:
    return name.lower().endswith(".jsonl")


def decode(data: bytes) -> str:
    """UTF-8 text; a byte-order mark (as some Windows editors write) is dropped."""
    return data.decode("utf-8-sig")


def record_sources(name: str, data: bytes | str) -> Iterator[RecordSource]:
    """Each record in ``data``, the contents of the file called ``name``. A ``.jsonl``
    file is read a line at a time, as an upload is (:func:`stream_record_sources`): a
    line that is not UTF-8 is refused on its own, the others read."""
    if is_lines(name):
        if isinstance(data, bytes):
            yield from stream_record_sources(name, LINE_BREAK.split(data))
        else:
            yield from line_sources(name, rules.json_lines(data.removeprefix("\ufeff")))
        return
    if isinstance(data, bytes):
        try:
            text = decode(data)
        except UnicodeDecodeError as error:
            yield RecordSource(name, None, None, NOT_UTF8.format(position=error.start))
            return
    else:
        text = data.removeprefix("\ufeff")
    item = next(rules.iter_documents(text, lines=False))
    yield _source(name, None, item)


# where a .jsonl file's raw lines end, as rules.json_lines splits its text
LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def line_sources(name: str, lines: Iterable[str], *, first: int = 1) -> Iterator[RecordSource]:
    """Each record of ``lines``, lines of the ``.jsonl`` file called ``name`` (``first``:
    the number of the first of them; a dry run shares a file's lines among processes).
    Blank lines are skipped but counted."""
    for number, line in enumerate(lines, start=first):
        if line.strip():
            yield _line_source(name, number, line)


def _line_source(name: str, number: int, text: str) -> RecordSource:
    """The record on line ``number`` of a ``.jsonl`` file (not blank), or why not."""
    try:
        return RecordSource(name, number, rules.loads(text))
    except rules.RecordInvalid as error:
        why = rules_messages.explain(error)
        if (error.code in ("invalid_json", "record_not_object")
                and not text.lstrip().startswith("{\"")):
            why = f"{why} ({NOT_ONE_LINE})"  # a line of a record, not a record
        return RecordSource(name, number, None, why)


def _source(name: str, number: int | None,
            item: dict[str, Any] | rules.RecordInvalid) -> RecordSource:
    if isinstance(item, rules.RecordInvalid):
        return RecordSource(name, number, None, rules_messages.explain(item))
    return RecordSource(name, number, item)


def stream_record_sources(name: str, lines: Iterable[bytes]) -> Iterator[RecordSource]:
    """Each record of the file called ``name``, read from ``lines`` (its raw lines, e.g.
    an open binary file) one at a time, so memory holds one line however big the file.

    A ``.json`` file is one record; it is joined whole (the upload form caps a file at
    10 MB). Blank lines of a ``.jsonl`` file are skipped but counted, as in
    ``record_sources``."""
    if not is_lines(name):
        yield from record_sources(name, b"".join(lines))
        return
    for number, raw in enumerate(lines, start=1):
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            yield RecordSource(name, number, None, NOT_UTF8.format(position=error.start))
            continue
        if text.strip():
            yield _line_source(name, number, text)
