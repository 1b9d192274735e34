"""The colour theme at 360×740: Auto follows the system, the header's switch
chooses Light or Dark at once and this browser remembers it; both themes keep text at
4.5:1 (3:1 when large) and the board's tiles, pips, open ends and the tally at 3:1.

Colours are read as the browser computed them (getComputedStyle), so the test sees what
the stylesheet, the theme script and the custom properties add up to.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import phone_page
from tests.browser.ready import WIRED
from tests.browser.test_match_page import finished_match
from tests.browser.test_scorepad import DOCS, play_all_fives_to_flank, start_match

pytestmark = pytest.mark.django_db(transaction=True)

LIGHT_BG = "rgb(246, 247, 249)"  # --color-bg
DARK_BG = "rgb(15, 20, 26)"  # --color-bg under the dark theme


@pytest.fixture
def dark_page(browser: Browser) -> Iterator[Page]:
    """A phone whose system asks for dark colours (prefers-color-scheme: dark)."""
    yield from phone_page(browser, color_scheme="dark")


def page_background(page: Page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def theme_attribute(page: Page) -> str | None:
    return page.evaluate("document.documentElement.getAttribute('data-theme')")


def switch(page: Page):
    """The theme's select, in the header's "Language and theme" panel (opened)."""
    preferences = page.locator("details.preferences")
    if preferences.get_attribute("open") is None:
        preferences.locator("summary").click()
    return page.get_by_role("combobox", name="Theme")


# Contrast as WCAG 2 defines it, of the colours the browser computed. `background(el)`
# is the first opaque background at or above el (the page's when none is).
CONTRAST_JS = """
(() => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([\\d.]+)[, ]+([\\d.]+)[, ]+([\\d.]+)(?:[,/ ]+([\\d.]+))?/);
    if (!m) throw new Error("not a colour: " + c);
    return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
  };
  const luminance = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(parse(a)), luminance(parse(b))];
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
  };
  const background = (el) => {
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const colour = getComputedStyle(node).backgroundColor;
      if (parse(colour)[3] === 1) return colour;
    }
    return getComputedStyle(document.documentElement).backgroundColor;
  };
  return {parse, ratio, background};
})()
"""


def contrast(page: Page, foreground: str, background: str) -> float:
    """The contrast of two colours given as JavaScript expressions, in which
    ``style(selector)`` is the first match's computed style and ``bg(selector)`` its
    effective background: e.g. ``contrast(page, "style('.pip').fill", "bg('.pick')")``."""
    return page.evaluate(f"""() => {{
      const c = {CONTRAST_JS};
      const style = (selector) => getComputedStyle(document.querySelector(selector));
      const bg = (selector) => c.background(document.querySelector(selector));
      return c.ratio({foreground}, {background});
    }}""")


def low_contrast_text(page: Page) -> list[str]:
    """Every visible piece of text (outside SVG drawings and faded, disabled things)
    whose colour is under 4.5:1 against its background, or 3:1 when large."""
    return page.evaluate(f"""() => {{
      const c = {CONTRAST_JS};
      const faded = (el) => {{
        for (let n = el; n; n = n.parentElement) {{
          if (parseFloat(getComputedStyle(n).opacity) < 1) return true;
        }}
        return false;
      }};
      const found = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {{
        const el = node.parentElement;
        if (!node.textContent.trim()) continue;
        if (el.closest("svg, .visually-hidden, [hidden], option")) continue;
        const box = el.getBoundingClientRect();
        if (!box.width || !box.height || faded(el) || el.closest("button:disabled")) continue;
        const style = getComputedStyle(el);
        if (style.visibility === "hidden") continue;
        const size = parseFloat(style.fontSize);
        const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight) >= 700);
        const ratio = c.ratio(style.color, c.background(el));
        if (ratio < (large ? 3 : 4.5)) {{
          found.push(el.tagName.toLowerCase() + "." + el.className + " '" +
                     node.textContent.trim().slice(0, 30) + "' " + ratio.toFixed(2));
        }}
      }}
      return found;
    }}""")


def scorepad_mid_round(page: Page, live_server) -> None:
    """RULES.md §2's worked table up to the first flank: spinner, flank, newest tile."""
    start_match(page, live_server, game="all-fives", players=["Ann", "Bo"], hand_size=9)
    play_all_fives_to_flank(page)
    expect(page.locator("circle.open-flank")).not_to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")


