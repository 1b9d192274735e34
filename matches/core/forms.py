"""What every concern's forms share: whole numbers read from a field, a service's
refusal put on its form, the date picker, and a game's options (its tile set, its
deal) as the new-match and new-season forms take them."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.rules.games import ADVANCED_DIVISORS, DEALS


def whole_number(text: object, *, digits: int) -> int | None:
    """A whole number sent by a browser as ASCII digits, at most ``digits`` of them; else
    None. (``"²".isdigit()`` is True, yet ``int("²")`` fails, and ``int()`` refuses
    numbers of over 4,300 digits: a 500 either way.)"""
    if isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def add_refusal(form: forms.Form, error: ValidationError) -> None:
    """A service's refusal on the form: beside each field it names, else the form's."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


def refusal_said(request: HttpRequest, form: forms.Form) -> None:
    """A refused form the answering page does not show (sent from a stale page, or
    from one whose forms are gone): every reason it has, the form's and each visible
    field's, as messages at the top of the page."""
    for reason in [*form.non_field_errors(),
                   *(error for field in form if not field.is_hidden for error in field.errors)]:
        messages.error(request, str(reason))


# Characters that turn the text after them around (U+202A–U+202E, the embeddings and
# overrides; U+2066–U+2069, the isolates): in a name, they reversed the rest of the line
# it was shown in, a fixture's date and score too ("1–3" for "3–1").
# The marks of direction (U+200E, U+200F, U+061C) did it too, to the numbers after a
# name; and characters no one sees (U+200B, U+2060, U+FEFF) made a name that looks blank,
# or like another's. (A zero-width joiner or non-joiner is part of how some names are
# written, and stays.)
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                           "\u200e\u200f\u061c\u200b\u2060\ufeff")


def one_line_name(text: str) -> str:
    """A name as typed, made one line: every run of whitespace (a newline, a tab) one
    space, ends trimmed; control characters and the characters above dropped (but NUL,
    which a form field refuses with its reason). A name with nothing left to see (no
    letter, digit, punctuation or symbol) is no name: "".

    >>> one_line_name(" Ann\\n\\tDale\\u202e "), one_line_name("\\u200d\\u200c")
    ('Ann Dale', '')
    """
    kept = "".join(" " if char.isspace() else char for char in text
                   if char.isspace() or char == "\x00"  # refused by the field, said so
                   or (char not in _BIDI_CONTROLS and unicodedata.category(char) != "Cc"))
    if not any(unicodedata.category(char)[0] in "LNPS" or char == "\x00" for char in kept):
        return ""
    return " ".join(kept.split())


class NameField(forms.CharField):
    """A name typed on a page (a player's, a club's, a season's, a team's): one line, as
    :func:`one_line_name` makes it, so that every page and file shows it as it reads."""

    def to_python(self, value: Any) -> str | None:
        text = super().to_python(value)
        return one_line_name(text) if text else text


class DatePicker(forms.DateInput):
    """A browser's date picker: it shows and sends YYYY-MM-DD in every language, so its
    value is written so. (Django writes a date in the language's first typed format,
    16/11/2026 or 16.11.2026, which the picker cannot show: it showed an empty box, and
    a form sent back as it came lost its date.) A date typed where there is no picker
    is read in the language's formats, as before."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


# -- a game's options: the new-match form's and the season form's -----------------------

# the engine's sets in the reader's words, by slug
TILE_SET_NAMES = {"double-six": _("Double-six"), "double-nine": _("Double-nine"),
                  "double-twelve": _("Double-twelve")}


def _offering(option: str) -> rules.Game:
    """The game whose own option ``option`` is (Fives and Threes': the set, the deal):
    the fields asking for it are labelled for that game."""
    return next(game for game in rules.GAMES.values() if option in game.own_options)


def tile_set_field() -> forms.ChoiceField:
    """The set, among those the engine plays the game with, its default first."""
    sets = _offering("set").tile_sets
    return forms.ChoiceField(label=_("Set (Fives and Threes)"), required=False,
                             choices=[(s.slug, TILE_SET_NAMES[s.slug]) for s in sets],
                             initial=sets[0].slug)


def deal_field(names: Mapping[str, Any]) -> forms.ChoiceField:
    """The deal, among the engine's (the default first), each said by ``names``."""
    return forms.ChoiceField(label=_("Deal (Fives and Threes)"), required=False,
                             choices=[(deal, names[deal]) for deal in DEALS], initial=DEALS[0])


def game_options(game: object, data: Mapping[str, Any]) -> dict[str, Any]:
    """A match's ``options`` as a form's cleaned ``data`` asks for them: target and hand
    size when typed, and those of the game's own options the form has fields for
    (``tile_set``, ``deal``, ``drawing``, ``advanced``, ``immediate_end``), each only
    where it differs from the engine's default, so that a record names what was chosen."""
    options: dict[str, Any] = {}
    for key in ("target", "hand_size"):
        if data.get(key):
            options[key] = data[key]
    try:
        chosen = rules.game_for(game)
    except rules.OptionError:  # no game chosen, or not one of the choices: the form says
        return options
    defaults = chosen.options(chosen.players[0])
    asked: dict[str, Any] = {}
    if data.get("tile_set"):
        asked["set"] = (data["tile_set"], defaults.tile_set.slug)
    if data.get("deal"):
        asked["deal"] = (data["deal"], defaults.deal)
    if "drawing" in data:
        asked["drawing"] = (bool(data["drawing"]), defaults.drawing)
    if "advanced" in data:
        divisors = list(ADVANCED_DIVISORS if data["advanced"] else defaults.divisors)
        asked["divisors"] = (divisors, list(defaults.divisors))
    if "immediate_end" in data:
        asked["immediate_end"] = (bool(data["immediate_end"]), defaults.immediate_end)
    for option, (value, default) in asked.items():
        if option in chosen.own_options and value != default:
            options[option] = value
    return options


