"""Every page of the app checked by axe-core (WCAG 2.0/2.1, A and AA, and axe's best
practices: landmarks, headings) at 360×740, in the light and in the dark colour scheme,
with its folded parts unfolded: no violations. Every page the other browser tests open is
here, in each state they open it in.

axe-core comes from the npm registry (package.json, package-lock.json at the repository
root; scripts/test runs ``npm ci`` when node_modules lacks it). Each page is its own
test. The database is emptied after every test (``live_server`` needs a transactional
database), so each test builds only what its page needs: ``World`` makes its rows on
first use, through the services, in a few milliseconds.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Browser, BrowserContext, Page, expect

from matches import rules
from matches.clubs.services import club_create, club_invite
from matches.leagues.selectors import captain_link_token
from matches.leagues.services import (
    adjustment_add,
    entrant_add,
    fixture_correct,
    fixture_game_start,
    fixture_games_enter,
    fixture_submit,
    season_create,
)
from matches.models import (
    Club,
    Entrant,
    Fixture,
    Match,
    Membership,
    Player,
    RecordImport,
    ScorerGrant,
    Season,
)
from matches.records.services import record_import_start
from matches.scoring.access import GRANTS_KEY
from matches.scoring.services.lifecycle import match_abandon
from matches.scoring.services.play import (
    MatchStarted,
    event_record,
    grant_create,
    match_start,
    round_settle,
    round_start,
    scorer_link_rotate,
)
from tests.browser.ready import WIRED
from tests.browser.test_match_page import finished_match
from tests.support.helpers import (
    league_night,
    night,
    paper_games,
    play_short_round,
    two_player_all_fives,
    won_at_once,
)

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# axe-core is loaded as a same-origin script: Playwright answers this address with the
# file (context.route), so the page's Content-Security-Policy (script-src 'self' and a
# nonce) lets it run and stays on, exactly as the app sends it. page.add_script_tag with
# `content` or `path` would insert an inline <script>, which that policy refuses;
# bypass_csp=True would test the pages without the policy they really run under.
AXE_PATH = "/__tests__/axe-core/axe.min.js"
# The WCAG 2.0/2.1 A and AA rules, and axe's best practices beside them: landmarks
# unique and named apart, one main, all content in a landmark, headings in order.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
THEMES: list[Literal["light", "dark"]] = ["light", "dark"]
PASSWORD = "a long pass phrase"
T = rules.Tile.parse


class World:
    """The rows the pages show, each made on first use (the database starts empty)."""

    @cached_property
    def secretary(self) -> User:
        return User.objects.create_user("secretary", password=PASSWORD)

    @cached_property
    def captain(self) -> User:
        return User.objects.create_user("oak", password=PASSWORD)

    @cached_property
    def away_captain(self) -> User:
        return User.objects.create_user("bowes", password=PASSWORD)

    @cached_property
    def newcomer(self) -> User:
        return User.objects.create_user("newcomer", password=PASSWORD)

    @cached_property
    def club(self) -> Club:
        club = club_create(name="Teesdale Dominoes Club", by=self.secretary)
        Membership.objects.create(club=club, user=self.captain, role="captain")
        Membership.objects.create(club=club, user=self.away_captain, role="captain")
        for name in ("Ann Dale", "Bob Hart", "Cath Lowe"):
            Player.objects.create(club=club, name=name)
        # two rated games of the club, so its ratings and players' pages have rows
        won_at_once(["Ann Dale", "Bob Hart"], opener=0, played_at=night(1), club=club,
                    players_of=club)
        won_at_once(["Cath Lowe", "Ann Dale"], opener=1, played_at=night(2), club=club,
                    players_of=club)
        return club

    @cached_property
    def season(self) -> Season:
        season = season_create(club=self.club, by=self.secretary,
                                        name="Monday League",
                                        starts_on=datetime.date(2026, 9, 7),
                                        game="all-fives", fixture_format="games", singles=3,
                                        scoring={"per_game": 1})
        division = season.divisions.get()
        home = entrant_add(division=division, by=self.secretary, name="Royal Oak",
                                    captain=self.captain, player_names=["Ann Dale"])
        away = entrant_add(division=division, by=self.secretary, name="Bowes",
                                    captain=self.away_captain, player_names=["Bob Hart"])
        third = entrant_add(division=division, by=self.secretary, name="Black Bull",
                                     player_names=["Cath Lowe"])
        played = Fixture.objects.create(division=division, week=1, home=home, away=away,
                                        date=datetime.date(2026, 9, 7))
        fixture_games_enter(fixture=played, by=self.captain,
                            games=paper_games(played, [(250, 40), (35, 250), (250, 245)]))
        fixture_submit(fixture=played, by=self.captain)
        adjustment_add(entrant=third, by=self.secretary, points=-1,
                                reason="Late start")
        Fixture.objects.create(division=division, week=2, home=home, away=third,
                               date=datetime.date(2026, 9, 14))
        return season

    @cached_property
    def fixture(self) -> Fixture:  # next week's, the captain keys its games in
        return Fixture.objects.get(division__season=self.season, week=2)

    @cached_property
    def submitted(self) -> Fixture:  # the first week's, sent to the away captain
        return Fixture.objects.get(division__season=self.season, week=1)

    @cached_property
    def divisions(self) -> Season:
        """A second season of two divisions, each with its entrants."""
        season = season_create(club=self.club, by=self.secretary,
                                        name="Thursday League",
                                        starts_on=datetime.date(2026, 9, 10),
                                        game="all-fives", divisions=("North", "South"))
        for division, names in zip(season.divisions.order_by("pk"),
                                   (("Red Lion", "Swan"), ("King's Head", "Crown")),
                                   strict=True):
            for name in names:
                entrant_add(division=division, by=self.secretary, name=name)
        return season

    @cached_property
    def player(self) -> Player:
        return self.club.players.get(name="Ann Dale")

    @cached_property
    def tracked(self) -> MatchStarted:
        """All Fives in its first round: Olena opened with 5-5, Taras's turn."""
        started = match_start(game="all-fives", players=["Olena", "Taras"],
                                       starter=0, phone="Android phone")
        event_record(match=started.match, action=rules.Play(0, T("5-5")))
        return started

    @cached_property
    def settling(self) -> tuple[Match, ScorerGrant]:
        """Round 1 is over (Olena went out): the hands are to be counted."""
        match = two_player_all_fives()
        play_short_round(match)
        return match, grant_create(match=match, phone="Android phone")

    @cached_property
    def called(self) -> MatchStarted:
        """A called round: the scorer keys in only the scoring ends."""
        return match_start(game="all-fives", players=["Olena", "Taras"],
                                    starter=0, mode="ends", phone="Android phone")

    @cached_property
    def settled(self) -> tuple[Match, ScorerGrant]:
        """Round 1 counted: the next round is to be started."""
        match, grant = self.settling
        round_settle(match=match, pips=(0, 3))
        return match, grant

    @cached_property
    def twelve(self) -> MatchStarted:
        """Fives and Threes for twelve, double-twelve, opened: the widest rounds table."""
        started = match_start(game="fives-and-threes",
                                       players=[f"Player {n}" for n in range(1, 13)],
                                       options={"set": "double-twelve"}, starter=0,
                                       phone="Android phone")
        event_record(match=started.match, action=rules.Play(0, T("12-12")))
        return started

    @cached_property
    def finished(self) -> tuple[Match, ScorerGrant]:
        """Partners, with long names: the widest tables of a finished match."""
        match = won_at_once(["Olena Kovalenko-Shevchenko", "Taras Bondarenko",
                             "Iryna Melnychenko", "Petro Hryhorenko"],
                            opener=0, played_at=night(3))
        return match, grant_create(match=match, phone="Android phone")


