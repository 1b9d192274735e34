"""Pages stay as wide as a 360×740 phone: a wide table scrolls in its own box, and a name
as long as it may be, with nowhere to break (60 × "Ж" is a player's name the club page
accepts), wraps on every page a club member or a scorer sees."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterator
from functools import cached_property

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from matches import rules
from matches.clubs.services import club_create, player_add
from matches.cups import services as cups
from matches.leagues.selectors import captain_link_token
from matches.leagues.services import (
    adjustment_add,
    entrant_add,
    fixture_correct,
    fixture_game_start,
    fixture_games_enter,
    fixture_resolve,
    fixture_submit,
    fixture_void,
    fixture_walkover,
    season_create,
)
from matches.models import Club, Fixture, Match, Player, RecordImport, ScorerGrant, Season
from matches.records.services import record_import_start
from matches.scoring.access import GRANTS_KEY
from matches.scoring.services.play import MatchStarted, event_record, grant_create, match_start
from tests.browser.ready import WIRED
from tests.browser.test_season_table import full_season
from tests.support.cups import HOME_WIN, a_cup
from tests.support.helpers import night, paper_games, won_at_once

pytestmark = pytest.mark.django_db(transaction=True)

T = rules.Tile.parse


def long_name(letter: str) -> str:
    return letter * 60


PLAYERS = [long_name(letter) for letter in "ЖЩФЮШЦ"]
CLUB, SEASON = long_name("Ё"), long_name("Ъ")
DIVISIONS = (long_name("Д"), long_name("Л"))
HOME, AWAY, THIRD = long_name("Э"), long_name("Я"), long_name("Ы")


class World:
    """A club whose every name is long, made through the services on first use."""

    @cached_property
    def secretary(self) -> User:
        return User.objects.create_user("secretary")

    @cached_property
    def club(self) -> Club:
        club = club_create(name=CLUB, by=self.secretary)
        for name in PLAYERS:
            player_add(club=club, name=name, by=self.secretary)
        return club

    def player(self, index: int) -> Player:
        return self.club.players.get(name=PLAYERS[index])

    @cached_property
    def finished(self) -> Match:
        """Partners, all four of the club: rated, and on the players' pages."""
        return won_at_once(PLAYERS[:4], opener=0, played_at=night(1), club=self.club,
                           players_of=self.club)

    @cached_property
    def season(self) -> Season:
        """Two divisions; in the first, a confirmed night (so the table has its form
        column), a points adjustment, and a night with a game on the scorepad."""
        season = season_create(
            club=self.club, by=self.secretary, name=SEASON,
            starts_on=datetime.date(2026, 9, 7), game="all-fives", fixture_format="games",
            singles=2, pairs=1, scoring={"per_game": 1}, divisions=DIVISIONS)
        division = season.divisions.get(name=DIVISIONS[0])
        home = entrant_add(division=division, by=self.secretary, name=HOME,
                                    players=[self.player(0), self.player(2)])
        away = entrant_add(division=division, by=self.secretary, name=AWAY,
                                    players=[self.player(1), self.player(3)])
        third = entrant_add(division=division, by=self.secretary, name=THIRD,
                                     players=[self.player(4), self.player(5)])
        played = Fixture.objects.create(division=division, week=1, home=home, away=away,
                                        date=datetime.date(2026, 9, 7))
        # two singles to 250 and the pairs game to 200, with long-named players
        fixture_games_enter(fixture=played, by=self.secretary,
                            games=paper_games(played, [(250, 40), (35, 250), (200, 145)]))
        fixture_submit(fixture=played, by=self.secretary)
        fixture_resolve(fixture=played, by=self.secretary)
        adjustment_add(entrant=third, by=self.secretary, points=-1,
                                reason="Late start")
        Fixture.objects.create(division=division, week=2, home=home, away=third,
                               date=datetime.date(2026, 9, 14))
        return season

    @cached_property
    def fixture(self) -> Fixture:
        """Next week's night: its pairs game is being scored on the scorepad."""
        fixture = Fixture.objects.get(division__season=self.season, week=2)
        fixture_game_start(fixture=fixture, by=self.secretary, number=3,
                                    home_players=[self.player(0), self.player(2)],
                                    away_players=[self.player(4), self.player(5)])
        return fixture

    @cached_property
    def tracked(self) -> MatchStarted:
        """Four long names in their first round: the first opened with 5-5."""
        started = match_start(game="all-fives", players=PLAYERS[:4], starter=0,
                                       created_by=self.secretary, phone="Android phone")
        event_record(match=started.match, action=rules.Play(0, T("5-5")))
        return started

    @cached_property
    def record_import(self) -> RecordImport:
        """A file with a long name: one match of long names stored, one line refused."""
        record = {"format": "domino-match/1", "game": "all-fives", "players": PLAYERS[:2],
                  "rounds": [{"starter": 0, "events": [{"seat": 0, "play": "5-5"}]}]}
        upload = SimpleUploadedFile(long_name("Ж") + ".jsonl",
                                    (json.dumps(record) + "\nnot json\n").encode())
        return record_import_start(files=[upload], created_by=self.secretary)


