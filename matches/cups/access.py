"""Who may read a club's cups and who runs them: a cup of a members-only club is a 404
to outsiders, as the club is; its writes need a club admin (the role that runs the
league, :data:`~matches.clubs.access.RUNS_LEAGUE`), else a 403. What each person may do
on a tie's fixture is the leagues' sign-off table's to say, as for any fixture."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from matches.clubs.access import (
    RUNS_LEAGUE,
    club_for,
    club_for_role,
    club_rights,
    require_role,
    roles_at_least,
)
from matches.clubs.models import Club
from matches.clubs.selectors import Viewer
from matches.cups.models import Cup
from matches.cups.selectors import club_cup

RUNS_CUP = RUNS_LEAGUE  # makes a cup, adds its entrants, draws it, dates it, resets ties


def require_cup_admin(*, club: Club, user: Viewer) -> None:
    """PermissionDenied unless ``user`` runs ``club``'s cups (the services ask this)."""
    require_role(club=club, user=user, role=RUNS_CUP)


def runs_cups(*, club: Club, user: Viewer) -> bool:
    """Whether the page offers the cup's admin forms (the services' same question)."""
    return club_rights(club=club, user=user).at_least(RUNS_CUP)


def clubs_whose_cups_they_run(user: Viewer) -> QuerySet[Club]:
    """The clubs whose cups ``user`` runs (none for an anonymous reader)."""
    if not isinstance(user, User):
        return Club.objects.none()
    return Club.objects.filter(memberships__user=user,
                               memberships__role__in=roles_at_least(RUNS_CUP))


def club_of_cups(request: HttpRequest, slug: str) -> Club:
    """The club, if this request's reader may read it: else a 404."""
    return club_for(request, slug)


def club_cups_run_by(request: HttpRequest, slug: str) -> Club:
    """The club, if this request's reader runs its cups: 404, then 403."""
    return club_for_role(request, slug, RUNS_CUP)


def cup_for(request: HttpRequest, slug: str, season: str) -> Cup:
    """The club's cup (by its season's address) for this request's reader: a 404 if they
    may not read the club, or it has no such cup."""
    return club_cup(club=club_for(request, slug), slug=season)


def cup_run_by(request: HttpRequest, slug: str, season: str) -> Cup:
    """The cup, if this request's reader runs its club's cups: 404, then 403."""
    cup = cup_for(request, slug, season)
    require_cup_admin(club=cup.season.club, user=request.user)
    return cup