class Visit:
    """Opens one page in a fresh context: its colour scheme, its session."""

    def __init__(self, browser: Browser, base: str, theme: str, world: World,
                 lang: str = "en") -> None:
        self.browser, self.base, self.theme, self.world = browser, base, theme, world
        self.lang = lang  # what the phone's browser asks for (Accept-Language)
        self.context: BrowserContext | None = None

    def open(self, path: str, *, user: User | None = None,
             grants: Sequence[ScorerGrant] = (), served: str | None = None,
             kept: bool = False) -> Page:
        """``served``: the page's HTML, answered at ``path`` as nginx would serve a file.
        ``kept``: the service worker runs (it keeps the page for offline use). Otherwise
        it is not registered: its install fetches the whole app shell from the live
        server for every page, which is most of a page's cost here and none of what
        the page shows."""
        self.context = self.browser.new_context(
            viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
            color_scheme="dark" if self.theme == "dark" else "light", locale=self.lang,
            service_workers="allow" if kept else "block")
        self.context.route(self.base + AXE_PATH, lambda route: route.fulfill(
            path=AXE, content_type="text/javascript"))
        if served is not None:
            self.context.route(self.base + path, lambda route: route.fulfill(
                body=served, content_type="text/html; charset=utf-8"))
        if user is not None or grants:
            self.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                                       "value": session_for(user, grants), "url": self.base}])
        page = self.context.new_page()
        page.goto(self.base + path)
        return page

    def close(self) -> None:
        if self.context is not None:
            self.context.close()


def session_for(user: User | None, grants: Sequence[ScorerGrant]) -> str:
    """A session signed in as ``user`` (if given) that scores ``grants``' matches."""
    client = Client()
    if user is not None:
        client.force_login(user)
    session = client.session
    session[GRANTS_KEY] = {str(grant.match.public_id): grant.pk for grant in grants}
    session.save()
    assert session.session_key is not None
    return session.session_key


def scorepad_ready(page: Page) -> None:
    page.wait_for_function(WIRED)


# -- the pages: each opens its page as its visitor would see it -------------------------

def home(v: Visit, w: World) -> Page:
    return v.open("/", grants=[w.tracked.grant])  # the phone lists the match it scores


