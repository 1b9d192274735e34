"""The scorepad at a real table, on a 360 × 740 phone: what the thumb meets.

Measured in Chromium: choosing a tile sends nothing and moves nothing; the ends appear
in the bar at the bottom, always in view; a placement is one request; refusals are
said next to the thumb; a called placement takes at most four taps; long names and
twelve players do not widen the page.
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from matches import rules
from matches.core.messages import TEMPLATES
from matches.scoring.services.play import event_record, match_create, round_start
from tests.browser.conftest import phone_page
from tests.browser.ready import WIRED
from tests.browser.test_management import take_grant
from tests.browser.test_scorepad import choice, expect_scores, place, seq, start_match, wait_seq

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH, HEIGHT = 360, 740


def picker_rows(page: Page) -> dict[float, str]:
    """One playable tile per row of the picker (rows without one are left out)."""
    rows: dict[float, str] = {}
    for tile in page.locator("a.pick.playable").all():
        top = tile.evaluate("el => el.getBoundingClientRect().top + window.scrollY")
        rows.setdefault(round(top), tile.get_attribute("data-tile") or "")
    return rows


def page_positions(page: Page) -> list[float]:
    """Every picker tile's place on the page (not on the screen: scrolling is allowed)."""
    return page.evaluate("""() => [...document.querySelectorAll('.pick')].map(
        el => el.getBoundingClientRect().top + window.scrollY)""")


def bar_bottom(page: Page) -> float:
    box = page.locator("#thumb-bar").bounding_box()
    assert box is not None
    return box["y"] + box["height"]


def assert_no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH


def count_requests(page: Page):
    """The app's own requests from now on; the favicon, fetched when the browser
    pleases, is not one of them."""
    sent: list[str] = []
    page.on("request", lambda request: sent.append(f"{request.method} {request.url}")
            if "/static/" not in request.url else None)
    return sent


def check_every_row(page: Page) -> None:
    """For a tile in every picker row: the tap sends nothing, moves no tile, and its
    ends appear in the bar, which sits at the bottom of the screen, in view."""
    rows = picker_rows(page)
    assert len(rows) >= 5, rows
    sent = count_requests(page)
    for tile in rows.values():
        before = page_positions(page)
        page.locator(f'a.pick[data-tile="{tile}"]').click()
        offered = page.locator(".choice-set:not([hidden]) button.choice")
        expect(offered.first).to_be_visible()
        for button in offered.all():
            expect(button).to_be_in_viewport()
        assert page_positions(page) == before, f"tiles moved when {tile} was tapped"
        assert abs(bar_bottom(page) - HEIGHT) < 1  # the bar is still at the bottom
    assert sent == []  # choosing is the page's own business


