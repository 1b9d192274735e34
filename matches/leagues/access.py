"""Who may read a club's seasons and who runs its league: a season of a members-only
club is a 404 to outsiders, as the club is; its admin forms are a 403 to members below
:data:`~matches.clubs.access.RUNS_LEAGUE`. What each person may do on a fixture is the
sign-off table's to say (:class:`~matches.leagues.selectors.FixtureRights`).

A captain's link, once opened, is held in that phone's session (:func:`hold_link`): it
reaches its entrant's fixtures, also in a members-only club, and nothing else there."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest

from matches.clubs.access import RUNS_LEAGUE, club_for, club_for_role, require_role
from matches.clubs.models import Club
from matches.leagues.models import Entrant, Fixture, Season
from matches.leagues.selectors import (
    CaptainsLink,
    captain_links_held,
    club_season,
    fixture_for_viewer,
)

LINKS_KEY = "captain_links"  # session: {entrant id: key} of the captain's links it holds


def held_links(request: HttpRequest) -> list[CaptainsLink]:
    """The live captain's links this phone holds (none replaced since it opened them)."""
    return captain_links_held(keys=request.session.get(LINKS_KEY, {}))


def hold_link(request: HttpRequest, entrant: Entrant, key: str) -> None:
    """This phone acts through ``entrant``'s captain's link from now on."""
    request.session[LINKS_KEY] = {**request.session.get(LINKS_KEY, {}), str(entrant.pk): key}


@dataclass(frozen=True)
class FixtureReach:
    """A fixture as this request reaches it: its season; whether the reader may read
    the club (else only a captain's link brought them); the links this phone holds for
    either of its sides."""

    fixture: Fixture
    season: Season
    club_readable: bool
    links: list[CaptainsLink]


def fixture_for(request: HttpRequest, slug: str, season: str, pk: int) -> FixtureReach:
    """The club's season's fixture ``pk``, for a reader of the club or a phone holding
    the captain's link of one of its sides; a 404 to anyone else (a members-only club's
    fixture does not admit it exists)."""
    links = held_links(request)
    try:
        the_season, readable = season_for(request, slug, season), True
    except Http404:
        held = next((link.entrant.division.season for link in links
                     if link.entrant.division.season.club.slug == slug
                     and link.entrant.division.season.slug == season), None)
        if held is None:
            raise
        the_season, readable = held, False
    fixture = fixture_for_viewer(season=the_season, pk=pk)
    sides = [link for link in links if link.entrant.pk in (fixture.home_id, fixture.away_id)]
    if not readable and not sides:
        raise Http404("No such fixture.")
    return FixtureReach(fixture=fixture, season=the_season, club_readable=readable,
                        links=sides)


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