def home_needs_you(v: Visit, w: World) -> Page:  # the away captain: a result to confirm
    assert w.submitted.status == "submitted"
    page = v.open("/", user=w.away_captain)
    expect(page.locator("#needs-confirm")).to_be_visible()
    return page


def new_match(v: Visit, w: World) -> Page:
    return v.open("/new/")


def new_match_twelve(v: Visit, w: World) -> Page:  # Fives and Threes' twelve seats
    page = v.open("/new/?players=12")
    expect(page.locator("input[name=player_11]")).to_be_visible()
    return page


def new_match_refused(v: Visit, w: World) -> Page:  # its errors, by their fields
    page = v.open("/new/")
    page.fill("input[name=target]", "0")
    page.click("#start-match")
    expect(page.locator(".errorlist").first).to_be_visible()
    for field in ("player_0", "target"):  # each refused field points at its error
        expect(page.locator(f"input[name={field}]")).to_have_attribute("aria-invalid", "true")
        expect(page.locator(f"input[name={field}]")).to_have_attribute(
            "aria-describedby", re.compile(rf"\bid_{field}_error\b"))
    return page


def match_in_progress(v: Visit, w: World) -> Page:
    return v.open(w.tracked.match.get_absolute_url())


def match_watch_stale(v: Visit, w: World) -> Page:  # its refreshes get no answer: it says so
    page = match_in_progress(v, w)
    page.wait_for_function(WIRED)
    page.route("**/?seen=*", lambda route: route.fulfill(status=502, body="down"))
    expect(page.locator("#watch-stale")).to_be_visible(timeout=12_000)
    return page


def match_finished(v: Visit, w: World) -> Page:
    return v.open(w.finished[0].get_absolute_url())


def match_replay(v: Visit, w: World) -> Page:  # five rounds: a round and a step chosen
    page = v.open(finished_match().get_absolute_url() + "?round=2&step=2")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    expect(page.locator(".replay-rounds")).to_be_visible()
    return page


def match_abandoned(v: Visit, w: World) -> Page:  # its scorer stopped it: the summary
    match_abandon(match=w.tracked.match, grant=w.tracked.grant)
    page = v.open(w.tracked.match.get_absolute_url())
    expect(page.locator("#match-end")).to_have_attribute("data-status", "abandoned")
    return page


def scorepad_tile_chosen(v: Visit, w: World) -> Page:
    page = v.open(w.tracked.match.get_scorer_url(), grants=[w.tracked.grant])
    scorepad_ready(page)
    page.click('a.pick[data-tile="0-5"]')
    expect(page.locator('.choice-set[data-for="0-5"] button.choice').first).to_be_visible()
    return page


def _scorepad_kept(v: Visit, w: World) -> Page:
    """The scorepad once the service worker keeps it (templates/sw.js)."""
    from tests.browser.test_offline import kept  # it imports this module

    page = v.open(w.tracked.match.get_scorer_url(), grants=[w.tracked.grant], kept=True)
    scorepad_ready(page)
    kept(page, int(page.locator("#live").get_attribute("data-version") or 0))
    return page


def scorepad_offline(v: Visit, w: World) -> Page:  # a tile placed without a connection
    from tests.browser.test_offline import play_offline, waiting

    page = _scorepad_kept(v, w)
    page.add_script_tag(url=AXE_PATH)  # before the connection goes: not fetched after
    page.context.set_offline(True)
    play_offline(page, "0-5", "5-5:5")
    expect(waiting(page)).to_have_text(
        {"en": "1 entry waiting", "uk": re.compile("1"), "ru": re.compile("1")}[v.lang])
    return page


def offline_kept(v: Visit, w: World) -> Page:  # the offline page lists the kept scorepad
    page = _scorepad_kept(v, w)
    page.goto(v.base + reverse("offline"))
    expect(page.locator("#kept-scorepads li")).to_have_count(1)
    return page


def scorepad_settle(v: Visit, w: World) -> Page:
    match, grant = w.settling
    page = v.open(match.get_scorer_url(), grants=[grant])
    expect(page.locator("#settle-form")).to_be_visible()
    return page


def scorepad_settle_tiles(v: Visit, w: World) -> Page:  # the hands tapped tile by tile
    match, grant = w.settling
    page = v.open(match.get_scorer_url() + "?entry=tiles", grants=[grant])
    expect(page.locator("#settle-form fieldset.hand").first).to_be_visible()
    return page


def scorepad_count_refused(v: Visit, w: World) -> Page:  # a hand counted wrong: why, where
    match, grant = w.settling  # Olena went out; Taras holds one tile
    page = v.open(match.get_scorer_url(), grants=[grant])
    scorepad_ready(page)
    page.locator("input[name=pips_1]").fill("13")
    page.locator("#settle-button").press("Enter")
    expect(page.locator("#scorepad-error")).to_contain_text("(Taras)")
    expect(page.locator("input[name=pips_1]")).to_have_attribute("aria-invalid", "true")
    return page


