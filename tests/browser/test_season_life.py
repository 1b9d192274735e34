"""A league season's whole life on 360×740 phones, in Ukrainian and in Russian: the
secretary generates the fixtures; the schedule sends the reminder the day before the
first night and "no result yet" after it; three nights are played — one on the
scorepad, one keyed in through a captain's link, one on paper with who played — one is
disputed and resolved, one corrected after it was confirmed; each step's e-mails go to
the people the league tells; the table is printed and the calendar feed read back.
After each settled night and after the correction, the table the season page counts is
the one league-record.md's rules give for the nights as the people played them."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings as site
from django.contrib.auth.models import User
from django.core import mail
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from matches.clubs.services import club_create, player_add
from matches.leagues.schedule import schedule_run
from matches.leagues.selectors import division_table
from matches.leagues.services import entrant_add, season_create
from matches.models import Fixture, Membership, Season
from matches.rules import league as league_rules
from tests.browser.ready import WIRED
from tests.browser.test_accessibility import session_for
from tests.browser.test_scorepad import place
from tests.leagues.test_calendar import one, parse
from tests.leagues.test_commands_league_table import run, write
from tests.rules.test_league import SPEC_DOCUMENT, spec_points

pytestmark = pytest.mark.django_db(transaction=True)

# the page's words (and the e-mails' subjects), as a Ukrainian or a Russian reader sees them
WORDS: dict[str, dict[str, str]] = {
    "uk": {
        "manage": "Керування: Division A", "round robin": "Кругова система",
        "single": "В одне коло: кожна пара зустрічається раз", "generate": "Скласти",
        "week": "Тиждень {}", "v": "{} — {}", "link of": "Посилання капітана команди {}",
        "show link": "Показати посилання для копіювання",
        "captain here": "Капітан на цьому телефоні", "player": "Гравець",
        "score it": "Вести рахунок на цьому телефоні", "back": "Назад до зустрічі",
        "paper player": "Гра 1: гравець 1 {}", "paper score": "Гра 1: рахунок — {}",
        "save": "Зберегти рахунки", "saved": "Рахунки збережено.",
        "submit": "Надіслати результат на підтвердження: {}",
        "submitted": "Надіслано, чекає на капітана гостей: {}–{} за іграми",
        "confirm": "Підтвердити результат", "confirmed": "Підтверджено: {}–{} за іграми",
        "what is wrong": "Що не так", "dispute": "Оскаржити", "disputed": "Оскаржено",
        "resolve": "Вирішити й підтвердити з цими рахунками",
        "correct": "Виправити результат", "why corrected": "Чому результат виправлено",
        "corrected score": "Гра 1: рахунок команди {}", "corrections": "Виправлення",
        "reminder": "Завтра: {} — {}", "no result": "Результату ще немає: {} — {}",
        "to confirm": "Результат на підтвердження: {} — {}",
        "settled": "Результат остаточний: {} — {}",
        "disputed mail": "Результат оскаржено: {} — {}",
        "corrected mail": "Результат виправлено: {} — {}",
        "calendar": "{} {}–{} {}",
    },
    "ru": {
        "manage": "Управление: Division A", "round robin": "Круговая система",
        "single": "В один круг: каждая пара встречается один раз", "generate": "Составить",
        "week": "Неделя {}", "v": "{} — {}", "link of": "Ссылка капитана команды {}",
        "show link": "Показать ссылку для копирования",
        "captain here": "Капитан на этом телефоне", "player": "Игрок",
        "score it": "Вести счёт на этом телефоне", "back": "Назад к встрече",
        "paper player": "Игра 1: игрок 1 {}", "paper score": "Игра 1: счёт — {}",
        "save": "Сохранить счета", "saved": "Счета сохранены.",
        "submit": "Отправить результат на подтверждение: {}",
        "submitted": "Отправлена, ждёт капитана гостей: {}–{} по играм",
        "confirm": "Подтвердить результат", "confirmed": "Подтверждена: {}–{} по играм",
        "what is wrong": "Что не так", "dispute": "Оспорить", "disputed": "Оспорена",
        "resolve": "Решить и подтвердить с этими счетами",
        "correct": "Исправить результат", "why corrected": "Почему результат исправлен",
        "corrected score": "Игра 1: счёт команды {}", "corrections": "Исправления",
        "reminder": "Завтра: {} — {}", "no result": "Результата ещё нет: {} — {}",
        "to confirm": "Результат на подтверждение: {} — {}",
        "settled": "Результат окончательный: {} — {}",
        "disputed mail": "Результат оспорен: {} — {}",
        "corrected mail": "Результат исправлен: {} — {}",
        "calendar": "{} {}–{} {}",
    },
}
LOCALES = {"uk": "uk-UA", "ru": "ru-RU"}

OAK, BOWES, MIDDLETON = "Royal Oak A", "Bowes Dragons", "Middleton Club"
SQUADS = {OAK: ["Ann Dale", "Bob Hart"], BOWES: ["Cat Lund", "Dev Patel"],
          MIDDLETON: ["Eve Moss", "Fay Todd"]}
EMAIL = {"sec": "sec@example.com", "oak": "oak@example.com",
         "middleton": "middleton@example.com"}


@dataclass
class League:
    """The season as its people set it up (not the point of the test: made by the
    services), and the nights as they were played, in domino-league/1's words."""

    season: Season
    users: dict[str, User]
    fixtures: dict[tuple[str, str], dict[str, Any]] = field(default_factory=dict)

    def played(self, home: str, away: str, score: tuple[int, int]) -> None:
        won = (1, 0) if score[0] > score[1] else (0, 1)
        self.fixtures[home, away] = {"home": home, "away": away, "result": list(won),
                                     "games": [list(score)]}

    def document(self) -> dict[str, Any]:
        return {"format": "domino-league/1", "name": f"{self.season.name} — Division A",
                "game": "all-fives", "options": self.season.options,
                "entrants": [{"name": name} for name in SQUADS],
                "scoring": SPEC_DOCUMENT["scoring"], "tiebreaks": SPEC_DOCUMENT["tiebreaks"],
                "fixtures": list(self.fixtures.values())}


