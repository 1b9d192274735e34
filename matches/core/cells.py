"""Text cells of the CSV files the site writes and reads back.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, so a
player or team named ``=HYPERLINK(...)`` would act when a club secretary opens an
export (CSV injection). Such text is written with a leading apostrophe, which
spreadsheets show as plain text and do not keep in the cell; the site's own imports read
it back without it, so an export still imports as it was.

Every CSV the site writes starts with a byte-order mark: without it, Excel on Windows
reads UTF-8 as the machine's code page, and "½", "–" and every Cyrillic name come out
garbled. The site's own imports skip it.
"""

from __future__ import annotations

import csv
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# text that starts with an apostrophe gets one more, so that reading one off is exact
QUOTED = (*FORMULA_STARTS, "'")
BYTE_ORDER_MARK = "\ufeff"


def text_cell(value: str) -> str:
    """``value`` as a CSV cell no spreadsheet runs: ``'=1+1`` for ``=1+1``."""
    return "'" + value if value.startswith(QUOTED) else value


def read_text_cell(text: str) -> str:
    """A cell :func:`text_cell` wrote, as the text it holds (a name typed in a
    spreadsheet, like ``'t Hooft``, is read as it is)."""
    return text[1:] if text.startswith("'") and text[1:].startswith(QUOTED) else text


class _Line:
    """A file for :func:`csv.writer` that hands each line back instead of keeping it."""

    def write(self, line: str) -> str:
        return line


def line_writer() -> Any:
    """A :func:`csv.writer` whose ``writerow`` returns the line it wrote: a streamed
    response yields them one by one."""
    return csv.writer(_Line())