def scorepad_next_round(v: Visit, w: World) -> Page:
    match, grant = w.settled
    page = v.open(match.get_scorer_url(), grants=[grant])
    expect(page.locator("#round-form")).to_be_visible()
    return page


def scorepad_twelve(v: Visit, w: World) -> Page:  # its rounds table scrolls sideways
    page = v.open(w.twelve.match.get_scorer_url(), grants=[w.twelve.grant])
    scorepad_ready(page)
    rounds = page.locator(".table-wrap:has(.rounds-table)")
    assert rounds.evaluate("box => box.scrollWidth > box.clientWidth")
    return page


def scorepad_called_keypad(v: Visit, w: World) -> Page:
    page = v.open(w.called.match.get_scorer_url(), grants=[w.called.grant])
    scorepad_ready(page)
    expect(page.locator(".keypad")).to_be_visible()
    page.click(".keypad .key-double")
    page.click('.keypad button[data-value="5"]')
    expect(page.locator("#called-sum")).to_contain_text("5-5")
    return page


def scorepad_finished(v: Visit, w: World) -> Page:
    match, grant = w.finished
    page = v.open(match.get_scorer_url(), grants=[grant])
    expect(page.locator("#match-end")).to_be_visible()
    return page


def scorepad_closed(v: Visit, w: World) -> Page:  # a league game whose night was sent
    league = league_night(target=10)
    round_start(match=league.match, starter=0)
    event_record(match=league.match, action=rules.Play(0, T("5-5")))
    fixture_submit(fixture=league.fixture, by=league.home_captain)
    page = v.open(league.match.get_scorer_url(), grants=[league.grant])
    expect(page.locator("#scorepad-closed")).to_be_visible()
    expect(page.locator("#fixture-back")).to_be_visible()  # instead of a rematch
    return page


def match_league(v: Visit, w: World) -> Page:  # a league game's page names its fixture
    league = league_night(target=10)
    round_start(match=league.match, starter=0)
    event_record(match=league.match, action=rules.Play(0, T("5-5")))
    page = v.open(league.match.get_absolute_url())
    expect(page.locator("#match-place")).to_be_visible()
    return page


def scorepad_not_scorer(v: Visit, w: World) -> Page:  # no grant: how to get one
    return v.open(w.tracked.match.get_scorer_url())


def scorepad_creator(v: Visit, w: World) -> Page:  # its account, no grant here: the offer
    started = match_start(game="all-fives", players=["Olena", "Taras"], starter=0,
                                   created_by=w.newcomer, phone="Android phone")
    page = v.open(started.match.get_scorer_url(), user=w.newcomer)
    expect(page.locator("#claim-button")).to_be_visible()
    return page


def stale_form(v: Visit, w: World) -> Page:  # a form sent from a page whose token changed
    page = v.open("/new/")
    page.context.add_cookies([{"name": settings.CSRF_COOKIE_NAME, "value": "b" * 32,
                               "url": v.base}])
    page.fill("input[name=player_0]", "Ann")
    page.fill("input[name=player_1]", "Bo")
    page.click("#start-match")
    expect(page.locator("h1")).to_have_count(1)
    assert "/new/" in page.url and page.locator("#start-match").count() == 0
    return page


def scorers(v: Visit, w: World) -> Page:
    # a second phone to revoke, named by its scorer: as long as a name may be, and with
    # nowhere to break, so that the list must wrap it
    grant_create(match=w.tracked.match, phone="iPhone", name="W" * 40)
    return v.open(reverse("matches:scorers", args=[w.tracked.match.public_id]),
                  grants=[w.tracked.grant])


def change_log(v: Visit, w: World) -> Page:
    return v.open(reverse("matches:history", args=[w.tracked.match.public_id]),
                  grants=[w.tracked.grant])


def join(v: Visit, w: World) -> Page:
    return v.open(w.tracked.match.get_join_url())


def join_replaced(v: Visit, w: World) -> Page:  # the scorers made a new link: the old one
    old = w.tracked.match.get_join_url()
    scorer_link_rotate(match=w.tracked.match)
    page = v.open(old)
    expect(page.locator("h1")).to_have_text(
        {"en": "This scorer's link no longer works",
         "uk": "Це посилання секретаря більше не діє",
         "ru": "Эта ссылка секретаря больше не действует"}[v.lang])
    return page


def _manage(name: str) -> Callable[[Visit, World], Page]:
    def visit(v: Visit, w: World) -> Page:
        return v.open(reverse(f"matches:{name}", args=[w.tracked.match.public_id]),
                      grants=[w.tracked.grant])  # the phone that started it
    return visit


def delete_closed(v: Visit, w: World) -> Page:  # a sent night's game: not deleted, saying why
    league = league_night(target=10)
    round_start(match=league.match, starter=0)
    event_record(match=league.match, action=rules.Play(0, T("5-5")))
    fixture_submit(fixture=league.fixture, by=league.home_captain)
    page = v.open(reverse("matches:delete", args=[league.match.public_id]),
                  grants=[league.grant])
    expect(page.locator("#scorepad-closed")).to_be_visible()
    return page


