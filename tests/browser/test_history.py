"""At 360×740: find a match by a player's name in the history, open it, and step
through a round of its replay."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from matches import rules
from matches.clubs.services import club_create
from matches.models import Match
from matches.rules.simulate import simulated_record
from matches.scoring.services.play import match_import
from tests.browser.ready import WIRED

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_match_is_found_by_a_players_name_and_its_round_replayed(live_server, page: Page):
    club = club_create(name="Teesdale", by=User.objects.create_user("sec"))
    for seed, names in ((1, ["Olena", "Taras"]), (2, ["Iryna", "Bohdan"])):
        record = simulated_record(rules.ALL_FIVES, 2, seed=seed)
        record["players"] = names
        match = match_import(document=record)
        Match.objects.filter(pk=match.pk).update(club=club)
    wanted = Match.objects.get(seats__name="Iryna")

    page.goto(live_server.url + "/history/")
    expect(page.locator("#history-rows li")).to_have_count(2)
    page.wait_for_function(WIRED)
    page.get_by_label("Player").fill("iryna")
    page.get_by_role("button", name="Show matches").click()
    expect(page.locator("#history-rows li")).to_have_count(1)
    expect(page).to_have_url(re.compile(r"/history/\?player=iryna&"))  # a link to share
    page.locator("#history-rows a").click()
    expect(page).to_have_url(f"{live_server.url}{wanted.get_absolute_url()}")
    expect(page.locator("h1")).to_contain_text("Iryna")

    step = page.locator("#replay-step")
    expect(step).to_contain_text("Round 1, step 1 of")
    tiles = page.locator("#replay g.board-tile")
    expect(tiles).to_have_count(1)
    page.wait_for_function(WIRED)
    page.locator('#replay [data-nav="forward"]').click()
    expect(step).to_contain_text("Round 1, step 2 of")
    expect(tiles).to_have_count(2)
    page.keyboard.press("ArrowRight")
    expect(step).to_contain_text("Round 1, step 3 of")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
