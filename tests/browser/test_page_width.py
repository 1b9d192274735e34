"""Pages stay as wide as a 360×740 phone: a wide table scrolls in its own box, and a name
as long as it may be, with nowhere to break (60 × "Ж" is a player's name the club page
accepts), wraps on every page a club member or a scorer sees."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from matches import services
from matches.models import Fixture

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_league_table_scrolls_in_its_own_box_and_the_page_stays_put(live_server,
                                                                         page: Page):
    """Ordinary names, and a result that counts: the table's form column has its words
    for screen readers (visually hidden); they stay inside the table's scroll box."""
    secretary = User.objects.create_user("secretary")
    club = services.club_create(name="Teesdale Dominoes Club", by=secretary)
    season = services.season_create(club=club, by=secretary, name="Monday League",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives")
    division = season.divisions.get()
    home = services.entrant_add(division=division, by=secretary, name="Royal Oak A")
    away = services.entrant_add(division=division, by=secretary, name="Bowes Dragons")
    played = Fixture.objects.create(division=division, week=1, home=home, away=away)
    services.fixture_walkover(fixture=played, by=secretary, side="home")

    page.goto(live_server.url + season.get_absolute_url())
    expect(page.locator(".form-guide .visually-hidden").first).to_have_text("won")
    box = page.get_by_role("region", name="Division 1: league table")
    expect(box).to_have_attribute("tabindex", "0")
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # it scrolls, not the page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the season page is {width} px wide at 360 px"