def forbidden(v: Visit, w: World) -> Page:  # a later phone may not delete the match: 403
    grant = grant_create(match=w.tracked.match, phone="iPhone")
    page = v.open(reverse("matches:delete", args=[w.tracked.match.public_id]), grants=[grant])
    expect(page.locator("h1")).to_have_text(
        {"en": "Not allowed", "uk": "Заборонено", "ru": "Запрещено"}[v.lang])
    return page


def clubs(v: Visit, w: World) -> Page:
    w.club  # noqa: B018 (made on first use)
    return v.open("/clubs/")


def club(v: Visit, w: World) -> Page:
    return v.open(w.club.get_absolute_url())


def club_settings(v: Visit, w: World) -> Page:  # its admin sees the settings and members
    page = v.open(w.club.get_absolute_url(), user=w.secretary)
    expect(page.locator("form[action$='/settings/']")).to_be_visible()
    return page


def club_new(v: Visit, w: World) -> Page:
    return v.open("/clubs/new/", user=w.newcomer)


def club_made(v: Visit, w: World) -> Page:  # a message after an action: "Club created"
    page = v.open("/clubs/new/", user=w.newcomer)
    page.fill("input[name=name]", "Bowes Dominoes")
    page.click("#create-club")
    expect(page.locator(".messages li")).to_have_count(1)
    return page


def club_join(v: Visit, w: World) -> Page:
    token = club_invite(club=w.club, by=w.secretary)
    return v.open(reverse("matches:club_join", kwargs={"slug": w.club.slug, "token": token}),
                  user=w.newcomer)


def season(v: Visit, w: World) -> Page:
    return v.open(w.season.get_absolute_url())


def season_admin(v: Visit, w: World) -> Page:
    return v.open(w.season.get_absolute_url(), user=w.secretary)


def season_division(v: Visit, w: World) -> Page:  # of two divisions, the second chosen
    south = w.divisions.divisions.get(name="South")
    page = v.open(f"{w.divisions.get_absolute_url()}?division={south.pk}")
    expect(page.locator(f"#table-{south.pk}")).to_be_visible()
    return page


def season_new(v: Visit, w: World) -> Page:
    return v.open(reverse("matches:season_new", kwargs={"slug": w.club.slug}),
                  user=w.secretary)


def season_new_refused(v: Visit, w: World) -> Page:  # the reasons at the top, focused
    page = season_new(v, w)
    page.select_option("select[name=fixture_format]", "games")  # and no games
    page.click("#create-season")
    expect(page.locator("#error-summary")).to_be_focused()
    return page


def season_admin_refused(v: Visit, w: World) -> Page:  # an entrant refused, by its field
    page = season_admin(v, w)
    page.locator("details.admin-tools summary").click()
    entrant = page.locator("form", has=page.locator("input[id^=entrant-players-]"))
    entrant.locator("input[name=name]").fill("Black Bull")
    entrant.locator("input[name=players]").fill("Nobody")
    entrant.locator("button[type=submit]").click()
    expect(page.locator("#entrant-players-error")).to_be_visible()
    return page


def fixture(v: Visit, w: World) -> Page:  # its home captain keys in the scores
    return v.open(w.fixture.get_absolute_url(), user=w.captain)


def fixture_game_on_scorepad(v: Visit, w: World) -> Page:  # its first game being scored
    club = w.club
    fixture_game_start(fixture=w.fixture, by=w.captain, number=1,
                                home_players=[club.players.get(name="Ann Dale")],
                                away_players=[club.players.get(name="Cath Lowe")])
    page = v.open(w.fixture.get_absolute_url(), user=w.captain)
    match = w.fixture.games.get(number=1).match
    assert match is not None
    # the captain who started it scores it: its link opens the scorepad
    expect(page.locator(f'a[href="{match.get_scorer_url()}"]')).to_have_count(1)
    return page


def fixture_to_confirm(v: Visit, w: World) -> Page:  # its away captain confirms or disputes
    page = v.open(w.submitted.get_absolute_url(), user=w.away_captain)
    expect(page.locator("#fixture-status")).to_be_visible()
    return page


def fixture_submitted_admin(v: Visit, w: World) -> Page:  # the league admin's tools for it
    return v.open(w.submitted.get_absolute_url(), user=w.secretary)


def captain_link(v: Visit, w: World) -> Page:  # the league admin hands it over as a QR code
    return v.open(reverse("matches:captain_link", kwargs={
        "slug": w.club.slug, "season": w.season.slug, "entrant": w.fixture.away_id}),
        user=w.secretary)


def captain_open(v: Visit, w: World, side: Entrant | None = None) -> Page:
    """A captain without an account opens their side's link: asked first."""
    return v.open(reverse("matches:captain_open",
                          kwargs={"token": captain_link_token(side or w.fixture.away)}))


def captain_fixtures(v: Visit, w: World, side: Entrant | None = None) -> Page:
    """Taken on this phone: its side's fixtures."""
    page = captain_open(v, w, side)
    page.click("#open-link")
    expect(page.locator(".fixture-list")).to_be_visible()
    return page


