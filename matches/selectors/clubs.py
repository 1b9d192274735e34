"""Reads for clubs: which clubs a viewer may see, members, players, roles."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404

from matches.models import Club, Match, Membership, Player, Rating, Season, Visibility

Viewer = AbstractBaseUser | AnonymousUser | None


def membership(club: Club, user: Viewer) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user.pk).first()


def visible_clubs(user: Viewer) -> QuerySet[Club]:
    """Public clubs, and the members-only clubs ``user`` belongs to."""
    visible = Q(visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        visible |= Q(memberships__user=user.pk)
    return Club.objects.filter(visible).distinct()


def club_for_viewer(slug: str, user: Viewer) -> Club:
    """The club, if ``user`` may read it; a members-only club is a 404 to others."""
    club = visible_clubs(user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return club


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("user__username")


def club_players(club: Club) -> QuerySet[Player]:
    return club.players.select_related("user").order_by("name")


def club_seasons(club: Club) -> QuerySet[Season]:
    return club.seasons.order_by("-starts_on", "id")


def club_ratings(club: Club, game: str) -> QuerySet[Rating]:
    """The club's rating table at ``game``: best first (the ordinal, mu - 3 sigma)."""
    return (Rating.objects.filter(club=club, game=game).select_related("player")
            .order_by("-ordinal", "player__name"))


def club_rated_games(club: Club) -> list[str]:
    return list(Rating.objects.filter(club=club).order_by("game").values_list("game", flat=True)
                .distinct())


def club_matches(club: Club) -> QuerySet[Match]:
    """The club's matches (its own, as the history lists them: a league game, or a
    rematch of one), its league games and the matches its players sat at."""
    ids = Match.objects.filter(
        Q(club=club) | Q(fixture_game__fixture__division__season__club=club)
        | Q(seats__player__club=club)
    ).values("pk")
    return Match.objects.filter(pk__in=ids)
