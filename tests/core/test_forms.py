"""The forms' shared fields: a name made one line."""

from __future__ import annotations

import pytest
from django import forms
from hypothesis import given
from hypothesis import strategies as st

from matches.core.forms import NameField, one_line_name


@pytest.mark.parametrize(("typed", "kept"), [
    ("Ann Dale", "Ann Dale"),
    ("  Ann \n\t Dale ", "Ann Dale"),  # a newline or a tab is a space
    ("\u202eRTL team", "RTL team"),  # an override turned the rest of the line around
    ("Ann\u2066 Dale\u2069", "Ann Dale"),  # and an isolate
    ("Ann\x07Dale", "AnnDale"),  # control characters go
    ("Ann\x00", "Ann\x00"),  # but NUL, which the field refuses
    ("Олена Коваль", "Олена Коваль"),
    ("علي\u200c", "علي\u200c"),  # a zero-width non-joiner is part of how a name is written
    ("Zed\u200f", "Zed"),  # a mark of direction turned the score after the name around
    ("An\u200bn", "Ann"),  # a space no one sees
    ("\u200b", ""), ("\u200d\u200f", ""), (" \u2060 ", ""),  # a name no one sees is none
])
def test_a_name_is_one_line_without_controls(typed: str, kept: str):
    assert one_line_name(typed) == kept


@given(st.text())
def test_a_name_made_one_line_is_one_line_and_stays_so(text: str):
    once = one_line_name(text)
    assert one_line_name(once) == once
    assert "\n" not in once and "\t" not in once and once == once.strip()
    controls = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u200b"
    assert not any(char in once for char in controls)


def test_a_name_field_cleans_before_its_length_is_checked():
    class Form(forms.Form):
        name = NameField(max_length=5)

    assert Form({"name": " Ann\n"}).is_valid()
    form = Form({"name": "Ann\u202e\n"})
    assert form.is_valid() and form.cleaned_data["name"] == "Ann"
    assert not Form({"name": "Annabel"}).is_valid()
    assert not Form({"name": "\u202e\n"}).is_valid()  # nothing left: required
    assert not Form({"name": "Ann\x00"}).is_valid()