def fixture_by_link(v: Visit, w: World) -> Page:  # on its fixture, as its home captain
    page = captain_fixtures(v, w, w.fixture.home)
    page.goto(v.base + w.fixture.get_absolute_url())
    expect(page.locator("#by-link")).to_be_visible()
    return page


def fixture_correction(v: Visit, w: World) -> Page:  # the league admin's correction form
    return v.open(w.submitted.get_correction_url(), user=w.secretary)


def fixture_correction_refused(v: Visit, w: World) -> Page:  # sent without a reason
    page = fixture_correction(v, w)
    page.locator("#correct-fixture").click()
    expect(page.locator("#fixture-error")).to_be_visible()
    return page


def fixture_corrected(v: Visit, w: World) -> Page:  # the original beside the correction
    fixture_correct(fixture=w.submitted, by=w.secretary,
                    scores=[(250, 40), (250, 35), (250, 245)], reason="Game 2 was ours")
    page = v.open(w.submitted.get_absolute_url(), user=w.secretary)
    expect(page.locator("#fixture-corrections")).to_be_visible()
    return page


def player(v: Visit, w: World) -> Page:
    return v.open(reverse("matches:club_player", kwargs={"slug": w.club.slug,
                                                         "pk": w.player.pk}))


def ratings(v: Visit, w: World) -> Page:
    return v.open(reverse("matches:club_ratings", kwargs={"slug": w.club.slug,
                                                          "game": "all-fives"}))


def history_list(v: Visit, w: World) -> Page:
    w.club  # noqa: B018 (its matches are the member's history)
    return v.open("/history/", user=w.secretary)


def history_filtered(v: Visit, w: World) -> Page:  # the matches of one player, by the form
    page = history_list(v, w)
    page.wait_for_function(WIRED)
    page.locator("input[name=player]").fill("ann")
    page.locator("#filter-button").click()
    expect(page).to_have_url(re.compile(r"/history/\?player=ann&"))
    expect(page.locator("#history-rows li")).to_have_count(2)
    return page


def records_import(v: Visit, w: World) -> Page:
    return v.open("/import/", user=w.newcomer)


def import_progress(v: Visit, w: World) -> Page:
    record = {"format": "domino-match/1", "game": "all-fives", "players": ["A", "B"],
              "rounds": [{"starter": 0, "events": [{"seat": 0, "play": "5-5"}]}]}
    upload = SimpleUploadedFile("night.jsonl", (json.dumps(record) + "\nnot json\n").encode())
    done = record_import_start(files=[upload], created_by=w.newcomer)
    return v.open(done.get_absolute_url(), user=w.newcomer)


def import_stopped(v: Visit, w: World) -> Page:
    """Why it stopped, and its Try again button."""
    stopped = RecordImport.objects.create(created_by=w.newcomer, max_records=1,
                                          status="failed", stop_reason="failed")
    return v.open(stopped.get_absolute_url(), user=w.newcomer)


def login(v: Visit, w: World) -> Page:
    return v.open("/accounts/login/")


def admin_login(v: Visit, w: World) -> Page:  # Django's admin, the staff's way in
    return v.open("/admin/login/")


def offline(v: Visit, w: World) -> Page:
    return v.open(reverse("offline"))


def login_refused(v: Visit, w: World) -> Page:
    w.newcomer  # noqa: B018 (made on first use)
    page = v.open("/accounts/login/")
    page.fill("input[name=username]", "newcomer")
    page.fill("input[name=password]", "not the pass phrase")
    page.click("button[type=submit].btn-primary")
    expect(page.locator(".error-box")).to_be_visible()
    return page


def signup(v: Visit, w: World) -> Page:
    return v.open("/accounts/signup/")


def signup_throttled(v: Visit, w: World) -> Page:  # past the sign-up limit: 429, how long
    page = v.open("/accounts/signup/")
    page.fill("input[name=username]", "another-newcomer")
    page.fill("input[name=email]", "another@example.com")
    page.fill("input[name=password1]", "a-long-pass-phrase-8812")
    page.fill("input[name=password2]", "a-long-pass-phrase-8812")
    # a limit of none from this address: refused before anything is counted or kept
    with override_settings(SIGNUP_LIMIT_PER_ADDRESS=0), \
            page.expect_response(lambda answer: answer.request.method == "POST") as sent:
        page.click("button[type=submit].btn-primary")
    assert sent.value.status == 429
    page.wait_for_load_state()
    return page


def password_change(v: Visit, w: World) -> Page:
    return v.open("/accounts/password_change/", user=w.newcomer)


def account_settings(v: Visit, w: World) -> Page:  # league e-mails on or off
    return v.open(reverse("notice_settings"), user=w.newcomer)


def password_change_done(v: Visit, w: World) -> Page:
    return v.open("/accounts/password_change/done/", user=w.newcomer)


def password_reset(v: Visit, w: World) -> Page:
    return v.open("/accounts/password_reset/")


