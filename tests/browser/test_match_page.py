"""A finished match's page in Chromium at 360×740: step through the replay by its
buttons, the keyboard and a swipe; the page never scrolls sideways."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from matches import rules
from matches.models import Match, MatchStatus
from matches.rules.simulate import simulated_match
from matches.scoring.services.play import actions_record, match_create
from tests.browser.ready import WIRED

pytestmark = pytest.mark.django_db(transaction=True)

OPTIONS = {"target": 60, "hand_size": 4}


def finished_match() -> Match:
    """A simulated All Fives match (seed 0: five rounds), stored through the services."""
    played = simulated_match(rules.ALL_FIVES, 2, seed=0, options=OPTIONS, max_rounds=12)
    assert played.names is not None and played.finished
    match = match_create(game="all-fives", players=list(played.names),
                                  options=OPTIONS)
    actions_record(match=match, actions=played.log)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("h1")).to_have_count(1)
    page.wait_for_function(WIRED)


def step_is(page: Page, step: int, steps: int) -> None:
    """The replay shows ``step`` placements: that many tiles and the words for it."""
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-step", str(step))
    expect(page.locator("#replay g.board-tile")).to_have_count(step)
    expect(page.locator("#replay-step")).to_contain_text(f"step {step} of {steps}")


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_the_replay_steps_by_buttons_and_keyboard_without_sideways_scroll(page, live_server):
    match = finished_match()
    open_page(page, live_server.url + match.get_absolute_url())
    expect(page.locator("h1")).to_contain_text("All Fives: Olena")
    expect(page.locator("svg.score-chart polyline.chart-line")).to_have_count(2)
    no_sideways_scroll(page)
    steps = int(page.locator("#replay").get_attribute("data-steps") or 0)
    assert steps >= 3
    step_is(page, 1, steps)
    before = page.locator("#replay-step").inner_text()

    page.click('#replay a[data-nav="forward"]')
    step_is(page, 2, steps)
    assert page.locator("#replay-step").inner_text() != before
    expect(page).to_have_url(re.compile(r"\?round=1&step=2$"))  # htmx pushed the address
    page.click('#replay a[data-nav="forward"]')
    step_is(page, 3, steps)
    page.click('#replay a[data-nav="back"]')
    step_is(page, 2, steps)
    no_sideways_scroll(page)
    # the link used keeps the focus after the swap, and the new step is read out
    expect(page.locator('#replay a[data-nav="back"]')).to_be_focused()
    expect(page.get_by_role("status").and_(page.locator("#replay-announcer"))).to_have_text(
        " ".join(page.locator("#replay-step").inner_text().split()))
    # the keys step the replay only from within it: elsewhere they keep their own work
    page.locator(".match-log .table-wrap").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    step_is(page, 2, steps)
    page.locator('#replay a[data-nav="back"]').focus()

    page.keyboard.press("ArrowRight")
    step_is(page, 3, steps)
    page.keyboard.press("End")
    step_is(page, steps, steps)
    page.keyboard.press("ArrowRight")  # nothing after the last step
    step_is(page, steps, steps)
    page.keyboard.press("ArrowLeft")
    step_is(page, steps - 1, steps)
    page.keyboard.press("Home")
    step_is(page, 1, steps)
    page.click('#replay a[data-nav="last"]')
    step_is(page, steps, steps)
    page.click('#replay a[data-nav="first"]')
    step_is(page, 1, steps)
    no_sideways_scroll(page)


def test_a_round_chosen_for_the_replay_keeps_the_focus_and_is_read_out(page, live_server):
    match = finished_match()
    open_page(page, live_server.url + match.get_absolute_url())
    rounds = page.get_by_role("navigation", name="Rounds to replay")
    rounds.get_by_role("link", name="Round 3", exact=True).click()
    expect(page.locator("#replay")).to_have_attribute("data-round", "3")
    # the new page's link of that round, not the top of the page
    expect(rounds.get_by_role("link", name="Round 3", exact=True)).to_be_focused()
    expect(page.locator("#replay-announcer")).to_contain_text("Round 3, step 1 of")


def test_a_swipe_across_the_board_steps_the_replay(page, live_server):
    match = finished_match()
    open_page(page, live_server.url + match.get_absolute_url() + "?round=1&step=2")
    steps = int(page.locator("#replay").get_attribute("data-steps") or 0)
    step_is(page, 2, steps)

    def swipe(dx: int) -> None:
        page.evaluate("""(dx) => {
            const target = document.querySelector("#replay .board-wrap svg, #replay .board-wrap");
            const touch = (x) => new Touch({identifier: 1, target, clientX: x, clientY: 300});
            target.dispatchEvent(new TouchEvent("touchstart", {bubbles: true,
                touches: [touch(200)], changedTouches: [touch(200)]}));
            target.dispatchEvent(new TouchEvent("touchend", {bubbles: true,
                touches: [], changedTouches: [touch(200 + dx)]}));
        }""", dx)

    swipe(-120)  # to the left: forward
    step_is(page, 3, steps)
    swipe(120)  # to the right: back
    step_is(page, 2, steps)


def test_the_replay_works_without_javascript(browser, live_server):
    match = finished_match()
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + match.get_absolute_url())
        steps = int(page.locator("#replay").get_attribute("data-steps") or 0)
        step_is(page, 1, steps)
        page.click('#replay a[data-nav="forward"]')
        step_is(page, 2, steps)
        expect(page).to_have_url(re.compile(r"\?round=1&step=2$"))
        page.click('#replay a[data-nav="last"]')
        step_is(page, steps, steps)
    finally:
        context.close()
