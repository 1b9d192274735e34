"""The cup's page shares its bracket as the season page shares its table: the phone's
share sheet where there is one, else the address copied and said; no button with
neither."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from matches.cups import services as cups
from tests.browser.test_csp import watch
from tests.browser.test_season_table import APIS
from tests.support.cups import a_cup

pytestmark = pytest.mark.django_db(transaction=True)


def open_with(page: Page, live_server, share: str | None, clipboard: str | None) -> str:
    """The cup's page (drawn), its script run under the Content-Security-Policy without
    a complaint or an error; its address."""
    folk = a_cup(["Ann", "Bob", "Cy"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    errors = watch(page)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(f"({APIS})({json.dumps([share, clipboard])})")
    address = folk.cup.season.get_absolute_url()
    page.goto(live_server.url + address)
    page.wait_for_load_state("load")
    assert errors == []
    return address


def test_the_share_button_opens_the_share_sheet_with_the_brackets_address(live_server, page):
    address = open_with(page, live_server, "ok", "ok")
    page.get_by_role("button", name="Share this bracket").click()
    page.wait_for_function("window.shared.length === 1")
    assert page.evaluate("window.shared") == [
        {"title": "Teesdale Cup · Teesdale", "url": live_server.url + address}]


def test_without_sharing_the_button_copies_the_address_and_says_so(live_server, page):
    address = open_with(page, live_server, None, "ok")
    page.get_by_role("button", name="Copy the link to this bracket").click()
    status = page.get_by_role("status").filter(has_text="Link copied.")
    expect(status).to_have_attribute("id", "cup-share-status")
    assert page.evaluate("window.copied") == [live_server.url + address]


def test_with_neither_there_is_no_button(live_server, page):
    open_with(page, live_server, None, None)
    expect(page.locator("#cup-share")).to_be_hidden()
    expect(page.locator(".season-share")).to_be_hidden()
