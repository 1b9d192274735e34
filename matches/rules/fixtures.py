"""League fixtures: a single or double round robin by the circle method (Berger tables).

>>> from datetime import date
>>> schedule = round_robin(["Anchor", "Bell", "Crown", "Dragon"], start=date(2026, 9, 7))
>>> for week in schedule.weeks:
...     print(week)
week 1 (2026-09-07): Anchor v Dragon, Bell v Crown
week 2 (2026-09-14): Dragon v Crown, Anchor v Bell
week 3 (2026-09-21): Bell v Dragon, Crown v Anchor
>>> for week in round_robin(["Anchor", "Bell", "Crown"], legs=2).weeks:
...     print(week)
week 1: Bell v Crown; bye: Anchor
week 2: Anchor v Bell; bye: Crown
week 3: Crown v Anchor; bye: Bell
week 4: Crown v Bell; bye: Anchor
week 5: Bell v Anchor; bye: Crown
week 6: Anchor v Crown; bye: Bell

Only generation lives here: postponing and re-dating a fixture is the database's
business, not the rules engine's.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .errors import OptionError, RulesError

LEGS: Final = (1, 2)


@dataclass(frozen=True)
class ScheduledFixture:
    """One meeting: ``home`` plays ``away`` in week ``week`` (on ``date``, if dated)."""

    week: int
    date: datetime.date | None
    home: str
    away: str

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"


@dataclass(frozen=True)
class Week:
    """One round of the schedule: every entrant plays once, but ``bye`` (odd counts) rests."""

    number: int
    date: datetime.date | None
    fixtures: tuple[ScheduledFixture, ...]
    bye: str | None

    def __str__(self) -> str:
        when = "" if self.date is None else f" ({self.date.isoformat()})"
        rest = "" if self.bye is None else f"; bye: {self.bye}"
        return f"week {self.number}{when}: {', '.join(str(f) for f in self.fixtures)}{rest}"


@dataclass(frozen=True)
class Schedule:
    """A season's weeks, numbered from 1, in order."""

    weeks: tuple[Week, ...]

    @property
    def fixtures(self) -> tuple[ScheduledFixture, ...]:
        """Every fixture, week by week (within a week, in the table's board order)."""
        return tuple(fixture for week in self.weeks for fixture in week.fixtures)

    @property
    def byes(self) -> tuple[tuple[int, str], ...]:
        """``(week number, entrant)`` for every week in which someone rests."""
        return tuple((week.number, week.bye) for week in self.weeks if week.bye is not None)

    def fixtures_for(self, entrant: str) -> tuple[ScheduledFixture, ...]:
        """The fixtures ``entrant`` plays (home or away), compared case-insensitively."""
        key = entrant.casefold()
        return tuple(fixture for fixture in self.fixtures
                     if fixture.home.casefold() == key or fixture.away.casefold() == key)


def round_robin(entrants: Sequence[str], *, legs: int = 1,
                start: datetime.date | None = None, every_days: int = 7) -> Schedule:
    """Every entrant meets every other ``legs`` times (1 or 2), one fixture a week at most.

    The weeks are the Berger tables, entrants numbered in the order given: the last
    number (a dummy for an odd count: whoever meets it has the bye) stays put while the
    others circle. Who is at home follows the tables' own rule, which alternates as far
    as a round robin allows: in one leg an entrant's home and away fixtures differ by at
    most one, and never run more than two in a row (with an odd count they strictly
    alternate, byes aside). The second leg repeats the first week by week with home
    and away swapped, so each pair meets once at each home and every entrant has as
    many home as away fixtures; at the turn between the legs a run can reach three.

    Week ``n`` falls on ``start + (n - 1) * every_days`` when ``start`` is given.
    The same arguments always give the same schedule.
    """
    names = checked_entrants(entrants)
    if len(names) < 2:
        raise OptionError.of("too_few_entrants", count=len(names))
    if type(legs) is not int or legs not in LEGS:
        raise OptionError.of("legs", value=repr(legs))
    if type(every_days) is not int or every_days < 1:
        raise OptionError.of("every_days", value=repr(every_days))
    if start is not None and (isinstance(start, datetime.datetime)
                              or not isinstance(start, datetime.date)):
        raise OptionError.of("start_date", value=repr(start))

    rounds = _berger_rounds(len(names))
    if legs == 2:
        rounds = rounds + [[(away, home) for home, away in pairs] for pairs in rounds]
    dummy = len(names) + 1 if len(names) % 2 else 0  # numbered from 1: 0 is no one
    weeks: list[Week] = []
    for index, pairs in enumerate(rounds):
        number = index + 1
        date = None if start is None else start + datetime.timedelta(days=index * every_days)
        fixtures: list[ScheduledFixture] = []
        bye: str | None = None
        for home, away in pairs:
            if home == dummy:
                bye = names[away - 1]
            elif away == dummy:
                bye = names[home - 1]
            else:
                fixtures.append(ScheduledFixture(number, date, names[home - 1], names[away - 1]))
        weeks.append(Week(number, date, tuple(fixtures), bye))
    return Schedule(tuple(weeks))


def checked_entrants(entrants: Sequence[str], *,
                     error: type[RulesError] = OptionError) -> list[str]:
    """The names as given, after refusing a string, a blank or a duplicate: each refusal
    an ``error`` (a league's schedule's, a cup's). How few are too few is the caller's to
    say, in its own words."""
    if isinstance(entrants, str):
        raise error.of("entrants_string", value=repr(entrants))
    names: list[str] = []
    seen: dict[str, str] = {}
    # read as objects: compiled by mypyc, a loop variable typed str would raise TypeError
    # at a non-string before this could name it
    given: Sequence[object] = entrants
    for position, name in enumerate(given, start=1):
        if not isinstance(name, str):
            raise error.of("entrant_not_name", place=position, value=repr(name))
        if not name.strip():
            raise error.of("entrant_no_name", place=position)
        key = name.casefold()
        if key in seen:
            raise error.of("entrant_twice", place=position, name=repr(name),
                           other=repr(seen[key]))
        seen[key] = name
        names.append(name)
    return names


def _berger_rounds(count: int) -> list[list[tuple[int, int]]]:
    """The Berger tables for ``count`` entrants: each round's ``(home, away)`` numbers.

    Numbers run from 1; an odd count gains a dummy, ``count + 1``. With ``n`` numbers
    (even) and ``m = n - 1``, round ``r`` pairs ``a`` with ``b`` when ``a + b = r + 1``
    (mod ``m``), and ``n`` with the ``a`` for which ``2a = r + 1``. At home: against
    ``n``, ``a`` when ``a <= n / 2``; otherwise the smaller number when ``a + b`` is
    odd, the larger when it is even. Boards are listed as the tables print them: ``n``'s
    first, then outwards from ``n``'s opponent around the circle.
    """
    n = count + count % 2
    m = n - 1
    half = n // 2  # the inverse of 2 modulo m, since 2 * half = m + 1
    rounds: list[list[tuple[int, int]]] = []
    for r in range(1, n):
        opponent = ((r + 1) * half - 1) % m + 1
        pairs = [(opponent, n) if opponent <= half else (n, opponent)]
        for step in range(1, half):
            a = (opponent + step - 1) % m + 1
            b = (opponent - step - 1) % m + 1
            low, high = (a, b) if a < b else (b, a)
            pairs.append((low, high) if (low + high) % 2 else (high, low))
        rounds.append(pairs)
    return rounds
