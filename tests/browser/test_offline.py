"""The scorepad without a connection, on a 360 × 740 phone.

The service worker (templates/sw.js) keeps the scorer's page; taps made without a
connection wait on the phone (static/js/offline.js) and are sent in order, one at a
time, when it is back. The database is read through the ORM: live_server tests share it
(transactional tests), so "nothing reached the server" is checked where it matters.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from uuid import UUID

import pytest
from playwright.sync_api import APIResponse, Page, Route, expect

from tests.browser.ready import WIRED
from tests.browser.test_accessibility import AXE, AXE_PATH, axe_violations, readable
from tests.browser.test_csp import watch
from tests.browser.test_scorepad import (
    choice,
    draw,
    expect_scores,
    htmx_idle,
    pass_turn,
    place,
    seq,
    start_match,
    tap_tile,
    wait_seq,
)

# the service worker runs in these pages (tests/browser/conftest.py blocks it elsewhere)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.kept]


def the_match():
    from matches.models import Match

    return Match.objects.get()


def changes() -> list[tuple[int, str]]:
    """Every change of the match, in order: (version, what)."""
    return [(change.version, change.description)
            for change in the_match().changes.order_by("version")]


def kept_version(page: Page) -> int | None:
    """The match version of the copy of this page the service worker keeps, if any."""
    return page.evaluate("""async () => {
        const hit = await caches.match(location.pathname, {ignoreVary: true});
        if (!hit) { return null; }
        const found = /data-version="(\\d+)"/.exec(await hit.text());
        return found ? parseInt(found[1], 10) : null;
    }""")


def kept(page: Page, version: int) -> None:
    """Wait until the service worker is active and keeps this page at ``version``."""
    # active: the next load of the page goes through it (this one may have started
    # before the worker did; the page hands it its state either way)
    active = page.evaluate("""() => Promise.race([
        navigator.serviceWorker.ready.then(r => r.active.scriptURL),
        new Promise(done => setTimeout(() => done(null), 10000))])""")
    assert active is not None, "no service worker became active (a kept page needs one)"
    assert active.endswith("/sw.js")
    for _ in range(100):
        if kept_version(page) == version:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the page was not kept at version {version}: {kept_version(page)}")


def play_offline(page: Page, tile: str, at: str) -> None:
    """A placement made without a connection: the page takes it and sends nothing."""
    tap_tile(page, tile)
    choice(page, at).click()
    expect(page.locator(f'.pick.queued[data-tile="{tile}"]')).to_have_count(1)


def waiting(page: Page):
    return page.locator("#queue-count")


def opened_and_kept(page: Page, live_server) -> int:  # noqa: ANN001
    """Ann opens with 5-5 on a two-player All Fives scorepad that the service worker
    keeps; the match's version."""
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    place(page, "5-5", shows="sum 10 → 10")
    version = seq(page)
    kept(page, version)
    return version


def two_tiles_offline(page: Page) -> None:
    """Without a connection: Bo's 0-5 and Ann's 5-6 on the spinner 5-5 wait."""
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    play_offline(page, "5-6", "5-5:5")


