"""A season's "nights start at": 19:30 unless set, set by its league admins only (on the
new-season form and the season page), refused in a locked season or as no time."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from matches.leagues.services import season_nights_start_set
from matches.models import Season
from tests.support.helpers import LeagueNight, league_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> LeagueNight:
    return league_night(target=10)


def url(season: Season) -> str:
    return reverse("matches:season_nights_start",
                   kwargs={"slug": season.club.slug, "season": season.slug})


def test_nights_start_at_half_past_seven_unless_set(night):
    assert night.fixture.division.season.nights_start == datetime.time(19, 30)


def test_only_a_league_admin_sets_it_and_not_in_a_locked_season(night):
    season = night.fixture.division.season
    with pytest.raises(PermissionDenied):
        season_nights_start_set(season=season, by=night.home_captain,
                                nights_start=datetime.time(20, 0))
    season_nights_start_set(season=season, by=night.admin, nights_start=datetime.time(20, 0))
    season.locked = True
    season.save()
    with pytest.raises(ValidationError, match="The season is locked"):
        season_nights_start_set(season=season, by=night.admin,
                                nights_start=datetime.time(21, 0))
    season.refresh_from_db()
    assert season.nights_start == datetime.time(20, 0)


def test_the_season_page_sets_it(client, night):
    season = night.fixture.division.season
    client.force_login(night.admin)
    page = client.get(season.get_absolute_url()).content.decode()
    assert 'id="nights-start" value="19:30"' in page and "(UTC)" in page
    response = client.post(url(season), {"nights_start": "20:15"}, follow=True)
    assert "Nights start at 20:15: the reminders follow it." in response.content.decode()
    season.refresh_from_db()
    assert season.nights_start == datetime.time(20, 15)
    response = client.post(url(season), {"nights_start": "late"}, follow=True)
    assert "Give the time the nights start, such as 19:30." in response.content.decode()
    season.refresh_from_db()
    assert season.nights_start == datetime.time(20, 15)


def test_a_captain_may_not_set_it(client, night):
    season = night.fixture.division.season
    client.force_login(night.home_captain)
    assert 'id="nights-start"' not in client.get(season.get_absolute_url()).content.decode()
    assert client.post(url(season), {"nights_start": "20:00"}).status_code == 403


def test_the_new_season_form_takes_it(client, night):
    club = night.fixture.division.season.club
    client.force_login(night.admin)
    new = reverse("matches:season_new", kwargs={"slug": club.slug})
    assert 'name="nights_start" value="19:30"' in client.get(new).content.decode()
    client.post(new, {"name": "Winter", "starts_on": "2027-01-04", "game": "all-fives",
                      "fixture_format": "single", "win": 2, "draw": 1, "loss": 0,
                      "per_game": 0, "walkover_won": 1, "walkover_lost": 0,
                      "divisions": "Only", "nights_start": "19:45",
                      "tiebreak_1": "game_difference", "tiebreak_2": "games_for"})
    assert Season.objects.get(name="Winter").nights_start == datetime.time(19, 45)
