"""Ukrainian, Russian and English: every page in each language, with no English
left in Ukrainian or Russian; the language from Accept-Language or the header's switch
(remembered in Django's language cookie); dates and numbers as each language writes them.

The pages are built from Cyrillic names (players, clubs, users), so that any Latin word
left on a Ukrainian or Russian page is a string nobody translated: the test lists every
text node and named attribute (aria-label, title, placeholder, alt, a button's value, the
words the page hands its scripts in data-*-text) that still holds one, with the page it is
on. A few Latin words are the same in every language (format names, keys, the brand).
"""

from __future__ import annotations

import datetime
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import formats, translation

from matches import rules
from matches.clubs import services as clubs_services
from matches.history.services import ratings_recompute
from matches.leagues.forms import SeasonForm
from matches.leagues.services import (
    entrant_add,
    fixture_correct,
    fixture_games_enter,
    fixture_redate,
    fixture_submit,
    fixtures_generate,
    season_create,
)
from matches.models import Fixture, Match, Membership, Player, RecordImport, Season
from matches.rules.simulate import simulated_record
from matches.scoring.services.lifecycle import match_abandon, match_resume
from matches.scoring.services.play import (
    event_record,
    match_create,
    match_restore,
    round_settle,
    round_start,
)
from tests.support.helpers import A, T, drawn_key, night, paper_games, site_admin, won_at_once

ROOT = Path(__file__).resolve().parents[2]

# Latin words that are the same in every language: the brand, file formats and record
# formats, keyboard keys, CSV column names the spreadsheet must use, the language switch's
# own names, and the tile sets' short names.
SAME_IN_EVERY_LANGUAGE = {
    "Scorekeeper", "JSON", "JSONL", "CSV", "QR", "UTF-8", "openskill", "domino-match/1",
    "domino-league/1", "Home", "End", "English", "date", "home", "away", "home_games",
    "away_games", "games", "status", "json", "jsonl",
    "UTC",  # the site's time zone, by its IANA name
}
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’/_-]*[A-Za-z0-9/]|[A-Za-z]{2,}")
CHECKED_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt"}


@pytest.fixture(scope="module", autouse=True)
def _catalogues_compiled(catalogues_compiled: None) -> None:
    """Every page here is read in a language of the catalogues."""