def test_the_worker_keeps_the_scorepad_and_it_reloads_without_a_connection(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    place(page, "5-5", shows="sum 10 → 10")
    kept(page, seq(page))
    policy = page.evaluate("""() => caches.match(location.pathname, {ignoreVary: true})
        .then(r => r.headers.get("Content-Security-Policy"))""")
    assert "script-src 'self'" in policy
    keys = set(page.locator("#scorepad input[name=key]").evaluate_all(
        "inputs => inputs.map(i => i.value)"))
    complaints = watch(page)

    page.context.set_offline(True)
    page.reload()
    # the table as last seen, from the phone: the tile placed, the bar ready for the next
    expect(page.locator('g.board-tile[data-tile="5-5"]')).to_have_count(1)
    expect(page.locator('.score[data-score="0"]')).to_have_text("10")
    expect(page.locator("#thumb-bar")).to_be_in_viewport()
    page.wait_for_function(WIRED)
    assert complaints == []  # the kept copy is drawn under the site's policy, unbroken
    # its taps' keys are new: the kept ones may have been sent since it was kept
    new_keys = set(page.locator("#scorepad input[name=key]").evaluate_all(
        "inputs => inputs.map(i => i.value)"))
    assert new_keys and not new_keys & keys
    # a page the phone did not keep: the offline page, not the browser's error
    page.goto(live_server.url + "/history/")
    expect(page.locator("h1")).to_have_text("No connection")


def test_the_offline_page_leads_back_to_the_scorepads_this_phone_keeps(live_server, page):
    """A scorer who closed the tab (or the installed app, which starts at /) finds the
    kept scorepad, and its waiting entries, from the offline page."""
    opened_and_kept(page, live_server)
    scorepad = page.url
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    page.goto(live_server.url + "/")
    expect(page.locator("h1")).to_have_text("No connection")
    kept_list = page.get_by_role("list", name="Scorepads on this phone")
    expect(kept_list.get_by_role("listitem")).to_have_text(
        ["All Fives: Ann, Bo (entries waiting)"])
    kept_list.get_by_role("link", name="All Fives: Ann, Bo").click()
    expect(page).to_have_url(scorepad)
    expect(waiting(page)).to_have_text("1 entry waiting")


def test_a_placement_by_keyboard_without_a_connection_keeps_the_focus_and_is_said(
        live_server, page):
    opened_and_kept(page, live_server)
    page.context.set_offline(True)

    page.locator('a.pick[data-tile="0-5"]').focus()
    page.keyboard.press("Enter")  # the tile: the focus goes to its first end
    page.keyboard.press("Enter")  # the end: kept on the phone, sent later

    expect(page.locator('.pick.queued[data-tile="0-5"]')).to_have_count(1)
    expect(page.locator("#scorepad .picker a.pick.playable").first).to_be_focused()
    expect(page.locator("#announcer")).to_have_text(waiting(page).inner_text())


def test_entries_waiting_when_the_pages_token_changed_are_sent_after_a_reload(live_server,
                                                                            page):
    from django.conf import settings

    version = opened_and_kept(page, live_server)
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    # as signing in or out in another tab does: this browser's security token changes,
    # and the one the page holds no longer matches it
    page.context.add_cookies([{"name": settings.CSRF_COOKIE_NAME, "value": "b" * 32,
                               "url": live_server.url}])

    page.context.set_offline(False)

    # refused for the token, the page came again and sent the entry with a fresh one.
    # (The page may hear "online" before its service worker does: its first try then
    # fails, and the next comes after offline.js's RETRY_MS, 5 s: more than expect()'s.)
    expect(page.locator('g.board-tile[data-tile="0-5"]')).to_have_count(1, timeout=15_000)
    wait_seq(page, version + 1)
    expect(waiting(page)).to_have_count(0)


def test_the_offline_page_follows_the_language_the_reader_switched_to(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    kept(page, seq(page))  # the worker is in charge, its offline page in English
    page.click("details.preferences summary")
    page.select_option("#language-select", "uk")
    page.click("#language-button")
    expect(page.locator("html")).to_have_attribute("lang", "uk")
    page.goto(live_server.url + "/")  # a page in Ukrainian: the worker takes the new one
    page.wait_for_function("""() => caches.match('/offline/', {ignoreVary: true})
        .then(r => r && r.headers.get('Content-Language') === 'uk')""")

    page.context.set_offline(True)
    page.goto(live_server.url + "/history/")

    expect(page.locator("html")).to_have_attribute("lang", "uk")


def test_entries_made_offline_wait_and_are_applied_once_each_in_order(live_server, page):
    version = opened_and_kept(page, live_server)
    before = changes()

    # Chromium may apply the offline emulation a moment late (to a reloaded page, or on a
    # busy machine, where CI once saw the first entry reach the server before the
    # reload): the network says no too, until the connection is back
    page.route("**/score/*/", lambda route: route.abort("internetdisconnected"))
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")  # Bo
    expect(waiting(page)).to_have_text("1 entry waiting")
    expect(waiting(page)).to_have_attribute("role", "status")
    # the next seat is Ann's, on the next version; the sums are the server's to check
    expect(page.locator(".seat.seat-turn")).to_have_attribute("data-seat", "0")
    assert seq(page) == version + 1
    expect(page.locator("#queue-note")).to_contain_text(
        "Sums are checked once the entries reach the server.")
    play_offline(page, "5-6", "5-5:5")  # Ann, on the spinner's other side
    expect(waiting(page)).to_have_text("2 entries waiting")
    assert changes() == before  # nothing reached the server

    # a reload without a connection keeps the entries and what they did to the page
    page.reload()
    page.wait_for_function(WIRED)
    expect(waiting(page)).to_have_text("2 entries waiting")
    expect(page.locator(".pick.queued")).to_have_count(2)
    assert seq(page) == version + 2
    assert changes() == before
    page.unroute("**/score/*/")

    page.context.set_offline(False)
    expect(page.locator("#status")).to_contain_text("Your last tap was recorded: Ann played 5-6",
                                                    timeout=15_000)  # a retry's 5 s, as above
    expect(page.locator("#queue-box")).to_have_count(0)
    wait_seq(page, version + 2)
    assert changes() == [*before, (version + 1, "Bo played 0-5 on the double 5"),
                         (version + 2, "Ann played 5-6 on the double 5")]
    expect(page.locator('g.board-tile[data-tile="0-5"]')).to_have_count(1)
    expect(page.locator('g.board-tile[data-tile="5-6"]')).to_have_count(1)
    # the page goes on as usual: the next tap is sent at once
    place(page, "0-6", "0-5:0")
    assert len(changes()) == len(before) + 3


def route_the_first_placement(page: Page, first: Callable[[Route], None]) -> list[str]:
    """Every placement's POST body, in the order sent; the first is handled by ``first``
    (its answer lost, or a proxy's), the rest reach the server."""
    sent: list[str] = []

    def handle(route: Route) -> None:
        sent.append(route.request.post_data or "")
        if len(sent) == 1:
            first(route)
        else:
            route.continue_()

    page.route("**/score/play/", handle)
    return sent


def test_an_entry_whose_answer_is_lost_is_sent_again_and_applied_once(live_server, page):
    version = opened_and_kept(page, live_server)
    before = changes()

    def lose_the_answer(route: Route) -> None:
        route.fetch()  # the server receives and records the entry ...
        route.abort("internetdisconnected")  # ... and its answer never arrives

    two_tiles_offline(page)
    expect(waiting(page)).to_have_text("2 entries waiting")
    sent = route_the_first_placement(page, lose_the_answer)
    page.context.set_offline(False)

    # the lost entry goes again on the page's next try (offline.js: RETRY_MS, 5 s), then
    # the second entry and the table: more than expect()'s own 5 s on a busy machine
    expect(page.locator("#status")).to_contain_text("Your last tap was recorded: Ann played 5-6",
                                                    timeout=15_000)
    expect(page.locator("#queue-box")).to_have_count(0)
    # the first entry went twice, with the same key; the server applied it once
    keys = [found.group(1) for body in sent if (found := re.search(r"key=([0-9a-f-]{36})", body))]
    assert len(keys) == 3 and keys[0] == keys[1] != keys[2]
    assert changes() == [*before, (version + 1, "Bo played 0-5 on the double 5"),
                         (version + 2, "Ann played 5-6 on the double 5")]
    match = the_match()
    assert [c.key for c in match.changes.order_by("version")][-2:] == [UUID(keys[0]),
                                                                       UUID(keys[2])]
    wait_seq(page, version + 2)


def test_an_entry_the_proxy_answers_too_many_requests_is_sent_again_not_refused(
        live_server, page):
    """nginx's rate limit answers 429 before the app sees the entry (a club's phones
    share one address): the entry waits and goes again; it was once taken for the app's
    refusal, and it and every entry after it were put aside to be entered again."""
    version = opened_and_kept(page, live_server)
    before = changes()

    def limit(route: Route) -> None:
        route.fulfill(status=429, content_type="text/html",
                      body="<!DOCTYPE html><h1>Too many tries</h1>")

    two_tiles_offline(page)
    sent = route_the_first_placement(page, limit)
    page.context.set_offline(False)

    expect(page.locator("#status")).to_contain_text("Your last tap was recorded: Ann played 5-6",
                                                    timeout=15_000)
    expect(page.locator("#queue-box")).to_have_count(0)  # nothing put aside
    assert len(sent) == 3
    assert changes() == [*before, (version + 1, "Bo played 0-5 on the double 5"),
                         (version + 2, "Ann played 5-6 on the double 5")]


def test_a_reload_while_the_app_is_down_shows_the_kept_scorepad_and_its_waiting_entries(
        live_server, page):
    """The network is there but the app is not (nginx answers 502 or its 503 page, or
    its rate limit 429): the kept copy serves as without a network, not nginx's page."""
    version = opened_and_kept(page, live_server)
    before = changes()
    two_tiles_offline(page)
    scorepad = re.compile(r".*/score/(play/)?$")
    down = {"status": 502}

    def app_down(route: Route) -> None:
        if down["status"]:
            route.fulfill(status=down["status"], content_type="text/html",
                          body="<!DOCTYPE html><h1>Back in a moment</h1>")
        else:
            route.continue_()

    page.context.route(scorepad, app_down)
    page.context.set_offline(False)
    for status in (502, 503, 429):
        down["status"] = status
        page.reload()
        expect(page.locator("h1")).not_to_have_text("Back in a moment")
        expect(page.locator('g.board-tile[data-tile="5-5"]')).to_have_count(1)
        expect(waiting(page)).to_have_text("2 entries waiting")
    assert changes() == before  # nothing reached the app

    down["status"] = 0  # the app is back: the entries go, in order
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    assert changes() == [*before, (version + 1, "Bo played 0-5 on the double 5"),
                         (version + 2, "Ann played 5-6 on the double 5")]


def test_a_doubles_ends_are_offered_offline_as_long_as_it_has_free_sides(live_server, page):
    """All Fives: the spinner 5-5 takes its two line sides, then its two flanks; the
    second double, 6-6, one tile besides its link. Offered beyond that, an entry was
    refused when sent, and every entry after it put aside."""
    version = opened_and_kept(page, live_server)
    before = changes()
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")  # Bo
    play_offline(page, "5-6", "5-5:5")  # Ann: both line sides of 5-5 taken
    play_offline(page, "6-6", "5-6:6")  # Bo
    play_offline(page, "2-6", "6-6:6")  # Ann: 6-6 is full
    expect(page.locator('#scorepad .pick[data-tile="4-6"]')).to_have_class(
        re.compile(r"\bunplayable\b"))
    expect(page.locator('.choice-set[data-for="4-6"]')).to_have_count(0)
    tap_tile(page, "2-5")
    expect(choice(page, "5-5:5")).to_contain_text("On the side of the double 5")
    choice(page, "5-5:5").click()  # Bo, on a flank
    play_offline(page, "3-5", "5-5:5")  # Ann, on the other: 5-5 is full
    expect(page.locator('.choice-set[data-for="1-5"] button[data-point="5-5:5"]')).to_have_count(0)
    expect(waiting(page)).to_have_text("6 entries waiting")

    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0, timeout=20_000)
    assert [what for _, what in changes()[len(before):]] == [
        "Bo played 0-5 on the double 5", "Ann played 5-6 on the double 5",
        "Bo played 6-6 on the 6 of 5-6", "Ann played 2-6 on the double 6",
        "Bo played 2-5 on the double 5", "Ann played 3-5 on the double 5"]
    wait_seq(page, version + 6)


def test_once_a_tile_is_down_offline_no_tile_is_offered_to_open_the_round(live_server, page):
    """The round opened offline: the other tiles' "Open with" choices go, as the server's
    would; tapped, one was refused when sent, and every entry after it put aside."""
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    version = seq(page)
    kept(page, version)
    page.context.set_offline(True)
    play_offline(page, "5-5", "")  # Ann opens
    tap_tile(page, "0-5")
    expect(choice(page, "5-5:5")).to_have_count(1)
    expect(page.locator('.choice-set button.choice[data-point=""]')).to_have_count(0)
    # 1-2 fits no end now: no choice, and marked so
    expect(page.locator('#scorepad .pick[data-tile="1-2"]')).to_have_class(
        re.compile(r"\bunplayable\b"))
    expect(page.locator('.choice-set[data-for="1-2"]')).to_have_count(0)
    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0, timeout=20_000)
    wait_seq(page, version + 1)


