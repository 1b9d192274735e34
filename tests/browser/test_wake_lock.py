"""The screen stays on while a scorer's scorepad is open, at 360×740.

static/js/wakelock.js asks for a screen wake lock, asks again when the page comes back
into view (the browser drops the lock whenever it is hidden), and lets it go when the
match is over. Headless Chromium may not offer the API, and a real lock is not
observable anyway, so an init script (run before the page's own) puts a recording fake
in `navigator.wakeLock`.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.ready import WIRED
from tests.browser.test_scorepad import place, start_match

pytestmark = pytest.mark.django_db(transaction=True)

FAKE_WAKE_LOCK = """
window.wake = {requests: [], releases: 0, held: null};
const fakeWakeLock = {
  request(type) {
    window.wake.requests.push(type);
    const listeners = [];
    const sentinel = {
      type, released: false,
      addEventListener(name, listener) { if (name === "release") listeners.push(listener); },
      release() {
        if (!this.released) {
          this.released = true;
          window.wake.releases += 1;
          if (window.wake.held === this) window.wake.held = null;
          listeners.forEach((listener) => listener());
        }
        return Promise.resolve();
      },
    };
    window.wake.held = sentinel;
    return Promise.resolve(sentinel);
  },
};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true,
                                                       get() { return fakeWakeLock; }});
// what a hidden tab does: the browser releases the lock, then says so
window.setVisibility = (state) => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => state === "hidden"});
  if (state === "hidden" && window.wake.held) window.wake.held.release();
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


def wake(page: Page) -> dict:
    return page.evaluate("({requests: wake.requests, releases: wake.releases, "
                         "held: wake.held !== null})")


def requested(page: Page, times: int) -> None:
    page.wait_for_function(f"() => wake.requests.length === {times}")


def test_the_scorepad_keeps_the_screen_on_while_scoring(page: Page, live_server):
    page.add_init_script(FAKE_WAKE_LOCK)
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])

    requested(page, 1)
    assert wake(page) == {"requests": ["screen"], "releases": 0, "held": True}
    # the site's Permissions-Policy lets its own pages hold one
    assert page.evaluate("document.featurePolicy.allowsFeature('screen-wake-lock')") is True

    place(page, "5-5")  # a tap swaps #live: the lock is kept, not asked for again

    assert wake(page) == {"requests": ["screen"], "releases": 0, "held": True}


def test_the_lock_is_asked_for_again_when_the_page_is_shown_again(page: Page, live_server):
    page.add_init_script(FAKE_WAKE_LOCK)
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    requested(page, 1)

    page.evaluate("setVisibility('hidden')")  # another app in front: the browser lets go
    assert wake(page) == {"requests": ["screen"], "releases": 1, "held": False}
    page.evaluate("setVisibility('visible')")

    requested(page, 2)
    assert wake(page)["held"] is True


def test_the_lock_is_let_go_when_the_match_ends_and_not_taken_on_a_finished_one(
        page: Page, live_server):
    page.add_init_script(FAKE_WAKE_LOCK)
    # All Fives to 10: the opener's 5-5 scores 10 and wins the match at once
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"], hand_size=2,
                target=10)
    requested(page, 1)
    expect(page.locator("#live")).not_to_have_attribute("data-match-over", "finished")

    place(page, "5-5")

    expect(page.locator("#live")).to_have_attribute("data-match-over", "finished")
    expect(page.locator("#match-end")).to_be_visible()
    page.wait_for_function("() => wake.releases === 1")
    assert wake(page) == {"requests": ["screen"], "releases": 1, "held": False}

    page.evaluate("setVisibility('visible')")  # shown again: still nothing to ask for
    assert wake(page) == {"requests": ["screen"], "releases": 1, "held": False}

    page.reload()  # the finished match's scorepad: nothing to keep awake for
    expect(page.locator("#match-end")).to_be_visible()
    page.wait_for_function(WIRED)
    page.evaluate("setVisibility('visible')")
    assert wake(page) == {"requests": [], "releases": 0, "held": False}


def test_without_the_api_the_scorepad_works_and_says_nothing(page: Page, live_server):
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.add_init_script("delete Navigator.prototype.wakeLock")
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    assert page.evaluate("'wakeLock' in navigator") is False

    place(page, "5-5")

    assert errors == []


def test_a_watchers_page_does_not_keep_the_screen_on(page: Page, live_server, browser):
    page.add_init_script(FAKE_WAKE_LOCK)
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    public = page.locator("#links a", has_text="Public link").get_attribute("href")
    watcher = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    watcher.add_init_script(FAKE_WAKE_LOCK)

    watcher.goto(live_server.url + str(public))
    watcher.wait_for_function(WIRED)

    assert watcher.locator("script[src*='wakelock']").count() == 0
    assert wake(watcher) == {"requests": [], "releases": 0, "held": False}
    watcher.context.close()
