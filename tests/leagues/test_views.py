"""League seasons end to end through the pages: the spec's example table from stored
fixtures, the sign-off with a dispute, who may do what, exports, and a fixed number of
queries however many fixtures there are."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
import uuid
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import rules
from matches.clubs.services import club_create, player_add
from matches.core import resends
from matches.leagues.selectors import division_table, fixture_game_score, season_divisions
from matches.leagues.services import (
    OWN_FIXTURE,
    WRONG_STATUS,
    CsvImported,
    adjustment_add,
    entrant_add,
    fixture_dispute,
    fixture_game_start,
    fixture_games_enter,
    fixture_resolve,
    fixture_submit,
    fixture_void,
    fixtures_confirm_due,
    fixtures_csv_import,
    fixtures_generate,
    league_import,
    season_create,
    season_lock,
)
from matches.models import (
    Adjustment,
    Club,
    Division,
    Entrant,
    Fixture,
    FixtureChange,
    FixtureStatus,
    Membership,
    Player,
    Season,
    Visibility,
)
from matches.rules import league as league_rules
from matches.scoring.selectors.play import match_engine, match_names
from matches.scoring.services.lifecycle import match_abandon
from matches.scoring.services.play import event_record, event_undo, round_start
from tests.rules.test_league import SPEC_STANDINGS
from tests.support.helpers import fixture_state, league_night_at, paper_games

pytestmark = pytest.mark.django_db

# ../shared/league-record.md's example, as the league rules' own tests hold it


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, password="pw")
            for name in ("admin", "oak", "bowes", "middleton", "member")}


@pytest.fixture
def club(people) -> Club:
    club = club_create(name="Teesdale", by=people["admin"])
    for name in ("oak", "bowes", "middleton"):
        Membership.objects.create(club=club, user=people[name], role="captain")
    Membership.objects.create(club=club, user=people["member"], role="member")
    return club


@pytest.fixture
def season(club, people) -> Season:
    season = season_create(
        club=club, by=people["admin"], name="Teesdale Monday League 2026/27",
        starts_on=datetime.date(2026, 9, 7), game="fives-and-threes",
        options={"deal": "short"}, fixture_format="games", singles=3,
        scoring={"win": 2, "draw": 1, "loss": 0, "per_game": 1,
                 "close_loss": {"margin": 1, "points": 1},
                 "heavy_win": {"margin": 6, "points": 1}, "walkover": [5, 4]},
        tiebreaks=["game_difference", "games_for", "head_to_head"], divisions=["Division A"],
        # entrants without squads: their paper games are keyed in without players
        paper_players_optional=True)
    division = season.divisions.get()
    for name, captain in (("Royal Oak A", "oak"), ("Bowes Dragons", "bowes"),
                          ("Middleton Club", "middleton")):
        entrant_add(division=division, by=people["admin"], name=name,
                             captain=people[captain])
    return season


def as_(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def fixture_url(fixture: Fixture, action: str | None = None) -> str:
    season = fixture.division.season
    kwargs = {"slug": season.club.slug, "season": season.slug, "pk": fixture.pk}
    if action is None:
        return reverse("matches:fixture", kwargs=kwargs)
    return reverse("matches:fixture_action", kwargs={**kwargs, "action": action})


def meeting(season: Season, home: str, away: str) -> Fixture:
    division = season.divisions.get()
    fixture = Fixture.objects.filter(division=division, home__name=home,
                                     away__name=away).first()
    if fixture is None:
        fixture = Fixture.objects.create(division=division, week=99,
                                         home=division.entrants.get(name=home),
                                         away=division.entrants.get(name=away))
    return fixture


# the spec's first fixture night: three singles, as the scores form posts them
SPEC_NIGHT = {"home_1": "61", "away_1": "40", "home_2": "61", "away_2": "12",
              "home_3": "58", "away_3": "61"}


def signed_off(season: Season, people: dict) -> Fixture:
    """The spec's first fixture, Royal Oak A v Bowes Dragons, played as the page plays it:
    its games keyed in (61-40 61-12 58-61), submitted, confirmed by the away captain."""
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    as_(people["oak"]).post(fixture_url(fixture, "games"), SPEC_NIGHT)
    as_(people["oak"]).post(fixture_url(fixture, "submit"))
    as_(people["bowes"]).post(fixture_url(fixture, "confirm"))
    return fixture


def spec_example_played(season: Season, people: dict) -> Fixture:
    """The spec's example season as its admin and captains bring it about on the pages:
    the signed-off night, a walkover, a postponement and Bowes's three points off. The
    signed-off fixture."""
    admin = as_(people["admin"])
    fixture = signed_off(season, people)
    admin.post(fixture_url(meeting(season, "Bowes Dragons", "Middleton Club"),
                           "walkover-away"))
    admin.post(fixture_url(meeting(season, "Middleton Club", "Royal Oak A"), "redate"),
               {"date": "", "postponed": "on"})
    admin.post(reverse("matches:season_adjust", kwargs={
        "slug": season.club.slug, "season": season.slug}), {
        "entrant": season.divisions.get().entrants.get(name="Bowes Dragons").pk,
        "points": "-3", "reason": "result sent late"})
    return fixture


def test_the_specs_example_table_from_stored_fixtures(season, people):
    spec_example_played(season, people)

    division = season_divisions(season).get()
    table = division_table(division, season)
    assert league_rules.table_json(table) == SPEC_STANDINGS
    page = Client().get(season.get_absolute_url()).content.decode()
    assert "result sent late" in page and "Middleton Club" in page
    # the table's one-letter headings are named in full for screen readers
    assert 'aria-label="played">P</th>' in page and 'aria-label="game difference">GD<' in page
    # and the form guide in words, which a screen reader would read as one word of letters
    assert re.search(r'<span aria-hidden="true">[WDL]+</span><span class="visually-hidden">'
                     r'(won|drawn|lost)(, (won|drawn|lost))*</span>', page)
    # the exports are a row of links spaced by the row itself: no "·" between them,
    # which stood alone at a line's start where the row wrapped on a phone
    exports = re.search(r'<p class="links">(.*?)</p>', page, re.S)
    assert exports is not None and "Table (CSV)" in exports[1]
    assert re.sub(r"<a [^>]*>.*?</a>", "", exports[1], flags=re.S).strip() == ""
    table_csv = Client().get(reverse("matches:season_export", kwargs={
        "slug": season.club.slug, "season": season.slug, "what": "table.csv"})).content
    assert table_csv.startswith("\ufeffrank,".encode())  # so Excel reads it as UTF-8
    rows = list(csv.reader(io.StringIO(table_csv.decode("utf-8-sig"))))
    assert rows[1][:2] == ["1", "Middleton Club"] and rows[3][-1] == "4"
    exported = json.loads(Client().get(reverse("matches:season_export", kwargs={
        "slug": season.club.slug, "season": season.slug, "what": "league.json"})).content)
    assert league_rules.table_json(league_rules.standings(
        league_rules.read_league(exported))) == SPEC_STANDINGS


def test_a_walkover_awarded_over_a_played_fixture_takes_its_games_off(season, people):
    fixture = signed_off(season, people)

    as_(people["admin"]).post(fixture_url(fixture, "walkover-away"))

    fixture.refresh_from_db()
    assert (fixture.status, fixture.walkover, fixture.home_games) == ("confirmed", "away", None)
    assert not fixture.games.exists()  # league-record.md: a walkover has no game scores
    assert "Confirmed</strong>: walkover, Bowes Dragons turned up" in \
        Client().get(fixture_url(fixture)).content.decode()
    change = fixture.changes.order_by("pk").last()
    assert change is not None and change.kind == "walkover"
    assert change.before["games"] == [[61, 40], [61, 12], [58, 61]]
    assert change.after["games"] == []
    exported = Client().get(reverse("matches:season_export", kwargs={
        "slug": season.club.slug, "season": season.slug, "what": "fixtures.csv"}))
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert [(row["walkover"], row["games"]) for row in rows if row["home"] == "Royal Oak A"
            and row["away"] == "Bowes Dragons"] == [("away", "")]


def test_an_export_of_a_division_the_season_does_not_have_is_not_found(season):
    url = reverse("matches:season_export", kwargs={
        "slug": season.club.slug, "season": season.slug, "what": "table.csv"})
    division = season.divisions.get()
    assert Client().get(url, {"division": division.pk}).status_code == 200
    assert Client().get(url).status_code == 200  # the first division, when none is named
    for stale in (division.pk + 999, "x"):
        missing = Client().get(url, {"division": stale})
        assert missing.status_code == 404
        assert missing.content.decode() == "This season has no such division."


def test_the_fixtures_export_imports_back_into_a_season_with_the_same_table(season, people):
    admin = as_(people["admin"])
    # a name a spreadsheet would run as a formula is exported as text, and read back
    Entrant.objects.filter(name="Middleton Club").update(name="=Middleton Club")
    signed_off(season, people)
    admin.post(fixture_url(meeting(season, "Bowes Dragons", "=Middleton Club"),
                           "walkover-away"))
    unsigned = meeting(season, "=Middleton Club", "Royal Oak A")
    as_(people["middleton"]).post(fixture_url(unsigned, "games"), {
        "home_1": "61", "away_1": "2", "home_2": "61", "away_2": "5", "home_3": "7",
        "away_3": "61"})
    assert as_(people["middleton"]).post(fixture_url(unsigned, "submit")).status_code == 302
    exported = Client().get(reverse("matches:season_export", kwargs={
        "slug": season.club.slug, "season": season.slug, "what": "fixtures.csv"})).content
    assert "61-40 61-12 58-61" in exported.decode()  # as the import reads game scores
    assert ",'=Middleton Club," in exported.decode()
    copy = season_create(
        club=season.club, by=people["admin"], name="Copy", starts_on=season.starts_on,
        game=season.game, options=season.options, scoring=season.scoring,
        tiebreaks=season.tiebreaks)
    division = copy.divisions.get()
    for entrant in season.divisions.get().entrants.all():
        entrant_add(division=division, by=people["admin"], name=entrant.name)

    imported = fixtures_csv_import(division=division, by=people["admin"],
                                            text=exported.decode())

    # the submitted one is not signed off: it has no result to import
    assert imported == CsvImported(rows=2)
    original = division_table(season.divisions.get(), season)
    copied = division_table(division, copy)
    assert league_rules.table_json(copied)["standings"] == \
        league_rules.table_json(original)["standings"]


def test_a_spreadsheets_game_scores_are_read_as_written_or_refused_saying_how(season, people):
    division = season.divisions.get()
    with pytest.raises(ValidationError, match=r'Row 2, games: "\[\[61," is not a game '
                                              r"score: write them like 61-40 61-12"):
        fixtures_csv_import(
            division=division, by=people["admin"],
            text='home,away,home_games,away_games,games\nRoyal Oak A,Bowes Dragons,1,0,'
                 '"[[61, 40]]"\n')


def test_a_captain_of_both_sides_is_offered_no_sign_off_and_told_who_resolves(season,
                                                                             people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    Entrant.objects.filter(name="Bowes Dragons").update(captain=people["oak"])
    oak = as_(people["oak"])
    oak.post(fixture_url(fixture, "games"), SPEC_NIGHT)
    oak.post(fixture_url(fixture, "submit"))

    page = oak.get(fixture_url(fixture)).content.decode()

    assert 'id="confirm-fixture"' not in page and 'id="both-captains"' in page
    assert oak.post(fixture_url(fixture, "confirm")).status_code == 403  # as the page says


def test_the_sign_off_with_a_dispute_resolved_by_the_league(season, people):
    oak, bowes, admin = (as_(people[n]) for n in ("oak", "bowes", "admin"))
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    oak.post(fixture_url(fixture, "games"), {"home_1": "61", "away_1": "40",
                                             "home_2": "61", "away_2": "58",
                                             "home_3": "61", "away_3": "30"})
    # the home captain may not confirm their own result
    oak.post(fixture_url(fixture, "submit"))
    assert oak.post(fixture_url(fixture, "confirm")).status_code == 403
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games, fixture.away_games) == ("submitted", 3, 0)
    # only confirmed results count
    table = division_table(season_divisions(season).get(), season)
    assert all(row.played == 0 for row in table.rows)

    empty = bowes.post(fixture_url(fixture, "dispute"), {"message": " "})
    assert empty.status_code == 400 and "Say what is wrong" in empty.content.decode()
    assert empty.content.decode().count('role="alert"') == 1  # said once, not twice
    bowes.post(fixture_url(fixture, "dispute"), {"message": "game 2 was 61-58 to us"})
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.DISPUTED
    assert as_(people["member"]).post(fixture_url(fixture, "resolve")).status_code == 403

    admin.post(fixture_url(fixture, "resolve"), {"home_1": "61", "away_1": "40",
                                                 "home_2": "58", "away_2": "61",
                                                 "home_3": "61", "away_3": "30"})
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games, fixture.away_games) == ("confirmed", 2, 1)
    log = list(FixtureChange.objects.filter(fixture=fixture).values_list("what", flat=True))
    assert log == ["submitted", "disputed", "resolved by the league"]
    resolved = FixtureChange.objects.get(fixture=fixture, what="resolved by the league")
    assert (resolved.before["result"], resolved.after["result"]) == ([3, 0], [2, 1])
    page = Client().get(fixture_url(fixture)).content.decode()
    assert "resolved by the league" in page and "game 2 was 61-58 to us" not in page
    # the log says what the resolution changed: the result and the games
    assert "result 3–0 → 2–1" in page and "<li>Game 2: 61–58 → 58–61</li>" in page
    admin.post(fixture_url(meeting(season, "Bowes Dragons", "Royal Oak A"), "redate"),
               {"date": "2026-10-06", "postponed": ""})
    redated = Client().get(fixture_url(meeting(season, "Bowes Dragons", "Royal Oak A")))
    assert "date none → 6 Oct 2026" in redated.content.decode()

    lock = reverse("matches:season_lock", kwargs={"slug": season.club.slug,
                                                  "season": season.slug})
    unsure = admin.post(lock, follow=True)  # there is no unlocking: the box says so first
    assert "Tick the box to say that its results will no longer change" in \
        unsure.content.decode()
    season.refresh_from_db()
    assert not season.locked
    admin.post(lock, {"confirm": "on"})
    locked = admin.post(fixture_url(fixture, "void"))
    assert locked.status_code == 400 and "locked" in locked.content.decode()


def test_a_void_is_taken_back_from_the_fixtures_page(season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    admin = as_(people["admin"])
    take_back = f'action="{fixture_url(fixture, "reinstate")}"'
    assert take_back not in admin.get(fixture_url(fixture)).content.decode()
    admin.post(fixture_url(fixture, "void"))
    assert take_back in admin.get(fixture_url(fixture)).content.decode()
    assert take_back not in as_(people["oak"]).get(fixture_url(fixture)).content.decode()

    page = admin.post(fixture_url(fixture, "reinstate"), follow=True).content.decode()
    assert "The void is taken back: the fixture is open for its games again." in page
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED and take_back not in page


def test_a_season_waiting_on_a_result_says_so_and_stays_unlocked(season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    fixture_games_enter(fixture=fixture, by=people["oak"],
                        games=paper_games(fixture, [(61, 40), (61, 12), (58, 61)]))
    fixture_submit(fixture=fixture, by=people["oak"])
    lock = reverse("matches:season_lock", kwargs={"slug": season.club.slug,
                                                  "season": season.slug})
    page = as_(people["admin"]).post(lock, {"confirm": "on"}, follow=True).content.decode()
    assert ("1 result waits for the away captain or the league (sent or disputed): settle "
            "it before the season is locked, or it would wait for good.") in page
    season.refresh_from_db()
    assert not season.locked


def test_who_may_enter_and_sign_a_fixture(season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    for who in ("bowes", "middleton", "member"):  # not the home captain, not an admin
        response = as_(people[who]).post(fixture_url(fixture, "games"),
                                         {"home_1": "61", "away_1": "40"})
        assert response.status_code == 403
    assert Client().post(fixture_url(fixture, "games")).status_code == 403
    as_(people["oak"]).post(fixture_url(fixture, "games"), SPEC_NIGHT)
    as_(people["oak"]).post(fixture_url(fixture, "submit"))
    # a third captain cannot confirm someone else's fixture
    assert as_(people["middleton"]).post(fixture_url(fixture, "confirm")).status_code == 403
    level = as_(people["oak"]).post(fixture_url(meeting(season, "Middleton Club",
                                                        "Royal Oak A"), "games"),
                                    {"home_1": "50", "away_1": "50"})
    assert level.status_code == 403  # Oak is away there


@pytest.mark.parametrize("lang", ["en", "uk", "ru"])
def test_the_redate_form_shows_the_fixtures_date_and_sent_as_shown_keeps_it(season, people,
                                                                           lang):
    # the date picker shows only YYYY-MM-DD: a date written 07/09/2026 or 07.09.2026 left
    # its box empty, and postponing with nothing else changed took the date away
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    Fixture.objects.filter(pk=fixture.pk).update(date=datetime.date(2026, 9, 7))
    admin = Client(HTTP_ACCEPT_LANGUAGE=lang)
    admin.force_login(people["admin"])
    page = admin.get(fixture_url(fixture)).content.decode()
    picker = re.search(r'<input type="date" name="date" value="([^"]*)"', page)
    assert picker is not None and picker[1] == "2026-09-07"

    admin.post(fixture_url(fixture, "redate"), {"date": picker[1], "postponed": "on"})
    fixture.refresh_from_db()
    assert (fixture.date, fixture.status) == (datetime.date(2026, 9, 7), "postponed")


def test_a_night_sent_unfinished_is_refused_on_its_page_with_its_scores_kept(season,
                                                                            people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    oak = as_(people["oak"])
    oak.post(fixture_url(fixture, "games"), {"home_1": "61", "away_1": "40",
                                             "home_2": "20", "away_2": "61"})

    assert ("Singles games: 3; pairs games: 0, in any order. Send the night once each game "
            "has its score.") in oak.get(fixture_url(fixture)).content.decode()

    refused = oak.post(fixture_url(fixture, "submit"))

    html = refused.content.decode()
    assert refused.status_code == 400
    assert ("The night is not finished: game 3 has no score yet (a night of 3 games)."
            in html)
    home_2 = re.search(r'<input[^>]*name="home_2"[^>]*>', html)
    assert home_2 is not None and 'value="20"' in home_2[0]
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games) == ("scheduled", None)
    beyond = oak.post(fixture_url(fixture, "games"), {**SPEC_NIGHT, "home_4": "61",
                                                      "away_4": "1"})
    assert beyond.status_code == 400
    assert "Game 4 is not a game of the night: it has at most 3." in beyond.content.decode()
    assert fixture.games.count() == 2


def test_bad_scores_get_a_message_and_change_nothing(season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    oak = as_(people["oak"])
    for body, message in (({"home_1": "61", "away_1": "61"}, "level"),
                          ({"home_1": "61", "away_1": "x"}, "whole numbers"),
                          ({"home_1": "²", "away_1": "3"}, "whole numbers"),
                          # who played it picked, its score left out
                          ({"home_1": "", "home_1_player_1": "1"}, "whole numbers")):
        response = oak.post(fixture_url(fixture, "games"), {**body, "home_2": "61",
                                                             "away_2": "12"})
        html = response.content.decode()
        assert response.status_code == 400 and message in html
        assert fixture.games.count() == 0
        # what was typed stays, and game 1's fields say they are the ones refused
        home_1 = re.search(r'<input[^>]*name="home_1"[^>]*>', html)
        assert home_1 is not None and f'value="{body["home_1"]}"' in home_1[0]
        assert 'aria-invalid="true" aria-describedby="fixture-error"' in home_1[0]
        home_2 = re.search(r'<input[^>]*name="home_2"[^>]*>', html)
        assert home_2 is not None and 'value="61"' in home_2[0]
        assert "aria-invalid" not in home_2[0]
    assert oak.post(fixture_url(fixture, "submit")).status_code == 400  # no scores yet


def test_a_score_no_game_can_end_with_is_refused_on_the_page_naming_the_game(season,
                                                                             people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    oak = as_(people["oak"])
    night = {**SPEC_NIGHT, "home_2": "64", "away_2": "20"}  # past the 61 it is won on

    refused = oak.post(fixture_url(fixture, "games"), night)

    html = refused.content.decode()
    assert refused.status_code == 400
    assert ("Game 2: Fives and Threes is won exactly on the target 61 (an award that would "
            "pass it does not count), so 64 is past it.") in html
    assert fixture.games.count() == 0
    for name, value in night.items():  # every score as typed
        field = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
        assert field is not None and f'value="{value}"' in field[0]
        assert ("aria-invalid" in field[0]) == name.endswith("_2")
    in_ukrainian = as_(people["oak"])
    in_ukrainian.cookies["django_language"] = "uk"
    said = in_ukrainian.post(fixture_url(fixture, "games"),
                             {"home_1": "40", "away_1": "50"}).content.decode()
    assert "Гра 1: жодна сторона не досягла цілі 61" in said


def test_a_paper_score_no_game_can_end_with_is_refused_with_the_form_as_typed(club, people):
    season, squads = oak_and_bowes(club, people, ["Ann", "Bob"], ["Cat", "Dan"],
                                   name="Paper", singles=1, pairs=1)
    fixture = meeting(season, "Oak", "Bowes")
    ann, bob = squads["Oak"]
    cat, dan = squads["Bowes"]
    typed = {"home_1_player_1": str(bob.pk), "away_1_player_1": str(cat.pk),
             "home_1": "61", "away_1": "12",
             "home_2_player_1": str(ann.pk), "home_2_player_2": str(bob.pk),
             "away_2_player_1": str(cat.pk), "away_2_player_2": str(dan.pk),
             "home_2": "40", "away_2": "50"}

    refused = as_(people["oak"]).post(fixture_url(fixture, "games"), typed)

    html = refused.content.decode()
    assert refused.status_code == 400
    assert "Game 2: neither side has reached the target" in html and "40-50" in html
    assert not fixture.games.exists()
    for name, value in typed.items():  # every score and player as typed and chosen
        if "player" in name:
            field = re.search(rf'<select name="{name}"[^>]*>.*?</select>', html)
            assert field is not None and f'<option value="{value}" selected>' in field[0]
        else:
            field = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
            assert field is not None and f'value="{value}"' in field[0]
        assert ('aria-invalid="true"' in field[0]) == name.startswith(("home_2", "away_2"))


def test_the_games_form_names_each_player_choice_by_its_game_side_and_place(club, people):
    season, squads = oak_and_bowes(club, people, ["Ann", "Bob"], ["Cat", "Dan"],
                                   name="Paper", singles=1, pairs=1)
    fixture = meeting(season, "Oak", "Bowes")

    html = as_(people["oak"]).get(fixture_url(fixture)).content.decode()

    labels = re.findall(r'<select name="(\w+_player_\d)"[^>]*aria-label="([^"]*)"', html)
    assert labels[:4] == [
        ("home_1_player_1", "Game 1: Oak's player 1"),
        ("home_1_player_2", "Game 1: Oak's second player (a pairs game)"),
        ("away_1_player_1", "Game 1: Bowes's player 1"),
        ("away_1_player_2", "Game 1: Bowes's second player (a pairs game)")]
    assert len(labels) == 8  # two games
    # one way to key in paper scores: the scorepad's form only starts a game
    assert 'name="home_score"' not in html and 'value="paper"' not in html


def test_a_night_of_singles_offers_no_partner(club, people):
    season, squads = oak_and_bowes(club, people, ["Ann", "Bob"], ["Cat", "Dan"],
                                   name="Singles", singles=2)
    fixture = meeting(season, "Oak", "Bowes")

    html = as_(people["oak"]).get(fixture_url(fixture)).content.decode()

    assert "Partner" not in html and "second player" not in html
    assert 'id="home-2"' not in html
    assert re.findall(r'<select name="(\w+_player_\d)"', html) == [
        "home_1_player_1", "away_1_player_1", "home_2_player_1", "away_2_player_1"]
    assert "— choose —" in html  # players are required in this season


def test_paper_games_with_their_players_round_trip_through_the_page(club, people):
    season, squads = oak_and_bowes(club, people, ["Ann", "Bob"], ["Cat", "Dan"],
                                   name="Singles", singles=2)
    fixture = meeting(season, "Oak", "Bowes")
    ann, bob = squads["Oak"]
    cat, dan = squads["Bowes"]
    oak = as_(people["oak"])
    sent = {"home_1_player_1": str(ann.pk), "away_1_player_1": str(dan.pk),
            "home_1": "61", "away_1": "40",
            "home_2_player_1": str(bob.pk), "away_2_player_1": str(cat.pk),
            "home_2": "20", "away_2": "61"}

    assert oak.post(fixture_url(fixture, "games"), sent).status_code == 302

    games = {g.number: g for g in fixture.games.all()}
    assert [(n, g.home_score, g.away_score, [p.name for p in g.home_players.all()],
             [p.name for p in g.away_players.all()]) for n, g in sorted(games.items())] == [
        (1, 61, 40, ["Ann"], ["Dan"]), (2, 20, 61, ["Bob"], ["Cat"])]
    html = oak.get(fixture_url(fixture)).content.decode()
    for name, value in sent.items():  # the page shows what was kept
        if "player" in name:
            field = re.search(rf'<select name="{name}"[^>]*>.*?</select>', html)
            assert field is not None and f'<option value="{value}" selected>' in field[0]
    missing = oak.post(fixture_url(fixture, "games"), {
        **sent, "away_2_player_1": ""})
    assert missing.status_code == 400
    assert "Game 2: a game is one player a side, or a pair a side." in \
        missing.content.decode()
    nobody = oak.post(fixture_url(fixture, "games"), {
        **sent, "home_2_player_1": "", "away_2_player_1": ""})
    assert "Game 2: choose who played it for each side." in nobody.content.decode()
    stranger = oak.post(fixture_url(fixture, "games"), {**sent, "home_2_player_1": str(cat.pk)})
    assert "Game 2: Cat is not in Oak&#x27;s squad." in stranger.content.decode()
    # another club's player, perhaps of a members-only club, is refused without its name
    hidden = club_create(name="Hidden", by=people["member"], visibility="members")
    secret = player_add(club=hidden, name="Secret Alice", by=people["member"])
    other_club = oak.post(fixture_url(fixture, "games"), {**sent,
                                                          "home_2_player_1": str(secret.pk)})
    assert other_club.status_code == 400
    assert ("Choose Oak&#x27;s players from the lists: one chosen is no player of the club."
            in other_club.content.decode())
    assert "Secret Alice" not in other_club.content.decode()
    # sent, the away captain confirms the games with who played each
    assert oak.post(fixture_url(fixture, "submit")).status_code == 302
    shown = as_(people["bowes"]).get(fixture_url(fixture)).content.decode()
    results = re.search(r'<ol class="game-results">(.*?)</ol>', shown, re.S)
    assert results is not None
    assert re.findall(r'<li value="(\d)">([^<]+)<span class="game-players">([^<]+)</span>',
                      results[1]) == [("1", "61–40 ", "· Ann v Dan"),
                                      ("2", "20–61 ", "· Bob v Cat")]
    assert [g.away_players.get().name for g in fixture.games.order_by("number")] == [
        "Dan", "Cat"]


def test_the_season_page_says_whether_paper_games_name_their_players(club, people, season):
    required, _squads = oak_and_bowes(club, people, [], [], name="Named", singles=1)

    for shown, words in ((season, "Games kept on paper may be keyed in without their "
                                  "players"),
                         (required, "Games kept on paper are keyed in with who played "
                                    "them")):
        html = Client().get(shown.get_absolute_url()).content.decode()
        said = re.search(r'<p class="muted" id="paper-players">([^<]*)</p>', html)
        assert said is not None and said[1].startswith(words.replace("'", "&#x27;"))


def test_fixtures_are_generated_once_for_a_division(season, people):
    admin = as_(people["admin"])
    division = season.divisions.get()
    url = reverse("matches:season_generate", kwargs={"slug": season.club.slug,
                                                     "season": season.slug})
    admin.post(url, {"division": division.pk, "legs": "2"})
    assert division.fixtures.count() == 6  # three entrants, home and away
    assert sorted(division.fixtures.values_list("week", flat=True).distinct()) == \
        list(range(1, 7))
    assert division.fixtures.get(week=1).date == datetime.date(2026, 9, 7)
    again = admin.post(url, {"division": division.pk, "legs": "1"}, follow=True)
    assert "already has its fixtures" in again.content.decode()
    assert as_(people["oak"]).post(url, {"division": division.pk, "legs": "1"}).status_code \
        == 403


def test_a_late_entrant_gets_its_nights_as_fixtures_added_by_hand(season, people):
    """The generator runs once a division; an entrant that came in later has its nights
    added one by one, each in the season's week of its date, and a refused one comes
    back with what was chosen and why."""
    admin = as_(people["admin"])
    division = season.divisions.get()
    # before the list is made, the generator makes it: it runs on an empty division only
    assert '<h4>Add a fixture</h4>' not in admin.get(season.get_absolute_url()).content.decode()
    fixtures_generate(division=division, by=people["admin"])
    late = entrant_add(division=division, by=people["admin"], name="Cotherstone")
    oak = division.entrants.get(name="Royal Oak A")
    url = reverse("matches:season_fixture_add", kwargs={"slug": season.club.slug,
                                                        "season": season.slug})
    page = admin.get(season.get_absolute_url()).content.decode()
    assert '<h4>Add a fixture</h4>' in page
    assert f'<option value="{late.pk}">Cotherstone</option>' in page

    added = admin.post(url, {"division": division.pk, "home": late.pk, "away": oak.pk,
                             "date": "2026-09-21"}, follow=True)
    assert "Fixture added." in added.content.decode()
    fixture = division.fixtures.get(home=late)
    assert (fixture.away, fixture.date, fixture.week, fixture.status) == (
        oak, datetime.date(2026, 9, 21), 3, FixtureStatus.SCHEDULED)

    refused = admin.post(url, {"division": division.pk, "home": late.pk, "away": oak.pk,
                               "date": "2026-09-01"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert ('<p class="error" id="fixture-add-date-error">Give a date within the season: '
            'from 7 Sep 2026 on.</p>') in html
    assert f'<option value="{late.pk}" selected>Cotherstone</option>' in html
    assert 'value="2026-09-01"' in html
    same = admin.post(url, {"division": division.pk, "home": oak.pk, "away": oak.pk,
                            "date": "2026-09-28"})
    assert ('<p class="error" id="fixture-add-away-error">A fixture is between two '
            'different entrants.</p>') in same.content.decode()
    other = admin.post(url, {"division": division.pk, "home": late.pk, "away": 2**31 - 1,
                             "date": "2026-09-28"})
    assert ('<p class="error" id="fixture-add-away-error">Choose an entrant of Division '
            'A.</p>') in other.content.decode()
    twice = admin.post(url, {"division": division.pk, "home": late.pk, "away": oak.pk,
                             "date": "2026-09-21"})  # a double tap
    assert ('<p class="error" id="fixture-add-date-error">Cotherstone v Royal Oak A is a '
            'fixture on that night already.</p>') in twice.content.decode()
    far = admin.post(url, {"division": division.pk, "home": late.pk, "away": oak.pk,
                           "date": "9999-12-31"})
    assert ('<p class="error" id="fixture-add-date-error">Give a date within 20 years of '
            'the season&#x27;s first night.</p>') in far.content.decode()
    assert division.fixtures.filter(home=late).count() == 1
    season_lock(season=season, by=people["admin"])
    locked = admin.post(url, {"division": division.pk, "home": late.pk, "away": oak.pk,
                              "date": "2026-10-05"}, follow=True)
    assert "The season is locked: its results can no longer change." in \
        locked.content.decode()  # its page shows no form to say it beside


@pytest.mark.parametrize(("name", "form"), [
    ("season_fixture_add", {"home": "", "away": "", "date": ""}),
    ("season_entrant_add", {"name": "", "kind": "team"}),
    ("season_generate", {"legs": "0"}),
    ("season_adjust", {"points": "", "reason": ""}),
    ("season_entrant_change", {"do": "rename", "name": ""}),
])
def test_an_admin_form_sent_by_a_member_without_the_role_is_forbidden_before_it_is_read(
        season, people, name, form):
    # 403 as for a valid form: the role is checked first, not after the form's errors
    url = reverse(f"matches:{name}", kwargs={"slug": season.club.slug,
                                             "season": season.slug})
    division = season.divisions.get()
    for who in ("oak", "member"):
        assert as_(people[who]).post(url, {**form, "division": division.pk}).status_code \
            == 403, who


def test_the_season_page_runs_a_fixed_number_of_queries(season, people,
                                                        django_assert_max_num_queries):
    client = Client()
    division = season.divisions.get()

    def page_queries() -> None:
        for shown in Division.objects.filter(season=season):
            with django_assert_max_num_queries(10):
                response = client.get(season.get_absolute_url(),
                                      {"division": shown.pk})
            assert response.status_code == 200
            assert response.context["d"]["division"] == shown

    page_queries()
    more = Division.objects.create(season=season, name="Division B", order=1)
    for n in range(8):
        entrant_add(division=more, by=people["admin"], name=f"Team {n}")
    fixtures_generate(division=more, by=people["admin"], legs=2)
    fixtures_generate(division=division, by=people["admin"], legs=2)
    for fixture in Fixture.objects.filter(division=more)[:20]:
        fixture_games_enter(fixture=fixture, by=people["admin"],
                                     games=paper_games(fixture, [(61, 10), (20, 61), (61, 5)]))
        fixture_submit(fixture=fixture, by=people["admin"])
        fixture_resolve(fixture=fixture, by=people["admin"])
    assert Fixture.objects.filter(division=more).count() == 56
    page_queries()


def test_a_game_played_on_the_scorepad_flows_to_the_fixture(club, people):
    season = season_create(
        club=club, by=people["admin"], name="Quick Fives", starts_on=datetime.date(2026, 9, 7),
        game="all-fives", options={"hand_size": 2, "target": 10}, divisions=["Only"])
    division = season.divisions.get()
    squads = {}
    for name, captain, players in (("Oak", "oak", ["Ann", "Bob"]),
                                   ("Bowes", "bowes", ["Cat", "Dan"])):
        squad = [player_add(club=club, name=p, by=people["admin"]) for p in players]
        squads[name] = squad
        entrant_add(division=division, by=people["admin"], name=name,
                             captain=people[captain], players=squad)
    fixture = meeting(season, "Oak", "Bowes")
    oak = as_(people["oak"])
    # a player outside the squad is refused
    wrong = oak.post(fixture_url(fixture, "play"), {
        "number": "1", "home_player": [squads["Bowes"][0].pk], "away_player":
        [squads["Bowes"][1].pk]})
    assert wrong.status_code == 400 and "not in Oak" in wrong.content.decode()
    elsewhere = player_add(club=club_create(name="Elsewhere", by=people["member"],
                                            visibility="members"),
                           name="Secret Bob", by=people["member"])
    hidden = oak.post(fixture_url(fixture, "play"), {
        "number": "1", "home_player": [squads["Oak"][0].pk],
        "away_player": [elsewhere.pk]})
    assert hidden.status_code == 400 and "Secret Bob" not in hidden.content.decode()
    assert "Choose Bowes&#x27;s players from the lists" in hidden.content.decode()
    assert not fixture.games.exists()

    response = oak.post(fixture_url(fixture, "play"), {
        "number": "1", "home_player": [squads["Oak"][0].pk, ""],
        "away_player": [squads["Bowes"][1].pk, ""]})
    game = fixture.games.get(number=1)
    assert game.match is not None
    assert response["Location"] == game.match.get_scorer_url()
    assert oak.get(response["Location"]).status_code == 200  # the captain's phone scores it
    assert match_names(game.match) == ["Ann", "Dan"]
    assert game.match.game == "all-fives" and game.match.options == {"hand_size": 2,
                                                                      "target": 10}
    page = oak.get(fixture_url(fixture)).content.decode()
    assert "on the scorepad" in page and "in play" in page

    from matches import rules
    engine = match_engine(game.match)
    assert engine.current_round is not None and engine.current_round.turn is not None
    opener = engine.current_round.turn
    event_record(match=game.match, action=rules.Play(opener, rules.Tile.parse("5-5")))
    game.match.refresh_from_db()
    assert game.match.status == "finished"  # 10 points: All Fives is won at once

    oak.post(fixture_url(fixture, "submit"))
    fixture.refresh_from_db()
    won = (1, 0) if opener == 0 else (0, 1)
    assert (fixture.status, fixture.home_games, fixture.away_games) == ("submitted", *won)
    game.refresh_from_db()
    assert (game.home_score, game.away_score) == ((10, 0) if opener == 0 else (0, 10))


CSV = """date,home,away,home_games,away_games,games,status
2026-09-07,Royal Oak A,Bowes Dragons,2,1,61-40 61-12 58-61,
2026-09-14,Bowes Dragons,Middleton Club,,,,walkover away
2026-09-21,Middleton Club,Royal Oak A,,,,postponed
"""


def upload(client: Client, season: Season, text: str):  # noqa: ANN201
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post(reverse("matches:season_import_csv", kwargs={
        "slug": season.club.slug, "season": season.slug}), {
        "division": season.divisions.get().pk,
        "file": SimpleUploadedFile("results.csv", text.encode(), "text/csv")}, follow=True)


def fixtures_csv(season: Season) -> str:
    return Client().get(reverse("matches:season_export", kwargs={
        "slug": season.club.slug, "season": season.slug, "what": "fixtures.csv"})
    ).content.decode()


def log_and_results(season: Season) -> tuple[int, list[tuple]]:
    division = season.divisions.get()
    return (FixtureChange.objects.filter(fixture__division=division).count(),
            sorted(division.fixtures.values_list("home__name", "away__name", "status",
                                                 "home_games", "away_games", "date")))


def test_the_fixtures_export_read_back_into_its_own_season_changes_nothing(season, people):
    """Read back where it came from, it once added every result again as new fixtures
    (the team that played twice had its points twice)."""
    upload(as_(people["admin"]), season, CSV)  # a result, a walkover, a postponement
    before = log_and_results(season)

    imported = fixtures_csv_import(division=season.divisions.get(),
                                            by=people["admin"], text=fixtures_csv(season))

    assert imported == CsvImported(rows=0, unchanged=3)
    assert log_and_results(season) == before
    page = upload(as_(people["admin"]), season, fixtures_csv(season)).content.decode()
    assert "0 fixture rows imported." in page
    assert "3 rows matched fixtures that hold those results already: left as they were." \
        in page


def test_a_void_nights_export_read_back_keeps_its_games(season, people):
    # a void fixture keeps its games (fixture_void); its row has none to give, and read
    # back it was "imported", its games gone from the fixture
    upload(as_(people["admin"]), season, CSV)
    played = season.divisions.get().fixtures.get(home__name="Royal Oak A",
                                                 away__name="Bowes Dragons")
    fixture_void(fixture=played, by=people["admin"])
    games = sorted(played.games.values_list("number", "home_score", "away_score"))
    assert len(games) == 3
    before = log_and_results(season)

    imported = fixtures_csv_import(division=season.divisions.get(), by=people["admin"],
                                   text=fixtures_csv(season))

    assert imported == CsvImported(rows=0, unchanged=3)
    assert log_and_results(season) == before
    assert sorted(played.games.values_list("number", "home_score", "away_score")) == games


def test_a_result_corrected_in_the_exported_sheet_replaces_that_dates_result(season, people):
    upload(as_(people["admin"]), season, CSV)
    corrected = fixtures_csv(season).replace(",confirmed,2,1,,61-40 61-12 58-61",
                                             ",confirmed,1,2,,61-40 12-61 58-61")
    assert corrected != fixtures_csv(season)

    imported = fixtures_csv_import(division=season.divisions.get(),
                                            by=people["admin"], text=corrected)

    assert (imported.rows, imported.unchanged) == (1, 2)
    fixture = Fixture.objects.get(home__name="Royal Oak A", away__name="Bowes Dragons")
    assert (fixture.home_games, fixture.away_games, fixture.status) == (1, 2, "confirmed")
    assert [(g.home_score, g.away_score) for g in fixture.games.all()] == [
        (61, 40), (12, 61), (58, 61)]
    assert season.divisions.get().fixtures.count() == 3


def test_a_result_typed_into_the_exported_sheets_unplayed_row_is_imported(season, people):
    meeting(season, "Middleton Club", "Bowes Dragons")  # scheduled, no date
    exported = fixtures_csv(season)
    assert ",Middleton Club,Bowes Dragons,scheduled,,,," in exported
    typed = exported.replace(",Middleton Club,Bowes Dragons,scheduled,,,,",
                             ",Middleton Club,Bowes Dragons,scheduled,2,1,,")

    imported = fixtures_csv_import(division=season.divisions.get(),
                                            by=people["admin"], text=typed)

    assert imported.rows == 1  # once dropped without a word: "the file has no rows"
    fixture = meeting(season, "Middleton Club", "Bowes Dragons")
    assert (fixture.status, fixture.home_games, fixture.away_games) == ("confirmed", 2, 1)


def test_a_row_for_a_result_awaiting_confirmation_is_refused_so_it_cannot_count_twice(
        season, people):
    waiting = meeting(season, "Middleton Club", "Royal Oak A")
    as_(people["middleton"]).post(fixture_url(waiting, "games"), SPEC_NIGHT)
    assert as_(people["middleton"]).post(fixture_url(waiting, "submit")).status_code == 302
    before = log_and_results(season)

    with pytest.raises(ValidationError) as refused:
        fixtures_csv_import(
            division=season.divisions.get(), by=people["admin"],
            text="date,home,away,home_games,away_games\n2026-11-30,Middleton Club,"
                 "Royal Oak A,2,1\n")

    assert refused.value.messages == [
        "Row 2: Middleton Club v Royal Oak A has a result awaiting confirmation on the site "
        "(submitted, awaiting the away captain): settle or correct it on its fixture's "
        "page, or leave the row out, so that it does not count twice."]
    assert refused.value.params["url"] == reverse(  # type: ignore[index]
        "matches:fixture_correct", kwargs={"slug": season.club.slug, "season": season.slug,
                                           "pk": waiting.pk})
    assert log_and_results(season) == before


def test_results_kept_in_a_spreadsheet_come_in_as_csv(season, people):
    admin = as_(people["admin"])
    page = upload(admin, season, CSV).content.decode()
    assert "3 fixture rows imported." in page
    assert "walkover (Middleton Club turned up) · Confirmed" in page
    adjustment_add(entrant=season.divisions.get().entrants.get(name="Bowes Dragons"),
                            by=people["admin"], points=-3, reason="result sent late")
    table = division_table(season_divisions(season).get(), season)
    assert league_rules.table_json(table) == SPEC_STANDINGS
    assert FixtureChange.objects.filter(what="imported from a spreadsheet").count() == 3


@pytest.mark.parametrize("separator", [";", "\t"], ids=["semicolons", "tabs"])
def test_a_spreadsheet_saved_with_semicolons_or_tabs_is_read_as_with_commas(season, people,
                                                                            separator):
    """Excel saves CSV with semicolons where a comma is the decimal mark (Ukraine,
    Russia, most of Europe); it was refused as if it had no home and away columns."""
    text = CSV.replace(",", separator)
    page = upload(as_(people["admin"]), season, text).content.decode()
    assert "3 fixture rows imported." in page
    fixture = Fixture.objects.get(home__name="Royal Oak A", away__name="Bowes Dragons")
    assert (fixture.home_games, fixture.away_games) == (2, 1)
    assert [(g.home_score, g.away_score) for g in fixture.games.all()] == [
        (61, 40), (61, 12), (58, 61)]


@pytest.mark.parametrize(("row", "why"), [
    ("5,1,", "Row 2: 5–1 games won, but a night of this season has at most 3 games."),
    ("3,1,61-40 61-12 58-61 61-3",
     "Row 2: game 4 is not a game of the night: it has at most 3."),
    ("1,1,61-40 12-61", "Row 2: game 3 has no score yet (a night of 3 games)."),
    ("1,1,", "Row 2: 1–1 games won is not a finished night of this season: give every "
             "game's winner."),
    ("1,0,", "Row 2: 1–0 games won is not a finished night of this season: give every "
             "game's winner."),
    ("2,1,10-5 20-3 5-61", "Row 2: Game 1: neither side has reached the target 61, so 10-5 "
                           "is not a final score."),
])
def test_a_spreadsheet_row_no_night_of_the_season_can_end_with_is_refused(season, people,
                                                                         row, why):
    """The keying-in form refused these; the spreadsheet stored them, confirmed (a set
    of three singles to 61)."""
    before = log_and_results(season)
    with pytest.raises(ValidationError) as refused:
        fixtures_csv_import(division=season.divisions.get(), by=people["admin"], text=(
            "date,home,away,home_games,away_games,games\n"
            f"2026-09-07,Royal Oak A,Bowes Dragons,{row}\n"))
    assert refused.value.messages == [why]
    assert log_and_results(season) == before


def test_a_spreadsheet_cell_past_the_csv_readers_limit_is_refused_in_words(season, people):
    before = log_and_results(season)
    page = upload(as_(people["admin"]), season, CSV + "x" * 140_000 + ",a,b\n")
    html = page.content.decode()
    assert "The file could not be read as CSV: a cell is too long" in html
    assert "field larger than field limit" not in html  # once Python's own words
    assert log_and_results(season) == before


def test_a_name_with_a_quote_and_a_comma_reads_back_from_the_export(season, people):
    """The export writes a quote in a cell twice ("The ""Red"" Lion, B"): read so."""
    entrant_add(division=season.divisions.get(), by=people["admin"],
                         name='The "Red" Lion, B')
    text = ('date,home,away,home_games,away_games\n'
            '2026-09-07,Royal Oak A,"The ""Red"" Lion, B",2,1\n')
    imported = fixtures_csv_import(division=season.divisions.get(),
                                            by=people["admin"], text=text)
    assert imported.rows == 1
    assert Fixture.objects.get(away__name='The "Red" Lion, B').home_games == 2


def test_a_spreadsheets_headings_are_read_in_any_case(season, people):
    text = CSV.replace("date,home,away,home_games,away_games,games,status",
                       " Date ,HOME,Away,home_games,Away_Games,GAMES,status")
    page = upload(as_(people["admin"]), season,
                  text.replace("2026-09-07", "07/09/2026")).content.decode()

    assert "3 fixture rows imported." in page
    opener = meeting(season, "Royal Oak A", "Bowes Dragons")
    assert opener.date == datetime.date(2026, 9, 7) and opener.games.count() == 3


def test_a_spreadsheet_with_a_misspelt_column_is_refused_and_stores_nothing(season, people):
    """A typo'd ``games`` once stored the row without its games, then said so."""
    before = log_and_results(season)
    text = CSV.replace("date,home,away,home_games,away_games,games,status",
                       "date,home,away,home_games,away_games,Gmes,status")
    page = upload(as_(people["admin"]), season, text).content.decode()

    assert ("The first row names columns the import does not read: Gmes. It reads date, "
            "home, away, home_games, away_games, games, status, walkover, week;") in page
    assert "rows imported." not in page and "row imported." not in page
    assert log_and_results(season) == before