def test_what_the_server_said_of_the_entries_is_said_once_they_arrived(live_server, page):
    """A wrong call made offline is recorded with the rules' points, as online; the
    scorer hears it once the table is back, not only "recorded"."""
    opened_and_kept(page, live_server)
    page.context.set_offline(True)
    tap_tile(page, "0-5")
    page.fill("input[name=claim]", "15")
    choice(page, "5-5:5").click()
    play_offline(page, "5-6", "5-5:5")
    page.context.set_offline(False)

    status = page.locator("#status")
    expect(status).to_contain_text("Your last tap was recorded: Ann played 5-6",
                                   timeout=15_000)
    expect(status).to_contain_text("Recorded with the rules' points: claim 15 differs")
    expect(page.locator("#announcer")).to_contain_text("claim 15 differs")


def test_the_tiles_drawn_offline_go_back_to_one_after_each_entry(live_server, page):
    version = opened_and_kept(page, live_server)
    before = changes()
    page.context.set_offline(True)
    page.fill("input[name=tiles]", "2")
    page.click("#draw-button")  # Bo draws 2 …
    expect(page.locator("input[name=tiles]")).to_have_value("1")
    play_offline(page, "0-5", "5-5:5")  # … plays …
    page.click("#draw-button")  # … and Ann draws one: the box was not touched
    expect(waiting(page)).to_have_text("3 entries waiting")
    # the seats' tiles and the boneyard as counted on the phone meanwhile
    expect(page.locator("#live .seats .seat small")).to_have_text(
        ["9 tiles", "10 tiles", "7"])  # Ann 8 + 1, Bo 9 + 2 - 1, 10 - 3

    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    assert changes() == [*before, (version + 1, "Bo drew 2"),
                         (version + 2, "Bo played 0-5 on the double 5"),
                         (version + 3, "Ann drew 1")]


