"""matches.leagues.selectors: a season's divisions and fixtures as the pages find them,
and what a reader may do on a fixture (fixture_rights)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from matches.clubs.services import club_create, player_add
from matches.leagues import selectors as leagues_selectors
from matches.leagues.services import entrant_add, fixtures_generate, season_create
from matches.models import Fixture, FixtureStatus, Membership, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name)
            for name in ("admin", "oak", "bowes", "member")}


@pytest.fixture
def season(people) -> Season:
    club = club_create(name="Teesdale", by=people["admin"])
    for name in ("oak", "bowes"):
        Membership.objects.create(club=club, user=people[name], role="captain")
    Membership.objects.create(club=club, user=people["member"], role="member")
    season = season_create(club=club, by=people["admin"], name="Monday League",
                                    game="all-fives", starts_on=datetime.date(2026, 9, 7),
                                    divisions=["A", "B"])
    division = season.divisions.get(name="A")
    for name, captain in (("Royal Oak", "oak"), ("Bowes", "bowes")):
        entrant_add(division=division, by=people["admin"], name=name,
                             captain=people[captain])
    fixtures_generate(division=division, by=people["admin"])
    return season


def home_fixture(season: Season) -> Fixture:
    """The division's one fixture, as the fixture page loads it."""
    pk = Fixture.objects.get(division__season=season).pk
    return leagues_selectors.fixture_for_viewer(season=season, pk=pk)


def captain(fixture: Fixture, who: str):
    """``home`` and ``away``: that side's captain; else the person so called."""
    return {"home": fixture.home.captain, "away": fixture.away.captain}.get(who)


def test_fixture_for_viewer_is_the_seasons_own(season, people):
    fixture = home_fixture(season)
    other = season_create(club=season.club, by=people["admin"], name="Summer",
                                   game="all-fives", starts_on=datetime.date(2027, 6, 7))
    with pytest.raises(Http404):
        leagues_selectors.fixture_for_viewer(season=other, pk=fixture.pk)


@pytest.mark.parametrize(("who", "enters", "signs", "admin"), [
    ("home", True, False, False),
    ("away", False, True, False),
    ("admin", True, False, True),
    ("member", False, False, False),
    (None, False, False, False),
])
def test_fixture_rights_by_side_and_role(season, people, who, enters, signs, admin):
    fixture = home_fixture(season)
    user = (captain(fixture, who) or people[who]) if who else AnonymousUser()
    rights = leagues_selectors.fixture_rights(fixture=fixture, season=season, user=user)
    assert (rights.enters, rights.signs, rights.admin) == (enters, signs, admin)


def test_a_home_captains_right_costs_no_query(season, people):
    fixture = home_fixture(season)
    with CaptureQueriesContext(connection) as queries:
        assert leagues_selectors.fixture_rights(fixture=fixture, season=season,
                                        user=fixture.home.captain).enters
    assert len(queries) == 0


def test_a_captain_of_both_sides_never_signs(season, people):
    fixture = home_fixture(season)
    fixture.away.captain = fixture.home.captain
    fixture.status = FixtureStatus.SUBMITTED
    rights = leagues_selectors.fixture_rights(fixture=fixture, season=season,
                                      user=fixture.home.captain)
    assert rights.both_captains and not rights.signs and not rights.can_sign


@pytest.mark.parametrize("status", [s for s in FixtureStatus.values
                                    if s != FixtureStatus.SUBMITTED])
def test_a_captain_of_both_sides_is_told_why_only_while_a_result_awaits_signing(
        season, people, status):
    fixture = home_fixture(season)
    fixture.away.captain = fixture.home.captain
    fixture.status = status
    rights = leagues_selectors.fixture_rights(fixture=fixture, season=season,
                                      user=fixture.home.captain)
    assert not rights.both_captains


def test_the_pages_flags_add_the_fixtures_state(season, people):
    fixture = home_fixture(season)

    def flags(who: str) -> tuple[bool, bool, bool]:
        rights = leagues_selectors.fixture_rights(fixture=fixture, season=season,
                                          user=captain(fixture, who) or people[who])
        return rights.can_enter, rights.can_sign, rights.can_resolve

    assert flags("home") == (True, False, False) and flags("admin") == (True, False, False)
    fixture.status = FixtureStatus.SUBMITTED
    assert flags("home") == (False, False, False)
    assert flags("away") == (False, True, False)
    assert flags("admin") == (False, False, True)
    season.locked = True
    assert flags("away") == (False, False, False) and flags("admin") == (False,) * 3


def test_a_division_of_another_season_is_a_404(season, people):
    other = season_create(club=season.club, by=people["admin"], name="Summer",
                                   game="all-fives", starts_on=datetime.date(2027, 6, 7))
    division = season.divisions.get(name="B")
    assert leagues_selectors.season_division(season=season, pk=division.pk) == division
    with pytest.raises(Http404):
        leagues_selectors.season_division(season=other, pk=division.pk)
    assert [d.name for d in leagues_selectors.season_division_list(season=season)] == ["A", "B"]


def test_an_entrants_division_and_a_divisions_entrant(season):
    division = season.divisions.get(name="A")
    oak = division.entrants.get(name="Royal Oak")
    assert leagues_selectors.entrant_division(season=season, entrant_pk=oak.pk) == division
    assert leagues_selectors.division_entrant(division=division, pk=oak.pk) == oak
    assert leagues_selectors.division_entrant(division=season.divisions.get(name="B"),
                                      pk=oak.pk) is None


def test_players_chosen_keep_the_order_chosen_and_are_the_clubs_only(season, people):
    ann = player_add(club=season.club, name="Ann Dale", by=people["admin"])
    bob = player_add(club=season.club, name="Bob Hay", by=people["admin"])
    elsewhere = club_create(name="Elsewhere", by=people["admin"])
    eve = player_add(club=elsewhere, name="Eve", by=people["admin"])
    club_id = season.club_id
    assert leagues_selectors.players_chosen(club_id=club_id, pks=[bob.pk, ann.pk]) == [bob, ann]
    assert leagues_selectors.players_chosen(club_id=club_id, pks=[]) == []
    assert leagues_selectors.players_chosen(club_id=club_id, pks=[bob.pk, 999_999]) is None
    assert leagues_selectors.players_chosen(club_id=club_id, pks=[ann.pk, eve.pk]) is None