def league_made() -> League:
    """A Monday league of all fives to 10 with two tiles a hand (a game is a tap or
    two on the scorepad), a night of one singles game, the spec's scoring and
    tie-breakers; Bowes's captain has no account and will act through the link."""
    users = {name: User.objects.create_user(name, email=EMAIL[name]) for name in EMAIL}
    club = club_create(name="Teesdale", by=users["sec"])
    for name in ("oak", "middleton"):
        Membership.objects.create(club=club, user=users[name], role="captain")
    season = season_create(
        club=club, by=users["sec"], name="Monday League", starts_on=datetime.date(2026, 9, 7),
        game="all-fives", options={"hand_size": 2, "target": 10}, fixture_format="games",
        singles=1, scoring=SPEC_DOCUMENT["scoring"], tiebreaks=SPEC_DOCUMENT["tiebreaks"],
        divisions=["Division A"])
    division = season.divisions.get()
    for name, captain in ((OAK, users["oak"]), (BOWES, None),
                          (MIDDLETON, users["middleton"])):
        entrant_add(division=division, by=users["sec"], name=name, captain=captain,
                    players=[player_add(club=club, name=p, by=users["sec"])
                             for p in SQUADS[name]])
    return League(season=season, users=users)


@pytest.fixture
def phones(browser: Browser) -> Iterator[list[BrowserContext]]:
    """Every phone the story opens, closed at its end."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


def phone(phones: list[BrowserContext], browser: Browser, live_server, lang: str,
          user: User | None = None) -> Page:
    """A 360×740 phone whose browser asks for ``lang``, signed in as ``user`` if given."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, locale=LOCALES[lang])
    phones.append(context)
    if user is not None:
        context.add_cookies([{"name": site.SESSION_COOKIE_NAME, "value": session_for(user, []),
                              "url": live_server.url}])
    return context.new_page()


