"""A knockout cup's whole life on 360×740 phones, in English: the club's admin makes
the cup on the "New cup" page, adds its four entrants and draws it on the cup's page
(whose seed is the one kept); in round 1 the admin awards one tie as a walkover, the
other is sent by its home captain, disputed by the away captain and resolved by the
admin; the winners go through to the final by themselves, whose home captain sends it
and whose away captain confirms it; the cup's page then names the winner and marks
each tie's winner. At 360 px the bracket shows one round at a time, the next one a
swipe away.

Set up by the services, as season_life's league is (not the point of the test): the
club, its admin, the captains' accounts (each captains one single-player entrant, as
tests/support/cups.py has it) and the club's players. The admin signs in on the
sign-in page; the captains' phones are signed in by their session cookie, as in
season_life."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.conf import settings as site
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from matches.clubs.services import club_create, player_add
from matches.cups.models import Cup
from matches.leagues.services import entrant_add, season_create
from matches.models import Fixture, Membership
from tests.browser.test_accessibility import session_for

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ann", "Bob", "Cy", "Dee"]
PASSWORD = "a long pass phrase"


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Every phone the story opens, closed at its end."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def phone(phones: list[BrowserContext], browser: Browser, live_server,
          user: User | None = None) -> Page:
    """A 360×740 phone, signed in as ``user`` if given."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, locale="en-GB")
    phones.append(context)
    if user is not None:
        context.add_cookies([{"name": site.SESSION_COOKIE_NAME,
                              "value": session_for(user, []), "url": live_server.url}])
    return context.new_page()


def tie(cup: Cup, round: int, position: int) -> Fixture:
    found = cup.ties.get(round=round, position=position, plate=False).fixture
    assert found is not None
    return Fixture.objects.select_related("home", "away").get(pk=found.pk)


def on(page: Page, live_server, fixture: Fixture) -> None:
    page.goto(live_server.url + fixture.get_absolute_url())
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def send(page: Page, fixture: Fixture, score: tuple[int, int]) -> None:
    """The home captain keys in the tie's one game, who played it, and sends it."""
    for side, points in ((fixture.home.name, score[0]), (fixture.away.name, score[1])):
        page.get_by_label(f"Game 1: {side}'s player 1", exact=True).select_option(label=side)
        page.get_by_label(f"Game 1: {side}'s score", exact=True).fill(str(points))
    page.get_by_role("button", name="Save the scores").click()
    page.get_by_role("button", name=f"Submit the result to {fixture.away.name}").click()
    expect(status(page)).to_have_text(
        "Submitted, awaiting the away captain: {}–{} in games".format(
            *((1, 0) if score[0] > score[1] else (0, 1))))


def status(page: Page) -> Locator:
    """The fixture's status line (the page's messages are a status too)."""
    return page.locator("#fixture-status")


