"""A fixture night on two phones at 360×740: the home captain keys in the games and
submits; the away captain signs in on their own phone and confirms; the table counts it."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from matches import services
from matches.models import Fixture, Membership

pytestmark = pytest.mark.django_db(transaction=True)


def sign_in(page: Page, live_server, username: str, next_url: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("a long pass phrase")
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(f"{live_server.url}{next_url}")


def test_a_captain_enters_a_fixture_night_and_the_other_captain_confirms(
        live_server, page: Page, browser: Browser):
    users = {name: User.objects.create_user(name, password="a long pass phrase")
             for name in ("sec", "oak", "bowes")}
    club = services.club_create(name="Teesdale", by=users["sec"])
    for name in ("oak", "bowes"):
        Membership.objects.create(club=club, user=users[name], role="captain")
    season = services.season_create(club=club, by=users["sec"], name="Monday",
                                    starts_on=datetime.date(2026, 9, 7),
                                    game="fives-and-threes", fixture_format="games", singles=3,
                                    scoring={"per_game": 1})
    division = season.divisions.get()
    oak = services.entrant_add(division=division, by=users["sec"], name="Royal Oak",
                               captain=users["oak"])
    bowes = services.entrant_add(division=division, by=users["sec"], name="Bowes",
                                 captain=users["bowes"])
    fixture = Fixture.objects.create(division=division, week=1, home=oak, away=bowes,
                                     date=datetime.date(2026, 9, 7))
    path = fixture.get_absolute_url()

    sign_in(page, live_server, "oak", path)
    expect(page.locator("h1")).to_have_text("Royal Oak v Bowes")
    for game, (home, away) in enumerate([(61, 40), (35, 61), (61, 59)], start=1):
        page.get_by_label(f"Game {game}: Royal Oak's score").fill(str(home))
        page.get_by_label(f"Game {game}: Bowes's score").fill(str(away))
    page.get_by_role("button", name="Save the scores").click()
    expect(page.locator(".messages")).to_contain_text("Scores saved.")
    page.get_by_role("button", name="Submit the result to Bowes").click()
    expect(page.locator("#fixture-status")).to_contain_text("Submitted")
    expect(page.locator("#fixture-status")).to_contain_text("2–1 in games")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    other = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    sign_in(other, live_server, "bowes", path)
    other.get_by_role("button", name="Confirm the result").click()
    expect(other.locator("#fixture-status")).to_contain_text("Confirmed")
    expect(other.locator("#fixture-changes")).to_contain_text("confirmed by bowes")

    other.goto(live_server.url + season.get_absolute_url())
    row = other.locator(f'#table-{division.pk} tr[data-entrant="Royal Oak"]')
    expect(row.locator("td").first).to_have_text("1")
    expect(row.locator("td").nth(7)).to_have_text("4")  # a win 2 + 2 games won
    other.context.close()