def session_for(user: User, grants: list[ScorerGrant]) -> str:
    """A session signed in as ``user`` that scores ``grants``' matches."""
    client = Client()
    client.force_login(user)
    session = client.session
    session[GRANTS_KEY] = {str(grant.match.public_id): grant.pk for grant in grants}
    session.save()
    assert session.session_key is not None
    return session.session_key


Open = Callable[..., Page]  # open(path, grants=[...]): the page, signed in as the secretary


def opened(page: Page) -> Page:
    """The page with its folded admin tools shown (opened in script: a tap on a page wider
    than the phone may miss)."""
    page.locator("details.admin-tools").evaluate_all("all => all.forEach(d => d.open = true)")
    return page


def club(open_: Open, w: World) -> Page:
    w.finished  # noqa: B018 (made on first use: the club's ratings are listed)
    page = open_(w.club.get_absolute_url())
    expect(page.locator("h1")).to_have_text(CLUB)
    # the form under the players' list is where it was, not under a wide name
    page.locator("#add-player").click(trial=True, timeout=2000)
    return page


def player(open_: Open, w: World) -> Page:
    w.finished  # noqa: B018 (their record, rating, partner and toughest opponent)
    page = open_(reverse("matches:club_player", kwargs={"slug": w.club.slug,
                                                        "pk": w.player(0).pk}))
    expect(page.locator("h1")).to_have_text(PLAYERS[0])
    return page


def ratings(open_: Open, w: World) -> Page:
    w.finished  # noqa: B018
    return open_(reverse("matches:club_ratings", kwargs={"slug": w.club.slug,
                                                         "game": "all-fives"}))


def season(open_: Open, w: World) -> Page:  # its league admin: the tools opened too
    w.fixture  # noqa: B018 (a game in play)
    page = open_(w.season.get_absolute_url())
    expect(page.locator("h1")).to_have_text(SEASON)
    return opened(page)


def season_full_table(open_: Open, w: World) -> Page:  # eight entrants, every column
    page = open_(full_season(w.secretary).get_absolute_url())
    expect(page.locator(".league-table tbody tr")).to_have_count(8)
    return page


def season_every_column(open_: Open, w: World) -> Page:  # the rest shown: they scroll
    page = season_full_table(open_, w)
    page.get_by_role("checkbox", name="Show all columns").check()
    return page


def other_division(open_: Open, w: World) -> Page:
    division = w.season.divisions.get(name=DIVISIONS[1])
    return open_(f"{w.season.get_absolute_url()}?division={division.pk}")


def fixture(open_: Open, w: World) -> Page:  # the league admin: every form is there
    page = open_(w.fixture.get_absolute_url())
    expect(page.locator("h1")).to_have_text(f"{HOME} v {THIRD}")
    return opened(page)


def fixture_confirmed(open_: Open, w: World) -> Page:
    return open_(Fixture.objects.get(division__season=w.season, week=1).get_absolute_url())


def captain_link(open_: Open, w: World) -> Page:  # the QR code to hand over, the long link
    return open_(reverse("matches:captain_link", kwargs={
        "slug": w.club.slug, "season": w.season.slug, "entrant": w.fixture.home_id}))


def captain_fixtures(open_: Open, w: World) -> Page:  # the phone that opened it: its fixtures
    page = open_(reverse("matches:captain_open",
                         kwargs={"token": captain_link_token(w.fixture.home)}))
    page.click("#open-link")
    expect(page.locator(".fixture-list")).to_be_visible()
    return page


def fixture_correction(open_: Open, w: World) -> Page:  # the league admin's correction form
    week1 = Fixture.objects.get(division__season=w.season, week=1)
    page = open_(week1.get_correction_url())
    expect(page.locator("#correction-form")).to_be_visible()
    return page


def fixture_corrected(open_: Open, w: World) -> Page:  # the original beside the correction
    week1 = Fixture.objects.get(division__season=w.season, week=1)
    fixture_correct(fixture=week1, by=w.secretary, scores=[(250, 40), (250, 35), (250, 245)],
                    reason="The second game's sheet was read the wrong way round")
    page = open_(week1.get_absolute_url())
    expect(page.locator("#fixture-corrections")).to_be_visible()
    return page


def history(open_: Open, w: World) -> Page:
    w.finished  # noqa: B018
    return open_(f"/history/?club={w.club.slug}")