@pytest.mark.parametrize(("text", "message"), [
    (CSV.replace("Bowes Dragons,Middleton", "Nobody FC,Middleton"),
     "Row 3: home &quot;Nobody FC&quot; is not an entrant of this division."),
    (CSV.replace("Bowes Dragons,Middleton", "bowes dragon,Middleton"),
     "Row 3: home &quot;bowes dragon&quot; is not an entrant of this division; did you "
     "mean Bowes Dragons?"),
    (CSV.replace("2,1,61-40", "2,x,61-40"), "Row 2, away_games: &quot;x&quot; is not"),
    (CSV.replace(",postponed", ",abandoned"), "Row 4: status"),
    ("when,who\n1,2\n", "does not read: when, who. It reads date, home, away,"),
    ("date,status\n2026-09-07,void\n", "home, away is missing"),
    (CSV.replace("58-61,", "58-61,,rain"), "Row 2: a cell has no column name in the first "
                                           "row; name its column or clear the cell."),
    (CSV.replace("2026-09-21", "09/21/2026"), "Row 4, date: &quot;09/21/2026&quot; is not "
                                             "a date read day first: write dates as "
                                             "YYYY-MM-DD or DD/MM/YYYY."),
])
def test_a_refused_spreadsheet_names_the_row_and_stores_nothing(season, people, text,
                                                                message):
    page = upload(as_(people["admin"]), season, text).content.decode()
    assert message in page
    assert not Fixture.objects.exists() and not FixtureChange.objects.exists()
    assert upload(as_(people["oak"]), season, CSV).status_code == 403


