"""Reads for match history: the matches a viewer may see, filtered, sorted, paged by key.

Who sees what: a club's matches follow the club (a public club's to anyone, a
members-only club's to its members); a casual match is its scorers' and watchers' own —
the phone that scores or watched it, the account that started it — as on the home page.
Pages are cut by keyset (``started_at``, ``id``), never by OFFSET, and rows come from
the stored results (side scores, winner), never from a replay; a league game whose
result the league corrected is won as corrected (``leagues.selectors.counted_results``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet

from matches.clubs.models import Club, Membership, Visibility
from matches.history.models import Rating
from matches.leagues.models import Season, SeasonKind
from matches.leagues.selectors import counted_results
from matches.scoring.models import GameKind, Match, MatchStatus

PAGE = 25


@dataclass(frozen=True)
class HistoryFilters:
    player: str = ""
    game: str = ""
    club: str = ""  # slug
    season: int | None = None
    status: str = ""
    since: datetime.date | None = None
    until: datetime.date | None = None
    oldest_first: bool = False


@dataclass
class HistoryPage:
    matches: list[Match]
    next_cursor: str | None  # the key after the last row, for the next page's link
    filters: HistoryFilters
    clubs: list[Club] = field(default_factory=list)
    seasons: list[Season] = field(default_factory=list)  # of leagues and of cups

    @property
    def league_seasons(self) -> list[Season]:
        return [season for season in self.seasons if season.kind == SeasonKind.LEAGUE]

    @property
    def cups(self) -> list[Season]:
        """The seasons cups keep their ties in: a cup's games are filtered by them."""
        return [season for season in self.seasons if season.kind == SeasonKind.CUP]


def visible_matches(user: AbstractBaseUser | AnonymousUser | None,
                    own: Sequence[str]) -> QuerySet[Match]:
    """Every match ``user`` (with this browser's ``own`` public ids) may see."""
    allowed = Q(club__visibility=Visibility.PUBLIC) | Q(public_id__in=list(own), club=None)
    if user is not None and user.is_authenticated:
        member_of = Membership.objects.filter(user=user.pk).values("club")
        allowed |= Q(club__in=member_of) | Q(club=None, created_by=user.pk)
    return Match.objects.filter(allowed)


def history_page(*, user: AbstractBaseUser | AnonymousUser | None, own: Sequence[str],
                 filters: HistoryFilters, cursor: str | None = None,
                 limit: int = PAGE) -> HistoryPage:
    """One page of the matches ``user`` may see, filtered, from ``cursor`` on."""
    matches = history_queryset(user=user, own=own, filters=filters)
    key = parse_cursor(cursor)
    if key is not None:
        started, pk = key
        if filters.oldest_first:
            matches = matches.filter(Q(started_at__gt=started) | Q(started_at=started,
                                                                    pk__gt=pk))
        else:
            matches = matches.filter(Q(started_at__lt=started) | Q(started_at=started,
                                                                    pk__lt=pk))
    rows = list(matches[:limit + 1])
    more = len(rows) > limit
    rows = rows[:limit]
    next_cursor = make_cursor(rows[-1]) if more and rows else None
    clubs = list(Club.objects.filter(pk__in=visible_matches(user, own).exclude(club=None)
                                     .values("club")).order_by("name"))
    seasons = list(Season.objects.filter(club__in=clubs).order_by("club__name", "-starts_on"))
    return HistoryPage(rows, next_cursor, filters, clubs, seasons)


def history_queryset(*, user: AbstractBaseUser | AnonymousUser | None, own: Sequence[str],
                     filters: HistoryFilters) -> QuerySet[Match]:
    """The visible matches under ``filters``, in order, with what a row shows."""
    matches = visible_matches(user, own)
    if filters.player:
        matches = matches.filter(seats__name__icontains=filters.player)
    if filters.game in GameKind.values:
        matches = matches.filter(game=filters.game)
    if filters.club:
        matches = matches.filter(club__slug=filters.club)
    if filters.season is not None:
        matches = matches.filter(season=filters.season)
    if filters.status in MatchStatus.values:
        matches = matches.filter(status=filters.status)
    if filters.since is not None:
        matches = matches.filter(started_at__date__gte=filters.since)
    if filters.until is not None:
        matches = matches.filter(started_at__date__lte=filters.until)
    order = ["started_at", "id"] if filters.oldest_first else ["-started_at", "-id"]
    return counted_results(matches.distinct().order_by(*order).select_related("club"))


def make_cursor(match: Match) -> str:
    return f"{match.started_at.isoformat()}_{match.pk}"


def parse_cursor(cursor: str | None) -> tuple[datetime.datetime, int] | None:
    """The key a page's link carries; anything malformed starts from the beginning."""
    if not cursor or "_" not in cursor or len(cursor) > 80:
        return None
    when, _, pk = cursor.rpartition("_")
    if not (pk.isascii() and pk.isdigit()):
        return None
    try:
        started = datetime.datetime.fromisoformat(when)
        if started.tzinfo is None:
            return None
        # in UTC, as the database compares it: a time at the calendar's edge in another
        # zone (9999-12-31T23:59-01:00) has none, and is no page's key
        started = started.astimezone(datetime.UTC)
    except (ValueError, OverflowError):
        return None
    return started, int(pk)


def club_ratings(club: Club, game: str) -> QuerySet[Rating]:
    """The club's rating table at ``game``: best first (the ordinal, mu - 3 sigma)."""
    return (Rating.objects.filter(club=club, game=game).select_related("player")
            .order_by("-ordinal", "player__name"))


def club_rated_games(club: Club) -> list[str]:
    return list(Rating.objects.filter(club=club).order_by("game").values_list("game", flat=True)
                .distinct())
