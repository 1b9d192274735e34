"""The season page's league table on a phone, on paper and shared: a full table (eight
entrants, every column filled) fits a 360 px phone with its deciding columns and the
rest a tap away; printed on A4 it has every column and the fixture list; its Share
button shares the page or copies its address."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from matches.clubs.services import club_create
from matches.leagues.services import league_import
from matches.models import Season
from tests.browser.test_csp import watch

pytestmark = pytest.mark.django_db(transaction=True)

ENTRANTS = ["Royal Oak A", "Bowes Dragons", "Middleton Club", "Black Bull Reserves",
            "King's Head", "Red Lion Barnard Castle", "Swan", "Crown and Anchor B"]
# a night of three games to 61: the home side's games won, in turn
RESULTS = [(3, 0), (2, 1), (1, 2), (0, 3), (2, 1), (1, 2)]


def full_season(secretary: User | None = None) -> Season:
    """Each pair meets once, home and away, every night's games scored (the Score column
    in thousands), one walkover, a deduction: every column of the table has something."""
    secretary = secretary or User.objects.create_user("secretary")
    club = club_create(name="Teesdale Dominoes Club", by=secretary)
    fixtures: list[dict[str, Any]] = []
    for n, (home, away) in enumerate(itertools.permutations(ENTRANTS, 2)):
        if n == 5:
            fixtures.append({"home": home, "away": away, "walkover": "home"})
            continue
        h, a = RESULTS[n % len(RESULTS)]
        games = [[61, 30 + n % 29]] * h + [[40 + n % 19, 61]] * a
        fixtures.append({"date": f"2026-{9 + n // 30:02d}-{1 + n % 28:02d}", "home": home,
                         "away": away, "result": [h, a], "games": games})
    return league_import(club=club, by=secretary, document={
        "format": "domino-league/1", "name": "Monday League 2026/27 — Division A",
        "game": "fives-and-threes", "entrants": [{"name": name} for name in ENTRANTS],
        "scoring": {"per_game": 1, "close_loss": {"margin": 1, "points": 1},
                    "walkover": [5, 4]},
        "tiebreaks": ["game_difference", "games_for", "head_to_head"],
        "fixtures": fixtures,
        "adjustments": [{"entrant": "Swan", "points": -3, "reason": "result sent late"}]})


HEADINGS = ["#", "Entrant", "P", "W", "D", "L", "GD", "Pts", "Games", "Score", "Adj", "Form"]


def shown_columns(page: Page) -> list[str]:
    """The table's headings on screen; each row has as many cells on screen."""
    return page.evaluate("""() => {
        const shown = el => el.getClientRects().length > 0;
        const headings = [...document.querySelectorAll('.league-table thead th')].filter(shown);
        for (const row of document.querySelectorAll('.league-table tbody tr')) {
            const cells = [...row.children].filter(shown).length;
            if (cells !== headings.length) { return ['row of ' + cells + ' cells']; }
        }
        return headings.map(th => th.textContent.trim());
    }""")