@pytest.mark.parametrize(("row", "result", "walkover"), [
    ("Royal Oak A,Bowes Dragons,1,2,,", (1, 2), ""),
    ("Royal Oak A,Bowes Dragons,,,,walkover home", (None, None), "home"),
])
def test_a_spreadsheet_row_replaces_the_games_keyed_in_before_it(season, people, row,
                                                                 result, walkover):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, 40), (61, 30)]))
    admin = as_(people["admin"])

    page = upload(admin, season, "home,away,home_games,away_games,games,status\n"
                  + row + "\n").content.decode()

    assert "1 fixture row imported." in page
    fixture.refresh_from_db()
    assert (fixture.home_games, fixture.away_games, fixture.walkover) == (*result, walkover)
    assert not fixture.games.exists()  # two home wins would contradict the row
    change = fixture.changes.get(what="imported from a spreadsheet")
    assert change.before["games"] == [[61, 40], [61, 30]]
    kwargs = {"slug": season.club.slug, "season": season.slug}
    assert admin.get(reverse("matches:season", kwargs=kwargs)).status_code == 200
    export = admin.get(reverse("matches:season_export", kwargs={**kwargs, "what": "league.json"})
                       + f"?division={fixture.division_id}")
    league_rules.read_league(json.loads(export.content))  # the export reads back