def scorepad(open_: Open, w: World) -> Page:
    page = open_(w.tracked.match.get_scorer_url(), grants=[w.tracked.grant])
    page.wait_for_function(WIRED)
    return page


def scorepad_finished(open_: Open, w: World) -> Page:  # the end: the scores, a rematch
    grant = grant_create(match=w.finished, phone="Android phone")
    page = open_(w.finished.get_scorer_url(), grants=[grant])
    expect(page.locator("#match-end")).to_be_visible()
    return page


def scorepad_closed(open_: Open, w: World) -> Page:  # its night voided: the note names it
    match = w.fixture.games.get(number=3).match
    assert match is not None
    fixture_void(fixture=w.fixture, by=w.secretary)
    grant = grant_create(match=match, phone="Android phone")
    page = open_(match.get_scorer_url(), grants=[grant])
    expect(page.locator("#scorepad-closed")).to_be_visible()
    return page


def change_log(open_: Open, w: World) -> Page:
    return open_(reverse("matches:history", args=[w.tracked.match.public_id]),
                 grants=[w.tracked.grant])


def scorers(open_: Open, w: World) -> Page:
    return open_(reverse("matches:scorers", args=[w.tracked.match.public_id]),
                 grants=[w.tracked.grant])


def match_in_progress(open_: Open, w: World) -> Page:  # the public page, for watchers
    return open_(w.tracked.match.get_absolute_url())


def match_finished(open_: Open, w: World) -> Page:
    return open_(w.finished.get_absolute_url())


def new_match_refused(open_: Open, w: World) -> Page:  # the names typed come back
    page = open_("/new/?players=4")
    for seat, name in enumerate(PLAYERS[:4]):
        page.fill(f"input[name=player_{seat}]", name)
    page.fill("input[name=target]", "0")
    page.click("#start-match")
    expect(page.locator(".errorlist").first).to_be_visible()
    return page


def home_needs_you(open_: Open, w: World) -> Page:  # long names, playing today
    fixture = Fixture.objects.get(division__season=w.season, week=2)
    Fixture.objects.filter(pk=fixture.pk).update(date=timezone.localdate())
    fixture.home.captain = w.secretary
    fixture.home.save()
    page = open_("/")
    expect(page.locator("#needs-tonight")).to_be_visible()
    return page


def records_import(open_: Open, w: World) -> Page:
    w.record_import  # noqa: B018 (listed under the latest imports)
    return open_("/import/")


def import_progress(open_: Open, w: World) -> Page:
    return open_(w.record_import.get_absolute_url())


PAGES: dict[str, Callable[[Open, World], Page]] = {
    "club": club,
    "player": player,
    "ratings": ratings,
    "season": season,
    "season-full-table": season_full_table,
    "season-every-column": season_every_column,
    "other-division": other_division,
    "fixture": fixture,
    "fixture-confirmed": fixture_confirmed,
    "captain-link": captain_link,
    "captain-fixtures": captain_fixtures,
    "fixture-correction": fixture_correction,
    "fixture-corrected": fixture_corrected,
    "history": history,
    "scorepad": scorepad,
    "scorepad-finished": scorepad_finished,
    "scorepad-closed": scorepad_closed,
    "change-log": change_log,
    "scorers": scorers,
    "match-in-progress": match_in_progress,
    "match-finished": match_finished,
    "new-match-refused": new_match_refused,
    "home-needs-you": home_needs_you,
    "import": records_import,
    "import-progress": import_progress,
}