class Words(HTMLParser):
    """The text a reader meets: text nodes (not scripts or styles) and named attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        values = dict(attrs)
        for name, value in attrs:
            if value and (name in CHECKED_ATTRIBUTES or (name.startswith("data-") and
                                                         name.endswith("-text") and
                                                         name != "data-text")):
                self.found.append(f"[{name}] {value}")
        if tag == "input" and values.get("type") in ("submit", "button") and values.get("value"):
            self.found.append(f"[value] {values['value']}")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.found.append(" ".join(data.split()))


def english_left(html: str, created: set[str]) -> list[str]:
    """Every text node or named attribute of ``html`` with a Latin word that is neither
    one of SAME_IN_EVERY_LANGUAGE nor part of what the test created."""
    parser = Words()
    parser.feed(html)
    left = []
    for text in parser.found:
        shown = text.split("] ", 1)[1] if text.startswith("[") else text
        shown = re.sub(r"\w+://\S+", " ", shown)  # an address (the reset e-mail's link)
        shown = re.sub(r"\{\w+\}", " ", shown)  # a script's placeholder: {tile}
        for name in created:
            shown = shown.replace(name, " ")
        words = [w for w in LATIN_WORD.findall(shown) if w not in SAME_IN_EVERY_LANGUAGE]
        if words:
            left.append(text)
    return left


# -- the pages ---------------------------------------------------------------------------


def client_for(lang: str, user=None) -> Client:  # noqa: ANN001
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    return client


def new_match(client: Client, names: list[str], **fields: str) -> Match:
    """A match started on ``client``'s phone (so it holds the scorer's grant)."""
    data = {"creation_key": drawn_key(client), "game": "all-fives", "starter": "0",
            "mode": "tracked", **{f"player_{i}": name for i, name in enumerate(names)},
            **fields}
    response = client.post(reverse("matches:new"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Match.objects.latest("pk")


def url(name: str, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs=kwargs)


def every_page(lang: str, django_user_model) -> tuple[list[tuple[str, str]], set[str]]:  # noqa: ANN001, C901
    """(what, html) of every page in ``lang``, and the names the test made up.

    The data is made while ``lang`` is active: what the app stores in words when a scorer
    taps (a change's description, a fixture's log) is kept in the scorer's language."""
    olena = django_user_model.objects.create_user("олена", password="пароль-довгий-1",
                                                  email="olena@example.com")
    taras = django_user_model.objects.create_user("тарас", password="пароль-довгий-2")
    iryna = django_user_model.objects.create_user("ірина", password="пароль-довгий-3")
    created = {"олена", "тарас", "ірина", "olena@example.com"}

    club = clubs_services.club_create(name="Тисменицький клуб", by=olena)
    Membership.objects.create(club=club, user=taras, role="captain")
    Membership.objects.create(club=club, user=iryna, role="member")
    players = ["Олена Коваль", "Тарас Бойко", "Ірина Шевчук", "Петро Мельник"]
    squad = [Player.objects.create(club=club, name=name) for name in players]
    for day in (1, 2, 3):
        won_at_once(players[:2], opener=day % 2, played_at=night(day), club=club,
                    players_of=club)
    won_at_once(players, opener=0, played_at=night(4), club=club, players_of=club)
    ratings_recompute(club=club, game="all-fives")

    season = season_create(
        club=club, by=olena, name="Осінь 2026", starts_on=datetime.date(2026, 9, 7),
        game="fives-and-threes", options={"deal": "short"}, fixture_format="games",
        singles=3, scoring={"win": 2, "draw": 1, "loss": 0}, tiebreaks=["game_difference"],
        divisions=["Перша ліга", "Друга ліга"])
    division = season.divisions.get(name="Перша ліга")
    for name, captain, players_of in (("Дуб", olena, squad[:2]), ("Верба", taras, squad[2:]),
                                      ("Калина", None, [])):
        entrant_add(division=division, by=olena, name=name, captain=captain,
                             players=players_of)
    fixtures_generate(division=division, by=olena)
    fixture = Fixture.objects.filter(division=division, home__name="Дуб",
                                     away__name="Верба").first() or \
        Fixture.objects.filter(division=division, away__name="Дуб").first()
    assert fixture is not None
    home_captain = olena if fixture.home.name == "Дуб" else taras
    away_captain = taras if home_captain == olena else olena
    fixture_games_enter(fixture=fixture, by=home_captain,
                                 games=paper_games(fixture, [(61, 40), (30, 61), (61, 12)]))
    fixture_submit(fixture=fixture, by=home_captain)
    created |= {"Тисменицький клуб", "Осінь 2026", "Перша ліга", "Друга ліга", "Дуб",
                "Верба", "Калина", *players}

    pages: list[tuple[str, str]] = []

    def get(what: str, client: Client, address: str, status: int = 200) -> str:
        response = client.get(address)
        assert response.status_code == status, (what, response.status_code)
        html = response.content.decode()
        pages.append((what, html))
        return html

    anonymous = client_for(lang)
    get("home", anonymous, "/")
    get("offline", anonymous, reverse("offline"))
    manifest = anonymous.get(reverse("web_manifest")).json()
    assert manifest["lang"] == lang
    pages.append(("manifest", f"<p>{manifest['description']}</p>"))
    get("new match", anonymous, url("new"))
    get("new match, refused", anonymous, url("new"))
    pages.append(("new match, refused", anonymous.post(url("new"), {
        "creation_key": drawn_key(anonymous), "game": "all-fives", "player_0": "Ірина",
        "player_1": "Ірина"}).content.decode()))

    # the scorepad: a tile placed, the round's end with its count, the next round
    phone = client_for(lang)
    playing = new_match(phone, ["Ірина", "Тарас"], hand_size="2")
    event_record(match=playing, action=rules.Play(0, T("5-5")))
    created |= {"Ірина", "Тарас"}
    get("scorepad, a tile placed", phone, playing.get_scorer_url())
    get("scorepad, a tile chosen", phone, playing.get_scorer_url() + "?tile=0-5")
    event_record(match=playing, action=rules.Play(1, T("0-5"), A("5-5:5")))
    event_record(match=playing, action=rules.Play(0, T("5-6"), A("5-5:5")))
    get("scorepad, the count", phone, playing.get_scorer_url())
    get("scorepad, the count by tiles", phone, playing.get_scorer_url() + "?entry=tiles")
    round_settle(match=playing, pips=(0, 9))
    get("scorepad, the next round", phone, playing.get_scorer_url())
    round_start(match=playing, starter=0)
    get("scorepad, watching", client_for(lang), playing.get_absolute_url())
    get("scorepad, not a scorer", client_for(lang), playing.get_scorer_url(), status=403)
    get("change history", phone, url("history", public_id=playing.public_id))
    get("scorers", phone, url("scorers", public_id=playing.public_id))
    get("rename", phone, url("rename", public_id=playing.public_id))
    get("abandon", phone, url("abandon", public_id=playing.public_id))
    get("delete", phone, url("delete", public_id=playing.public_id))
    get("home, scoring here", phone, "/")

    called = new_match(phone, ["Ірина", "Тарас", "Олена Коваль"], mode="ends")
    get("scorepad, a called round", phone, called.get_scorer_url())
    match_abandon(match=called)
    get("abandon, abandoned", phone, url("abandon", public_id=called.public_id))
    get("scorepad, abandoned", phone, called.get_scorer_url())

    won = new_match(phone, ["Ірина", "Тарас"], hand_size="2", target="10")
    event_record(match=won, action=rules.Play(0, T("5-5")))
    get("scorepad, the match won", phone, won.get_scorer_url())
    get("match page", anonymous, won.get_absolute_url())
    get("match page, a replay step", anonymous, won.get_absolute_url() + "?round=1&step=1")
    get("abandon, finished", phone, url("abandon", public_id=won.public_id))
    long_match = Match.objects.filter(club=club).first()
    assert long_match is not None
    get("match page, a club game", anonymous, long_match.get_absolute_url())

    stranger = client_for(lang)
    get("join, asked", stranger, playing.get_join_url())
    get("join, a replaced link", stranger, url("join", public_id=playing.public_id,
                                              token="nicht-mehr"), status=404)
    get("no such page", stranger, "/no-such-page/", status=404)
    get("scorepad, not a scorer", stranger, url("history", public_id=playing.public_id),
        status=403)

    # clubs, leagues, players
    owner, captain, member = (client_for(lang, user) for user in (olena, taras, iryna))
    get("clubs", anonymous, url("clubs"))
    get("clubs, signed in", owner, url("clubs"))
    get("new club", owner, url("club_new"))
    get("club", owner, club.get_absolute_url())
    get("club, a member", member, club.get_absolute_url())
    pages.append(("club, an invite made", owner.post(url("club_invite", slug=club.slug),
                                                       {"role": "member"}).content.decode()))
    token = clubs_services.club_invite(club=club, by=olena, role="member")
    newcomer = django_user_model.objects.create_user("петро", password="пароль-довгий-4")
    created.add("петро")
    get("club invite", client_for(lang, newcomer), url("club_join", slug=club.slug,
                                                       token=token))
    get("club invite, broken", client_for(lang, newcomer),
        url("club_join", slug=club.slug, token=token[:-3] + "xyz"), status=404)
    get("ratings", anonymous, url("club_ratings", slug=club.slug, game="all-fives"))
    olena_player = club.players.get(name="Олена Коваль")
    get("player", anonymous, url("club_player", slug=club.slug, pk=olena_player.pk))
    get("new season", owner, url("season_new", slug=club.slug))
    season_url = Season.objects.get(pk=season.pk).get_absolute_url()
    get("season", owner, season_url + f"?division={division.pk}")
    get("season, another division", owner, season_url + "?division=" + str(
        season.divisions.get(name="Друга ліга").pk))
    for who, client in (("home captain", client_for(lang, home_captain)),
                        ("away captain", client_for(lang, away_captain)),
                        ("a member", member)):
        get(f"fixture, {who}", client, fixture.get_absolute_url())
    other = Fixture.objects.filter(division=division).exclude(pk=fixture.pk).first()
    assert other is not None
    get("fixture, not yet played", owner, other.get_absolute_url())
    get("fixture, its correction", owner, fixture.get_correction_url())
    fixture_correct(fixture=fixture, by=olena, scores=[(61, 40), (61, 30), (61, 12)],
                    reason="Аркуш рахунку")
    get("fixture, corrected", owner, fixture.get_absolute_url())
    created.add("Аркуш рахунку")

    # history, import, accounts, errors
    get("match history", anonymous, url("history_list"))
    get("match history, a club", anonymous, url("history_list") + f"?club={club.slug}")
    get("import", owner, url("import"))
    valid = simulated_record(rules.ALL_FIVES, 2, seed=7)
    record = SimpleUploadedFile("ніч.json", json.dumps(valid).encode(),
                                content_type="application/json")
    pages.append(("import, its progress", owner.post(url("import"), {"files": [record]},
                                                     follow=True).content.decode()))
    created |= set(valid["players"]) | {"ніч.json"}
    running = RecordImport.objects.create(created_by=olena, max_records=1, status="running")
    waiting = RecordImport.objects.create(created_by=olena, max_records=1)
    get("import, queued behind another", owner, waiting.get_absolute_url())
    running.status = "done"
    running.save(update_fields=["status"])
    get("import, queued next", owner, waiting.get_absolute_url())
    stopped = RecordImport.objects.create(created_by=olena, max_records=1, status="failed",
                                          stop_reason="failed")
    get("import, stopped, to try again", owner, stopped.get_absolute_url())
    get("sign in", anonymous, reverse("login"))
    get("sign up", anonymous, reverse("signup"))
    get("password reset", anonymous, reverse("password_reset"))
    get("password reset sent", anonymous, reverse("password_reset_done"))
    get("password reset, an old link", anonymous,
        reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "a-b"}))
    get("password reset done", anonymous, reverse("password_reset_complete"))
    get("password change", owner, reverse("password_change"))
    get("password changed", owner, reverse("password_change_done"))
    pages.append(("too many attempts", render_to_string(
        "registration/locked_out.html", {"minutes": 15})))
    for signup in (True, False):  # sign-ups or reset links past their limit
        pages.append((f"too many {'sign-ups' if signup else 'reset links'}",
                      render_to_string("registration/throttled.html",
                                       {"signup": signup, "minutes": 42})))
    pages.append(("server error", render_to_string("500.html")))
    pages.append(("reset e-mail", render_to_string("registration/password_reset_email.html", {
        "domain": "scores.example", "protocol": "https", "uid": "MQ", "token": "a-b",
        "user": olena})))
    created |= {"scores.example", "https"}
    return pages, created


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_every_page_is_in_the_language_with_no_english_left(lang, django_user_model):
    with translation.override(lang):
        pages, created = every_page(lang, django_user_model)
    left = [f"{what}: {text}" for what, html in pages
            for text in english_left(html, created)]
    # each distinct leftover once, with the first page it is on
    seen: dict[str, str] = {}
    for line in left:
        seen.setdefault(line.split(": ", 1)[1], line)
    assert not seen, f"English left on the {lang} pages:\n" + "\n".join(seen.values())
    assert len(pages) >= 60
    for what, html in pages:
        if "<html" in html:
            assert f'<html lang="{lang}">' in html, what