def quick_season(club: Club, people: dict) -> tuple[Season, Fixture, dict[str, list[Player]]]:
    """A two-tile All Fives season of one division: Oak (Ann) and Bowes (Cat), captained
    by oak and bowes, and their fixture, for games played on the scorepad."""
    season = season_create(
        club=club, by=people["admin"], name="Quick", starts_on=datetime.date(2026, 9, 7),
        game="all-fives", options={"hand_size": 2}, divisions=["Only"])
    division = season.divisions.get()
    squads = {}
    for name, captain, player in (("Oak", "oak", "Ann"), ("Bowes", "bowes", "Cat")):
        squads[name] = [player_add(club=club, name=player, by=people["admin"])]
        entrant_add(division=division, by=people["admin"], name=name,
                             captain=people[captain], players=squads[name])
    return season, meeting(season, "Oak", "Bowes"), squads


def test_a_spreadsheet_row_over_a_game_scored_on_the_scorepad_is_refused(club, people):
    season, fixture, squads = quick_season(club, people)
    fixture_game_start(fixture=fixture, by=people["oak"], number=1,
                                home_players=squads["Oak"], away_players=squads["Bowes"])

    page = upload(as_(people["admin"]), season,
                  "home,away,home_games,away_games\nOak,Bowes,1,0\n").content.decode()

    # a night not sent yet: its fixture's page, where it is finished and sent
    assert ("Row 2: Oak v Bowes has games scored on the scorepad and is not sent yet; finish "
            "and send the night on its fixture&#x27;s page, or leave the row out.") in page
    assert f'<a href="{fixture.get_absolute_url()}">Open the fixture</a>' in page
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED and fixture.home_games is None
    assert fixture.games.get().match is not None and not fixture.changes.exists()

    # abandoned, the game gave no result: the row is the fixture's result after all
    match = fixture.games.get().match
    assert match is not None
    match_abandon(match=match, user=people["oak"])
    page = upload(as_(people["admin"]), season,
                  "home,away,home_games,away_games,games\nOak,Bowes,1,0,250-120\n")
    assert "1 fixture row imported." in page.content.decode()
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games, fixture.away_games) == (
        FixtureStatus.CONFIRMED, 1, 0)
    assert [(g.home_score, g.away_score, g.match) for g in fixture.games.all()] == [
        (250, 120, None)]
    match.refresh_from_db()  # the abandoned match stays in the history, unlinked