def password_reset_done(v: Visit, w: World) -> Page:
    return v.open("/accounts/password_reset/done/")


def password_reset_confirm(v: Visit, w: World) -> Page:  # the e-mail's link: a new password
    user = w.newcomer
    page = v.open(reverse("password_reset_confirm", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user)}))
    expect(page.locator("input[type=password]").first).to_be_visible()
    return page


def password_reset_complete(v: Visit, w: World) -> Page:
    return v.open("/accounts/reset/done/")


def _plain(template: str) -> Callable[[Visit, World], Page]:
    """A page of plain HTML that nginx serves itself, without Django (the 503 and 429
    pages, deploy/nginx/scorekeeper.conf)."""
    def page(v: Visit, w: World) -> Page:
        return v.open(f"/__tests__/{template}", served=render_to_string(template))
    return page


PAGES: dict[str, Callable[[Visit, World], Page]] = {
    "home": home,
    "home-needs-you": home_needs_you,
    "new-match": new_match,
    "new-match-twelve": new_match_twelve,
    "new-match-refused": new_match_refused,
    "match-in-progress": match_in_progress,
    "match-watch-stale": match_watch_stale,
    "match-finished": match_finished,
    "match-replay": match_replay,
    "match-abandoned": match_abandoned,
    "match-league": match_league,
    "scorepad-tile-chosen": scorepad_tile_chosen,
    "scorepad-settle": scorepad_settle,
    "scorepad-settle-tiles": scorepad_settle_tiles,
    "scorepad-count-refused": scorepad_count_refused,
    "scorepad-next-round": scorepad_next_round,
    "scorepad-twelve": scorepad_twelve,
    "scorepad-called-keypad": scorepad_called_keypad,
    "scorepad-finished": scorepad_finished,
    "scorepad-closed": scorepad_closed,
    "scorepad-offline": scorepad_offline,
    "scorepad-not-scorer": scorepad_not_scorer,
    "scorepad-creator": scorepad_creator,
    "stale-form": stale_form,
    "scorers": scorers,
    "change-log": change_log,
    "join": join,
    "join-replaced": join_replaced,
    "abandon": _manage("abandon"),
    "rename": _manage("rename"),
    "delete": _manage("delete"),
    "delete-closed": delete_closed,
    "forbidden-403": forbidden,
    "clubs": clubs,
    "club": club,
    "club-settings": club_settings,
    "club-new": club_new,
    "club-made": club_made,
    "club-join": club_join,
    "season": season,
    "season-admin": season_admin,
    "season-division": season_division,
    "season-new": season_new,
    "season-new-refused": season_new_refused,
    "season-admin-refused": season_admin_refused,
    "fixture": fixture,
    "fixture-game-on-scorepad": fixture_game_on_scorepad,
    "fixture-to-confirm": fixture_to_confirm,
    "fixture-submitted-admin": fixture_submitted_admin,
    "fixture-captain-link": captain_link,
    "fixture-captain-open": captain_open,
    "fixture-captain-fixtures": captain_fixtures,
    "fixture-by-link": fixture_by_link,
    "fixture-correction": fixture_correction,
    "fixture-correction-refused": fixture_correction_refused,
    "fixture-corrected": fixture_corrected,
    "player": player,
    "ratings": ratings,
    "history-list": history_list,
    "history-filtered": history_filtered,
    "import": records_import,
    "import-progress": import_progress,
    "import-stopped": import_stopped,
    "login": login,
    "offline": offline,
    "offline-kept": offline_kept,
    "login-refused": login_refused,
    "admin-login": admin_login,
    "signup": signup,
    "signup-throttled": signup_throttled,
    "password-change": password_change,
    "account-settings": account_settings,
    "password-change-done": password_change_done,
    "password-reset": password_reset,
    "password-reset-done": password_reset_done,
    "password-reset-confirm": password_reset_confirm,
    "password-reset-complete": password_reset_complete,
}
# nginx's own answers, in English, Ukrainian and Russian at once (it knows no language)
PLAIN_PAGES = {"unavailable-503": _plain("503.html"), "too-many-429": _plain("429.html"),
               "too-large-413": _plain("413.html")}
PAGES.update(PLAIN_PAGES)


# -- axe-core ---------------------------------------------------------------------------

@pytest.fixture
def visit(browser: Browser, live_server) -> Iterator[Callable[[str], Visit]]:
    opened: list[Visit] = []

    def make(theme: str, lang: str = "en") -> Visit:
        opened.append(Visit(browser, live_server.url, theme, World(), lang))
        return opened[-1]

    yield make
    for one in opened:
        one.close()


def axe_violations(page: Page) -> list[dict[str, Any]]:
    if not page.evaluate("window.axe !== undefined"):  # loaded already while online
        page.add_script_tag(url=AXE_PATH)
    return page.evaluate("""tags => axe.run(document, {
        runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]})
        .then(results => results.violations)""", AXE_TAGS)


