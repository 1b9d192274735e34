"""A fixture night on two phones at 360×740: the home captain keys in the games and
submits; the away captain signs in on their own phone and confirms; the table counts it."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from matches.clubs.services import club_create, player_add
from matches.leagues.services import entrant_add, season_create
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
    club = club_create(name="Teesdale", by=users["sec"])
    for name in ("oak", "bowes"):
        Membership.objects.create(club=club, user=users[name], role="captain")
    season = season_create(club=club, by=users["sec"], name="Monday",
                                    starts_on=datetime.date(2026, 9, 7),
                                    game="fives-and-threes", fixture_format="games", singles=3,
                                    scoring={"per_game": 1})
    division = season.divisions.get()
    oak = entrant_add(division=division, by=users["sec"], name="Royal Oak",
                      captain=users["oak"], players=[
                          player_add(club=club, name=name, by=users["sec"])
                          for name in ("Ann Dale", "Bob Hart")])
    bowes = entrant_add(division=division, by=users["sec"], name="Bowes",
                        captain=users["bowes"], players=[
                            player_add(club=club, name=name, by=users["sec"])
                            for name in ("Cat Lund", "Dev Patel")])
    fixture = Fixture.objects.create(division=division, week=1, home=oak, away=bowes,
                                     date=datetime.date(2026, 9, 7))
    path = fixture.get_absolute_url()

    sign_in(page, live_server, "oak", path)
    expect(page.locator("h1")).to_have_text("Royal Oak v Bowes")
    night = [("Ann Dale", "Cat Lund", 61, 40), ("Bob Hart", "Dev Patel", 35, 61),
             ("Ann Dale", "Dev Patel", 61, 59)]
    for game, (home_player, away_player, home, away) in enumerate(night, start=1):
        page.get_by_label(f"Game {game}: Royal Oak's player 1").select_option(
            label=home_player)
        page.get_by_label(f"Game {game}: Bowes's player 1").select_option(label=away_player)
        page.get_by_label(f"Game {game}: Royal Oak's score").fill(str(home))
        page.get_by_label(f"Game {game}: Bowes's score").fill(str(away))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_role("button", name="Save the scores").click()
    expect(page.locator(".messages")).to_contain_text("Scores saved.")
    expect(page.get_by_label("Game 3: Bowes's player 1")).to_have_value(
        str(bowes.players.get(name="Dev Patel").pk))
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


def season_admin(live_server, page: Page):
    """A club whose admin is signed in on ``page``, with Ann Dale among its players."""
    admin = User.objects.create_user("sec", password="a long pass phrase")
    club = club_create(name="Teesdale", by=admin)
    player_add(club=club, name="Ann Dale", by=admin)
    new_season = reverse("matches:season_new", kwargs={"slug": club.slug})
    sign_in(page, live_server, "sec", new_season)
    return club


def test_a_new_season_refused_opens_on_its_reasons_each_a_link_to_its_field(
        live_server, page: Page):
    season_admin(live_server, page)
    page.get_by_label("First fixture night").fill("2026-10-05")
    page.get_by_label("Last night (optional)").fill("2026-01-01")
    page.get_by_label("A fixture is").select_option("games")
    page.get_by_label("Walkover: games to the side there").fill("0")
    page.get_by_role("button", name="Create the season").click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()  # not the body: a screen reader starts at the reasons
    expect(summary.locator("li")).to_have_text([
        "Season name: This field is required.",
        "Last night (optional): The last night comes after the first.",
        "Singles games: A fixture of games has at least one singles or pairs game.",
        "Walkover: games to the side there: Give the side that turned up more games than "
        "the side absent."])
    page.keyboard.press("Tab")
    expect(summary.get_by_role("link").first).to_be_focused()
    page.keyboard.press("Enter")  # the link takes the focus to its field
    name = page.get_by_label("Season name")
    expect(name).to_be_focused()
    expect(name).to_have_attribute("aria-invalid", "true")
    expect(name).to_have_accessible_description("This field is required.")

    summary.get_by_role("link", name="Singles games", exact=False).click()
    expect(page.get_by_label("Singles games")).to_be_focused()


def test_a_new_season_sent_as_it_opens_is_made(live_server, page: Page):
    club = season_admin(live_server, page)
    page.get_by_label("Season name").fill("Autumn")
    page.get_by_label("First fixture night").fill("2026-10-05")
    page.get_by_role("button", name="Create the season").click()

    expect(page.locator("h1")).to_have_text("Autumn")
    assert club.seasons.get().fixture_format == "single"


def test_a_refused_entrant_opens_on_the_field_its_reason_is_about(live_server, page: Page):
    club = season_admin(live_server, page)
    season = season_create(club=club, by=User.objects.get(username="sec"),
                                    name="Monday", starts_on=datetime.date(2026, 9, 7),
                                    game="all-fives")
    page.goto(live_server.url + season.get_absolute_url())
    page.locator("details.admin-tools summary").click()
    page.get_by_label("Team, pair or player").fill("Black Bull")
    squad = page.get_by_label("Squad: the club's players, comma-separated")
    squad.fill("Ann Dale, Nobody")
    page.get_by_role("button", name="Add entrant").click()

    squad = page.get_by_label("Squad: the club's players, comma-separated")
    expect(squad).to_be_focused()
    expect(squad).to_have_attribute("aria-invalid", "true")
    expect(squad).to_have_accessible_description(
        "Not the club's players: Nobody. Add them on the club page first.")
    expect(page.get_by_label("Team, pair or player")).not_to_have_attribute(
        "aria-invalid", "true")