def test_submitted_results_confirm_themselves_after_a_day_when_the_season_says_so(
        season, people):
    from django.core.management import call_command

    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, 40), (61, 12), (58, 61)]))
    fixture = fixture_submit(fixture=fixture, by=people["oak"])
    assert fixture.submitted_at is not None
    now = fixture.submitted_at + datetime.timedelta(hours=25)
    assert fixtures_confirm_due(now=now) == 0  # the season waits for the captain
    Season.objects.filter(pk=season.pk).update(count_submitted=True)
    assert fixtures_confirm_due(now=now - datetime.timedelta(hours=2)) == 0
    assert fixtures_confirm_due(now=now) == 1
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.CONFIRMED
    assert list(fixture.changes.values_list("what", flat=True))[-1] == \
        "confirmed by itself after 24 hours"
    call_command("confirm_due_fixtures")


def test_a_club_admin_restores_a_league_match_without_scoring_it(club, people):
    season, fixture, squads = quick_season(club, people)
    started = fixture_game_start(fixture=fixture, by=people["oak"], number=1,
                                          home_players=squads["Oak"],
                                          away_players=squads["Bowes"])
    match = started.match
    event_undo(match=match, grant=started.grant)  # someone takes the start back
    history = reverse("matches:history", kwargs={"public_id": match.public_id})
    restore = reverse("matches:restore", kwargs={"public_id": match.public_id})
    assert as_(people["member"]).get(history).status_code == 403
    assert as_(people["member"]).post(restore, {"version": 2, "key": str(uuid.uuid4()),
                                                "to_version": 1}).status_code == 403
    admin = as_(people["admin"])
    assert admin.get(history).status_code == 200
    admin.post(restore, {"version": 2, "key": str(uuid.uuid4()), "to_version": 1})
    match.refresh_from_db()
    assert match.version == 3 and match.rounds.filter(undone_by=None).count() == 1
    assert match.changes.get(version=3).user == people["admin"]


def test_the_fixture_page_runs_a_fixed_number_of_queries(season, people,
                                                         django_assert_max_num_queries):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    oak = as_(people["oak"])

    def page() -> None:
        with django_assert_max_num_queries(16):
            assert oak.get(fixture_url(fixture)).status_code == 200

    page()
    Season.objects.filter(pk=season.pk).update(singles=20)  # a long night
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, n) for n in range(20)]))
    fixture_submit(fixture=fixture, by=people["oak"])
    fixture_dispute(fixture=fixture, by=people["bowes"], message="no")
    page()


def test_an_entrant_gets_its_squad_from_the_clubs_players(season, people):
    player_add(club=season.club, name="Ann Dale", by=people["admin"])
    url = reverse("matches:season_entrant_add", kwargs={"slug": season.club.slug,
                                                        "season": season.slug})
    division = season.divisions.get()
    refused = as_(people["admin"]).post(url, {
        "division": division.pk, "name": "Black Bull", "kind": "team",
        "players": "ann dale, Nobody", "captain": ""}, follow=True).content.decode()
    assert "Not the club&#x27;s players: Nobody" in refused
    as_(people["admin"]).post(url, {"division": division.pk, "name": "Black Bull",
                                    "kind": "team", "players": " ann dale ", "captain": "oak"})
    bull = division.entrants.get(name="Black Bull")
    assert [p.name for p in bull.players.all()] == ["Ann Dale"] and bull.captain == people["oak"]


def test_an_entrant_named_as_one_already_in_the_division_is_refused_in_words(season, people):
    url = reverse("matches:season_entrant_add", kwargs={"slug": season.club.slug,
                                                        "season": season.slug})
    division = season.divisions.get()
    count = division.entrants.count()
    refused = as_(people["admin"]).post(url, {
        "division": division.pk, "name": "royal oak a", "kind": "team", "players": "",
        "captain": ""}, follow=True).content.decode()
    assert "This division already has an entrant of that name (in any case)." in refused
    assert "entrant_name_per_division" not in refused  # once the constraint's own name
    assert division.entrants.count() == count


def refused_controls(html: str) -> dict[str, tuple[str, bool]]:
    """Each control marked refused, by name: the id it points at, and whether the page
    opens with the focus on it."""
    found = {}
    for control in re.finditer(r"<(?:input|select|textarea)\b[^>]*>", html):
        tag = control[0]
        if 'aria-invalid="true"' in tag:
            name = re.search(r'name="([^"]+)"', tag)
            pointed = re.search(r'aria-describedby="([^"]+)"', tag)
            assert name is not None and pointed is not None, tag
            found[name[1]] = (pointed[1], " autofocus" in tag)
    return found


def test_a_refused_entrant_is_said_beside_the_field_it_is_about(season, people):
    url = reverse("matches:season_entrant_add", kwargs={"slug": season.club.slug,
                                                        "season": season.slug})
    division = season.divisions.get()

    refused = as_(people["admin"]).post(url, {
        "division": division.pk, "name": "Black Bull", "kind": "team",
        "players": "Nobody", "captain": ""})

    assert refused.status_code == 400
    page = refused.content.decode()
    assert refused_controls(page) == {"players": ("entrant-players-error", True)}
    assert ('<p class="error" id="entrant-players-error">Not the club&#x27;s players: '
            'Nobody. Add them on the club page first.</p>') in page
    assert page.count(" autofocus") == 1
    assert 'id="entrant-error"' not in page  # nothing said of the form as a whole
    assert not division.entrants.filter(name="Black Bull").exists()

    both = as_(people["admin"]).post(url, {
        "division": division.pk, "name": "Black Bull", "kind": "team",
        "players": "", "captain": "nobody"}).content.decode()
    assert refused_controls(both) == {"captain": ("entrant-captain-error", True)}


def test_a_refusal_of_the_whole_entrant_form_takes_the_focus_at_its_top(season, people):
    url = reverse("matches:season_entrant_add", kwargs={"slug": season.club.slug,
                                                        "season": season.slug})
    division = season.divisions.get()

    page = as_(people["admin"]).post(url, {
        "division": division.pk, "name": "royal oak a", "kind": "team", "players": "",
        "captain": ""}).content.decode()

    assert ('<p class="error" role="alert" id="entrant-error" tabindex="-1" autofocus>This '
            'division already has an entrant of that name (in any case).</p>') in page
    assert page.count(" autofocus") == 1 and refused_controls(page) == {}