def page_width(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_on_a_phone_the_table_shows_what_places_an_entrant_and_the_rest_a_tap_away(
        live_server, page: Page):
    season = full_season()
    page.goto(live_server.url + season.get_absolute_url())
    assert shown_columns(page) == ["#", "Entrant", "P", "W", "D", "L", "Pts"]
    box = page.get_by_role("region", name="Division A: league table")
    assert box.evaluate("el => el.scrollWidth <= el.clientWidth")  # nothing to scroll to
    assert page_width(page) <= 360

    # by keyboard: a named checkbox, telling whether the columns are shown
    toggle = page.get_by_role("checkbox", name="Show all columns")
    table_id = page.locator(".league-table").get_attribute("id")
    expect(toggle).to_have_attribute("aria-controls", table_id or "")
    toggle.focus()
    page.keyboard.press("Space")
    expect(toggle).to_be_checked()
    assert shown_columns(page) == HEADINGS
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # they scroll in the box
    assert page_width(page) <= 360, "the page scrolls sideways with every column shown"

    page.keyboard.press("Space")
    assert shown_columns(page) == ["#", "Entrant", "P", "W", "D", "L", "Pts"]


def test_a_wider_phone_shows_game_difference_and_a_tablet_every_column(live_server,
                                                                         page: Page):
    season = full_season()
    page.set_viewport_size({"width": 412, "height": 915})
    page.goto(live_server.url + season.get_absolute_url())
    assert shown_columns(page) == ["#", "Entrant", "P", "W", "D", "L", "GD", "Pts"]
    assert page_width(page) <= 412
    page.set_viewport_size({"width": 768, "height": 1024})
    assert shown_columns(page) == HEADINGS
    expect(page.get_by_role("checkbox", name="Show all columns")).to_be_hidden()
    assert page_width(page) <= 768


def test_printed_on_a4_the_table_has_every_column_and_then_the_fixtures(live_server,
                                                                        page: Page):
    """Printed from a phone in the dark theme: the page laid out as A4 is (794 px at 96
    dpi), every column and every night, black on white; the page's controls left off."""
    season = full_season()
    page.emulate_media(color_scheme="dark")
    page.goto(live_server.url + season.get_absolute_url())
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media="print", color_scheme="dark")

    assert shown_columns(page) == HEADINGS
    cut = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(el => el.getClientRects().length > 0)
        .filter(el => !el.closest('.visually-hidden'))
        .filter(el => el.getBoundingClientRect().right > 794.5
                      || el.scrollWidth > el.clientWidth + 0.5 && el.clientWidth > 0)
        .map(el => el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''))""")
    assert cut == [], f"cut off or scrolled on A4: {cut[:5]}"
    assert page_width(page) <= 794
    fixtures = page.locator(".fixture-list li")
    expect(fixtures).to_have_count(len(ENTRANTS) * (len(ENTRANTS) - 1))
    expect(fixtures.last).to_be_visible()
    expect(page.locator("#scheme")).to_be_visible()
    for control in (page.locator(".site-header"), page.locator(".columns-toggle"),
                    *page.locator(".season .links").all()):
        expect(control).to_be_hidden()
    assert page.locator(".season button:visible").count() == 0
    ink = page.locator(".league-table tbody td").first.evaluate(
        "el => [getComputedStyle(el).color, getComputedStyle(document.body).backgroundColor]")
    assert ink == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]


# The browser's sharing and clipboard, as a phone or a desktop may have them or not:
# ``share`` and ``clipboard`` are "ok" (they work; what they were given is kept in
# window.shared and window.copied), "refused" (share: the browser will not share this) or
# None (the browser has no such API).
APIS = """([share, clipboard]) => {
    window.shared = []; window.copied = [];
    const fakeShare = share === null ? undefined : data => {
        window.shared.push(data);
        return share === "ok" ? Promise.resolve()
            : Promise.reject(new DOMException("no", "NotAllowedError"));
    };
    const fakeClipboard = clipboard === null ? undefined : {
        writeText: text => { window.copied.push(text); return Promise.resolve(); }};
    Object.defineProperty(Navigator.prototype, "share",
                          {value: fakeShare, configurable: true, writable: true});
    Object.defineProperty(Navigator.prototype, "clipboard",
                          {get: () => fakeClipboard, configurable: true});
    if (share === null) { delete Navigator.prototype.share; }
}"""


def open_with(page: Page, live_server, share: str | None, clipboard: str | None) -> Season:
    """The season page, its script run under the page's Content-Security-Policy without
    a complaint or an error."""
    season = full_season()
    errors = watch(page)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(f"({APIS})({json.dumps([share, clipboard])})")
    page.goto(live_server.url + season.get_absolute_url())
    page.wait_for_load_state("load")
    assert errors == []
    return season


def test_the_share_button_opens_the_phones_share_sheet_with_the_tables_address(
        live_server, page: Page):
    season = open_with(page, live_server, "ok", "ok")
    button = page.get_by_role("button", name="Share this table")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("window.shared.length === 1")
    assert page.evaluate("window.shared") == [
        {"title": "Monday League 2026/27 · Teesdale Dominoes Club",
         "url": live_server.url + season.get_absolute_url()}]
    assert page.evaluate("window.copied") == []


def test_without_sharing_the_button_copies_the_address_and_says_so(live_server, page: Page):
    season = open_with(page, live_server, None, "ok")
    page.get_by_role("button", name="Copy the link to this table").click()
    status = page.get_by_role("status").filter(has_text="Link copied.")
    expect(status).to_have_attribute("id", "season-share-status")
    assert page.evaluate("window.copied") == [live_server.url + season.get_absolute_url()]
    assert page_width(page) <= 360


def test_a_share_the_browser_refuses_copies_the_address_instead(live_server, page: Page):
    season = open_with(page, live_server, "refused", "ok")
    page.get_by_role("button", name="Share this table").click()
    expect(page.locator("#season-share-status")).to_have_text("Link copied.")
    assert page.evaluate("window.copied") == [live_server.url + season.get_absolute_url()]


def test_with_neither_sharing_nor_a_clipboard_there_is_no_button(live_server, page: Page):
    open_with(page, live_server, None, None)
    expect(page.locator("#season-share")).to_be_hidden()
    expect(page.locator(".season-share")).to_be_hidden()
    expect(page.locator(".league-table")).to_be_visible()