def test_the_opening_tile_made_offline_lets_the_next_seat_draw_or_pass(live_server, page):
    """Before the round opens the page offers no Draw or Pass; once the opening tile
    waits on the phone, the next seat, who usually cannot follow, may draw."""
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    version = seq(page)
    kept(page, version)
    expect(page.locator("#draw-button")).to_be_hidden()
    expect(page.locator("#pass-button")).to_be_hidden()
    page.context.set_offline(True)
    play_offline(page, "5-5", "")  # Ann opens
    expect(page.locator("#pass-button")).to_be_visible()
    page.click("#draw-button")  # Bo draws one
    expect(waiting(page)).to_have_text("2 entries waiting")

    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    assert changes()[-2:] == [(version + 1, "Ann opened with 5-5"), (version + 2, "Bo drew 1")]


def test_the_table_is_asked_for_again_when_its_answer_after_the_entries_is_lost(
        live_server, page):
    """Every entry arrived, then the page's request for the table as it now stands got
    no answer: it asks again, and does not stay on "waiting" or cry a lost tap."""
    version = opened_and_kept(page, live_server)
    two_tiles_offline(page)
    asked: list[str] = []

    def lose_the_first(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route(re.compile(r".*/score/\?sync=.*"), lose_the_first)
    page.context.set_offline(False)
    expect(page.locator('g.board-tile[data-tile="5-6"]')).to_have_count(1, timeout=15_000)
    wait_seq(page, version + 2)
    assert len(asked) == 2
    expect(page.locator("#queue-box")).to_have_count(0)
    expect(page.locator(".offline-banner:visible")).to_have_count(0)


def test_what_only_the_server_shows_asked_for_offline_says_so_not_that_a_tap_was_lost(
        live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"], hand_size=1)
    place(page, "5-5", "")  # one tile each: Ann went out, the hands are counted
    page.context.set_offline(True)
    page.get_by_role("link", name="Tap the tiles").click()
    expect(page.locator('.offline-banner[data-reason="server"]')).to_be_visible()
    expect(page.locator('.offline-banner[data-reason="lost"]')).to_be_hidden()
    page.context.set_offline(False)
    page.get_by_role("link", name="Tap the tiles").click()
    expect(page.locator(".offline-banner:visible")).to_have_count(0)
    expect(page.get_by_role("link", name="Tap the tiles")).to_have_class(re.compile("btn-primary"))


def test_a_refused_entry_stops_the_queue_keeps_the_rest_and_says_why(live_server, page):
    """All Fives to 20: Ann's 0-0 made offline wins the match (the page knows no sums),
    so the server refuses Bo's draw after it."""
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"], target=20)
    place(page, "5-5", shows="sum 10 → 10")
    version = seq(page)
    before = changes()

    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")  # Bo: 10 + 0, 10
    play_offline(page, "0-0", "0-5:0")  # Ann: 10 + 0, 10: 20 wins
    page.fill("input[name=tiles]", "2")
    page.click("#draw-button")  # Bo, as the page expects, draws 2 ...
    play_offline(page, "5-6", "5-5:5")  # ... and plays
    page.click("#draw-button")  # Ann
    expect(waiting(page)).to_have_text("5 entries waiting")
    page.context.set_offline(False)

    refusal = page.get_by_role("alert").filter(has_text="Not recorded: Bo · Draw · 2 tiles.")
    # the rules' reason, a sentence of its own between the entry and what follows
    expect(refusal).to_contain_text("Not recorded: Bo · Draw · 2 tiles. The match was already "
                                    "won; no event may follow. The entries after it")
    expect(page.locator("#queue-kept li")).to_have_text(["Bo · 5-6 · On the double 5",
                                                         "Ann · Draw · 1 tile"])
    expect(page.locator("#queue-count")).to_have_text("")
    # said by the live region that stays; the list's button stays in sight
    expect(page.locator("#announcer")).to_contain_text("Not recorded: Bo · Draw · 2 tiles.")
    expect(page.get_by_role("button", name="Clear this list")).to_be_in_viewport(ratio=1)
    if AXE.exists():  # the list that scrolls is named and reached by keyboard
        page.context.route(live_server.url + AXE_PATH, lambda route: route.fulfill(
            path=AXE, content_type="text/javascript"))
        violations = axe_violations(page)
        assert not violations, readable(violations)
    page.wait_for_timeout(1000)  # the kept entries are not sent
    assert changes() == [*before, (version + 1, "Bo played 0-5 on the double 5"),
                         (version + 2, "Ann played 0-0 on the 0 of 0-5")]
    # the page shows the table as the server has it: Ann won, nothing after her tile
    wait_seq(page, version + 2)
    expect(page.locator(".side.side-winner")).to_have_attribute("data-side", "0")
    expect(page.locator('g.board-tile[data-tile="5-6"]')).to_have_count(0)
    page.get_by_role("button", name="Clear this list").click()
    expect(page.locator("#queue-box")).to_have_count(0)
    assert page.evaluate("localStorage.length") == 0


def queue(page: Page) -> str | None:
    """The waiting entries as this phone stores them."""
    return page.evaluate("""() => {
        const key = Object.keys(localStorage).find(k => k.startsWith("scorekeeper:queue:"));
        return key ? localStorage.getItem(key) : null;
    }""")


def expect_blocked_offline(page: Page) -> None:
    """The controls wait for the server, and the page says the round is blocked."""
    expect(page.locator("#queue-note")).to_contain_text(
        "Every seat passed: the round is blocked. What comes next needs the server's answer")
    for controls in ("#live .controls", "#place-form", "#thumb-bar .bar-actions"):
        expect(page.locator(controls)).to_have_attribute("inert", "")
    expect(page.locator("#announcer")).to_contain_text("the round is blocked")


def expect_blocked_on_the_server(page: Page, version: int) -> None:
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    wait_seq(page, version)
    from matches.scoring.selectors.play import match_engine

    rnd = match_engine(the_match()).current_round
    assert rnd is not None and rnd.blocked
    expect(page.get_by_role("heading", name="Round 1 is blocked — count the hands")).to_be_visible()
    expect(page.locator('#history tr[data-round="1"]')).to_contain_text("blocked")


def test_the_last_pass_of_a_block_offline_waits_for_the_server_from_its_count_of_passes(
        live_server, page):
    """Bo took the boneyard and passed while the page was online: the server counts one
    pass. Ann's, offline, is every seat's: the round is blocked. (The page used to offer
    its controls still: a tap after it was queued, refused when sent, "the round already
    ended", and every entry after it put aside.)"""
    version = opened_and_kept(page, live_server)
    draw(page, 10)  # Bo: the boneyard is empty
    pass_turn(page)
    before = changes()

    page.context.set_offline(True)
    page.click("#pass-button")  # Ann
    expect(waiting(page)).to_have_text("1 entry waiting")
    expect_blocked_offline(page)
    assert changes() == before

    page.context.set_offline(False)
    expect_blocked_on_the_server(page, version + 3)
    assert changes() == [*before, (version + 3, "Ann passed")]


def test_passes_counted_offline_start_again_after_a_placement_and_every_seats_blocks(
        live_server, page):
    version = opened_and_kept(page, live_server)
    before = changes()

    page.context.set_offline(True)
    page.fill("input[name=tiles]", "10")
    page.click("#draw-button")  # Bo takes the boneyard
    page.click("#pass-button")  # Bo
    play_offline(page, "5-6", "5-5:5")  # Ann: the passes start again
    page.click("#pass-button")  # Bo
    expect(waiting(page)).to_have_text("4 entries waiting")
    expect(page.locator("#thumb-bar .bar-actions")).not_to_have_attribute("inert", "")
    page.click("#pass-button")  # Ann: both seats in a row
    expect(waiting(page)).to_have_text("5 entries waiting")
    expect_blocked_offline(page)

    page.context.set_offline(False)
    expect_blocked_on_the_server(page, version + 5)
    assert [what for _, what in changes()[len(before):]] == [
        "Bo drew 10", "Bo passed", "Ann played 5-6 on the double 5", "Bo passed", "Ann passed"]


def test_a_pass_offline_while_the_boneyard_holds_tiles_is_refused_at_once_not_queued(
        live_server, page):
    version = opened_and_kept(page, live_server)
    page.context.set_offline(True)
    page.fill("input[name=tiles]", "2")
    page.click("#draw-button")  # Bo: 8 left
    expect(waiting(page)).to_have_text("1 entry waiting")
    stored = queue(page)

    page.click("#pass-button")  # Bo may not pass: he draws

    # the server's words, where its refusals show, and said
    refusal = page.locator("#scorepad-error")
    expect(refusal).to_have_text("Bo cannot pass while the boneyard holds 8 tiles")
    expect(refusal).to_have_attribute("role", "alert")
    expect(page.locator("#announcer")).to_have_text(
        "Bo cannot pass while the boneyard holds 8 tiles")
    assert queue(page) == stored
    expect(waiting(page)).to_have_text("1 entry waiting")
    expect(page.locator(".seat.seat-turn")).to_have_attribute("data-seat", "1")
    assert seq(page) == version + 1
    play_offline(page, "0-5", "5-5:5")  # Bo plays instead: the refusal is done with
    expect(refusal).to_have_count(0)

    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    assert [what for _, what in changes()][-2:] == ["Bo drew 2", "Bo played 0-5 on the double 5"]


def test_a_draw_offline_of_more_tiles_than_the_boneyard_holds_is_refused_at_once(
        live_server, page):
    opened_and_kept(page, live_server)
    page.context.set_offline(True)
    page.fill("input[name=tiles]", "4")
    page.click("#draw-button")  # Bo: 6 left
    stored = queue(page)

    page.fill("input[name=tiles]", "7")
    page.click("#draw-button")

    expect(page.locator("#scorepad-error")).to_have_text(
        "Bo cannot draw 7: the boneyard holds 6")
    expect(page.locator("#announcer")).to_have_text("Bo cannot draw 7: the boneyard holds 6")
    assert queue(page) == stored
    expect(waiting(page)).to_have_text("1 entry waiting")
    expect(page.locator("#live .seats .boneyard small")).to_have_text("6")
    page.fill("input[name=tiles]", "6")  # all there is
    page.click("#draw-button")
    expect(waiting(page)).to_have_text("2 entries waiting")
    expect(page.locator("#scorepad-error")).to_have_count(0)

    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    assert [what for _, what in changes()][-2:] == ["Bo drew 4", "Bo drew 6"]


def test_an_entry_made_on_a_table_another_phone_changed_is_refused(live_server, page):
    from matches import rules
    from matches.scoring.services.play import placement_record

    version = opened_and_kept(page, live_server)

    two_tiles_offline(page)
    # meanwhile another phone records Bo's tile
    placement_record(match=the_match(), seat=1, tile=rules.Tile.parse("1-5"),
                              at=rules.AttachmentPoint.parse("5-5:5"), version=version)
    page.context.set_offline(False)

    refusal = page.get_by_role("alert").filter(has_text="Not recorded: Bo · 0-5")
    # "not recorded" is said once: not again by the server's reason
    expect(refusal).to_contain_text("Not recorded: Bo · 0-5 · On the double 5. The match moved on "
                                    "since this page was drawn")
    assert refusal.inner_text().count("Not recorded") == 1
    expect(page.locator("#queue-kept li")).to_have_count(1)
    wait_seq(page, version + 1)
    assert [what for _, what in changes()][-1] == "Bo played 1-5 on the double 5"
    assert len(changes()) == version + 1


def test_called_entries_wait_with_the_next_caller_and_a_round_end_waits_for_the_server(
        live_server, page):
    page.goto(live_server.url + "/new/")
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"input[name=player_{seat}]", name)
    page.check("input[name=game][value=all-fives]")
    page.select_option("select#id_starter", "0")
    page.select_option("select#id_mode", "ends")
    page.click("#start-match")
    page.wait_for_function(WIRED)
    version = seq(page)
    kept(page, version)
    before = changes()

    page.context.set_offline(True)
    expect(page.get_by_role("radio", name="Ann")).to_be_checked()
    page.get_by_role("button", name="Double").click()
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("button", name="Record").click()
    expect(waiting(page)).to_have_text("1 entry waiting")
    # the next caller is chosen, the keys are cleared for the next call
    expect(page.get_by_role("radio", name="Bo")).to_be_checked()
    expect(page.locator("#called-sum")).to_have_text("No end yet")
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("button", name="0", exact=True).click()
    page.fill(".call-form input[name=claim]", "10")  # a wrong call: the rules' 5 count
    page.get_by_role("button", name="Record").click()
    expect(waiting(page)).to_have_text("2 entries waiting")
    page.get_by_role("button", name="Cy went out").click()
    expect(waiting(page)).to_have_text("3 entries waiting")
    # how the round is counted depends on the server's answer: the controls wait for it
    expect(page.locator("#queue-note")).to_contain_text("needs the server's answer")
    expect(page.locator("#live .controls")).to_have_attribute("inert", "")
    assert changes() == before

    page.context.set_offline(False)
    expect(page.locator("#queue-box")).to_have_count(0)
    wait_seq(page, version + 3)
    done = changes()
    assert [v for v, _ in done] == [v for v, _ in before] + [version + 1, version + 2, version + 3]
    assert done[-3][1] == "Ann called 5-5 + 5"
    # recorded with a warning (the wrong call): the page asked the server by its key
    assert done[-2][1].startswith("Bo called 5 + 0 (miscalled")
    assert done[-1][1] == "the round's result"
    expect(page.locator("#settle-button")).to_be_visible()  # the round's count comes next
    expect_scores(page, "15", "5", "0")


def test_a_refused_called_entry_says_what_was_called_to_be_entered_again(live_server, page):
    from matches import rules
    from matches.scoring.services.play import event_record

    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"], mode="ends")
    version = seq(page)
    kept(page, version)

    page.context.set_offline(True)
    page.get_by_role("button", name="Double").click()
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("checkbox", name="Last tile").check()
    page.fill(".call-form input[name=claim]", "15")
    page.get_by_role("button", name="Record").click()
    expect(waiting(page)).to_have_text("1 entry waiting")
    # meanwhile another phone records a call: this one's version is stale
    event_record(match=the_match(), action=rules.Call(0, (rules.ScoringEnd(5),)),
                 version=version)
    page.context.set_offline(False)

    refusal = page.get_by_role("alert").filter(has_text="Not recorded: Ann · Record")
    expect(refusal).to_contain_text(
        "Not recorded: Ann · Record · 5-5 + 5 · Last tile · called 15.")


def test_entries_from_a_phone_that_no_longer_scores_are_refused_not_lost(live_server, page):
    from matches.scoring.services.play import grant_revoke

    version = opened_and_kept(page, live_server)
    two_tiles_offline(page)
    for grant in the_match().grants.all():  # the other scorers took this phone's right back
        grant_revoke(grant=grant, by=grant)  # (as only the phone itself may)
    page.context.set_offline(False)

    refusal = page.get_by_role("alert").filter(has_text="Not recorded: Bo · 0-5")
    expect(refusal).to_contain_text("This phone does not score this match")
    expect(page.locator("#queue-kept li")).to_have_count(1)
    assert len(changes()) == version
    # the table is asked for once: the server's 403 is final, not asked again every 5 s
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url)
            if request.method == "GET" and request.url.endswith("/score/") else None)
    page.wait_for_timeout(6_000)
    assert asked == []


