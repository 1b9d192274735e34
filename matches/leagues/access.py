"""Who may read a club's seasons and who runs its league: a season of a members-only
club is a 404 to outsiders, as the club is; its admin forms are a 403 to members below
:data:`~matches.clubs.access.RUNS_LEAGUE`. What each person may do on a fixture is the
sign-off table's to say (:class:`~matches.leagues.selectors.FixtureRights`)."""

from __future__ import annotations

from django.http import HttpRequest

from matches.clubs.access import RUNS_LEAGUE, club_for, club_for_role, require_role
from matches.clubs.models import Club
from matches.leagues.models import Season
from matches.leagues.selectors import club_season


def season_for(request: HttpRequest, slug: str, season: str) -> Season:
    """The club's season for this request's reader (its ``.club`` read with it); a 404
    if they may not read the club, or it has no such season."""
    return club_season(club=club_for(request, slug), slug=season)


def club_run_by(request: HttpRequest, slug: str) -> Club:
    """The club, if this request's reader runs its league: 404, then 403."""
    return club_for_role(request, slug, RUNS_LEAGUE)


def league_run_by(request: HttpRequest, club: Club) -> None:
    """A 403 unless this request's reader runs ``club``'s league (it is readable)."""
    require_role(club=club, user=request.user, role=RUNS_LEAGUE)


def season_run_by(request: HttpRequest, slug: str, season: str) -> Season:
    """The season, if this request's reader runs its club's league: 404, then 403."""
    the_season = season_for(request, slug, season)
    league_run_by(request, the_season.club)
    return the_season