# -- choosing the language ---------------------------------------------------------------


@pytest.mark.django_db
def test_english_is_the_default_and_the_page_says_so():
    html = Client().get("/").content.decode()
    assert '<html lang="en">' in html and ">New match<" in html


@pytest.mark.django_db
@pytest.mark.parametrize(("header", "lang", "words"), [
    ("uk-UA,uk;q=0.9,en;q=0.8", "uk", "Новий матч"),
    ("ru-RU,ru;q=0.9", "ru", "Новый матч"),
    ("de-DE,de;q=0.9", "en", "New match"),
])
def test_the_browsers_accept_language_chooses_the_language(header, lang, words):
    response = Client(HTTP_ACCEPT_LANGUAGE=header).get("/")
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html and f">{words}<" in html
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
def test_the_header_switch_sets_the_cookie_and_comes_back_to_the_same_page():
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    page = client.get("/history/?order=oldest").content.decode()
    form = re.search(r'<form class="language-form" method="post" action="([^"]+)">(.*?)</form>',
                     page, re.S)
    assert form is not None and form.group(1) == "/i18n/setlang/"
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"',
                             form.group(2)))
    assert fields["next"] == "/history/?order=oldest"
    assert '<label class="visually-hidden" for="language-select">Language</label>' in \
        form.group(2)
    assert re.findall(r'<option value="(\w+)"', form.group(2)) == ["en", "uk", "ru"]

    response = client.post(form.group(1), {**fields, "language": "uk",
                                           "next": "/history/?order=oldest"})

    assert response.status_code == 302 and response["Location"] == "/history/?order=oldest"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "uk"
    # remembered: the cookie wins over the browser's English
    again = client.get("/history/?order=oldest").content.decode()
    assert '<html lang="uk">' in again and "<h1>Історія матчів</h1>" in again
    assert '<option value="uk" lang="uk" selected>' in again
    # each language by its own name, so a reader who switched by mistake finds their way
    # back (Django's catalogue would give "Англійська")
    assert re.findall(r'<option value="\w+" lang="\w+"(?: selected)?>([^<]+)</option>',
                      again) == ["English", "Українська", "Русский"]