class SentAsShown(HTMLParser):
    """What a browser sends for a page's form left as it is: each input's value (a box
    only if ticked), each select's chosen option (else its first), each text area's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sent: dict[str, str] = {}
        self._select: str | None = None
        self._area: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {key: value or "" for key, value in attrs}
        name = given.get("name", "")
        if tag == "input" and name and given.get("type") not in ("submit", "button"):
            if given.get("type") not in ("checkbox", "radio") or "checked" in given:
                self.sent[name] = given.get("value", "on" if "checked" in given else "")
        elif tag == "select":
            self._select = name
        elif tag == "option" and self._select:
            if self._select not in self.sent or "selected" in given:
                self.sent[self._select] = given.get("value", "")
        elif tag == "textarea":
            self._area = name
            self.sent[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._area = None

    def handle_data(self, data: str) -> None:
        if self._area:
            self.sent[self._area] += data.removeprefix("\n")


def sent_as_shown(html: str) -> dict[str, str]:
    parser = SentAsShown()
    parser.feed(html)
    return parser.sent


def test_the_new_season_form_sent_as_it_opens_makes_a_season(club, people):
    url = reverse("matches:season_new", kwargs={"slug": club.slug})
    shown = sent_as_shown(as_(people["admin"]).get(url).content.decode())
    assert shown["fixture_format"] == "single" and shown["name"] == shown["starts_on"] == ""

    response = as_(people["admin"]).post(url, {**shown, "name": "As It Opens",
                                               "starts_on": "2026-10-05"})

    season = Season.objects.get(name="As It Opens")
    assert response["Location"] == season.get_absolute_url()
    assert season.fixture_format == "single" and season.night.most_games == 1


def test_the_new_season_form_says_every_reason_at_once_and_opens_on_them(club, people):
    url = reverse("matches:season_new", kwargs={"slug": club.slug})
    response = as_(people["admin"]).post(url, {
        "name": "", "starts_on": "2026-10-05", "ends_on": "2026-01-01",
        "game": "all-fives", "fixture_format": "games", "singles": "0", "pairs": "0",
        "win": "2", "draw": "1", "loss": "0", "per_game": "0", "walkover_won": "1",
        "walkover_lost": "1", "heavy_win_points": "1", "tiebreak_1": "wins",
        "tiebreak_2": "wins", "divisions": "A"})

    assert response.status_code == 200 and not Season.objects.exists()
    errors = response.context["form"].errors
    # the fields', the form's, the rules' and the season's own: all in one answer
    assert {field: list(reasons) for field, reasons in errors.items()} == {
        "name": ["This field is required."],
        "tiebreak_1": ["Each tie-breaker at most once."],
        "heavy_win_margin": ["Give both the margin and the points, or neither."],
        "ends_on": ["The last night comes after the first."],
        "singles": ["A fixture of games has at least one singles or pairs game."],
        "walkover_won": ["Give the side that turned up more games than the side absent."]}
    page = response.content.decode()
    summary = re.search(r'<div class="error-box error-summary" id="error-summary" '
                        r'tabindex="-1" autofocus>(.*?)</div>\s*</div>', page, re.S)
    assert summary is not None and page.count(" autofocus") == 1
    links = re.findall(r'<li><a href="#([^"]+)">([^<]*)</a></li>', summary[1])
    assert links == [
        ("id_name", "Season name: This field is required."),
        ("id_ends_on", "Last night (optional): The last night comes after the first."),
        ("id_singles", "Singles games: A fixture of games has at least one singles or pairs "
                       "game."),
        ("id_heavy_win_margin", "Heavy win: won by at least (games): Give both the margin "
                                "and the points, or neither."),
        ("id_walkover_won", "Walkover: games to the side there: Give the side that turned "
                            "up more games than the side absent."),
        ("id_tiebreak_1", "Tie-breaker 1: Each tie-breaker at most once.")]
    # each link's field is there, marked, pointing at its own reason beside it
    for anchor, _ in links:
        control = re.search(rf'<(?:input|select|textarea)\b[^>]*id="{anchor}"[^>]*>', page)
        assert control is not None and 'aria-invalid="true"' in control[0]
        assert f'aria-describedby="{anchor}_error"' in control[0]
        assert f'<ul class="errorlist" id="{anchor}_error">' in page


def test_the_new_season_forms_controls_each_have_a_name_of_their_own(club, people):
    page = as_(people["admin"]).get(reverse("matches:season_new", kwargs={"slug": club.slug}))
    labels = [re.sub(r"<[^>]+>|\s+", " ", label).strip()
              for label in re.findall(r"<label[^>]*>(.*?)</label>", page.content.decode(), re.S)]
    assert labels and len(labels) == len(set(labels)), sorted(labels)
    assert "Close loss earns (points)" in labels and "Heavy win earns (points)" in labels


def test_a_club_admin_sets_a_season_up_with_its_scheme_rules_and_tie_breakers(club, people):
    url = reverse("matches:season_new", kwargs={"slug": club.slug})
    form = {"name": "Winter League", "starts_on": "2026-10-05", "ends_on": "2027-03-29",
            "game": "fives-and-threes",
            "fixture_format": "games", "singles": "6", "pairs": "3", "win": "3", "draw": "1",
            "loss": "0", "per_game": "0", "close_loss_margin": "1", "close_loss_points": "1",
            "heavy_win_margin": "", "heavy_win_points": "", "walkover_won": "5",
            "walkover_lost": "4", "target": "121", "tile_set": "double-nine", "deal": "short",
            "tiebreak_1": "head_to_head", "tiebreak_2": "game_difference",
            "divisions": "A\nB"}
    assert as_(people["oak"]).post(url, form).status_code == 403
    backwards = as_(people["admin"]).post(url, {**form, "ends_on": "2026-01-01"})
    assert backwards.status_code == 200 and not Season.objects.filter(name="Winter League")
    assert "The last night comes after the first." in backwards.content.decode()
    no_race = as_(people["admin"]).post(url, {**form, "fixture_format": "race"})
    assert "Say how many games the race is to." in no_race.content.decode()
    long_race = as_(people["admin"]).post(url, {**form, "fixture_format": "race",
                                                "race_to": "21"})
    assert long_race.context["form"].errors["race_to"] == [
        "Ensure this value is less than or equal to 20."]
    long_night = as_(people["admin"]).post(url, {**form, "singles": "30", "pairs": "11"})
    assert long_night.context["form"].errors["pairs"] == [
        "A fixture night has at most 40 games."]
    bad = as_(people["admin"]).post(url, {**form, "tiebreak_3": "head_to_head"})
    assert bad.status_code == 200 and "Each tie-breaker at most once" in bad.content.decode()
    half = as_(people["admin"]).post(url, {**form, "heavy_win_points": "1"})
    assert "Give both the margin and the points" in half.content.decode()
    dashed = as_(people["admin"]).post(url, {**form, "divisions": "A\nPremier — North"})
    assert dashed.context["form"].errors["divisions"] == [
        "A division's name cannot hold \" — \": the season's files name a division "
        "\"season — division\", and it would come back split."]
    level = as_(people["admin"]).post(url, {**form, "walkover_won": "4"})
    assert level.context["form"].errors["walkover_won"] == [
        "Give the side that turned up more games than the side absent."]
    assert not Season.objects.filter(name="Winter League").exists()

    blank = as_(people["admin"]).post(url, {**form, "divisions": "\u200b\n\u202e"})
    assert blank.context["form"].errors["divisions"] == ["Name at least one division."]
    assert not Season.objects.filter(name="Winter League").exists()

    # an override in a division's name turned its table's caption around
    response = as_(people["admin"]).post(url, {**form, "divisions": "\u202eA\nB\u200f"})
    season = Season.objects.get(name="Winter League")
    assert response["Location"] == season.get_absolute_url()
    assert season.scoring == {"win": 3, "draw": 1, "loss": 0, "per_game": 0,
                              "close_loss": {"margin": 1, "points": 1}, "walkover": [5, 4]}
    assert season.tiebreaks == ["head_to_head", "game_difference"]
    assert season.options == {"target": 121, "set": "double-nine", "deal": "short"}
    assert (season.singles, season.pairs) == (6, 3)
    assert season.ends_on == datetime.date(2027, 3, 29)
    assert list(season.divisions.values_list("name", flat=True)) == ["A", "B"]


def test_a_season_with_no_tie_breakers_lets_level_entrants_share_a_rank(club, people):
    url = reverse("matches:season_new", kwargs={"slug": club.slug})
    as_(people["admin"]).post(url, {
        "name": "Level League", "starts_on": "2026-10-05", "game": "all-fives",
        "fixture_format": "single", "win": "2", "draw": "1", "loss": "0", "per_game": "0",
        "walkover_won": "1", "walkover_lost": "0", "tiebreak_1": "", "tiebreak_2": "",
        "divisions": "A"})
    season = Season.objects.get(name="Level League")
    assert season.tiebreaks == []
    division = season.divisions.get()
    for name in ("Oak", "Bowes", "Middleton"):
        entrant_add(division=division, by=people["admin"], name=name)
    fixtures_csv_import(division=division, by=people["admin"],
                                 text="home,away,home_games,away_games\nOak,Middleton,1,0\n")

    table = division_table(division, season)

    # level on points; the default order would have put Bowes (games 0-0) above
    assert [(row.rank, row.entrant) for row in table.rows] == [
        (1, "Oak"), (2, "Bowes"), (2, "Middleton")]
    exported = json.loads(Client().get(reverse("matches:season_export", kwargs={
        "slug": club.slug, "season": season.slug, "what": "league.json"})).content)
    assert exported["tiebreaks"] == []


def test_a_season_made_without_a_choice_keeps_the_formats_order_written_out(club, people):
    season = season_create(club=club, by=people["admin"], name="Plain",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives")
    imported = league_import(club=club, by=people["admin"], document={
        "format": "domino-league/1", "name": "None at all", "game": "all-fives",
        "entrants": [{"name": "Oak"}, {"name": "Bowes"}], "fixtures": [], "tiebreaks": []})

    assert season.tiebreaks == ["game_difference", "games_for"]
    assert imported.tiebreaks == []


def test_the_season_admin_forms_stay_on_their_division_and_keep_what_was_refused(
        club, people):
    season = season_create(club=club, by=people["admin"], name="Two Tiers",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives",
                                    divisions=["Premier", "Second"])
    second = season.divisions.get(name="Second")
    url = reverse("matches:season_entrant_add", kwargs={"slug": club.slug,
                                                        "season": season.slug})
    admin = as_(people["admin"])
    entered = {"division": second.pk, "name": "Black Bull", "kind": "pair",
               "captain": "oak", "players": "Ann Dale, Bob Hartt"}

    refused = admin.post(url, entered)

    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'aria-current="page" class="btn btn-primary">Second</a>' in page
    assert ('<p class="error" id="entrant-players-error">Not the club&#x27;s players: Ann '
            'Dale, Bob Hartt. Add them on the club page first.</p>') in page
    for shown in ('value="Black Bull"', 'value="oak"', 'value="Ann Dale, Bob Hartt"',
                  '<option value="pair" selected>'):
        assert shown in page
    assert not second.entrants.exists()

    added = admin.post(url, {**entered, "players": ""})

    assert added["Location"] == f"{season.get_absolute_url()}?division={second.pk}"
    assert second.entrants.get().name == "Black Bull"
    adjust = admin.post(reverse("matches:season_adjust", kwargs={
        "slug": club.slug, "season": season.slug}), {
        "division": second.pk, "entrant": second.entrants.get().pk, "points": "2",
        "reason": ""})
    assert adjust.status_code == 400 and 'value="2"' in adjust.content.decode()
    # the refused field, and it alone, points at its reason beside it, and takes the focus
    assert refused_controls(adjust.content.decode()) == {
        "reason": ("adjust-reason-error", True)}
    assert ('<p class="error" id="adjust-reason-error">This field is required.</p>'
            in adjust.content.decode())
    zero = admin.post(reverse("matches:season_adjust", kwargs={
        "slug": club.slug, "season": season.slug}), {
        "division": second.pk, "entrant": second.entrants.get().pk, "points": "0",
        "reason": "a mistake"}).content.decode()
    assert "An adjustment adds or deducts points: give a number other than 0." in zero
    assert "adjustment_not_zero" not in zero  # the constraint's name, not words


def _new_division_and_its_entrant_form(club, people) -> tuple[Division, str]:
    """A new season's division, and the address its "add an entrant" form posts to."""
    division = season_create(
        club=club, by=people["admin"], name="Members Only", game="all-fives",
        starts_on=datetime.date(2026, 9, 7)).divisions.get()
    return division, reverse("matches:season_entrant_add", kwargs={
        "slug": club.slug, "season": division.season.slug})


def test_an_entrants_captain_is_a_member_of_the_club(club, people, django_user_model):
    django_user_model.objects.create_user("stranger")
    division, url = _new_division_and_its_entrant_form(club, people)

    refused = as_(people["admin"]).post(url, {"division": division.pk, "name": "Black Bull",
                                              "kind": "team", "captain": "stranger"})

    assert refused.status_code == 400
    assert ("stranger is not a member of the club: invite them first, so that they can "
            "open their fixtures.") in refused.content.decode()
    assert not division.entrants.exists()
    as_(people["admin"]).post(url, {"division": division.pk, "name": "Black Bull",
                                    "kind": "team", "captain": "member"})
    assert division.entrants.get().captain == people["member"]


def test_an_entrants_captain_refusal_does_not_say_which_accounts_the_site_has(
        club, people, django_user_model):
    """A username nobody has and a stranger's are refused alike: the club's admin learns
    who is a member of the club, not who has an account on the site."""
    django_user_model.objects.create_user("stranger")
    division, url = _new_division_and_its_entrant_form(club, people)

    pages = {name: as_(people["admin"]).post(url, {
        "division": division.pk, "name": "Black Bull", "kind": "team", "captain": name})
        for name in ("stranger", "nobody")}

    for name, page in pages.items():
        assert page.status_code == 400
        assert (f"{name} is not a member of the club: invite them first, so that they can "
                "open their fixtures.") in page.content.decode()
        assert "No user is called" not in page.content.decode()
    assert not division.entrants.exists()


LEAGUE_WRITES = ["season_new", "season_entrant_add", "season_entrant_change",
                 "season_generate", "season_fixture_add", "season_adjust",
                 "season_lock", "season_import_csv", "games", "submit", "confirm", "dispute",
                 "resolve", "walkover-home", "walkover-away", "void", "reinstate", "redate",
                 "play"]


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.MEMBERS])
@pytest.mark.parametrize("who", ["anonymous", "outsider", "member", "scorer", "middleton"])
@pytest.mark.parametrize("write", LEAGUE_WRITES)
def test_no_league_write_for_those_it_is_not_theirs_to_make(season, people, who, write,
                                                            visibility, django_user_model):
    """Middleton's captain is neither side of Oak v Bowes; scorers and members may read;
    to those who are not members, a members-only club's league is not there (404)."""
    Club.objects.filter(pk=season.club.pk).update(visibility=visibility)
    scorer = django_user_model.objects.create_user("a-scorer")
    Membership.objects.create(club=season.club, user=scorer, role="scorer")
    people = {**people, "outsider": django_user_model.objects.create_user("outsider")}
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    fixture_games_enter(fixture=fixture, by=people["oak"],
                                 games=paper_games(fixture, [(61, 40), (61, 12), (58, 61)]))
    if write in ("confirm", "dispute", "resolve"):
        fixture_submit(fixture=fixture, by=people["oak"])
    if write == "reinstate":
        fixture_void(fixture=fixture, by=people["admin"])
    client = Client() if who == "anonymous" else as_(
        scorer if who == "scorer" else people[who])
    kwargs = {"slug": season.club.slug, "season": season.slug}
    if write in ("season_new",):
        url = reverse("matches:season_new", kwargs={"slug": season.club.slug})
    elif write.startswith("season_"):
        url = reverse(f"matches:{write}", kwargs=kwargs)
    else:
        url = fixture_url(fixture, write)
    state = lambda: (Season.objects.count(), Fixture.objects.count(),  # noqa: E731
                     FixtureChange.objects.count(), list(Fixture.objects.values_list(
                         "status", "date", "home_games", "away_games", "walkover")),
                     season.divisions.get().entrants.count(),
                     Season.objects.filter(locked=True).count())
    before = state()
    response = client.post(url, {"division": season.divisions.get().pk, "name": "X",
                                 "kind": "team", "legs": "1", "entrant":
                                 season.divisions.get().entrants.first().pk, "points": "-1",
                                 "reason": "x", "message": "x", "do": "rename", "home_1": "61",
                                 "away_1": "1", "number": "2", "postponed": "on",
                                 "home": fixture.away_id, "away": fixture.home_id,
                                 "date": "2026-09-21"})
    outsider = who in ("anonymous", "outsider")
    assert response.status_code == (404 if outsider and visibility == Visibility.MEMBERS
                                    else 403)
    assert state() == before