# -- the switch ---------------------------------------------------------------------


def test_the_switch_changes_the_theme_at_once_and_remembers_it(page: Page, live_server):
    page.goto(live_server.url + "/")
    choice = switch(page)
    expect(choice).to_be_visible()
    expect(choice).to_have_value("auto")
    assert theme_attribute(page) is None
    assert page_background(page) == LIGHT_BG
    page.evaluate("window.notReloaded = true")

    choice.select_option("dark")

    assert theme_attribute(page) == "dark"
    assert page_background(page) == DARK_BG
    assert page.evaluate("window.notReloaded") is True  # no page load in between
    # the browser's bar follows: the dark theme-color now applies whatever the system
    assert page.get_attribute('meta[name="theme-color"][data-scheme="dark"]', "media") == "all"
    assert page.get_attribute('meta[name="theme-color"][data-scheme="light"]',
                              "media") == "not all"

    page.reload()
    expect(switch(page)).to_have_value("dark")
    assert theme_attribute(page) == "dark"
    assert page_background(page) == DARK_BG

    switch(page).select_option("light")
    assert page_background(page) == LIGHT_BG
    page.goto(live_server.url + "/new/")  # another page: still light, still chosen
    expect(switch(page)).to_have_value("light")
    assert theme_attribute(page) == "light"

    switch(page).select_option("auto")
    assert theme_attribute(page) is None
    assert page.evaluate("localStorage.getItem('theme')") is None
    page.reload()
    expect(switch(page)).to_have_value("auto")
    assert page_background(page) == LIGHT_BG


def test_auto_follows_a_dark_system_and_light_can_still_be_chosen(dark_page: Page,
                                                                    live_server):
    dark_page.goto(live_server.url + "/")
    expect(switch(dark_page)).to_have_value("auto")
    assert theme_attribute(dark_page) is None
    assert page_background(dark_page) == DARK_BG
    assert dark_page.evaluate("getComputedStyle(document.documentElement).colorScheme") == "dark"

    switch(dark_page).select_option("light")

    assert page_background(dark_page) == LIGHT_BG
    assert dark_page.evaluate(
        "getComputedStyle(document.documentElement).colorScheme") == "light"
    dark_page.reload()
    assert page_background(dark_page) == LIGHT_BG


def test_a_chosen_dark_theme_is_there_before_the_first_paint(page: Page, live_server):
    """theme.js runs in <head>, before the body exists: the first frame is dark."""
    page.add_init_script("localStorage.setItem('theme', 'dark')")
    page.add_init_script("""
      document.addEventListener("DOMContentLoaded", () => {
        window.themeAtFirstParse = document.documentElement.getAttribute("data-theme");
        window.bgAtFirstParse = getComputedStyle(document.documentElement).backgroundColor;
      });
    """)
    page.goto(live_server.url + "/")
    assert page.evaluate("window.themeAtFirstParse") == "dark"
    assert page.evaluate("window.bgAtFirstParse") == DARK_BG