@pytest.mark.django_db
def test_the_switch_refuses_a_next_page_elsewhere():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "ru",
                                              "next": "https://elsewhere.example/"})
    assert response.status_code == 302 and response["Location"] == "/"


# -- the words themselves ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "turn"), [
    ("uk", "Хід: <strong>Ірина</strong>"),
    ("ru", "Ход: <strong>Ірина</strong>"),
    ("en", "Turn: <strong>Ірина</strong>"),
])
def test_whose_turn_it_is_is_no_possessive_in_ukrainian_or_russian(lang, turn):
    phone = Client(HTTP_ACCEPT_LANGUAGE=lang)
    match = new_match(phone, ["Ірина", "Тарас"])
    html = phone.get(match.get_scorer_url()).content.decode()
    assert turn in html
    if lang != "en":
        assert "'s" not in html and "’s" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "tiles", "rounds"), [
    ("uk", ["1 плитка", "2 плитки", "5 плиток"], "22 раунди"),
    ("ru", ["1 костяшка", "2 костяшки", "5 костяшек"], "22 раунда"),
])
def test_counts_take_the_languages_three_plural_forms(lang, tiles, rounds):
    with translation.override(lang):
        words = [translation.ngettext("%(tiles)s tile", "%(tiles)s tiles", n) % {"tiles": n}
                 for n in (1, 2, 5)]
        assert words == tiles
        assert render_to_string("matches/_standing.html", {"sides": [], "rounds": 22}) \
            .strip().endswith(rounds + "</p>")