def sent() -> list[tuple[str, str]]:
    """The e-mails sent since the last look (subject, recipient), in order; then none."""
    mails = [(str(m.subject), to) for m in mail.outbox for to in m.to]
    mail.outbox.clear()
    return mails


def on_fixture(page: Page, live_server, fixture: Fixture) -> None:
    page.goto(live_server.url + fixture.get_absolute_url())
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def status(page: Page):
    return page.locator("#fixture-status")


def paper_game(page: Page, w: dict[str, str], fixture: Fixture,
               players: tuple[str, str], score: tuple[int, int]) -> None:
    """The games table: the night's one game, who played it and its score."""
    for side, player, points in ((fixture.home.name, players[0], score[0]),
                                 (fixture.away.name, players[1], score[1])):
        page.get_by_label(w["paper player"].format(side), exact=True).select_option(
            label=player)
        page.get_by_label(w["paper score"].format(side), exact=True).fill(str(points))


def table_as_the_spec_says(league: League, tmp_path) -> list[dict[str, Any]]:
    """The season page's table (as the app counts it) is the one ``league_table --json``
    reads from the nights as they were played, and its points are the spec's scoring
    spelt out independently of the engine. Returns the standings."""
    out, error = run("--json", str(write(tmp_path, "season.json", league.document())))
    assert error is None
    spec = json.loads(out)
    division = league.season.divisions.get()
    assert league_rules.table_json(division_table(division, league.season)) == spec
    points = dict.fromkeys(SQUADS, 0)
    for night in league.fixtures.values():
        home, away = night["result"]
        points[night["home"]] += spec_points(SPEC_DOCUMENT["scoring"], home, away)
        points[night["away"]] += spec_points(SPEC_DOCUMENT["scoring"], away, home)
    assert {row["entrant"]: row["points"] for row in spec["standings"]} == points
    return spec["standings"]