def unfold(page: Page) -> None:
    """Every <details> opened, so that what it folds away is checked too (axe skips what
    is not rendered: a folded admin form, the header's preferences)."""
    page.locator("details").evaluate_all("all => all.forEach(d => { d.open = true; })")


def readable(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"  - at {' '.join(map(str, node['target']))}: {node['html'][:120]}")
            lines.append(f"    {summary}")
    return "\n".join(lines)


@pytest.mark.parametrize("name", list(PAGES))
def test_page_has_no_axe_violations(visit, name: str):
    """The page opened once, in the light scheme, then checked in each scheme: the colours
    follow prefers-color-scheme as it changes, so the dark check sees the same page."""
    if not AXE.exists():
        pytest.skip(f"{AXE.relative_to(ROOT)} not found: axe-core is installed by "
                    "`npm ci` (scripts/test runs it; it needs npm)")
    v = visit(THEMES[0])
    page = PAGES[name](v, v.world)
    expect(page.locator("h1")).to_have_count(1)
    if name in PLAIN_PAGES:  # each language's part named as such, within the phone's width
        assert page.locator("[lang=uk]").count() == page.locator("[lang=ru]").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    unfold(page)
    found = {}
    for theme in THEMES:
        page.emulate_media(color_scheme=theme)
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == \
            (theme == "dark")
        found[theme] = axe_violations(page)
    assert not any(found.values()), "\n".join(
        f"{name} ({theme}) at {page.url}:\n{readable(violations)}"
        for theme, violations in found.items() if violations)


# -- the scorepad, by keyboard and by ear -----------------------------------------------

def test_a_placement_by_keyboard_keeps_the_focus_and_is_said_aloud(visit):
    """htmx swaps #live whole: the end just pressed is gone. The focus goes on to the
    picker (not back to the page's start), and the result is said by #announcer, a
    live region that stays on the page (one swapped in with its text may go unread)."""
    v = visit("light")
    w = v.world
    page = v.open(w.tracked.match.get_scorer_url(), grants=[w.tracked.grant])
    scorepad_ready(page)
    version = int(page.locator("#live").get_attribute("data-version") or 0)
    page.evaluate("window.kept = document.getElementById('announcer')")
    announcer = page.get_by_role("status")
    expect(announcer).to_have_attribute("id", "announcer")  # the page's one live region
    expect(announcer).to_have_text("")

    # a tile is named by its tile, an end by the end and the points it makes
    page.get_by_role("link", name="0-5", exact=True).focus()
    page.keyboard.press("Enter")
    choice = page.get_by_role("button", name="On the double 5 sum 10 → 10", exact=True)
    expect(choice).to_be_visible()
    expect(choice).to_be_focused()  # the ends it may join are next: no Tab past the tiles
    page.keyboard.press("Enter")

    expect(page.locator("#live")).to_have_attribute("data-version", str(version + 1))
    expect(page.locator(".htmx-request")).to_have_count(0)
    expect(page.locator("#scorepad .picker a.pick.playable").first).to_be_focused()
    expect(announcer).to_have_text("Taras: 0-5 on the double 5 — sum 10 → 10")
    assert page.evaluate("window.kept === document.getElementById('announcer')")


def test_a_refused_count_takes_the_focus_to_the_field_it_names_clear_of_the_bar(visit):
    v = visit("light")
    match, grant = v.world.settling  # Olena went out; Taras holds one tile
    page = v.open(match.get_scorer_url(), grants=[grant])
    scorepad_ready(page)
    taras = page.get_by_role("spinbutton", name=re.compile("^Taras"))
    expect(page.locator("input[name=pips_0]")).to_have_value("0")  # she went out

    taras.fill("13")
    page.locator("#settle-button").press("Enter")

    expect(page.locator("#scorepad-error")).to_contain_text("(Taras)")
    taras = page.get_by_role("spinbutton", name=re.compile("^Taras"))
    expect(taras).to_be_focused()
    expect(taras).to_have_attribute("aria-invalid", "true")
    field = taras.bounding_box()
    bar = page.locator("#thumb-bar").bounding_box()
    assert field is not None and bar is not None and field["y"] + field["height"] <= bar["y"]


# -- every page in Ukrainian and Russian ------------------------------------------------

@pytest.mark.parametrize("lang", ["uk", "ru"])
@pytest.mark.parametrize("name", [name for name in PAGES if name not in PLAIN_PAGES])
def test_page_in_ukrainian_and_russian_fits_the_phone_with_no_violation(visit, name: str,
                                                                         lang: str):
    """The page in the phone's language: its lang, one h1, nothing wider than the
    screen (the longer words wrap), and no violation (names and labels translated)."""
    if not AXE.exists():
        pytest.skip(f"{AXE.relative_to(ROOT)} not found: axe-core is installed by "
                    "`npm ci` (scripts/test runs it; it needs npm)")
    v = visit("light", lang)
    page = PAGES[name](v, v.world)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("h1")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, name
    unfold(page)
    violations = axe_violations(page)
    assert not violations, f"{name} ({lang}) at {page.url}:\n{readable(violations)}"