def test_dates_and_halves_in_each_language():
    when = datetime.datetime(2026, 11, 30, 18, 5, tzinfo=datetime.UTC)
    expected = {"en": ("30 Nov 2026, 18:05", "30 Nov 2026", "Mon 30 Nov"),
                "uk": ("30.11.2026 18:05", "30.11.2026", "Пн, 30.11"),
                "ru": ("30.11.2026 18:05", "30.11.2026", "Пн, 30.11")}
    for lang, (full, day, weekday) in expected.items():
        with translation.override(lang):
            assert formats.date_format(when, "SHORT_DATETIME_FORMAT") == full
            assert formats.date_format(when, "SHORT_DATE_FORMAT") == day
            assert formats.date_format(when, "WEEKDAY_DATE_FORMAT") == weekday
            # a half is ½ in every language; a decimal takes the language's separator
            html = render_to_string("matches/_standing.html",
                                    {"sides": [("A", 42.5)], "rounds": 1})
            assert "A 42½" in html
            assert formats.localize(3.5) == ("3.5" if lang == "en" else "3,5")


@pytest.mark.parametrize(("lang", "typed"), [
    ("en", "04/01/2027"), ("en", "4/1/2027"), ("en", "4 Jan 2027"), ("en", "2027-01-04"),
    ("uk", "04.01.2027"), ("ru", "04.01.2027"), ("uk", "2027-01-04")])
def test_a_date_typed_by_hand_is_read_day_first_in_every_language(lang, typed):
    # as the pages write dates and the fixtures spreadsheet reads them; English read
    # 04/01/2027 as 1 April, saying nothing
    with translation.override(lang):
        form = SeasonForm(data={"starts_on": typed})
        form.is_valid()
        assert "starts_on" not in form.errors, form.errors
        assert form.cleaned_data["starts_on"] == datetime.date(2027, 1, 4)


def test_a_date_that_reads_only_month_first_is_refused_not_guessed():
    with translation.override("en"):
        form = SeasonForm(data={"starts_on": "12/31/2026"})
        assert not form.is_valid() and "starts_on" in form.errors