def test_every_picker_row_offers_its_ends_at_the_thumb_without_moving(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    check_every_row(page)
    place(page, "5-5", "")
    check_every_row(page)  # with a tile down: fewer playable tiles, the same bar


def test_double_twelve_for_twelve_players_keeps_the_bar_and_the_page_width(live_server, page):
    names = [f"Player {seat + 1} with a very long name that goes on and on {seat}"[:60]
             for seat in range(12)]
    page.goto(live_server.url + "/new/?players=12")
    page.check("input[name=game][value=fives-and-threes]")
    for seat, name in enumerate(names):
        page.fill(f"input[name=player_{seat}]", name)
    page.select_option("select[name=tile_set]", "double-twelve")
    page.select_option("select#id_double_holder", "0")
    page.click("#start-match")
    expect(page.locator("#scorepad")).to_be_visible()
    page.wait_for_function(WIRED)
    expect(page.locator("a.pick")).to_have_count(91)
    check_every_row(page)
    assert_no_sideways_scroll(page)
    place(page, "12-12", "")
    place(page, "6-12", "12-12:12")
    assert_no_sideways_scroll(page)
    # the rounds table scrolls inside its own box, not the page
    expect(page.locator(".rounds-table")).to_be_visible()
    assert_no_sideways_scroll(page)


def test_a_placement_is_two_taps_and_one_request(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    place(page, "5-5", "")
    before = seq(page)
    sent = count_requests(page)
    page.locator('a.pick[data-tile="0-5"]').click()  # tap 1: the tile
    choice(page, "5-5:5").click()  # tap 2: the end (sum and points on it)
    wait_seq(page, before + 1)
    assert [line.split(" ")[0] for line in sent] == ["POST"]
    expect_scores(page, "10", "10")
    # the recorded tap is confirmed where the thumb is: the bar flashes
    expect(page.locator("#thumb-bar")).to_have_class(re.compile("recorded"))
    expect(page.locator("#last-award")).to_contain_text("Bo: 0-5 on the double 5 — sum 10 → 10")


def test_the_newest_tile_is_on_the_board_and_the_board_can_be_enlarged(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"], hand_size=9)
    place(page, "5-5", "")
    # a lone spinner: both line sides are open ends
    expect(page.locator("circle.open-end")).to_have_count(2)
    for tile, at in (("0-5", "5-5:5"), ("0-6", "0-5:0"), ("5-6", "5-5:5")):
        place(page, tile, at)
    newest = page.locator("g.board-tile.newest")
    expect(newest).to_have_attribute("data-tile", "5-6")
    expect(newest).to_be_in_viewport()
    # the ends read clockwise from the left: 6 (of 0-6), then 6 (of 5-6)
    expect(page.locator("#ends")).to_contain_text("Ends 6 + 6 = 12")
    zoom = page.get_by_role("button", name="Enlarge board")
    zoom.click()
    expect(page.get_by_role("button", name="Fit board")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#board-box")).to_have_class(re.compile("zoomed"))
    expect(newest).to_be_in_viewport()


def test_a_refusal_is_said_at_the_thumb_and_announced(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    place(page, "5-5", "")
    page.click("#pass-button")
    error = page.get_by_role("alert").filter(has_text="Bo cannot pass while the boneyard")
    expect(error).to_be_in_viewport()
    expect(page.locator("#thumb-bar")).to_contain_text("Bo cannot pass")


def test_a_message_shows_once(live_server, page):
    page.goto(live_server.url + "/new/")
    page.fill("input[name=player_0]", "Ann")
    page.fill("input[name=player_1]", "Bo")
    page.check("input[name=game][value=all-fives]")
    page.select_option("select#id_starter", "lots")
    page.click("#start-match")
    expect(page.get_by_text(re.compile("Drawn by lots"))).to_have_count(1)
    expect(page.get_by_text(re.compile("Drawn by lots"))).to_be_in_viewport()


LINES = """el => { const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; }"""


def test_keys_and_tile_names_never_break_on_a_phone(live_server, page):
    """A "1" over a "0" reads as two keys: every key, "Double" and a counted tile's name
    stays on one line at 360 px, with double-twelve's keys 0 to 12."""
    match = match_create(game="fives-and-threes", players=["Ann", "Bo", "Cy", "Di"],
                                  options={"set": "double-twelve"})
    round_start(match=match, starter=0, mode="ends")
    take_grant(page, live_server.url, match)
    keys = page.locator(".keypad button")
    expect(keys.first).to_be_visible()
    assert keys.count() == 15  # 0 to 12, Double, take back
    assert [keys.nth(i).evaluate(LINES) for i in range(keys.count())] == [1] * 15
    tracked = match_create(game="all-fives", players=["Ann", "Bo", "Cy"],
                                    options={"hand_size": 1})
    round_start(match=tracked, starter=0)
    event_record(match=tracked, action=rules.Play(0, rules.Tile.parse("1-4")))
    take_grant(page, live_server.url, tracked)
    page.goto(live_server.url + tracked.get_scorer_url() + "?entry=tiles")
    names = page.locator(".pick-check span")
    expect(names.first).to_be_visible()
    assert {names.nth(i).evaluate(LINES) for i in range(names.count())} == {1}


def test_a_called_sum_says_when_its_award_would_pass_the_target(live_server, page):
    """Fives and Threes to 5: Ann has 3 (a 9), so going out on a 6 (2 + 1) passes 5."""
    match = match_create(game="fives-and-threes", players=["Ann", "Bo"],
                                  options={"target": 5})
    round_start(match=match, starter=0, mode="ends")
    event_record(match=match, action=rules.Call(0, (rules.ScoringEnd.parse("4"),
                                                             rules.ScoringEnd.parse("5"))))
    take_grant(page, live_server.url, match)
    page.get_by_role("radio", name="Ann").check()
    page.get_by_role("button", name="3", exact=True).click()
    page.get_by_role("button", name="3", exact=True).click()
    expect(page.locator("#called-sum")).to_have_text("Ends 3 + 3 = 6 → 2")
    page.get_by_text("Last tile (+1)").click()
    expect(page.locator("#called-sum")).to_have_text(
        "Ends 3 + 3 = 6 → 2 + 1 for going out — 3 would pass the target: it does not count")
    page.get_by_role("radio", name="Bo").check()  # Bo has 0: room for 3
    expect(page.locator("#called-sum")).to_have_text("Ends 3 + 3 = 6 → 2 + 1 for going out")


def test_a_called_placement_takes_four_taps_and_the_mode_is_remembered(live_server, page):
    page.goto(live_server.url + "/new/")
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"input[name=player_{seat}]", name)
    page.check("input[name=game][value=all-fives]")
    page.select_option("select#id_starter", "0")
    page.select_option("select#id_mode", "ends")
    page.click("#start-match")
    page.wait_for_function(WIRED)
    # Ann's turn is preselected; 5-5 at one end and 5 at the other: four taps
    expect(page.get_by_role("radio", name="Ann")).to_be_checked()
    before = seq(page)
    page.get_by_role("button", name="Double").click()       # 1
    page.get_by_role("button", name="5", exact=True).click()  # 2
    page.get_by_role("button", name="5", exact=True).click()  # 3
    expect(page.locator("#called-sum")).to_have_text("Ends 5-5 + 5 = 15 → 15")
    page.get_by_role("button", name="Record").click()       # 4
    wait_seq(page, before + 1)
    expect_scores(page, "15", "0", "0")
    # the next seat is preselected for the next call
    expect(page.get_by_role("radio", name="Bo")).to_be_checked()
    # the app still checks the ends: a 5 and a 0 make 5, whatever is called
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("button", name="0", exact=True).click()
    page.fill(".call-form input[name=claim]", "10")
    page.get_by_role("button", name="Record").click()
    wait_seq(page, before + 2)
    expect(page.locator("#status")).to_contain_text("claim 10 differs from the 5")
    expect_scores(page, "15", "5", "0")
    # the round ends by a button (no default), then the count, then the next round
    page.get_by_role("button", name="Cy went out").click()
    wait_seq(page, before + 3)
    for seat, pips in ((0, 10), (1, 20), (2, 0)):
        page.fill(f"input[name=pips_{seat}]", str(pips))
    page.click("#settle-button")
    wait_seq(page, before + 4)
    expect(page.get_by_role("radio", name="Called (scoring ends only)")).to_be_checked()


def test_long_names_and_twelve_players_do_not_widen_the_page(live_server, page):
    long_name = "Oleksandra-Anastasiia Kovalenko-Shevchenko of Kharkiv Oblast"[:60]
    start_match(page, live_server, game="all-fives", players=[long_name, "Bo" * 30, "Cy", "Di"])
    assert_no_sideways_scroll(page)
    place(page, "5-5", "")
    assert_no_sideways_scroll(page)
    # the Rounds table keeps its last column in its box
    end_column = page.locator(".rounds-table th").last
    box = end_column.bounding_box()
    wrap = page.locator(".rounds-table").locator("xpath=..").bounding_box()
    assert box is not None and wrap is not None
    assert box["x"] + box["width"] <= wrap["x"] + wrap["width"] + 1


def test_an_open_end_on_the_board_takes_the_chosen_tile(live_server, page):
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"])
    place(page, "5-5", "")
    before = seq(page)
    page.locator('a.pick[data-tile="0-5"]').click()
    targets = page.locator(".board circle.open-end.target")
    expect(targets).to_have_count(2)  # both line sides of the lone spinner take it
    targets.first.click()
    wait_seq(page, before + 1)
    expect(page.locator('g.board-tile[data-tile="0-5"]')).to_have_count(1)
    expect_scores(page, "10", "10")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_called_rounds_keys_are_all_above_the_bar_without_a_scroll(live_server, page,
                                                                     players):
    """Three players' score cards share one row: a third on its own row pushed the keys
    5, 6, Double and take-back under the bar, so every placement needed a scroll."""
    match = match_create(game="all-fives",
                                  players=["Ann", "Bob", "Cat", "Dan"][:players])
    round_start(match=match, starter=0, mode="ends")
    take_grant(page, live_server.url, match)
    keys = page.locator(".keypad button")
    expect(keys.first).to_be_visible()
    bar = page.locator("#thumb-bar").bounding_box()
    assert bar is not None and page.evaluate("window.scrollY") == 0
    for i in range(keys.count()):
        box = keys.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] <= bar["y"], keys.nth(i).inner_text()


def test_counting_by_tiles_keeps_a_tile_to_one_hand_and_fills_in_the_rest(live_server,
                                                                           page):
    """Two tiles each; Bob draws the whole boneyard (24), and the round is blocked: Ann
    holds one tile, Bob 26. Once Ann's is ticked, Bob's hand is every tile left."""
    match = match_create(game="all-fives", players=["Ann", "Bob"],
                                  options={"hand_size": 2})
    round_start(match=match, starter=0)
    for action in (rules.Play(0, rules.Tile.parse("5-5")), rules.Draw(1, 24), rules.Pass(1),
                   rules.Pass(0)):
        event_record(match=match, action=action)
    take_grant(page, live_server.url, match)
    page.goto(live_server.url + match.get_scorer_url() + "?entry=tiles")
    ann = page.locator('fieldset.hand[data-seat="0"]')
    bob = page.locator('fieldset.hand[data-seat="1"]')
    rest = bob.get_by_role("button", name="Bob holds the rest")
    expect(rest).to_be_hidden()  # 27 tiles unticked, Bob holds 26: not known yet

    ann.get_by_role("checkbox", name="0-1").check()

    held = bob.get_by_role("checkbox", name="0-1: ticked for Ann")  # said why
    expect(held).to_be_disabled()
    rest.click()
    expect(bob.locator("input:checked")).to_have_count(26)
    expect(rest).to_be_hidden()
    ann.get_by_role("checkbox", name="0-1").uncheck()  # a slip: Bob's 0-1 is free again
    expect(bob.get_by_role("checkbox", name="0-1")).to_be_enabled()
    ann.get_by_role("checkbox", name="0-1").check()
    page.locator('#thumb-bar button[form="settle-form"]').click()
    expect(page.locator("#settlement")).to_contain_text("Round 1 settled")


# -- the bar never covers a control -------------------------------------------------------

LANGUAGES = {"en": "en-GB", "uk": "uk-UA", "ru": "ru-RU"}


def longest_bar_message(language: str) -> str:
    """The longest words the bar can be given to say, in ``language``: the rules'
    refusals (a refused tap is said there) and the banners of a lost connection, each
    placeholder filled with a name of ten letters."""
    with translation.override(language):
        texts = [str(text) for text in TEMPLATES.values()] + [
            gettext("No answer from the server: checking whether that tap was recorded — "
                    "the page will say as soon as the connection is back…"),
            gettext("No connection: that needs the server. Try it again once the "
                    "connection is back.")]
    return re.sub(r"%\(\w+\)s", "Oleksandra", max(texts, key=len))


def say_in_the_bar(page: Page, words: str) -> None:
    """The bar says ``words`` as it says a refusal, above what it said already; the page
    makes room for the bar's new height by itself, without a swap or a resize."""
    page.evaluate("""words => {
        const box = document.createElement("p");
        box.className = "error-box";
        box.setAttribute("role", "alert");
        box.textContent = words;
        document.getElementById("feedback").prepend(box);
    }""", words)
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => "
                  "requestAnimationFrame(done)))")


UNCOVERED = """el => {
    // scrolled as a thumb would, just clear of the bar: nothing of it under the bar,
    // and what a tap at its centre reaches is the control itself
    const bar = document.getElementById("thumb-bar");
    if (!bar.contains(el)) {
        const box = el.getBoundingClientRect(), top = bar.getBoundingClientRect().top;
        const by = box.bottom > top ? box.bottom - top + 2 : Math.min(box.top - 2, 0);
        window.scrollBy({top: by, behavior: "instant"});
    }
    const box = el.getBoundingClientRect(), top = bar.getBoundingClientRect().top;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {name: el.textContent.trim().slice(0, 30) || el.name,
            hit: !!hit && el.contains(hit),
            clear: bar.contains(el) ? box.top >= top && box.bottom <= innerHeight
                                    : box.top >= 0 && box.bottom <= top + 0.5};
}"""


def assert_uncovered(page: Page, selector: str) -> None:
    controls = page.locator(selector)
    assert controls.count() > 0, selector
    for i in range(controls.count()):
        seen = controls.nth(i).evaluate(UNCOVERED)
        assert seen["hit"] and seen["clear"], (selector, seen)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_bar_with_its_longest_message_covers_no_control_of_a_called_round(
        live_server, browser, language):
    match = match_create(game="all-fives", players=["Oleksandra", "Bohdana"])
    round_start(match=match, starter=0, mode="ends")
    for page in phone_page(browser, locale=LANGUAGES[language]):
        take_grant(page, live_server.url, match)
        page.reload()  # the bar has nothing to say yet: it grows by all of the message
        expect(page.locator(".keypad button").first).to_be_visible()
        assert page.locator("html").get_attribute("lang") == language
        expect(page.locator("#status")).to_have_text("")

        say_in_the_bar(page, longest_bar_message(language))

        # the bar keeps to a few lines of words, which scroll: the keys stay in reach
        bar = page.locator("#thumb-bar").bounding_box()
        assert bar is not None and bar["height"] <= 0.3 * HEIGHT, bar
        for selector in (".keypad button", ".call-extras label.toggle",
                         ".call-extras input[name=claim]", ".seat-choice .seg",
                         ".result-buttons button", "#record-call", "#undo-button"):
            assert_uncovered(page, selector)
        # the page's last controls too: it leaves room under them for the bar as it is now
        for selector in ("#links a", "#history .table-wrap"):
            assert_uncovered(page, selector)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tiles_ends_with_the_longest_message_are_in_view(live_server, browser, language):
    match = match_create(game="all-fives", players=["Oleksandra", "Bohdana"])
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, rules.Tile.parse("5-5")))
    for page in phone_page(browser, locale=LANGUAGES[language]):
        take_grant(page, live_server.url, match)
        say_in_the_bar(page, longest_bar_message(language))
        for tile in ("0-5", "5-6"):
            page.locator(f'a.pick[data-tile="{tile}"]').click()
            expect(page.locator(f'.choice-set[data-for="{tile}"]')).to_be_visible()
            assert_uncovered(page, ".choice-set:not([hidden]) button.choice")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_tile_name_breaks_on_its_button(live_server, browser, language):
    """The opening's button, its words beside its sum, broke "Open with 6-" over "6":
    a tile's name stays on one line (it reads as two things broken at its hyphen)."""
    match = match_create(game="fives-and-threes", players=["Oleksandra", "Bohdana"])
    round_start(match=match, starter=0)
    for page in phone_page(browser, locale=LANGUAGES[language]):
        take_grant(page, live_server.url, match)
        for tile in ("5-5", "4-6", "6-6"):
            page.locator(f'a.pick[data-tile="{tile}"]').click()
            name = page.locator(f'.choice-set[data-for="{tile}"] .tile-name')
            expect(name).to_have_text(tile)
            assert name.evaluate("el => el.getClientRects().length") == 1, tile


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_end_is_named_in_words_on_its_button(live_server, browser, language):
    match = match_create(game="all-fives", players=["Ann", "Bob"])
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, rules.Tile.parse("5-5")))
    event_record(match=match, action=rules.Play(1, rules.Tile.parse("5-6"),
                                                rules.AttachmentPoint.parse("5-5:5")))
    words = {"en": ("On the 6 of 5-6", "On the double 5"),
             "uk": ("На 6 плитки 5-6", "На дубль 5"),
             "ru": ("На 6 костяшки 5-6", "На дубль 5")}[language]
    for page in phone_page(browser, locale=LANGUAGES[language]):
        take_grant(page, live_server.url, match)
        page.locator('a.pick[data-tile="0-6"]').click()
        names = page.locator(".choice-set:not([hidden]) .choice-name")
        expect(names).to_have_text([words[0]])
        page.locator('a.pick[data-tile="0-5"]').click()
        expect(names).to_have_text([words[1]])