# -- a tap in the instant of reconnecting: the newest table stays ---------------------------
# Back online, the waiting entry goes, then the page reads the table again; a tap made in
# that instant is sent at once. The re-read, asked for first, may be answered after the
# tap's answer: the page must not go back to the table before the tap.

SYNC = re.compile(r".*/score/\?sync=.*")


def server_table() -> tuple[int, list[str], int | None]:
    """The match as the server records it: its version, each side's score, whose turn."""
    from matches.scoring.selectors.play import match_engine

    match = the_match()
    rnd = match_engine(match).current_round
    scores = match.sides.order_by("index").values_list("score", flat=True)
    return match.version, [f"{float(score):g}" for score in scores], \
        None if rnd is None else rnd.turn


def page_table(page: Page) -> tuple[int, list[str], int | None]:
    """The match as the page shows it: #live's version, the scores, whose turn."""
    version = int(page.locator("#live").get_attribute("data-version") or "0")
    scores = page.locator("#live .score").all_inner_texts()
    turn = page.locator("#live .seat.seat-turn").get_attribute("data-seat")
    return version, [score.strip() for score in scores], None if turn is None else int(turn)


def quiet(page: Page, requests: list[object]) -> None:
    """Wait until none of the scorepad's requests is in flight, and the page has done with
    the last answer (htmx settles it 20 ms after the swap)."""
    for _ in range(150):
        if not requests:
            page.wait_for_timeout(300)
            if not requests:
                htmx_idle(page)
                return
        page.wait_for_timeout(100)
    raise AssertionError(f"requests still in flight: {requests}")