def test_every_language_defines_our_own_date_formats():
    """Django would read a format name a language lacks as a format string."""
    names = ("SHORT_DATE_FORMAT", "SHORT_DATETIME_FORMAT", "DAY_TIME_FORMAT",
             "DAY_TIME_SECONDS_FORMAT", "WEEKDAY_DATE_FORMAT", "LONG_WEEKDAY_DATE_FORMAT")
    for lang, _name in settings.LANGUAGES:
        for name in names:
            assert formats.get_format(name, lang=lang) != name, (lang, name)


@pytest.mark.django_db
def test_the_board_geometry_stays_in_dots_in_ukrainian():
    """SVG coordinates are for the browser: "0,5" would break the drawing."""
    phone = Client(HTTP_ACCEPT_LANGUAGE="uk")
    match = new_match(phone, ["Ірина", "Тарас"])
    event_record(match=match, action=rules.Play(0, T("5-6")))
    html = phone.get(match.get_scorer_url()).content.decode()
    numbers = re.findall(r' (?:x|y|cx|cy|x1|y1|x2|y2|width|height)="([^"]*)"', html)
    assert numbers and not [n for n in numbers if "," in n]
    assert 'viewBox="' in html and not re.search(r'viewBox="[^"]*,', html)


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_every_msgid_is_translated_in_the_catalogue(lang):
    """No empty or fuzzy msgstr: the page test covers what it renders, this the rest."""
    from babel.messages.pofile import read_po

    with (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").open("rb") as source:
        catalog = read_po(source)
    empty = [message.id for message in catalog if message.id and (
        message.fuzzy or not (all(message.string) if isinstance(message.string, tuple)
                              else message.string))]
    assert not empty, f"{len(empty)} untranslated in {lang}: {empty[:20]}"


def test_every_text_marked_for_translation_is_in_the_catalogues(tmp_path):
    """What the code and the templates mark for translation, as ``makemessages`` finds
    it in a copy of the project, is in both catalogues: a text added without its
    translation shows in English on a Ukrainian or Russian page (the page test finds it
    only on the pages it renders)."""
    import shutil
    import subprocess
    import sys

    from babel.messages.pofile import read_po

    if shutil.which("xgettext") is None:
        pytest.skip("GNU gettext (xgettext) is not installed: makemessages needs it")
    for part in ("matches", "scorekeeper", "templates", "locale"):
        shutil.copytree(ROOT / part, tmp_path / part,
                        ignore=shutil.ignore_patterns("__pycache__", "_compiled", "*.mo"))
    shutil.copy(ROOT / "manage.py", tmp_path)
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "uk", "--no-location",
                    "-v", "0"], cwd=tmp_path, check=True, capture_output=True)
    with (tmp_path / "locale" / "uk" / "LC_MESSAGES" / "django.po").open("rb") as found:
        marked = {(message.context, message.id) for message in read_po(found) if message.id}
    for lang in ("uk", "ru"):
        with (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").open("rb") as source:
            kept = {(message.context, message.id) for message in read_po(source)
                    if message.id}
        missing = sorted(marked - kept, key=str)
        assert not missing, f"{len(missing)} not in the {lang} catalogue: {missing[:20]}"


@pytest.mark.django_db
def test_on_a_scorers_link_the_switch_comes_back_to_the_link():
    # the page sends only the site as Referer (its address holds the secret), so the
    # switch names its way back itself: it went to the home page, and the link was lost
    match = match_create(game="all-fives", players=["Ірина", "Тарас"])
    link = match.get_join_url()
    client = Client()
    page = client.get(link)
    assert page["Referrer-Policy"] == "strict-origin"
    form = re.search(r'<form class="language-form".*?</form>', page.content.decode(), re.S)
    assert form is not None
    back = re.search(r'<input type="hidden" name="next" value="([^"]+)">', form.group(0))
    assert back is not None and back[1] == link

    response = client.post("/i18n/setlang/", {"language": "ru", "next": back[1]},
                           HTTP_REFERER="http://testserver/")

    assert response.status_code == 302 and response["Location"] == link
    assert "Вести счёт этого матча на этом телефоне?" in client.get(link).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "said"), [
    ("uk", ["0-5 на дубль 5 (Тарас) (заявлено 15; за правилами 10)",
            "5-5 — початкове викладання (Ірина)"]),
    ("ru", ["0-5 на дубль 5 (Тарас) (заявлено 15; по правилам 10)",
            "5-5 — первый ход (Ірина)"]),
])
def test_a_change_written_in_english_is_read_in_the_readers_language(lang, said):
    """The change log says each tap again from the action it holds, whatever the
    language of the phone that made it; a wrong call with the rules' points beside it."""
    phone = client_for("en")
    match = new_match(phone, ["Ірина", "Тарас"], hand_size="2")
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 15))
    assert "miscalled" in match.changes.get(version=3).description  # written in English
    phone.cookies["django_language"] = lang

    page = phone.get(url("history", public_id=match.public_id)).content.decode()

    rows = re.findall(r'<tr data-version="[23]"[^>]*>.*?<strong>[^<]+</strong>: ([^<]+)</td>',
                      page, re.S)
    assert [row.replace("&#x27;", "'") for row in rows] == said


