"""Template filters for scores: exact, with halves as ½."""

from __future__ import annotations

import uuid
from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils.html import format_html
from django.utils.translation import pgettext

from matches.models import FixtureStatus, Match
from matches.presenters import show_score

register = template.Library()


@register.filter
def score(value: Decimal | int | None) -> str:
    """``Decimal("2.5")`` → ``2½``; ``Decimal("250.0")`` → ``250``."""
    if value is None:
        return ""
    return show_score(Fraction(value).limit_denominator(2))


@register.simple_tag
def write_fields(version: int) -> str:
    """The hidden fields of every scoring form: the match version the page shows, and a
    fresh idempotency key for this one tap (a resend of it is answered, not applied)."""
    return format_html('<input type="hidden" name="version" value="{}">'
                       '<input type="hidden" name="key" value="{}">', version, uuid.uuid4())


@register.filter
def winner_names(match: Match) -> str:
    """The winning side's players, from the match's prefetched seats and sides."""
    sides = {side.pk: side.index for side in match.sides.all()}
    return " & ".join(seat.name for seat in match.seats.all()
                      if sides.get(seat.side_id) == match.winner_side)


@register.simple_tag
def fresh_key() -> str:
    """A new key for a form that must act once however often it is sent (a rematch's
    ``creation_key``), made when the page is drawn."""
    return str(uuid.uuid4())


@register.filter
def form_guide(letters: str) -> str:
    """A form guide ("WWLDW": won, lost, drawn, oldest first) in the page's language; the
    letters are kept as data (selectors, CSV) and only translated when shown."""
    words = {"W": pgettext("form guide: won", "W"), "D": pgettext("form guide: drawn", "D"),
             "L": pgettext("form guide: lost", "L")}
    return "".join(words.get(letter, letter) for letter in letters)


@register.filter
def fixture_status(value: str) -> str:
    """A fixture's stored status ("submitted", as its change log keeps it) in a word of
    the page's language."""
    words: dict[str, str] = {
        FixtureStatus.SCHEDULED.value: pgettext("fixture status", "scheduled"),
        FixtureStatus.POSTPONED.value: pgettext("fixture status", "postponed"),
        FixtureStatus.VOID.value: pgettext("fixture status", "void"),
        FixtureStatus.SUBMITTED.value: pgettext("fixture status", "submitted"),
        FixtureStatus.CONFIRMED.value: pgettext("fixture status", "confirmed"),
        FixtureStatus.DISPUTED.value: pgettext("fixture status", "disputed"),
    }
    return words.get(value, value)