# -- contrast -------------------------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_scorepad_is_readable_in_both_themes(page: Page, live_server, theme):
    page.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    scorepad_mid_round(page, live_server)
    assert theme_attribute(page) == theme

    # the tiles: pips and the numbers on the face, the face on the felt and in the picker
    assert contrast(page, "style('#board-box .pip').fill",
                    "style('#board-box .domino-face').fill") >= 7
    assert contrast(page, "style('#board-box .newest .pip').fill",
                    "style('#board-box .newest > .domino-face').fill") >= 7
    assert contrast(page, "style('#board-box .domino-face').fill", "bg('.board-wrap')") >= 3
    assert contrast(page, "style('.open-end').fill", "bg('.board-wrap')") >= 3
    assert contrast(page, "style('.open-flank').fill", "bg('.board-wrap')") >= 3
    assert contrast(page, "style('.pick.playable .pip').fill",
                    "style('.pick.playable .domino-face').fill") >= 7
    # a picker tile stands out from its button by its face (dark) or its edge (light)
    assert max(contrast(page, "style('.pick.playable .domino-face').fill",
                        "bg('.pick.playable')"),
               contrast(page, "style('.pick.playable .domino-face').stroke",
                        "bg('.pick.playable')")) >= 3
    assert contrast(page, "style('.pick.playable').borderTopColor", "bg('.picker')") >= 3
    assert contrast(page, "style('.board-wrap .ends').color", "bg('.board-wrap')") >= 4.5
    # the paper tally, and the score beside it
    assert contrast(page, "style('.tally line').stroke", "bg('.tally')") >= 3
    assert contrast(page, "style('.score').color", "bg('.score')") >= 4.5
    # body text, the bar under the thumb and its buttons
    assert contrast(page, "style('body').color", "bg('body')") >= 4.5
    assert contrast(page, "style('#thumb-bar').color", "bg('#thumb-bar')") >= 4.5
    assert contrast(page, "style('#undo-button').borderTopColor", "bg('#thumb-bar')") >= 3
    assert contrast(page, "style('.seat-turn').color", "bg('.seat-turn')") >= 4.5
    assert low_contrast_text(page) == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_called_round_and_its_keypad_are_readable_in_both_themes(page: Page, live_server,
                                                                    theme):
    page.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    page.goto(live_server.url + "/new/")
    page.fill("input[name=player_0]", "Ann")
    page.fill("input[name=player_1]", "Bo")
    page.check("input[name=game][value=all-fives]")
    page.select_option("select#id_starter", "0")
    page.select_option("select#id_mode", "ends")
    page.click("#start-match")
    page.wait_for_function(WIRED)
    page.get_by_role("button", name="5", exact=True).click()
    page.get_by_role("button", name="Double").click()
    expect(page.locator(".keypad .key-double")).to_have_attribute("aria-pressed", "true")

    assert contrast(page, "style('.key-double').color", "bg('.key-double')") >= 4.5
    assert contrast(page, "style('.keypad .key').borderTopColor", "bg('.keypad')") >= 3
    assert contrast(page, "style('.seg input:checked + span').color",
                    "bg('.seg input:checked + span')") >= 4.5
    assert low_contrast_text(page) == []


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_finished_matchs_page_is_readable_in_both_themes(page: Page, live_server, theme):
    match = finished_match()
    page.add_init_script(f"localStorage.setItem('theme', '{theme}')")
    page.goto(live_server.url + match.get_absolute_url())
    page.wait_for_function(WIRED)

    assert low_contrast_text(page) == []
    page_bg = "bg('#match-page')"
    for side in (0, 1):  # the chart's lines, 3:1 against the page like any graphic
        assert contrast(page, f"style('.chart-line[data-side=\"{side}\"]').stroke",
                        page_bg) >= 3
    assert contrast(page, "style('#replay .pip').fill", "style('#replay .domino-face').fill") >= 7


# -- screenshots ----------------------------------------------------------------------


def test_dark_screenshots_of_the_scorepad_and_a_match_page(dark_page: Page, live_server,
                                                           tmp_path: Path):
    scorepad_mid_round(dark_page, live_server)
    assert page_background(dark_page) == DARK_BG
    dark_page.screenshot(path=str(tmp_path / "scorepad-dark.png"))

    match = finished_match()
    dark_page.goto(live_server.url + match.get_absolute_url())
    assert page_background(dark_page) == DARK_BG
    dark_page.screenshot(path=str(tmp_path / "match-dark.png"), full_page=True)

    for name in ("scorepad-dark.png", "match-dark.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")


@pytest.mark.skipif(os.environ.get("SCOREKEEPER_SCREENSHOT") != "1",
                    reason="writes docs/scorepad-dark.png only with SCOREKEEPER_SCREENSHOT=1")
def test_screenshot_mid_round_dark(live_server, dark_page):
    scorepad_mid_round(dark_page, live_server)
    DOCS.mkdir(exist_ok=True)
    dark_page.screenshot(path=str(DOCS / "scorepad-dark.png"))
    assert (DOCS / "scorepad-dark.png").stat().st_size > 0


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_first_tab_stop_shows_its_focus_ring_on_the_header(page: Page, live_server,
                                                               theme):
    page.goto(live_server.url + "/")
    page.evaluate(f"localStorage.setItem('theme', '{theme}')")
    page.reload()
    page.keyboard.press("Tab")  # the site's name, first on every page

    focused = page.evaluate("""() => { const el = document.activeElement;
        const style = getComputedStyle(el);
        return [el.className, style.outlineStyle, style.outlineColor]; }""")

    # white on the header's blue: the page's blue ring would not show there (1:1)
    assert focused == ["site-name", "solid", "rgb(255, 255, 255)"]