def test_a_cup_from_its_draw_to_its_winner(live_server, browser: Browser, phones):
    admin = User.objects.create_user("cup-admin", password=PASSWORD)
    club = club_create(name="Teesdale", by=admin)
    captains = {}
    for name in NAMES:
        captains[name] = User.objects.create_user(f"cap-{name.lower()}")
        Membership.objects.create(club=club, user=captains[name], role="captain")
        player_add(club=club, name=name, by=admin)
    # a league beside the cup: its entrants could be entered in the cup at once
    league = season_create(club=club, by=admin, name="Winter League",
                           starts_on=datetime.date(2026, 9, 7), game="all-fives")
    entrant_add(division=league.divisions.get(), by=admin, name="Red Lion")

    # -- the admin signs in on the way to the club's cups and makes one (one game of
    # All Fives to 60 a tie, a random draw)
    secretary = phone(phones, browser, live_server)
    cups = reverse("matches:cups", kwargs={"slug": club.slug})
    secretary.goto(f"{live_server.url}{reverse('login')}?next={cups}")
    expect(secretary.locator("h1")).to_have_text("Sign in")
    secretary.get_by_label("Username").fill("cup-admin")
    secretary.get_by_label("Password").fill(PASSWORD)
    secretary.locator("main").get_by_role("button", name="Sign in").click()
    expect(secretary).to_have_url(live_server.url + cups)
    assert secretary.evaluate("document.documentElement.scrollWidth") <= 360
    secretary.get_by_role("link", name="Make a cup").click()
    expect(secretary.get_by_role("heading", level=1)).to_have_text("New cup of Teesdale")
    assert secretary.evaluate("document.documentElement.scrollWidth") <= 360
    secretary.get_by_label("Cup name").fill("Teesdale Cup")
    secretary.get_by_label("First round's night").fill("2026-10-05")
    secretary.get_by_label("Game", exact=True).select_option("all-fives")
    secretary.get_by_label("A tie is").select_option(label="One game")
    secretary.get_by_label("Target of every game (empty: the game's own)").fill("60")
    secretary.get_by_role("button", name="Make the cup").click()
    expect(secretary.get_by_role("heading", name="Teesdale Cup", level=1)).to_be_visible()
    cup = Cup.objects.get(season__name="Teesdale Cup")

    # -- its entrants, each a single player with their captain
    for name in NAMES:
        secretary.get_by_label("Team, pair or player").fill(name)
        secretary.get_by_label("Kind").select_option("single")
        secretary.get_by_label("Captain's username (optional)").fill(f"cap-{name.lower()}")
        secretary.get_by_label("Squad: the club's players, comma-separated").fill(name)
        secretary.get_by_role("button", name="Add the entrant").click()
        expect(secretary.locator("#cup-entrants")).to_contain_text(name)
    # the entrants' list with its buttons, and every admin form, fit the phone
    expect(secretary.get_by_label("Enter every entrant of")).to_be_visible()
    assert secretary.evaluate("document.documentElement.scrollWidth") <= 360

    # -- the draw: the seed shown is the one kept, both rounds listed
    secretary.get_by_role("button", name="Draw the cup").click()
    expect(secretary.get_by_role("heading", name="The draw")).to_be_visible()
    cup.refresh_from_db()
    expect(secretary.locator("#draw-seed strong")).to_have_text(str(cup.draw_seed))
    rounds = secretary.get_by_role("region", name="Rounds, side by side: swipe for the next")
    first_round = rounds.get_by_role("heading", name="Semi-finals")
    final_round = rounds.get_by_role("heading", name="Final", exact=True)
    # the page may open scrolled down to the forms: the bracket brought into view first,
    # so that what is checked below is where the rounds stand side by side
    rounds.evaluate("r => r.scrollTo({left: 0})")
    first_round.scroll_into_view_if_needed()
    expect(first_round).to_be_in_viewport()
    # at 360 px one round at a time: the final is off to the side, a swipe away
    assert rounds.evaluate("r => r.scrollWidth > r.clientWidth")
    expect(final_round).not_to_be_in_viewport()
    rounds.evaluate("r => r.scrollBy({left: r.clientWidth})")
    expect(final_round).to_be_in_viewport()
    expect(first_round).not_to_be_in_viewport()

    walkover, disputed = tie(cup, 1, 1), tie(cup, 1, 2)
    for fixture in (walkover, disputed):
        expect(rounds.get_by_role("link", name=f"The tie's page: {fixture.home.name} v "
                                                f"{fixture.away.name}", exact=True)
               ).to_have_count(1)

    # -- tie 1: the away side never came; the admin awards it to the home side
    on(secretary, live_server, walkover)
    secretary.get_by_text("League admin").click()
    secretary.get_by_role("button", name=f"Walkover: {walkover.home.name} turned up").click()
    expect(status(secretary)).to_have_text(
        f"Confirmed: walkover, {walkover.home.name} turned up")

    # -- tie 2: the home captain sends a home win; the away captain disputes it; the
    # admin resolves it the other way, the away side's win
    home = phone(phones, browser, live_server, captains[disputed.home.name])
    on(home, live_server, disputed)
    send(home, disputed, (60, 40))
    away = phone(phones, browser, live_server, captains[disputed.away.name])
    on(away, live_server, disputed)
    away.get_by_label("What is wrong").fill("The scores are the wrong way round")
    away.get_by_role("button", name="Dispute it").click()
    expect(status(away)).to_have_text("Disputed: 1–0 in games")
    on(secretary, live_server, disputed)
    expect(secretary.get_by_text(f"Disputed by {disputed.away.name}: The scores are")
           ).to_be_visible()
    secretary.get_by_label(f"Game 1: {disputed.home.name}'s score", exact=True).fill("40")
    secretary.get_by_label(f"Game 1: {disputed.away.name}'s score", exact=True).fill("60")
    secretary.get_by_role("button", name="Resolve and confirm with these scores").click()
    expect(status(secretary)).to_have_text("Confirmed: 0–1 in games")

    # -- the final was made by itself, between the two winners; its home captain sends
    # it, its away captain confirms it
    final = tie(cup, 2, 1)
    assert (final.home.name, final.away.name) == (walkover.home.name, disputed.away.name)
    finalist = phone(phones, browser, live_server, captains[final.home.name])
    on(finalist, live_server, final)
    send(finalist, final, (35, 60))
    other = phone(phones, browser, live_server, captains[final.away.name])
    on(other, live_server, final)
    other.get_by_role("button", name="Confirm the result").click()
    expect(status(other)).to_have_text("Confirmed: 0–1 in games")

    # -- the cup's page: its winner named, each tie's winner marked as through
    winner = final.away.name
    secretary.goto(live_server.url + cup.get_absolute_url())
    expect(secretary.locator("#cup-winner")).to_have_text(f"Winner: {winner}")
    for label, won in (("tie 1 of round 1", walkover.home.name),
                       ("tie 2 of round 1", disputed.away.name),
                       ("tie 1 of round 2", winner)):
        marked = rounds.locator(f"[data-tie='{label}'] .cup-winner")
        expect(marked).to_have_count(1)
        expect(marked).to_contain_text(won)
        expect(marked).to_contain_text("(through)")