def oak_and_bowes(club: Club, people: dict, oak: list[str], bowes: list[str], *, name: str,
                  **scheme: Any) -> tuple[Season, dict[str, list[Player]]]:
    """A Fives and Threes season of games (``scheme``: singles, pairs, options) with two
    entrants, Oak and Bowes, captained by oak and bowes, their squads the club's players
    named ``oak`` and ``bowes``."""
    season = season_create(
        club=club, by=people["admin"], name=name, starts_on=datetime.date(2026, 9, 7),
        game="fives-and-threes", fixture_format="games", divisions=["Only"], **scheme)
    division = season.divisions.get()
    squads = {}
    for entrant, captain, players in (("Oak", "oak", oak), ("Bowes", "bowes", bowes)):
        squads[entrant] = [player_add(club=club, name=p, by=people["admin"])
                           for p in players]
        entrant_add(division=division, by=people["admin"], name=entrant,
                             captain=people[captain], players=squads[entrant])
    return season, squads


def test_a_pairs_game_without_partnerships_goes_to_the_pair_whose_player_won(club, people):
    season, squads = oak_and_bowes(club, people, ["Gwen", "Harry"], ["Dev", "Edna"],
                                   name="Pairs", options={"target": 4}, pairs=1)
    fixture = meeting(season, "Oak", "Bowes")
    match = fixture_game_start(fixture=fixture, by=people["oak"], number=1,
                                        home_players=squads["Oak"],
                                        away_players=squads["Bowes"]).match
    assert match_names(match) == ["Gwen", "Dev", "Harry", "Edna"]

    round_start(match=match, starter=3)
    event_record(match=match, action=rules.Play(3, rules.Tile(6, 6)))  # 12 → 4

    match.refresh_from_db()
    assert match.status == "finished" and [s.score for s in match.sides.all()] == [0, 0, 0, 4]
    assert fixture_game_score(fixture.games.get()) == (0, 4)  # Edna won it for Bowes
    night = as_(people["oak"]).get(fixture_url(fixture)).content.decode()
    assert "· <strong>0–4</strong>" in night  # as counted, not each seat's score
    fixture = fixture_submit(fixture=fixture, by=people["oak"])
    assert (fixture.home_games, fixture.away_games) == (0, 1)
    # its score is in the submitted result now: the match is no longer deleted
    page = as_(people["oak"]).get(reverse("matches:delete", args=[match.public_id]))
    said = " ".join(re.sub(r"<[^>]+>", "", page.content.decode()).split())
    assert ("This game counts in the result of Oak v Bowes (submitted, awaiting the away "
            "captain): its scorepad is closed.") in said
    assert 'id="delete-button"' not in page.content.decode()


def test_a_game_kept_on_paper_names_who_played_it(club, people):
    season, squads = oak_and_bowes(club, people, ["Ann", "Bob"], ["Cat", "Dan"],
                                   name="Paper", singles=1, pairs=1)
    fixture = meeting(season, "Oak", "Bowes")
    oak = as_(people["oak"])
    pair = {"home_2_player_1": squads["Oak"][0].pk, "home_2_player_2": squads["Oak"][1].pk,
            "away_2_player_1": squads["Bowes"][0].pk, "away_2_player_2": squads["Bowes"][1].pk,
            "home_2": "61", "away_2": "58"}
    oak.post(fixture_url(fixture, "games"), pair)
    game = fixture.games.get(number=2)
    assert (game.home_score, game.away_score, game.match) == (61, 58, None)
    assert [p.name for p in game.home_players.all()] == ["Ann", "Bob"]
    level = oak.post(fixture_url(fixture, "games"), {
        **pair, "home_1_player_1": squads["Oak"][0].pk,
        "away_1_player_1": squads["Bowes"][0].pk, "home_1": "40", "away_1": "40"})
    assert level.status_code == 400 and "is level" in level.content.decode()
    lopsided = oak.post(fixture_url(fixture, "games"), {
        **pair, "home_1_player_1": squads["Oak"][0].pk, "home_1_player_2": squads["Oak"][1].pk,
        "away_1_player_1": squads["Bowes"][0].pk, "home_1": "61", "away_1": "1"})
    assert "Game 1: a game is one player a side, or a pair a side." in \
        lopsided.content.decode()
    assert fixture.games.count() == 1


