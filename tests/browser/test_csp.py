"""The Content-Security-Policy in Chromium: the scorepad and a finished match's page work
under it without a single violation.

Chromium reports each refused script, style or handler twice: a `securitypolicyviolation`
event in the page (recorded here by an init script, which runs before the page's own)
and a console message naming the "Content Security Policy". A Permissions-Policy
feature it does not know costs a console message too.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from tests.browser.ready import WIRED
from tests.browser.test_match_page import finished_match
from tests.browser.test_scorepad import place, start_match

pytestmark = pytest.mark.django_db(transaction=True)

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("CSP violation: " + event.violatedDirective + " blocked " +
                (event.blockedURI || "inline") + " at " + event.sourceFile + ":" +
                event.lineNumber);
});
"""


def watch(page: Page) -> list[str]:
    """Console messages about either policy, from every page this tab loads."""
    complaints: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        text = message.text
        if ("Content Security Policy" in text or "CSP violation" in text
                or "Permissions-Policy" in text or "Permissions Policy" in text):
            complaints.append(text)

    page.add_init_script(REPORT_VIOLATIONS)
    page.on("console", heard)
    return complaints


def test_scoring_a_tile_and_enlarging_the_board_break_no_policy(page: Page, live_server):
    complaints = watch(page)

    start_match(page, live_server, game="all-fives", players=["Olena", "Taras"], starter=0)
    place(page, "5-5")
    place(page, "0-5", "5-5:5")
    page.click("button.board-zoom")

    box = page.locator("#board-box")
    expect(box).to_have_class("board-box zoomed")
    # the full size comes from data attributes, set through the CSSOM by scorepad.js
    width = int(box.get_attribute("data-width") or 0)
    svg_width = page.eval_on_selector("#board-box .board", "el => el.getBoundingClientRect().width")
    assert svg_width == pytest.approx(width * 1.6, abs=1)
    # htmx was told not to inject its indicator <style>
    assert page.eval_on_selector_all("style", "els => els.length") == 0
    assert complaints == []


def test_a_swap_of_the_whole_scorepad_breaks_no_policy(page: Page, live_server):
    """The page's own resync (after a lost answer, or back online) swaps #scorepad,
    whose bar height scorepad.js set through the CSSOM: htmx used to carry that "style"
    over to the new element as an attribute, which the policy refuses."""
    complaints = watch(page)
    start_match(page, live_server, game="all-fives", players=["Olena", "Taras"], starter=0)
    place(page, "5-5")
    assert page.eval_on_selector("#scorepad", "el => el.style.length") > 0

    page.evaluate("""() => htmx.ajax("GET", location.pathname,
                                     {target: "#scorepad", swap: "outerHTML"})""")
    expect(page.locator('g.board-tile[data-tile="5-5"]')).to_have_count(1)
    page.wait_for_timeout(300)  # the settle step runs after the swap

    assert complaints == []


def test_a_finished_matchs_page_breaks_no_policy(page: Page, live_server):
    match = finished_match()
    complaints = watch(page)

    page.goto(live_server.url + match.get_absolute_url())
    page.wait_for_function(WIRED)

    # static/js/share.js offers the button; static/js/replay.js steps with the keyboard
    expect(page.locator("#share-button")).to_be_visible()
    expect(page.locator("#replay")).to_have_attribute("data-step", "1")
    page.locator('#replay a[data-nav="forward"]').focus()  # the keys work within the replay
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    # the chart's former inline styles, now in app.css
    assert page.eval_on_selector(
        "svg.score-chart", "el => getComputedStyle(el).maxWidth") == "640px"
    assert page.eval_on_selector(
        "ul.chart-legend", "el => getComputedStyle(el).display") == "flex"
    assert complaints == []