@pytest.mark.django_db
def test_an_abandon_a_resume_a_restore_and_a_fixtures_log_are_read_in_the_readers_language(
        django_user_model):
    """What a change did says itself again in each reader's language, also where it
    holds no engine action: the abandon (with the scores it stopped at), its resume,
    a restore, and each line of a fixture's log."""
    phone = client_for("en")
    match = new_match(phone, ["Ірина", "Тарас"], hand_size="2")
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
    match_restore(match=match, to_version=2, user=site_admin())
    match_abandon(match=match)
    match_resume(match=match)
    assert match.changes.get(version=5).description == "stopped at 10 – 0, without a winner"

    olena = django_user_model.objects.create_user("olena", password="a-long-password-1")
    club = clubs_services.club_create(name="Tysmenytsia", by=olena)
    season = season_create(
        club=club, by=olena, name="Autumn", starts_on=datetime.date(2026, 9, 7),
        game="all-fives", divisions=["First"])
    division = season.divisions.get()
    for name in ("Oak", "Willow"):
        entrant_add(division=division, by=olena, name=name, captain=olena)
    fixtures_generate(division=division, by=olena)
    fixture = Fixture.objects.filter(division=division).first()
    assert fixture is not None
    fixture_redate(fixture=fixture, by=olena, date=None, postponed=True)

    phone.cookies["django_language"] = "uk"
    history = phone.get(url("history", public_id=match.public_id)).content.decode()
    page = client_for("uk", olena).get(fixture.get_absolute_url()).content.decode()
    log = page[page.index('id="fixture-changes"'):]
    log = log[:log.index("</ul>")]

    assert "матч у стані версії 2" in history
    assert "зупинено на 10 – 0, без переможця" in history
    assert "продовжено: матч у тому стані, в якому його перервали" in history
    assert "without a winner" not in history and "as it stood" not in history
    assert "<strong>перенесено</strong> — olena" in log and "postponed" not in log


@pytest.mark.parametrize(("lang", "home_page", "home_side"), [
    ("en", "Home", None), ("uk", "На головну", "Господарі"), ("ru", "На главную", "Хозяева")])
@pytest.mark.django_db
def test_the_way_home_from_an_error_page_is_the_sites_home_not_the_home_side(
        lang, home_page, home_side, catalogues_compiled):
    # "Home" is also a fixture's home side: the two are told apart by their context
    for response in (client_for(lang).get("/no-such-page/"),
                     client_for(lang).get(reverse("offline"))):
        link = re.search(r'<a href="/">([^<]+)</a>', response.content.decode())
        assert link is not None and link[1] == home_page
        assert home_side is None or home_side not in response.content.decode()


@pytest.mark.parametrize(("lang", "fixture_word", "match_word"), [
    ("uk", "зустріч", "матч"), ("ru", "встреч", "матч")])
def test_a_fixture_is_never_called_a_match(lang, fixture_word, match_word):
    """A league's fixture is "зустріч"/"встреча" on the pages; "матч" is one game on the
    scorepad. The e-mails and a few headings said "матч" of a fixture (a text that
    speaks of a match or a game too may say both)."""
    from babel.messages.pofile import read_po

    with (ROOT / "locale" / lang / "LC_MESSAGES" / "django.po").open("rb") as source:
        catalog = read_po(source)
    mixed = [message.id for message in catalog if message.id and any(
        "fixture" in str(part).lower() and "match" not in str(part).lower()
        and "game" not in str(part).lower() and match_word in str(text).lower()
        for part, text in zip(message.id if isinstance(message.id, tuple) else (message.id,),
                              message.string if isinstance(message.string, tuple)
                              else (message.string,), strict=False))]
    assert not mixed, mixed
    assert any(fixture_word in str(message.string).lower() for message in catalog)