def test_a_game_keyed_out_of_order_keeps_its_number_on_the_page_and_in_the_log(
        season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    squads = {side: player_add(club=season.club, name=name, by=people["admin"])
              for side, name in (("home", "Ann Dale"), ("away", "Dev Patel"))}
    fixture.home.players.add(squads["home"])
    fixture.away.players.add(squads["away"])
    oak = as_(people["oak"])
    oak.post(fixture_url(fixture, "games"), {
        "home_3_player_1": squads["home"].pk, "away_3_player_1": squads["away"].pk,
        "home_3": "61", "away_3": "40"})

    html = oak.get(fixture_url(fixture)).content.decode()

    inputs = dict(re.findall(r'<input[^>]*name="((?:home|away)_\d)"[^>]*value="(\d*)"', html))
    assert inputs == {"home_1": "", "away_1": "", "home_2": "", "away_2": "",
                      "home_3": "61", "away_3": "40"}
    offered = re.search(r'<select name="number"[^>]*>(.*?)</select>', html)
    assert offered is not None
    assert re.findall(r'<option value="(\d+)"', offered[1]) == ["1", "2"]
    away = as_(people["bowes"]).get(fixture_url(fixture)).content.decode()
    assert '<li value="3">61–40' in away  # read-only, numbered by the game
    as_(people["admin"]).post(fixture_url(fixture, "walkover-home"))
    log = Client().get(fixture_url(fixture)).content.decode()
    assert "Game 3: 61–40 → no score" in log


def test_a_night_is_not_sent_while_one_of_its_games_is_on_the_scorepad(season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    squads = {side: player_add(club=season.club, name=name, by=people["admin"])
              for side, name in (("home", "Ann Dale"), ("away", "Dev Patel"))}
    fixture.home.players.add(squads["home"])
    fixture.away.players.add(squads["away"])
    fixture_game_start(fixture=fixture, by=people["oak"], number=1,
                                home_players=[squads["home"]], away_players=[squads["away"]])
    oak = as_(people["oak"])
    oak.post(fixture_url(fixture, "games"), {"home_2": "61", "away_2": "50",
                                             "home_3": "40", "away_3": "61"})

    refused = oak.post(fixture_url(fixture, "submit"))

    assert refused.status_code == 400
    assert ("Game 1 is still being played on the scorepad: send the night once it is "
            "finished (or, if it will not be, abandon that match).") in \
        refused.content.decode()
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games) == ("scheduled", None)


def test_a_fixture_is_re_dated_within_its_season_and_a_postponement_says_so(season, people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    Fixture.objects.filter(pk=fixture.pk).update(date=datetime.date(2026, 9, 14))
    oak = as_(people["oak"])
    for body, message in (
            ({"date": ""}, "Give the night&#x27;s new date, or tick Postponed if it has "
                           "none yet."),
            ({"date": "2020-01-01"}, "Give a date within the season: from 7 Sep "
                                     "2026 on.")):
        refused = oak.post(fixture_url(fixture, "redate"), body)
        html = refused.content.decode()
        assert refused.status_code == 400 and html.count(message) == 2  # alert, and field
        date = re.search(r'<input type="date"[^>]*>', html)
        assert date is not None and 'aria-invalid="true"' in date[0]
        assert f'value="{body["date"]}"' in date[0] or not body["date"]  # as typed
        assert '<details class="admin-tools" open>' in html
        fixture.refresh_from_db()
        assert (fixture.status, fixture.date) == ("scheduled", datetime.date(2026, 9, 14))

    postponed = oak.post(fixture_url(fixture, "redate"), {"date": "", "postponed": "on"},
                         follow=True)

    assert "Fixture postponed." in postponed.content.decode()
    box = re.search(r'<input type="checkbox" name="postponed"[^>]*>', postponed.content.decode())
    assert box is not None and "checked" in box[0]  # saving again keeps it postponed
    # its new date given, the box still ticked: re-dated, or no one would be reminded
    dated = oak.post(fixture_url(fixture, "redate"), {"date": "2026-09-28", "postponed": "on"},
                     follow=True)
    assert "Fixture re-dated." in dated.content.decode()
    fixture.refresh_from_db()
    assert (fixture.status, fixture.date) == ("scheduled", datetime.date(2026, 9, 28))
    Season.objects.filter(pk=season.pk).update(ends_on=datetime.date(2027, 3, 29))
    late = oak.post(fixture_url(fixture, "redate"), {"date": "2027-04-05"})
    assert "Give a date within the season: from 7 Sep 2026 to 29 Mar 2027." in \
        late.content.decode()
    oak.post(fixture_url(fixture, "redate"), {"date": "2026-10-05"})
    fixture.refresh_from_db()
    assert (fixture.status, fixture.date) == ("scheduled", datetime.date(2026, 10, 5))


def test_a_league_admin_renames_or_removes_an_entrant_from_the_season_page(season, people):
    admin = as_(people["admin"])
    division = season.divisions.get()
    url = reverse("matches:season_entrant_change", kwargs={"slug": season.club.slug,
                                                           "season": season.slug})
    dupe = entrant_add(division=division, by=people["admin"], name="Dupe squad")
    page = admin.get(season.get_absolute_url()).content.decode()
    assert "Rename or remove an entrant" in page
    assert "Rename or remove an entrant" not in as_(people["oak"]).get(
        season.get_absolute_url()).content.decode()
    signed_off(season, people)  # Royal Oak A v Bowes Dragons, played
    form = {"division": division.pk, "entrant": dupe.pk, "name": ""}

    unsure = admin.post(url, {**form, "do": "remove"})
    assert unsure.status_code == 400
    assert "Tick the box to say that the entrant and its fixtures not yet played are to go." \
        in unsure.content.decode()
    played = admin.post(url, {**form, "entrant": division.entrants.get(
        name="Bowes Dragons").pk, "do": "remove", "confirm": "on"})
    assert "Bowes Dragons has fixtures played, settled or begun" in played.content.decode()
    assert as_(people["oak"]).post(url, {**form, "do": "remove",
                                         "confirm": "on"}).status_code == 403
    assert division.entrants.count() == 4

    renamed = admin.post(url, {**form, "name": "Black Bull", "do": "rename"}, follow=True)
    assert "Entrant renamed." in renamed.content.decode()
    removed = admin.post(url, {**form, "do": "remove", "confirm": "on"}, follow=True)
    assert "Entrant removed." in removed.content.decode()
    assert not division.entrants.filter(name__in=["Dupe squad", "Black Bull"]).exists()


def test_a_league_admin_sets_an_entrants_captain_and_changes_its_squad(season, people):
    admin = as_(people["admin"])
    division = season.divisions.get()
    url = reverse("matches:season_entrant_change", kwargs={"slug": season.club.slug,
                                                           "season": season.slug})
    oak = division.entrants.get(name="Royal Oak A")
    player_add(club=season.club, name="Ann Dale", by=people["admin"])
    form = {"division": division.pk, "entrant": oak.pk, "name": ""}

    # Enter in a field presses its form's first button: each change is a form of its own
    page = admin.get(season.get_absolute_url()).content.decode()
    for field, first in (("change-name-", "rename"), ("change-captain-", "captain"),
                         ("change-players-", "squad_add")):
        [card] = [f for f in re.findall(r"<form .*?</form>", page, re.S) if field in f]
        assert re.findall(r'<button type="submit" name="do" value="(\w+)"', card)[0] == first
    captain = admin.post(url, {**form, "do": "captain", "captain": "member"}, follow=True)
    assert "Captain set." in captain.content.decode()
    unnamed = admin.post(url, {**form, "do": "squad_add", "players": " , "})
    assert unnamed.status_code == 400
    assert ('<p class="error" id="entrant-squad-players-error">Name the players to add or '
            'take out.</p>') in unnamed.content.decode()
    added = admin.post(url, {**form, "do": "squad_add", "players": "ann dale"}, follow=True)
    assert "Squad changed." in added.content.decode()
    oak.refresh_from_db()
    assert oak.captain == people["member"]
    assert [p.name for p in oak.players.all()] == ["Ann Dale"]
    unknown = admin.post(url, {**form, "do": "squad_drop", "players": "Ed Nye"})
    assert 'value="Ed Nye"' in unknown.content.decode()  # what was typed comes back
    admin.post(url, {**form, "do": "squad_drop", "players": "Ann Dale"})
    assert not oak.players.exists()


def test_a_refused_rename_or_removal_is_said_beside_its_own_field_not_another_forms(
        season, people):
    division = season.divisions.get()
    url = reverse("matches:season_entrant_change", kwargs={"slug": season.club.slug,
                                                           "season": season.slug})
    entrant = division.entrants.first()
    assert entrant is not None
    form = {"division": division.pk, "entrant": entrant.pk, "name": ""}

    unnamed = as_(people["admin"]).post(url, {**form, "do": "rename"}).content.decode()
    unsure = as_(people["admin"]).post(url, {**form, "do": "remove"}).content.decode()

    # the rename's "name", not the entrant form's field of the same name
    assert refused_controls(unnamed) == {"name": ("entrant-change-name-error", True)}
    assert re.search(r'<input type="text" name="name" id="change-name-\d+" maxlength="80" '
                     r'aria-invalid="true"', unnamed)
    assert ('<p class="error" id="entrant-change-name-error">Give the entrant&#x27;s new '
            'name.</p>') in unnamed
    box = re.search(r'<input type="checkbox" name="confirm"[^>]*>', unsure)
    assert box is not None and 'aria-invalid="true"' in box[0] and " autofocus" in box[0]
    assert re.search(r'aria-describedby="remove-help-\d+ entrant-change-confirm-error"', box[0])
    assert ('<p class="error" id="entrant-change-confirm-error">Tick the box to say that the '
            'entrant and its fixtures not yet played are to go.</p>') in unsure


def test_a_race_nights_page_says_when_it_can_be_sent(club, people):
    season = season_create(
        club=club, by=people["admin"], name="Race Night", starts_on=datetime.date(2026, 9, 7),
        game="all-fives", fixture_format="race", race_to=3, divisions=["Only"])
    division = season.divisions.get()
    for name in ("Oak", "Bowes"):
        entrant_add(division=division, by=people["admin"], name=name)
    html = as_(people["admin"]).get(fixture_url(meeting(season, "Oak", "Bowes"))).content \
        .decode()
    assert "A race to 3 games won: send the night once a side has them." in html
    assert len(re.findall(r'<tr data-game="\d+">', html)) == 5  # the longest race


# -- the sign-off refused: a result not awaiting confirmation, a captain of both sides ----

SIGN_OFF_POSTS = {"confirm": {}, "dispute": {"message": "Not what we played"}}


@pytest.mark.parametrize("action", list(SIGN_OFF_POSTS))
@pytest.mark.parametrize("status", [status for status in FixtureStatus.values
                                    if status != FixtureStatus.SUBMITTED])
def test_a_sign_off_of_a_result_not_awaiting_confirmation_is_refused_on_its_page(status,
                                                                               action):
    """For every status but submitted: 400 with the fixture's page saying why, nothing
    changed, never a server error."""
    night = league_night_at(status)
    before = fixture_state(night.fixture)

    answer = as_(night.away_captain).post(fixture_url(night.fixture, action),
                                          SIGN_OFF_POSTS[action])

    assert answer.status_code == 400
    page = unescape(answer.content.decode())
    assert WRONG_STATUS % {"status": FixtureStatus(status).label.lower()} in page
    assert 'id="confirm-fixture"' not in page
    assert fixture_state(night.fixture) == before


@pytest.mark.parametrize("action", list(SIGN_OFF_POSTS))
def test_a_captain_of_both_sides_is_refused_their_own_results_sign_off_saying_why(action):
    night = league_night_at(FixtureStatus.SUBMITTED)
    Entrant.objects.filter(pk=night.fixture.away_id).update(captain=night.home_captain)
    before = fixture_state(night.fixture)
    captain = as_(night.home_captain)

    page = captain.get(fixture_url(night.fixture)).content.decode()
    answer = captain.post(fixture_url(night.fixture, action), SIGN_OFF_POSTS[action])

    assert 'id="confirm-fixture"' not in page and 'id="both-captains"' in page
    assert answer.status_code == 403
    assert str(OWN_FIXTURE) in unescape(answer.content.decode())
    assert fixture_state(night.fixture) == before


@pytest.mark.parametrize("count_submitted", [False, True], ids=["confirmed only", "submitted"])
def test_a_submitted_result_is_marked_only_where_submitted_results_count(season, people,
                                                                         count_submitted):
    Season.objects.filter(pk=season.pk).update(count_submitted=count_submitted)
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    as_(people["oak"]).post(fixture_url(fixture, "games"), SPEC_NIGHT)
    as_(people["oak"]).post(fixture_url(fixture, "submit"))

    page = Client().get(season.get_absolute_url()).content.decode()

    assert ("2–1 †" in page) is count_submitted
    assert "2–1" in page


# -- a night's games link to where each reader can use them ------------------------------


def game_link(html: str) -> tuple[str, str, str]:
    """The night's one game's link on the fixture's page (in its scores form, or in the
    list of its games for a reader who enters none): its class, address and words."""
    found = re.findall(r'<a href="([^"]+)" class="(game-[a-z]+)">([^<]+)</a>', html)
    assert len(found) == 1, found
    address, kind, words = found[0]
    return kind, address, unescape(words)


def test_a_nights_game_links_to_its_scorepad_for_whoever_may_score_it(client):
    night = league_night_at(FixtureStatus.SCHEDULED)
    fixture, match = night.fixture, night.match
    scorepad = ("game-scorepad", match.get_scorer_url(), "Score it on the scorepad")
    watch = ("game-watch", match.get_absolute_url(), "Watch it on the scorepad")
    oak, bowes = as_(night.home_captain), as_(night.away_captain)
    # the captain who started it, on any phone signed in (the scorepad lets him take
    # it there); a phone holding the shared scorer's link, signed in or not
    assert game_link(oak.get(fixture_url(fixture)).content.decode()) == scorepad
    bowes.post(match.get_join_url())
    assert game_link(bowes.get(fixture_url(fixture)).content.decode()) == scorepad
    # the other captain on another phone, and the league admin, watch it
    for other in (as_(night.away_captain), as_(night.admin)):
        assert game_link(other.get(fixture_url(fixture)).content.decode()) == watch
    # (there the captain is asked before his phone takes the game over)
    assert as_(night.home_captain).get(match.get_scorer_url()).status_code == 403

    # a phone whose grant was taken back watches
    night.match.grants.filter(revoked_at=None).exclude(pk=night.grant.pk).update(
        revoked_at=timezone.now())
    assert game_link(bowes.get(fixture_url(fixture)).content.decode()) == watch

    # over, it has a page of its own for everyone: nothing is scored any more
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, rules.Tile.parse("5-5")))
    for reader in (oak, bowes, Client()):
        assert game_link(reader.get(fixture_url(fixture)).content.decode()) == (
            "game-page", match.get_absolute_url(), "The game's page")


def test_the_fixture_log_says_each_game_changed_in_words_in_the_readers_language(season,
                                                                                   people):
    fixture = meeting(season, "Royal Oak A", "Bowes Dragons")
    fixture_games_enter(fixture=fixture, by=people["oak"], games=paper_games(
        fixture, [(52, 61), (61, 47), (61, 0)], with_players=False))
    fixture_submit(fixture=fixture, by=people["oak"])
    fixture_dispute(fixture=fixture, by=people["bowes"], message="game 1 was 61-24")
    fixture_resolve(fixture=fixture, by=people["admin"], games=paper_games(
        fixture, [(61, 24), (61, 47), (61, 0)], with_players=False))

    def log(language: str) -> list[str]:
        reader = Client()
        reader.cookies["django_language"] = language
        html = reader.get(fixture_url(fixture)).content.decode()
        return [unescape(line) for line in re.findall(
            r'<ul class="game-changes"><li>(.*?)</li></ul>', html)]

    assert log("en") == ["Game 1: 52–61 → 61–24"]
    assert log("uk") == ["Гра 1: 52–61 → 61–24"]
    assert log("ru") == ["Игра 1: 52–61 → 61–24"]


def test_single_players_are_offered_no_partner_whatever_the_night(club, people):
    season = season_create(club=club, by=people["admin"], name="Singles",
                           starts_on=datetime.date(2026, 9, 7), game="fives-and-threes")
    division = season.divisions.get()
    ann, cat = (entrant_add(division=division, by=people["admin"], name=name, kind="single",
                            captain=people[captain],
                            players=[player_add(club=club, name=name, by=people["admin"])])
                for name, captain in (("Ann", "oak"), ("Cat", "bowes")))
    fixture = Fixture.objects.create(division=division, week=1, home=ann, away=cat)

    html = as_(people["oak"]).get(fixture_url(fixture)).content.decode()

    assert re.findall(r'<select name="(\w+_player_\d)"', html) == [
        "home_1_player_1", "away_1_player_1"]
    assert "Partner" not in html and 'id="home-2"' not in html


def test_an_adjustment_made_by_mistake_is_taken_back_by_the_league_alone(season, people):
    # made twice by mistake (a while apart: a double tap makes one), it counted twice:
    # the second is taken back
    division = season.divisions.get()
    oak = division.entrants.get(name="Royal Oak A")
    first = adjustment_add(entrant=oak, by=people["admin"], points=-2, reason="No-show fine")
    Adjustment.objects.filter(pk=first.pk).update(
        made_at=timezone.now() - resends.SENT_AGAIN_WITHIN)
    twice = adjustment_add(entrant=oak, by=people["admin"], points=-2, reason="No-show fine")

    def url(adjustment: Adjustment) -> str:
        return reverse("matches:season_adjustment_remove", kwargs={
            "slug": season.club.slug, "season": season.slug, "pk": adjustment.pk})

    def offered(client: Client) -> int:
        return client.get(season.get_absolute_url()).content.decode().count(
            "the adjustment of Royal Oak A, -2")

    assert offered(as_(people["admin"])) == 2 and offered(as_(people["oak"])) == 0
    assert as_(people["oak"]).post(url(twice)).status_code == 403
    assert as_(people["member"]).post(url(twice)).status_code == 403
    taken = as_(people["admin"]).post(url(twice), follow=True)
    assert "Adjustment taken back: Royal Oak A -2 — No-show fine." in \
        unescape(taken.content.decode())
    assert list(Adjustment.objects.values_list("pk", flat=True)) == [first.pk]
    table = league_rules.table_json(division_table(season_divisions(season).get(), season))
    rows = {r["entrant"]: r for r in table["standings"]}
    assert rows["Royal Oak A"]["adjustment"] == -2
    assert as_(people["admin"]).post(url(twice)).status_code == 404  # gone
    # another season's adjustment is not this season's to take back
    other = season_create(club=season.club, by=people["admin"], name="Other",
                          game="all-fives", starts_on=datetime.date(2026, 9, 7))
    elsewhere = entrant_add(division=other.divisions.get(), by=people["admin"], name="Z")
    theirs = adjustment_add(entrant=elsewhere, by=people["admin"], points=1, reason="x")
    assert as_(people["admin"]).post(url(theirs)).status_code == 404
    Season.objects.filter(pk=season.pk).update(locked=True)
    locked = as_(people["admin"]).post(url(first), follow=True)
    assert "locked" in locked.content.decode()
    assert Adjustment.objects.filter(pk=first.pk).exists()
