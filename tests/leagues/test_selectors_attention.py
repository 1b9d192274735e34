"""What waits for whom: the home page's "needs you" (needs_you) and the season page's
fixtures needing attention (season_attention), as selectors and on their pages. Who is
not the captain, the league admin or a member sees nothing."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.leagues.selectors import needs_you, season_attention
from matches.leagues.services import fixture_dispute, fixture_submit
from matches.models import Entrant, Fixture, FixtureStatus, Membership
from tests.leagues.test_notices import played
from tests.support.helpers import LeagueNight, league_night

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 9, 7)
DAY = datetime.timedelta(days=1)


@pytest.fixture
def night() -> LeagueNight:
    return league_night(target=10)


@pytest.fixture
def member(night) -> User:
    """A member of the club without a role: no side, no league to run."""
    user = User.objects.create_user("pat")
    Membership.objects.create(club=night.fixture.division.season.club, user=user)
    return user


@pytest.fixture
def outsider() -> User:
    return User.objects.create_user("stranger")


def submitted(night: LeagueNight) -> Fixture:
    played(night)
    return fixture_submit(fixture=night.fixture, by=night.home_captain)


def test_a_result_to_confirm_waits_for_the_away_captain_only(night, member, outsider):
    fixture = submitted(night)
    assert needs_you(user=night.away_captain, today=TODAY).to_confirm == [fixture]
    for user in (night.home_captain, night.admin, member, outsider, AnonymousUser()):
        assert not needs_you(user=user, today=TODAY), user


def test_a_result_between_two_sides_of_one_captain_waits_for_the_league(night, member):
    # no captain confirms their own side's result: it is the league's to settle
    Entrant.objects.filter(pk=night.fixture.away_id).update(captain=night.home_captain)
    fixture = submitted(night)
    captain = needs_you(user=night.home_captain, today=TODAY)
    assert captain.to_confirm == [] and captain.to_settle == []
    assert not captain
    assert needs_you(user=night.admin, today=TODAY).to_settle == [fixture]
    assert not needs_you(user=member, today=TODAY)
    admin = Client()
    admin.force_login(night.admin)
    page = admin.get(reverse("matches:home")).content.decode()
    assert "Results to settle: one captain has both sides" in page


def test_a_dispute_waits_for_both_captains_and_the_league_admin(night, member, outsider):
    fixture = fixture_dispute(fixture=submitted(night), by=night.away_captain, message="No")
    for user in (night.home_captain, night.away_captain, night.admin):
        assert needs_you(user=user, today=TODAY).disputes == [fixture], user
    for user in (member, outsider, AnonymousUser()):
        assert not needs_you(user=user, today=TODAY), user


@pytest.mark.parametrize(("days", "when"), [
    (-1, None), (0, "tonight"), (1, "this_week"), (6, "this_week"), (7, None)])
def test_the_captains_fixtures_today_and_this_week(night, member, days, when):
    Fixture.objects.filter(pk=night.fixture.pk).update(date=TODAY + days * DAY)
    for captain in (night.home_captain, night.away_captain):
        needs = needs_you(user=captain, today=TODAY)
        assert needs.tonight == ([night.fixture] if when == "tonight" else [])
        assert needs.this_week == ([night.fixture] if when == "this_week" else [])
        assert needs.to_send == ([night.fixture] if days < 0 and captain == night.home_captain
                                 else [])
    assert not needs_you(user=member, today=TODAY)
    assert not needs_you(user=night.admin, today=TODAY)  # not the admin's side


@pytest.mark.parametrize("days", [-1, -30])
def test_a_home_fixture_past_its_date_with_no_result_waits_for_the_home_captain(
        night, member, days):
    Fixture.objects.filter(pk=night.fixture.pk).update(date=TODAY + days * DAY)
    assert needs_you(user=night.home_captain, today=TODAY).to_send == [night.fixture]
    # the away captain cannot send it, and the league's admins see it on the season page
    for user in (night.away_captain, night.admin, member):
        assert not needs_you(user=user, today=TODAY), user
    fixture = submitted(night)  # sent: it waits for the away captain now
    assert not needs_you(user=night.home_captain, today=TODAY)
    assert needs_you(user=night.away_captain, today=TODAY).to_confirm == [fixture]


def test_the_home_page_lists_the_results_the_captain_has_to_send(client, night):
    Fixture.objects.filter(pk=night.fixture.pk).update(date=timezone.localdate() - DAY)
    client.force_login(night.home_captain)
    page = client.get(reverse("matches:home")).content.decode()
    assert 'id="needs-to-send"' in page and "Results to send" in page
    assert f'href="{night.fixture.get_absolute_url()}"' in page


def test_nothing_waits_in_a_locked_season_or_a_club_left(night):
    Fixture.objects.filter(pk=night.fixture.pk).update(date=TODAY)
    season = night.fixture.division.season
    season.locked = True
    season.save()
    assert not needs_you(user=night.home_captain, today=TODAY)
    season.locked = False
    season.save()
    Membership.objects.filter(user=night.home_captain).delete()
    assert not needs_you(user=night.home_captain, today=TODAY)
    assert needs_you(user=night.away_captain, today=TODAY).tonight == [night.fixture]


# -- the season's fixtures needing attention ---------------------------------------------


NOW = datetime.datetime(2026, 9, 7, 12, 0, tzinfo=datetime.UTC)


def test_past_their_date_without_a_result(night):
    season = night.fixture.division.season
    Fixture.objects.filter(pk=night.fixture.pk).update(date=TODAY - DAY)
    assert season_attention(season=season, now=NOW).overdue == [night.fixture]
    Fixture.objects.filter(pk=night.fixture.pk).update(date=TODAY)
    assert not season_attention(season=season, now=NOW)
    Fixture.objects.filter(pk=night.fixture.pk).update(date=None)
    assert not season_attention(season=season, now=NOW)


@pytest.mark.parametrize(("date", "waits"), [(None, True), (-1, True), (0, False), (3, False)])
def test_postponed_with_no_new_date_or_one_gone_by(night, date, waits):
    season = night.fixture.division.season
    Fixture.objects.filter(pk=night.fixture.pk).update(
        status=FixtureStatus.POSTPONED, date=None if date is None else TODAY + date * DAY)
    attention = season_attention(season=season, now=NOW)
    assert attention.postponed == ([night.fixture] if waits else [])
    assert bool(attention) is waits
    assert attention.overdue == []  # not scheduled: not "past its date, no result"


def test_awaiting_confirmation_for_more_than_a_day(night):
    season = night.fixture.division.season
    fixture = submitted(night)
    sent_at = fixture.submitted_at
    assert sent_at is not None
    assert not season_attention(season=season, now=sent_at + datetime.timedelta(hours=23))
    assert season_attention(season=season, now=sent_at + datetime.timedelta(hours=24)) \
        .unconfirmed == [fixture]


def test_disputed(night):
    season = night.fixture.division.season
    fixture = fixture_dispute(fixture=submitted(night), by=night.away_captain, message="No")
    attention = season_attention(season=season, now=timezone.now())
    assert attention.disputed == [fixture]
    assert fixture.status == FixtureStatus.DISPUTED


# -- on their pages -----------------------------------------------------------------------


def test_the_home_page_shows_what_needs_the_captain(client, night, member):
    fixture = fixture_dispute(fixture=submitted(night), by=night.away_captain, message="No")
    client.force_login(night.home_captain)
    page = client.get(reverse("matches:home")).content.decode()
    assert 'id="needs-you"' in page and 'id="needs-disputes"' in page
    assert f'href="{fixture.get_absolute_url()}"' in page
    client.force_login(member)
    assert 'id="needs-you"' not in client.get(reverse("matches:home")).content.decode()
    client.logout()
    assert 'id="needs-you"' not in client.get(reverse("matches:home")).content.decode()


def test_the_season_page_lists_a_postponed_fixture_with_no_new_date(client, night):
    Fixture.objects.filter(pk=night.fixture.pk).update(status=FixtureStatus.POSTPONED,
                                                       date=None)
    client.force_login(night.admin)
    page = client.get(night.fixture.division.season.get_absolute_url()).content.decode()
    assert 'id="attention-postponed"' in page and "Postponed: no new date yet" in page


def test_the_season_page_lists_fixtures_needing_attention_to_its_admins(client, night,
                                                                        member):
    fixture = fixture_dispute(fixture=submitted(night), by=night.away_captain, message="No")
    url = fixture.division.season.get_absolute_url()
    client.force_login(night.admin)
    page = client.get(url).content.decode()
    assert 'id="attention-disputed"' in page
    assert f'href="{fixture.get_absolute_url()}"' in page
    for user in (night.home_captain, member):  # a captain, a member: not the league's
        client.force_login(user)
        assert 'id="attention"' not in client.get(url).content.decode()
    client.logout()
    assert 'id="attention"' not in client.get(url).content.decode()