def in_flight(page: Page) -> list[object]:
    """The scorepad's requests sent and not yet answered (or failed), kept up to date."""
    requests: list[object] = []

    def sent(request) -> None:  # noqa: ANN001
        if "/score/" in request.url:
            requests.append(request)

    def done(request) -> None:  # noqa: ANN001
        if request in requests:
            requests.remove(request)

    page.on("request", sent)
    page.on("requestfinished", done)
    page.on("requestfailed", done)
    return requests


def expect_the_servers_table(page: Page, version: int) -> None:
    """Both placements recorded once each, in order, and the page shows the table as the
    server records it: Ann 20, Bo 10, Bo to play."""
    assert [what for _, what in changes()][-2:] == ["Bo played 0-5 on the double 5",
                                                    "Ann played 0-0 on the 0 of 0-5"]
    assert server_table() == (version + 2, ["20", "10"], 1)
    assert page_table(page) == server_table()
    expect(page.locator('g.board-tile[data-tile="0-0"]')).to_have_count(1)
    expect(page.locator("#queue-box")).to_have_count(0)


def test_a_re_read_answered_after_a_fresh_taps_answer_does_not_take_the_table_back(
        live_server, page):
    """Made certain: the re-read that follows the waiting entry is answered by the server
    at once (the table after the entry), and its answer held back until the tap made
    meanwhile has been answered and shown."""
    version = opened_and_kept(page, live_server)  # Ann 10, Bo to play
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")  # Bo: 10-10, Ann to play
    tap_tile(page, "0-0")  # Ann's tile chosen; its end is tapped once the entry has gone
    held: list[tuple[Route, APIResponse]] = []
    page.route(SYNC, lambda route: held.append((route, route.fetch())))
    requests = in_flight(page)

    page.context.set_offline(False)
    for _ in range(100):  # the entry went, and the table was read again
        if held:
            break
        page.wait_for_timeout(50)
    assert held and changes()[-1] == (version + 1, "Bo played 0-5 on the double 5")
    choice(page, "0-5:0").click()  # Ann, in that instant
    # (the re-read is still asked: htmx_idle would wait for it)
    expect(page.locator("#live")).to_have_attribute("data-version", str(version + 2))
    expect(page.locator('.score[data-score="0"]')).to_have_text("20")
    route, answer = held[0]
    route.fulfill(response=answer)  # the table before the tap, arriving last

    quiet(page, requests)
    expect_the_servers_table(page, version)


