"""The scorepad in Ukrainian and Russian on a 360×740 phone: the browser's
language is the page's, the longer words fit the header and the bar under the thumb, and
the header's switch changes the language and comes back to the same scorepad."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import phone_page
from tests.browser.ready import WIRED
from tests.browser.test_scorepad import DOCS
from tests.browser.test_theme import scorepad_mid_round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def uk_page(browser: Browser) -> Iterator[Page]:
    """A phone whose browser asks for Ukrainian (Accept-Language: uk-UA)."""
    yield from phone_page(browser, locale="uk-UA")


def fits(page: Page, selector: str) -> None:
    """Nothing scrolls sideways, and every visible element in ``selector`` ends inside
    the 360 px screen (but in a row that scrolls by design, like the scorer's seats)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    outside = page.evaluate("""(selector) => {
        const root = document.querySelector(selector);
        const scrolls = (el) => {  // inside a row of its own that scrolls (below the root)
            for (let up = el.parentElement; up && up !== root; up = up.parentElement) {
                if (getComputedStyle(up).overflowX !== 'visible') { return true; }
            }
            return false;
        };
        const shown = [...root.querySelectorAll('*')].filter(el => el.offsetParent !== null);
        if (!shown.length) { return ['nothing shown in ' + selector]; }
        return shown.filter(el => !scrolls(el))
            .filter(el => el.getBoundingClientRect().right > 360.5)
            .map(el => el.outerHTML.slice(0, 80));
    }""", selector)
    assert outside == [], outside


def one_row(page: Page) -> None:
    """The longer words keep to one row where English does: the header (the site's name,
    the account links, the preferences), the bar's Draw, Pass and Undo, and with a tile
    chosen, the call field beside the ends it may join."""
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 60
    tops = page.evaluate("""() => [...document.querySelectorAll(
        '#thumb-bar .bar-actions > *')].map(el => Math.round(el.getBoundingClientRect().top))""")
    assert len(set(tops)) == 1, tops
    page.click('a.pick.playable >> nth=0')
    claim = page.locator("input.claim-input").bounding_box()
    end = page.locator(".choice-set:not([hidden]) button.choice").first.bounding_box()
    assert claim is not None and end is not None and abs(claim["y"] - end["y"]) < end["height"]


def test_the_scorepad_in_ukrainian_fits_a_phone_and_switches_to_russian(live_server,
                                                                         uk_page: Page):
    page = uk_page
    page.goto(live_server.url + "/new/")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.locator("h1")).to_have_text("Новий матч")
    page.fill("input[name=player_0]", "Ірина")
    page.fill("input[name=player_1]", "Тарас")
    page.check("input[name=game][value=all-fives]")
    page.select_option("select#id_starter", "0")
    page.click("#start-match")
    expect(page).to_have_url(re.compile(r"/matches/[0-9a-f-]{36}/score/$"))
    page.wait_for_function(WIRED)
    address = page.url

    expect(page.locator(".round-line")).to_contain_text("Хід: Ірина")
    fits(page, ".site-header")
    fits(page, "#thumb-bar")
    fits(page, "#scorepad")

    # the first tile: chosen, then placed with the bar's button; the answer in Ukrainian
    page.click('a.pick[data-tile="5-5"]')
    page.locator(".choice-set:not([hidden]) button.choice").first.click()
    expect(page.locator("#last-award")).to_contain_text("сума 10")
    expect(page.locator(".round-line")).to_contain_text("Хід: Тарас")
    fits(page, "#thumb-bar")
    fits(page, "#scorepad")
    one_row(page)

    # the header's switch: Russian, back on the same scorepad, remembered
    page.click("details.preferences summary")  # the header's "Language and theme"
    page.select_option("#language-select", "ru")
    page.click("#language-button")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert page.url == address
    expect(page.locator(".round-line")).to_contain_text("Ход: Тарас")
    expect(page.locator("#language-button")).to_have_text("Сменить")
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    assert cookies["django_language"] == "ru"
    fits(page, ".site-header")
    fits(page, "#thumb-bar")
    one_row(page)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "ru")


@pytest.mark.skipif(os.environ.get("SCOREKEEPER_SCREENSHOT") != "1",
                    reason="writes docs/scorepad-uk.png only with SCOREKEEPER_SCREENSHOT=1")
def test_screenshot_mid_round_in_ukrainian(live_server, page: Page):
    scorepad_mid_round(page, live_server)  # played in English, then read in Ukrainian
    page.context.add_cookies([{"name": "django_language", "value": "uk",
                               "url": live_server.url}])
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    expect(page.locator(".round-line")).to_contain_text("Хід:")
    page.evaluate("window.scrollTo(0, 0)")
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / "scorepad-uk.png"))
    assert (DOCS / "scorepad-uk.png").stat().st_size > 0
