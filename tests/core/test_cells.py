"""matches.core.cells: what the CSV exports write is never run as a formula, and the
imports read it back as it was."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from matches.core.cells import read_text_cell, text_cell


def test_text_a_spreadsheet_would_run_is_written_as_text():
    assert [text_cell(name) for name in ("=HYPERLINK(\"x\")", "+1", "-Bowes", "@Oak",
                                         "Royal Oak", "'t Hooft")] == [
        "'=HYPERLINK(\"x\")", "'+1", "'-Bowes", "'@Oak", "Royal Oak", "''t Hooft"]
    assert read_text_cell("'t Hooft") == "'t Hooft"  # typed in a spreadsheet: as it is


@given(st.text())
def test_every_text_reads_back_as_it_was_written(value):
    assert read_text_cell(text_cell(value)) == value
    assert not text_cell(value).startswith(("=", "+", "-", "@", "\t", "\r"))
