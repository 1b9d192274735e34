"""A division's and an entrant's fixtures as iCalendar feeds: read back by a small
strict parser (CRLF lines of at most 75 octets, folded and escaped as RFC 5545 says),
stable UIDs, the result once it counts, and a members-only club's feeds hidden."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.clubs.services import club_create
from matches.leagues.calendar import escape, fold
from matches.leagues.services import (
    entrant_add,
    fixture_redate,
    fixture_void,
    fixtures_generate,
    season_create,
)
from matches.models import Fixture, FixtureStatus, Membership, Visibility

pytestmark = pytest.mark.django_db

COMMA_NAME = "Royal Oak, Staindrop; \"A\""
LONG_NAME = "The Ancient and Most Honourable Order of Dominoes Players of Barnard Castle"


def parse(body: bytes) -> list[dict[str, list[str]]]:
    """The VEVENTs of a feed, each as {name: [values]} with TEXT unescaped; fails on any
    breach of the line rules."""
    assert body.endswith(b"\r\n")
    physical = body[:-2].split(b"\r\n")
    for raw in physical:
        assert b"\n" not in raw and b"\r" not in raw, raw
        assert len(raw) <= 75, (len(raw), raw)
        raw.decode("utf-8")  # never folded inside a character
    text = body.decode("utf-8")
    logical = re.sub(r"\r\n ", "", text).split("\r\n")[:-1]
    assert logical[0] == "BEGIN:VCALENDAR" and logical[-1] == "END:VCALENDAR"
    calendar: dict[str, list[str]] = {}
    events: list[dict[str, list[str]]] = []
    current = calendar
    for line in logical[1:-1]:
        name, value = line.split(":", 1)
        if line == "BEGIN:VEVENT":
            current = {}
            continue
        if line == "END:VEVENT":
            events.append(current)
            current = calendar
            continue
        assert not re.search(r"(?<!\\)(?:\\\\)*[,;]", value) or name in ("URL",), line
        value = re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)
        current.setdefault(name.split(";")[0], []).append(value)
    assert "VERSION" in calendar and "PRODID" in calendar
    return [{"X-WR-CALNAME": calendar["X-WR-CALNAME"], **event} for event in events]


def one(event: dict[str, list[str]], name: str) -> str:
    (value,) = event[name]
    return value


@pytest.fixture
def league(django_user_model):
    admin = django_user_model.objects.create_user("admin")
    club = club_create(name="Teesdale", by=admin)
    season = season_create(club=club, by=admin, name="Monday League", game="all-fives",
                           starts_on=datetime.date(2026, 9, 7))
    division = season.divisions.get()
    for name in (COMMA_NAME, LONG_NAME, "Bowes Hall"):
        entrant_add(division=division, by=admin, name=name)
    fixtures_generate(division=division, by=admin, start=datetime.date(2026, 9, 7))
    return {"admin": admin, "club": club, "season": season, "division": division}


def division_url(league) -> str:
    return reverse("matches:division_calendar", kwargs={
        "slug": league["club"].slug, "season": league["season"].slug,
        "division": league["division"].pk})


def entrant_url(league, entrant) -> str:
    return reverse("matches:entrant_calendar", kwargs={
        "slug": league["club"].slug, "season": league["season"].slug,
        "entrant": entrant.pk})


def test_the_division_feed_has_an_event_a_fixture_with_stable_uids(league):
    client = Client()
    response = client.get(division_url(league))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    events = parse(response.content)
    fixtures = list(Fixture.objects.filter(division=league["division"]))
    assert len(events) == len(fixtures) == 3
    assert {one(e, "UID") for e in events} == {f"fixture-{f.pk}@scorekeeper.fixtures"
                                               for f in fixtures}
    again = parse(client.get(division_url(league)).content)
    assert [one(e, "UID") for e in again] == [one(e, "UID") for e in events]
    assert one(events[0], "X-WR-CALNAME") == "Monday League — Division 1"
    for event in events:
        assert re.fullmatch(r"\d{8}T\d{6}Z", one(event, "DTSTAMP"))
        assert one(event, "SEQUENCE") == "0"
        assert one(event, "STATUS") == "CONFIRMED"
        assert re.fullmatch(r"\d{8}", one(event, "DTSTART"))


def test_a_fixture_on_the_last_day_there_is_ends_without_a_day_after(league):
    # a re-date may put a fixture on 31 December 9999: its feed was a 500 for everyone
    last, other = Fixture.objects.filter(division=league["division"]).order_by("pk")[:2]
    fixture_redate(fixture=last, by=league["admin"], date=datetime.date.max)
    response = Client().get(division_url(league))
    assert response.status_code == 200
    events = {one(e, "UID"): e for e in parse(response.content)}
    on_the_last_day = events[f"fixture-{last.pk}@scorekeeper.fixtures"]
    assert one(on_the_last_day, "DTSTART") == "99991231"
    assert "DTEND" not in on_the_last_day
    assert other.date is not None
    assert one(events[f"fixture-{other.pk}@scorekeeper.fixtures"], "DTEND") == \
        f"{other.date + datetime.timedelta(days=1):%Y%m%d}"


def test_names_with_commas_and_long_names_are_escaped_and_folded(league):
    body = Client().get(division_url(league)).content
    assert b"Royal Oak\\, Staindrop\\; \"A\"" in body
    assert b"\r\n " in body  # the long name's summary is folded
    summaries = {one(e, "SUMMARY") for e in parse(body)}
    assert f"{COMMA_NAME} v {LONG_NAME}" in summaries or \
        f"{LONG_NAME} v {COMMA_NAME}" in summaries
    locations = {one(e, "LOCATION") for e in parse(body)}
    assert COMMA_NAME in locations or LONG_NAME in locations


def test_folding_counts_octets_and_keeps_characters_whole():
    line = "SUMMARY:" + "Королівський дуб " * 8
    folded = fold(line).encode("utf-8")
    parts = folded.split(b"\r\n ")
    assert len(parts) > 2
    assert all(len(part) <= 75 for part in parts[:1]) and all(len(p) <= 74 for p in parts[1:])
    assert b"".join(parts).decode("utf-8") == line
    assert all(part.decode("utf-8") for part in parts)


def test_text_escapes_backslash_first_then_separators_and_newlines():
    assert escape("a\\b,c;d\ne\r\nf") == "a\\\\b\\,c\\;d\\ne\\nf"


def test_the_summary_gives_the_result_once_it_counts(league):
    fixture = Fixture.objects.filter(division=league["division"]).first()
    assert fixture is not None
    uid = f"fixture-{fixture.pk}@scorekeeper.fixtures"
    home, away = fixture.home.name, fixture.away.name

    def summary() -> str:
        events = parse(Client().get(division_url(league)).content)
        return next(one(e, "SUMMARY") for e in events if one(e, "UID") == uid)

    assert summary() == f"{home} v {away}"
    Fixture.objects.filter(pk=fixture.pk).update(status=FixtureStatus.SUBMITTED,
                                                 home_games=2, away_games=1)
    assert summary() == f"{home} v {away}"  # sent, not yet confirmed: does not count
    Fixture.objects.filter(pk=fixture.pk).update(status=FixtureStatus.CONFIRMED)
    assert summary() == f"{home} 2–1 {away}"


def test_a_void_fixture_is_cancelled_and_a_postponed_one_says_so(league):
    first, second = Fixture.objects.filter(division=league["division"])[:2]
    fixture_void(fixture=first, by=league["admin"])
    Fixture.objects.filter(pk=second.pk).update(status=FixtureStatus.POSTPONED)
    events = {one(e, "UID"): e for e in parse(Client().get(division_url(league)).content)}
    void = events[f"fixture-{first.pk}@scorekeeper.fixtures"]
    assert one(void, "STATUS") == "CANCELLED"
    assert one(void, "SUMMARY").endswith(" — Void")
    assert one(void, "SEQUENCE") == "1"  # its change is logged: calendars take the update
    postponed = events[f"fixture-{second.pk}@scorekeeper.fixtures"]
    assert one(postponed, "SUMMARY").endswith(" — Postponed")
    assert one(postponed, "STATUS") == "CONFIRMED"


def test_the_entrant_feed_has_only_its_fixtures(league):
    bowes = league["division"].entrants.get(name="Bowes Hall")
    events = parse(Client().get(entrant_url(league, bowes)).content)
    theirs = Fixture.objects.filter(division=league["division"]).filter(
        home=bowes) | Fixture.objects.filter(away=bowes)
    assert {one(e, "UID") for e in events} == {f"fixture-{f.pk}@scorekeeper.fixtures"
                                               for f in theirs}
    assert len(events) == 2
    assert all("Bowes Hall" in one(e, "SUMMARY") for e in events)
    assert one(events[0], "X-WR-CALNAME") == "Monday League — Bowes Hall"


def test_another_seasons_entrant_or_division_is_not_found(league, django_user_model):
    other = season_create(club=league["club"], by=league["admin"], name="Thursday",
                          game="all-fives", starts_on=datetime.date(2026, 9, 10))
    client = Client()
    stray = reverse("matches:division_calendar", kwargs={
        "slug": league["club"].slug, "season": other.slug, "division": league["division"].pk})
    assert client.get(stray).status_code == 404
    bowes = league["division"].entrants.get(name="Bowes Hall")
    stray = reverse("matches:entrant_calendar", kwargs={
        "slug": league["club"].slug, "season": other.slug, "entrant": bowes.pk})
    assert client.get(stray).status_code == 404


def test_a_members_only_clubs_feeds_are_not_there_to_outsiders(league, django_user_model):
    club = league["club"]
    club.visibility = Visibility.MEMBERS
    club.save()
    bowes = league["division"].entrants.get(name="Bowes Hall")
    urls = [division_url(league), entrant_url(league, bowes)]
    outsider = Client()
    outsider.force_login(django_user_model.objects.create_user("stranger"))
    member = Client()
    reader = django_user_model.objects.create_user("reader")
    Membership.objects.create(club=club, user=reader, role="member")
    member.force_login(reader)
    for url in urls:
        assert Client().get(url).status_code == 404
        assert outsider.get(url).status_code == 404
        assert member.get(url).status_code == 200


def test_the_season_page_links_the_feeds_by_name(league):
    page = Client().get(league["season"].get_absolute_url()).content.decode()
    assert f'href="{division_url(league)}"' in page
    bowes = league["division"].entrants.get(name="Bowes Hall")
    assert f'href="{entrant_url(league, bowes)}">Bowes Hall</a>' in page