def test_a_re_read_answered_while_a_fresh_tap_is_awaited_does_not_lose_the_taps_answer(
        live_server, page):
    """The other order, made certain: the re-read is answered first, the tap's answer
    after it. Swapped in, the re-read's table would take away the part of the page the
    tap's answer goes to, and the page would stay on the table before the tap."""
    version = opened_and_kept(page, live_server)
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    tap_tile(page, "0-0")
    reads: list[tuple[Route, APIResponse]] = []
    taps: list[tuple[Route, APIResponse]] = []
    page.route(SYNC, lambda route: reads.append((route, route.fetch())))

    def placement(route: Route) -> None:
        if route.request.headers.get("hx-trigger"):  # the fresh tap (htmx), not the entry
            taps.append((route, route.fetch()))
        else:
            route.continue_()

    page.route("**/score/play/", placement)
    requests = in_flight(page)

    page.context.set_offline(False)
    for _ in range(100):
        if reads:
            break
        page.wait_for_timeout(50)
    assert reads and changes()[-1] == (version + 1, "Bo played 0-5 on the double 5")
    choice(page, "0-5:0").click()  # Ann, in that instant
    for _ in range(100):
        if taps:
            break
        page.wait_for_timeout(50)
    assert taps and changes()[-1] == (version + 2, "Ann played 0-0 on the 0 of 0-5")
    route, answer = reads[0]
    route.fulfill(response=answer)  # the table before the tap, first
    page.wait_for_timeout(300)
    route, answer = taps[0]
    route.fulfill(response=answer)  # then the tap's

    quiet(page, requests)
    expect_the_servers_table(page, version)


