"""Template filters for scores: exact, with halves as ½."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template

from matches.presenters import show_score

register = template.Library()


@register.filter
def score(value: Decimal | int | None) -> str:
    """``Decimal("2.5")`` → ``2½``; ``Decimal("250.0")`` → ``250``."""
    if value is None:
        return ""
    return show_score(Fraction(value).limit_denominator(2))