@pytest.fixture
def open_page(browser: Browser, live_server) -> Iterator[tuple[Open, World]]:
    world = World()
    contexts = []

    def open_(path: str, *, grants: list[ScorerGrant] | None = None) -> Page:
        context = browser.new_context(viewport={"width": 360, "height": 740},
                                      is_mobile=True, has_touch=True)
        contexts.append(context)
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                              "value": session_for(world.secretary, grants or [])}])
        page = context.new_page()
        page.goto(live_server.url + path)
        return page

    yield open_, world
    for context in contexts:
        context.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_a_page_with_long_unbroken_names_fits_a_phone(open_page, name: str):
    open_, world = open_page
    page = PAGES[name](open_, world)
    expect(page.locator("h1")).to_have_count(1)
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(el => el.getBoundingClientRect().right > 360.5)
        .filter(el => !el.parentElement.closest('.table-wrap, .seats'))
        .map(el => el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''))
        .slice(0, 5)""")
    assert width <= 360, f"{name} is {width} px wide at 360 px: {wide}"


def test_the_league_table_scrolls_in_its_own_box_and_the_page_stays_put(live_server,
                                                                         page: Page):
    """Ordinary names, and a result that counts: the table's form column has its words
    for screen readers (visually hidden); they stay inside the table's scroll box."""
    secretary = User.objects.create_user("secretary")
    club = club_create(name="Teesdale Dominoes Club", by=secretary)
    season = season_create(club=club, by=secretary, name="Monday League",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives")
    division = season.divisions.get()
    home = entrant_add(division=division, by=secretary, name="Royal Oak A")
    away = entrant_add(division=division, by=secretary, name="Bowes Dragons")
    played = Fixture.objects.create(division=division, week=1, home=home, away=away)
    fixture_walkover(fixture=played, by=secretary, side="home")

    page.goto(live_server.url + season.get_absolute_url())
    expect(page.locator(".form-guide .visually-hidden").first).to_have_text("won")
    box = page.get_by_role("region", name="Division 1: league table")
    expect(box).to_have_attribute("tabindex", "0")
    page.get_by_role("checkbox", name="Show all columns").check()  # a phone shows fewer
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")  # it scrolls, not the page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the season page is {width} px wide at 360 px"


def test_a_cups_bracket_scrolls_in_its_own_box_and_the_page_stays_put(browser: Browser,
                                                                     live_server):
    """A winner's "(through)" is visually hidden: positioned, it stays inside the rounds'
    scroll box (it widened the page to twice a phone's width)."""
    folk = a_cup(["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Guy", "Hal"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    for position in (1, 2, 3, 4):
        folk.play(folk.fixture(1, position), HOME_WIN)
    for position in (1, 2):  # winners in rounds off the screen to the right
        folk.play(folk.fixture(2, position), HOME_WIN)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto(live_server.url + folk.cup.get_absolute_url())
    expect(page.locator(".cup-winner .visually-hidden").first).to_have_text("(through)")
    width = page.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert width <= 360, f"the cup's page is {width} px wide at 360 px"


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_a_rounds_running_scores_show_every_column_on_a_phone(browser: Browser, live_server,
                                                              lang: str):
    """Short names: the round's table (side, placed, settled, score) fits its box in every
    language; in Ukrainian and Russian its headings pushed the score out of sight."""
    match = won_at_once(["Ann", "Bo"], opener=0, played_at=night(1))
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  locale=lang, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    page.goto(live_server.url + match.get_absolute_url())
    expect(page.locator("html")).to_have_attribute("lang", lang)
    table = page.locator("table.running-scores").first
    overflow = table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
    assert overflow <= 0, f"{lang}: the round's table is {overflow} px wider than its box"
    context.close()


def test_a_long_account_name_in_the_header_ends_with_an_ellipsis(browser: Browser,
                                                                live_server):
    user = User.objects.create_user("captain-middleton-club", password="pw")
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                          "value": session_for(user, [])}])
    page = context.new_page()
    page.goto(live_server.url + "/")
    name = page.locator(".account-name")
    expect(name).to_have_text("captain-middleton-club")
    cut = name.evaluate("""el => ({clipped: el.scrollWidth > el.clientWidth,
                                   style: getComputedStyle(el).display,
                                   overflow: getComputedStyle(el).textOverflow})""")
    # text-overflow draws its ellipsis only on a block's own line, not a flex box's (in
    # the header's flex row, a block is what an inline-block becomes)
    assert cut == {"clipped": True, "style": "block", "overflow": "ellipsis"}
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_three_sides_long_names_are_read_whole_and_each_seats_tiles_are_seen(
        browser: Browser, live_server):
    """On a phone a side's box holds about six letters of a name: a longer one wraps
    instead of ending "Олекс…" (Олександра and Олексій would read the same), and a seat's
    count of tiles stays in sight when its name is cut (it was the count that went, in
    Russian's long "костяшек")."""
    from tests.browser.test_scorepad import start_match

    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  locale="ru", extra_http_headers={"Accept-Language": "ru"})
    page = context.new_page()
    start_match(page, live_server, game="all-fives",
                players=["Олександра", "Костянтин", "Олексій"])
    expect(page.locator(".seat[data-seat='0'] small")).to_have_text("7 костяшек")
    for name in page.locator(".scoreboard .side-names").all():
        assert name.evaluate("n => n.scrollHeight <= n.clientHeight"), name.inner_text()
    for seat in page.locator(".seats .seat[data-seat]").all():
        inside = seat.evaluate("""s => s.querySelector("small").getBoundingClientRect().right
                                       <= s.getBoundingClientRect().right""")
        assert inside, seat.inner_text()
    placeholder = page.locator("#place-form .claim-input")
    # its text fits the box: measured in the input's own font, inside its padding
    room = placeholder.evaluate("""c => {
        const s = getComputedStyle(c), ctx = document.createElement("canvas").getContext("2d");
        ctx.font = s.font;
        return c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)
               - ctx.measureText(c.placeholder).width; }""")
    assert room > 0, room
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