def test_a_re_read_older_than_the_entries_answers_is_asked_for_again(live_server, page):
    """The entry's answer showed the table after it; the table read after the entries
    came older (as a cache or a lagging copy of the database could answer): the page
    does not stay on it, it asks again."""
    version = opened_and_kept(page, live_server)
    # the scorepad as it stands now, before the entry: the older answer to come
    older = page.context.request.get(page.url, headers={
        "HX-Request": "true", "HX-Target": "scorepad"}).text()
    assert f'data-version="{version}"' in older
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    asked: list[str] = []

    def first_older(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(status=200, content_type="text/html", body=older)
        else:
            route.continue_()

    page.route(SYNC, first_older)
    page.context.set_offline(False)

    # asked again on the page's next try (offline.js: RETRY_MS, 5 s)
    expect(page.locator("#live")).to_have_attribute("data-version", str(version + 1),
                                                    timeout=15_000)
    assert len(asked) == 2
    expect(page.locator('g.board-tile[data-tile="0-5"]')).to_have_count(1)
    assert page_table(page) == server_table()


@pytest.mark.parametrize(("after", "delay"), [
    ("online", 0), ("online", 30), ("online", 60), ("online", 100), ("online", 200),
    ("re-read", 0), ("re-read", 0), ("re-read", 5), ("re-read", 15), ("re-read", 30)])
def test_a_tap_in_the_instant_of_reconnecting_leaves_the_page_on_the_servers_table(
        live_server, page, after, delay):
    """Run many times, the tap a little later each time: ``delay`` ms after the
    connection is back, or after the page asked for the table again. Whichever answer
    comes last, the page ends on the table as the server has it."""
    version = opened_and_kept(page, live_server)
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    tap_tile(page, "0-0")
    # the end is tapped by the page itself, so that no round trip of the test's own
    # comes between the moment and the tap
    page.evaluate("""([after, delay]) => {
        const end = () => document.querySelector(
            '.choice-set:not([hidden]) button.choice[data-point="0-5:0"]');
        const tap = () => setTimeout(() => {
            // a table drawn again since has forgotten the tile chosen: chosen again
            if (!end()) { document.querySelector('a.pick[data-tile="0-0"]').click(); }
            end().click();
            window.tapped = true;
        }, delay);
        if (after === "online") {
            window.addEventListener("online", tap, {once: true});
        } else {
            document.addEventListener("htmx:beforeRequest", function asked(event) {
                if ((event.detail.requestConfig.path || "").indexOf("?sync=") < 0) { return; }
                document.removeEventListener("htmx:beforeRequest", asked);
                tap();
            });
        }
    }""", [after, delay])
    requests = in_flight(page)

    page.context.set_offline(False)
    # waited for on the page: the test's own reads of the database would share its
    # connection with the server's requests (live_server on SQLite in memory)
    page.wait_for_function("() => window.tapped === true")
    expect(page.locator("#queue-box")).to_have_count(0, timeout=15_000)
    quiet(page, requests)
    expect_the_servers_table(page, version)