def rows_shown(page: Page, standings: list[dict[str, Any]]) -> None:
    """Each row of the table on the page: rank, played, won, drawn, lost, points."""
    for row in standings:
        cells = page.locator(f'.league-table tr[data-entrant="{row["entrant"]}"] td')
        rank = str(row["rank"]) + ("=" if sum(r["rank"] == row["rank"]
                                              for r in standings) > 1 else "")
        expect(cells.nth(0)).to_have_text(rank)
        for column, key in ((2, "played"), (3, "won"), (4, "drawn"), (5, "lost"),
                            (7, "points")):
            expect(cells.nth(column)).to_have_text(str(row[key]))


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_a_season_from_its_fixtures_to_its_printed_table(live_server, browser: Browser,
                                                         phones, settings, tmp_path, lang):
    settings.LANGUAGE_CODE = lang  # the site's language: its e-mails are written in it
    w = WORDS[lang]
    league = league_made()
    season, users = league.season, league.users
    secretary = phone(phones, browser, live_server, lang, users["sec"])

    # -- the secretary generates the fixtures: three weeks, one side resting each week
    secretary.goto(live_server.url + season.get_absolute_url())
    expect(secretary.locator("html")).to_have_attribute("lang", lang)
    secretary.get_by_text(w["manage"]).click()
    secretary.get_by_label(w["round robin"]).select_option(label=w["single"])
    secretary.get_by_role("button", name=w["generate"], exact=True).click()
    for week in (1, 2, 3):
        expect(secretary.get_by_role("heading", name=w["week"].format(week))).to_be_visible()
    first, second, third = Fixture.objects.filter(division__season=season).order_by("week")
    assert [(f.home.name, f.away.name) for f in (first, second, third)] == [
        (MIDDLETON, OAK), (BOWES, MIDDLETON), (OAK, BOWES)]
    for fixture in (first, second, third):
        expect(secretary.get_by_role("link", name=w["v"].format(
            fixture.home.name, fixture.away.name), exact=True)).to_be_visible()
    assert sent() == []

    # -- the schedule: the reminder the day before the first night, then "no result yet"
    evening_before = timezone.make_aware(datetime.datetime(2026, 9, 6, 20))
    assert schedule_run(now=evening_before)["reminders"] == 1
    assert sorted(sent()) == [(w["reminder"].format(MIDDLETON, OAK), EMAIL["middleton"]),
                              (w["reminder"].format(MIDDLETON, OAK), EMAIL["oak"])]
    night_over = timezone.make_aware(datetime.datetime(2026, 9, 7, 23, 45))
    assert schedule_run(now=night_over)["no_result"] == 1
    assert sent() == [(w["no result"].format(MIDDLETON, OAK), EMAIL["middleton"])]

    # -- night 1, Middleton v Oak, on the scorepad: lots say who opens, the double five
    # wins it at once; Middleton's captain submits it, Oak's confirms it
    middleton = phone(phones, browser, live_server, lang, users["middleton"])
    on_fixture(middleton, live_server, first)
    middleton.get_by_role("group", name=MIDDLETON).get_by_label(w["player"]).select_option(
        label="Eve Moss")
    middleton.get_by_role("group", name=OAK).get_by_label(w["player"]).select_option(
        label="Ann Dale")
    middleton.get_by_role("button", name=w["score it"]).click()
    expect(middleton.locator("#scorepad")).to_be_visible()
    middleton.wait_for_function(WIRED)
    opener = int(middleton.locator(".seat-turn").get_attribute("data-seat") or "")
    place(middleton, "5-5", "")
    score = (10, 0) if opener == 0 else (0, 10)  # home in seat 0
    middleton.get_by_role("link", name=w["back"]).click()
    expect(middleton.locator('tr[data-game="1"]')).to_contain_text(f"{score[0]}–{score[1]}")
    won = (1, 0) if opener == 0 else (0, 1)
    middleton.get_by_role("button", name=w["submit"].format(OAK)).click()
    expect(status(middleton)).to_have_text(w["submitted"].format(*won))
    assert sent() == [(w["to confirm"].format(MIDDLETON, OAK), EMAIL["oak"])]

    oak = phone(phones, browser, live_server, lang, users["oak"])
    on_fixture(oak, live_server, first)
    oak.get_by_role("button", name=w["confirm"]).click()
    expect(status(oak)).to_have_text(w["confirmed"].format(*won))
    assert sent() == [(w["settled"].format(MIDDLETON, OAK), EMAIL["middleton"])]
    league.played(MIDDLETON, OAK, score)
    table_as_the_spec_says(league, tmp_path)

    # -- night 2, Bowes v Middleton, through Bowes's captain's link on the captain's own
    # phone: the secretary shows the link, the captain keys in the night and sends it
    secretary.goto(live_server.url + season.get_absolute_url())
    secretary.get_by_role("link", name=w["link of"].format(BOWES)).click()
    secretary.get_by_text(w["show link"]).click()
    link = secretary.get_by_role("textbox", name=w["link of"].format(BOWES)).input_value()
    bowes = phone(phones, browser, live_server, lang)
    bowes.goto(link)
    bowes.get_by_role("button", name=w["captain here"]).click()
    bowes.get_by_role("link", name=w["v"].format(BOWES, MIDDLETON)).click()
    paper_game(bowes, w, second, ("Cat Lund", "Fay Todd"), (10, 5))
    bowes.get_by_role("button", name=w["save"]).click()
    expect(bowes.locator(".messages")).to_contain_text(w["saved"])
    bowes.get_by_role("button", name=w["submit"].format(MIDDLETON)).click()
    expect(status(bowes)).to_have_text(w["submitted"].format(1, 0))
    assert sent() == [(w["to confirm"].format(BOWES, MIDDLETON), EMAIL["middleton"])]

    # Middleton's captain disputes it; the league (the secretary) resolves it, the game
    # Fay's after all
    on_fixture(middleton, live_server, second)
    middleton.get_by_label(w["what is wrong"]).fill("Fay won 10–5")
    middleton.get_by_role("button", name=w["dispute"]).click()
    expect(status(middleton)).to_contain_text(w["disputed"])
    assert sent() == [(w["disputed mail"].format(BOWES, MIDDLETON), EMAIL["sec"])]
    on_fixture(secretary, live_server, second)
    paper_game(secretary, w, second, ("Cat Lund", "Fay Todd"), (5, 10))
    secretary.get_by_role("button", name=w["resolve"]).click()
    expect(status(secretary)).to_have_text(w["confirmed"].format(0, 1))
    assert sent() == [(w["settled"].format(BOWES, MIDDLETON), EMAIL["middleton"])]
    league.played(BOWES, MIDDLETON, (5, 10))
    table_as_the_spec_says(league, tmp_path)

    # -- night 3, Oak v Bowes, on paper with who played: Oak's captain keys it in and
    # sends it (Bowes's captain has no address: no e-mail), Bowes's link confirms it
    on_fixture(oak, live_server, third)
    paper_game(oak, w, third, ("Bob Hart", "Dev Patel"), (10, 5))
    oak.get_by_role("button", name=w["save"]).click()
    expect(oak.locator(".messages")).to_contain_text(w["saved"])
    oak.get_by_role("button", name=w["submit"].format(BOWES)).click()
    expect(status(oak)).to_have_text(w["submitted"].format(1, 0))
    assert sent() == []
    on_fixture(bowes, live_server, third)
    bowes.get_by_role("button", name=w["confirm"]).click()
    expect(status(bowes)).to_have_text(w["confirmed"].format(1, 0))
    assert sent() == [(w["settled"].format(OAK, BOWES), EMAIL["oak"])]
    league.played(OAK, BOWES, (10, 5))
    table_as_the_spec_says(league, tmp_path)

    # -- after its confirmation the secretary corrects night 3 (the scores were swapped):
    # final, as the season says; both results stay readable on the fixture
    on_fixture(secretary, live_server, third)
    secretary.get_by_role("link", name=w["correct"]).click()
    secretary.get_by_label(w["corrected score"].format(OAK)).fill("5")
    secretary.get_by_label(w["corrected score"].format(BOWES)).fill("10")
    secretary.get_by_label(w["why corrected"]).fill("Dev won 10–5")
    secretary.get_by_role("button", name=w["correct"]).click()
    expect(status(secretary)).to_have_text(w["confirmed"].format(0, 1))
    corrections = secretary.locator("#fixture-corrections")
    expect(secretary.get_by_role("heading", name=w["corrections"])).to_be_visible()
    expect(corrections.locator(".correction-before")).to_contain_text("10–5")
    expect(corrections.locator(".correction-after")).to_contain_text("5–10")
    assert sent() == [(w["corrected mail"].format(OAK, BOWES), EMAIL["oak"])]
    league.played(OAK, BOWES, (5, 10))
    standings = table_as_the_spec_says(league, tmp_path)

    # -- the table on the phone, then printed: every column, the page's controls left off
    secretary.goto(live_server.url + season.get_absolute_url())
    rows_shown(secretary, standings)
    secretary.set_viewport_size({"width": 794, "height": 1123})
    secretary.emulate_media(media="print")
    rows_shown(secretary, standings)
    for row in standings:
        cells = secretary.locator(f'.league-table tr[data-entrant="{row["entrant"]}"] td')
        expect(cells.nth(8)).to_have_text(f"{row['games_for']}–{row['games_against']}")
        expect(cells.nth(9)).to_have_text(f"{row['score_for']}–{row['score_against']}")
    expect(secretary.locator(".site-header")).to_be_hidden()
    expect(secretary.locator(".season .links").first).to_be_hidden()
    expect(secretary.locator(".fixture-list li")).to_have_count(3)

    # -- the division's calendar feed, read back strictly: each night with its result
    feed = secretary.locator(".calendars a").first.get_attribute("href")
    response = secretary.request.get(live_server.url + (feed or ""))
    assert response.status == 200
    summaries = {one(event, "SUMMARY") for event in parse(response.body())}
    assert summaries == {w["calendar"].format(f["home"], *f["result"], f["away"])
                         for f in league.fixtures.values()}
