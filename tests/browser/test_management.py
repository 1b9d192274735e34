"""Match management in Chromium at 360×740: abandon through its confirmation page, the
end-of-match summary on a finished match's public page with its Rematch button, and the
management pages fit a phone (one h1, every control named, no sideways scroll)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from matches.models import Match, MatchStatus
from matches.scoring.services.play import match_start
from tests.browser.test_pages import check
from tests.support.helpers import night, won_at_once

pytestmark = pytest.mark.django_db(transaction=True)


def take_grant(page: Page, base: str, match: Match) -> None:
    """This phone scores ``match``: it opens the shared scorer's link and says yes."""
    page.goto(base + match.get_join_url())
    page.click("#join-button")
    expect(page).to_have_url(re.compile(re.escape(match.get_scorer_url()) + "$"))


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_scorer_abandons_through_the_confirmation_page(page: Page, live_server):
    olena = User.objects.create_user("olena", password="a long pass phrase")
    match = match_start(game="all-fives", players=["Olena", "Taras"], starter=0,
                                 created_by=olena).match
    base = live_server.url
    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("olena")
    page.get_by_label("Password").fill("a long pass phrase")
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    take_grant(page, base, match)  # and the match's creator: she may delete it too
    for name, heading in (("abandon", "Abandon this match?"), ("rename", "Players' names"),
                          ("delete", "Delete this match?")):
        check(page, base + reverse(f"matches:{name}", kwargs={"public_id": match.public_id}))
        expect(page.get_by_role("heading", level=1)).to_have_text(heading)

    page.goto(base + reverse("matches:abandon", kwargs={"public_id": match.public_id}))
    expect(page.get_by_role("heading", level=1)).to_have_text("Abandon this match?")
    page.get_by_role("button", name="Abandon the match").click()

    expect(page).to_have_url(re.compile(re.escape(match.get_absolute_url()) + "$"))
    summary = page.locator("#match-end")
    expect(summary).to_have_attribute("data-status", "abandoned")
    expect(summary.get_by_role("heading", level=2)).to_have_text("Match abandoned")
    expect(page.get_by_role("status").first).to_contain_text("Match abandoned")
    no_sideways_scroll(page)
    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED


def test_a_finished_match_sums_itself_up_and_offers_a_rematch(page: Page, live_server):
    match = won_at_once(["Olena Kovalenko-Shevchenko", "Taras Bondarenko"], opener=0,
                        played_at=night(1))
    base = live_server.url
    take_grant(page, base, match)

    check(page, base + match.get_absolute_url())
    summary = page.locator("#match-end")
    expect(summary).to_be_visible()
    expect(summary.get_by_role("heading", level=2)).to_have_text(
        "Olena Kovalenko-Shevchenko won")
    expect(summary.get_by_role("row")).to_have_count(3)  # the head and one row a side
    expect(summary.get_by_role("link", name="Public link to this match")).to_have_attribute(
        "href", match.get_absolute_url())
    expect(summary.locator("#share-button")).to_be_visible()  # the script offers it
    no_sideways_scroll(page)

    page.get_by_role("button", name=re.compile("^Rematch")).click()

    rematch = Match.objects.exclude(pk=match.pk).get()
    expect(page).to_have_url(re.compile(re.escape(rematch.get_scorer_url()) + "$"))
    expect(page.locator("h1")).to_have_count(1)
    no_sideways_scroll(page)
