"""Every page the clubs, leagues, history and scorer tools added, at 360×740: it opens,
has one h1, names its form controls, and does not scroll sideways."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from playwright.sync_api import Page, expect

from matches.clubs.services import club_create, club_invite
from matches.leagues.services import entrant_add, season_create
from matches.models import Fixture, Player
from matches.scoring.services.play import match_start
from tests.support.helpers import night, won_at_once

pytestmark = pytest.mark.django_db(transaction=True)


def check(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("h1")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, url
    # every visible form control is named: a label, aria-label, or a button's text
    unnamed = page.evaluate("""() => [...document.querySelectorAll(
        'main input:not([type=hidden]), main select, main textarea, main button')]
        .filter(el => el.offsetParent !== null)
        .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                      && !(el.tagName === 'BUTTON' && el.textContent.trim()))
        .map(el => el.outerHTML.slice(0, 80))""")
    assert unnamed == [], (url, unnamed)


def test_each_new_page_fits_a_phone_and_names_its_controls(live_server, page: Page):
    secretary = User.objects.create_user("secretary", password="a long pass phrase")
    club = club_create(name="Teesdale Dominoes Club", by=secretary)
    for name in ("Ann Dale", "Bob Hart"):
        Player.objects.create(club=club, name=name)
    won_at_once(["Ann Dale", "Bob Hart"], opener=0, played_at=night(1), club=club,
                players_of=club)
    season = season_create(club=club, by=secretary, name="Monday League",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives")
    division = season.divisions.get()
    home = entrant_add(division=division, by=secretary, name="Royal Oak A")
    away = entrant_add(division=division, by=secretary, name="Bowes Dragons")
    Fixture.objects.create(division=division, week=1, home=home, away=away)
    started = match_start(game="all-fives", players=["Olena", "Taras"])
    ann = club.players.get(name="Ann Dale")
    invite = club_invite(club=club, by=secretary)
    base = live_server.url

    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
                 "/clubs/", club.get_absolute_url(), "/history/",
                 reverse("matches:club_ratings", kwargs={"slug": club.slug,
                                                         "game": "all-fives"}),
                 reverse("matches:club_player", kwargs={"slug": club.slug, "pk": ann.pk}),
                 season.get_absolute_url(), started.match.get_join_url()):
        check(page, base + path)

    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("secretary")
    page.get_by_label("Password").fill("a long pass phrase")
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    for path in ("/clubs/new/", club.get_absolute_url(),
                 reverse("matches:season_new", kwargs={"slug": club.slug}),
                 season.get_absolute_url(),
                 Fixture.objects.get().get_absolute_url(),
                 reverse("matches:club_join", kwargs={"slug": club.slug, "token": invite}),
                 "/accounts/password_change/"):
        check(page, base + path)

    # the scorer's own pages, on a phone that took the shared link
    page.goto(base + started.match.get_join_url())
    page.click("#join-button")
    for name in ("scorepad", "scorers", "history", "rename", "abandon"):
        check(page, base + reverse(f"matches:{name}",
                                   kwargs={"public_id": started.match.public_id}))
    # the phone that started a match also may delete it; the new-match form
    page.goto(base + "/new/")
    check(page, base + "/new/")
    page.get_by_label("Seat 1").first.fill("Ann")
    page.get_by_label("Seat 2").first.fill("Bo")
    page.click("#start-match")
    expect(page.locator("#scorepad")).to_be_visible()
    check(page, page.url.replace("/score/", "/score/delete/"))
