"""Reads for managing a match: how it ended (the end-of-match summary), whether its
players may still be renamed."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Value
from django.utils.translation import gettext, ngettext

from matches import rules
from matches.core import messages as rules_messages
from matches.scoring.models import Change, ChangeKind, Match, MatchStatus, Seat, Side

# Who won as the result counts can be another concern's word: a league game's result
# the league corrected counts as corrected. Scoring reads no league, so that concern
# registers its reading here (the leagues' is ``matches.leagues.selectors.counted_results``,
# imported at the app's ready()), as it registers where a match belongs (place.py).
_RESULT_COUNTERS: list[Callable[[QuerySet[Match]], QuerySet[Match]]] = []


def results_counter[C: Callable[[QuerySet[Match]], QuerySet[Match]]](counter: C) -> C:
    """Register ``counter``: it reads ``matches`` as :func:`counted_results` does."""
    if counter not in _RESULT_COUNTERS:
        _RESULT_COUNTERS.append(counter)
    return counter


def counted_results(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` with their seats, their sides each marked ``won`` as the result counts,
    and ``corrected`` where a result other than the scorepad's counts; with nothing
    registered, the scorepad's own (``winner_side``)."""
    if _RESULT_COUNTERS:  # one concern counts results beyond the scorepad: the leagues
        return _RESULT_COUNTERS[0](matches)
    sides = Side.objects.annotate(won=Q(index=F("match__winner_side")))
    return (matches.annotate(corrected=Value(False))
            .prefetch_related("seats", Prefetch("sides", queryset=sides)))


@dataclass(frozen=True, slots=True)
class SideResult:
    names: str  # "Olena & Iryna", as the match page names a side
    score: str  # in the game's unit, halves as ½
    winner: bool


@dataclass(frozen=True, slots=True)
class MatchEnd:
    """What ``templates/matches/_match_end.html`` shows of a finished or abandoned match."""

    match: Match
    abandoned: bool
    winner: str | None  # the winning side's names; None when abandoned
    sides: list[SideResult]
    unit: str  # "points" or "display points" (Five Up)
    rounds: int
    started_at: datetime.datetime
    ended_at: datetime.datetime | None
    played: str  # how long, in words: "42 min", "1 h 5 min"; "" if not known
    public_url: str
    imported: bool = False  # from a match record: its times are the import's, not play's


@dataclass(frozen=True, slots=True)
class MatchOverview:
    """What every page that manages a match shows of it: who plays, the score so far
    (the stored scores, per side) and how many rounds it has had."""

    names: list[str]
    sides: list[tuple[str, Decimal]]  # each side's names ("Olena & Iryna") and score
    rounds: int


def match_overview(*, match: Match) -> MatchOverview:
    sides = match.sides.prefetch_related("seats").order_by("index")
    return MatchOverview(
        names=[seat.name for seat in match.seats.order_by("position")],
        sides=[(" & ".join(seat.name for seat in side.seats.all()), side.score)
               for side in sides],
        rounds=match.rounds.filter(undone_by=None).count())


def match_seats(*, match: Match) -> list[Seat]:
    """The match's seats in their order."""
    return list(match.seats.order_by("position"))


def match_end_summary(match: Match) -> MatchEnd | None:
    """How ``match`` ended, or None while it is played.

    From the stored results (side scores, winner, live rounds: two queries), never from
    a replay: the services keep them equal to one, and a page that shows this has
    already replayed the match once for itself."""
    if match.status == MatchStatus.IN_PROGRESS:
        return None
    winner = match.winner_side if match.status == MatchStatus.FINISHED else None
    # its live rounds, and whether it came from a match record (which holds no times:
    # an imported match's are those of its import), in one query
    rounds, imported = Match.objects.filter(pk=match.pk).annotate(
        live_rounds=Count("rounds", filter=Q(rounds__undone_by=None)),
        imported=Exists(Change.objects.filter(match=OuterRef("pk"), kind=ChangeKind.IMPORT)),
    ).values_list("live_rounds", "imported").get()
    sides: dict[int, tuple[list[str], Decimal]] = {}
    for index, score, name in (match.seats.order_by("position")
                               .values_list("side__index", "side__score", "name")):
        sides.setdefault(index, ([], score))[0].append(name)
    return MatchEnd(
        match=match, abandoned=match.status == MatchStatus.ABANDONED,
        winner=" & ".join(sides[winner][0]) if winner is not None else None,
        sides=[SideResult(names=" & ".join(names),
                          score=rules.show_points(Fraction(score).limit_denominator(2)),
                          winner=index == winner)
               for index, (names, score) in sorted(sides.items())],
        unit=rules_messages.unit_name(match.rules_game.unit),
        rounds=rounds,
        started_at=match.started_at, ended_at=match.finished_at,
        played=duration_words(match.finished_at - match.started_at)
        if match.finished_at and not imported else "",
        public_url=match.get_absolute_url(), imported=imported)


def duration_words(span: datetime.timedelta) -> str:
    """A match's length as the table says it: "under a minute", "42 min", "1 h 5 min",
    "2 days 3 h" (a match left open overnight)."""
    minutes = int(span.total_seconds()) // 60
    if minutes < 1:
        return gettext("under a minute")
    hours, minutes = divmod(minutes, 60)
    days, hours = divmod(hours, 24)
    shown_hours = gettext("%(hours)s h") % {"hours": hours}
    if days:
        shown = ngettext("%(days)s day", "%(days)s days", days) % {"days": days}
        return f"{shown} {shown_hours}" if hours else shown
    shown_minutes = gettext("%(minutes)s min") % {"minutes": minutes}
    if hours:
        return f"{shown_hours} {shown_minutes}" if minutes else shown_hours
    return shown_minutes


def before_play(engine: rules.Match) -> bool:
    """No tile placed, no call made, no round settled: the names are not yet on any
    score, so they may still be corrected. (The first round is started with the match,
    so "before play" means its start is all there is.)"""
    return all(not rnd.events and not rnd.settled for rnd in engine.rounds)
