"""The correction page of a fixture: who may open and post it (outsiders 404, anyone not
running the league 403), its form prefilled from the games as they count and kept as
typed after a refusal, the superseded result readable on the fixture's page, the table
the spec computes still exact after corrections, and the spreadsheet import's refusal
linking to a page that works."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.clubs.services import club_create, player_add
from matches.leagues.selectors import division_table, season_divisions
from matches.models import Club, Fixture, FixtureCorrection, FixtureStatus, Season, Visibility
from matches.rules import league as league_rules
from tests.leagues import test_views
from tests.leagues.test_views import (
    SPEC_NIGHT,
    as_,
    fixture_url,
    quick_season,
    sent_as_shown,
    signed_off,
    spec_example_played,
    upload,
)
from tests.rules.test_league import SPEC_STANDINGS
from tests.support.helpers import LeagueNight, fixture_state, league_night_at

pytestmark = pytest.mark.django_db

# the league pages' own fixtures: their people, club and the spec's season
people, club, season = test_views.people, test_views.club, test_views.season


def correction_url(fixture: Fixture) -> str:
    season = fixture.division.season
    return reverse("matches:fixture_correct", kwargs={
        "slug": season.club.slug, "season": season.slug, "pk": fixture.pk})


def outsider_member(night: LeagueNight) -> tuple[User, User]:
    from matches.models import Membership

    outsider, member = (User.objects.create_user(n) for n in ("outsider", "member"))
    Membership.objects.create(club=night.fixture.division.season.club, user=member,
                              role="member")
    return outsider, member


@pytest.mark.parametrize("method", ["get", "post"])
def test_only_the_league_may_open_or_post_the_correction_page(method):
    night = league_night_at(FixtureStatus.CONFIRMED)
    Club.objects.filter(pk=night.fixture.division.season.club_id).update(
        visibility=Visibility.MEMBERS)
    outsider, member = outsider_member(night)
    url = correction_url(night.fixture)
    post = {"home_1": "0", "away_1": "10", "reason": "the scoresheet"}
    before = fixture_state(night.fixture)
    for who, status in ((outsider, 404), (member, 403), (night.home_captain, 403),
                        (night.away_captain, 403)):
        response = getattr(as_(who), method)(url, post if method == "post" else None)
        assert response.status_code == status, who
        assert fixture_state(night.fixture) == before
    assert Client().get(url).status_code == 404  # signed out: an outsider too

    response = getattr(as_(night.admin), method)(url, post if method == "post" else None)

    if method == "get":
        assert response.status_code == 200
        page = response.content.decode()
        # prefilled from the game as it counts: Ann's 10–0 on the scorepad
        assert 'name="home_1" id="home-1" min="0" inputmode="numeric" value="10"' in page
        assert 'name="away_1" id="away-1" min="0" inputmode="numeric" value="0"' in page
        assert "played 10–0" in page and "correction-reason" in page
        assert "final by the league's authority" in page
    else:
        assert response.status_code == 302 and response.url == night.fixture.get_absolute_url()
        night.fixture.refresh_from_db()
        assert (night.fixture.status, night.fixture.home_games,
                night.fixture.away_games) == ("confirmed", 0, 1)


def test_the_fixture_page_offers_the_correction_to_the_league_only():
    night = league_night_at(FixtureStatus.SUBMITTED)
    outsider, member = outsider_member(night)
    link = f'href="{correction_url(night.fixture)}"'
    assert link in as_(night.admin).get(night.fixture.get_absolute_url()).content.decode()
    for who in (member, night.home_captain, night.away_captain):
        assert link not in as_(who).get(night.fixture.get_absolute_url()).content.decode()


def test_a_fixture_without_a_result_says_why_it_is_not_corrected():
    night = league_night_at(FixtureStatus.SCHEDULED)
    page = as_(night.admin).get(correction_url(night.fixture)).content.decode()
    assert "The result cannot be corrected now. This fixture is scheduled: that cannot be " \
        "done now." in unescape(page)
    assert "correction-form" not in page
    assert f'href="{correction_url(night.fixture)}"' not in as_(night.admin).get(
        night.fixture.get_absolute_url()).content.decode()


def test_a_refused_correction_keeps_what_was_typed_and_stores_nothing(season, people):
    fixture = signed_off(season, people)
    before = fixture_state(fixture)
    typed = {**SPEC_NIGHT, "home_2": "12", "away_2": "61", "reason": " "}

    response = as_(people["admin"]).post(correction_url(fixture), typed)

    assert response.status_code == 400
    page = unescape(response.content.decode())
    assert "Say why the result is corrected: the fixture keeps it beside the original." in page
    # a NUL, which no page sends but a post may: refused (PostgreSQL would keep none: 500)
    nul = as_(people["admin"]).post(correction_url(fixture), {**typed, "reason": "typo\x00"})
    assert nul.status_code == 400 and "Null characters are not allowed." in nul.content.decode()
    assert fixture_state(fixture) == before and not FixtureCorrection.objects.exists()
    assert 'name="home_2" id="home-2" min="0" inputmode="numeric" value="12"' in page
    assert fixture_state(fixture) == before and not FixtureCorrection.objects.exists()

    level = as_(people["admin"]).post(correction_url(fixture), {
        **typed, "home_2": "61", "away_2": "61", "reason": "typo"})
    assert level.status_code == 400
    page = unescape(level.content.decode())
    assert "Game 2: a game has a winner; 61–61 is level." in page
    assert re.search(r'name="home_2"[^>]*aria-invalid="true"', page)
    assert '<textarea name="reason" id="correction-reason" rows="3" maxlength="300" ' \
        'required>typo</textarea>' in page
    assert fixture_state(fixture) == before

    # a score that is not a whole number is refused, naming its game
    slip = as_(people["admin"]).post(correction_url(fixture), {
        **typed, "home_2": "6l", "reason": "typo"})
    assert slip.status_code == 400
    assert "Game 2: give both scores as whole numbers." in unescape(slip.content.decode())
    assert fixture_state(fixture) == before

    # a set of three singles keeps its three games: one left out is a night not finished
    short = as_(people["admin"]).post(correction_url(fixture), {
        **SPEC_NIGHT, "home_3": "", "away_3": "", "reason": "typo"})
    assert short.status_code == 400
    assert "The night is not finished: game 3 has no score yet (a night of 3 games)." in unescape(
        short.content.decode())
    assert fixture_state(fixture) == before


def test_corrections_change_the_table_and_the_specs_standings_come_back_exact(season, people):
    admin = as_(people["admin"])
    fixture = spec_example_played(season, people)

    def table() -> dict:
        return league_rules.table_json(division_table(season_divisions(season).get(),
                                                      season))

    assert table() == SPEC_STANDINGS
    # game 2 was Bowes's: 61-40 12-61 58-61, Bowes win 2–1
    admin.post(correction_url(fixture), {**SPEC_NIGHT, "home_2": "12", "away_2": "61",
                                         "reason": "game 2 was Bowes's"})
    rows = {row["entrant"]: row for row in table()["standings"]}
    assert [(r["entrant"], r["won"], r["lost"], r["games_for"], r["games_against"],
             r["score_for"], r["score_against"], r["points"])
            for r in table()["standings"]] == [
        ("Middleton Club", 1, 0, 5, 4, 0, 0, 7),
        ("Bowes Dragons", 1, 1, 6, 6, 162, 131, 6),
        ("Royal Oak A", 0, 1, 1, 2, 131, 162, 2)]
    assert rows["Bowes Dragons"]["adjustment"] == -3

    # the fixture's page keeps the original readable beside the correction
    page = unescape(Client().get(fixture.get_absolute_url()).content.decode())
    # to a reader outside the club, the account is what it was to the fixture
    assert re.search(r"Corrected on .+ by a league admin:", page)
    assert "by admin" not in page
    page = unescape(admin.get(fixture.get_absolute_url()).content.decode())
    assert re.search(
        r"Corrected on .+ by admin:\s+<span class=\"correction-before\">2–1 in games \(game 1 "
        r"61–40; game 2 61–12; game 3 58–61\)</span> → <span class=\"correction-after\">1–2 in "
        r"games \(game 1 61–40; game 2 12–61; game 3 58–61\)</span>.\s+Why: game 2 was "
        r"Bowes's", page)
    assert "corrected by the league" in page  # the change log's line

    # corrected back: the spec's table, exactly
    admin.post(correction_url(fixture), {**SPEC_NIGHT, "reason": "we misread it"})
    assert table() == SPEC_STANDINGS
    assert FixtureCorrection.objects.filter(fixture=fixture).count() == 2


def test_a_correction_keeps_who_played_each_game_from_the_squads(club, people):
    season, fixture, squads = quick_season(club, people)
    ann, cat = squads["Oak"][0], squads["Bowes"][0]
    admin = as_(people["admin"])
    as_(people["oak"]).post(fixture_url(fixture, "games"), {
        "home_1": "250", "away_1": "100", "home_1_player_1": str(ann.pk),
        "away_1_player_1": str(cat.pk)})
    as_(people["oak"]).post(fixture_url(fixture, "submit"))
    assert fixture.games.get().home_score == 250

    outside = admin.post(correction_url(fixture), {
        "home_1": "100", "away_1": "250", "home_player_1": str(cat.pk),
        "away_player_1": str(cat.pk), "reason": "Cat won"})
    assert outside.status_code == 400
    assert "Cat is not in Oak&#x27;s squad." in outside.content.decode()
    secret = player_add(club=club_create(name="Hidden", by=people["member"],
                                         visibility="members"),
                        name="Secret Carol", by=people["member"])
    other_club = admin.post(correction_url(fixture), {
        "home_1": "100", "away_1": "250", "home_player_1": str(secret.pk),
        "away_player_1": str(cat.pk), "reason": "Carol won"})
    assert other_club.status_code == 400 and "Secret Carol" not in other_club.content.decode()
    assert "Choose Oak&#x27;s players from the lists" in other_club.content.decode()
    assert fixture.games.get().home_score == 250

    admin.post(correction_url(fixture), {
        "home_1": "100", "away_1": "250", "home_player_1": str(ann.pk),
        "away_player_1": str(cat.pk), "reason": "Cat won"})

    game = fixture.games.get()
    assert (game.home_score, game.away_score) == (100, 250)
    assert (list(game.home_players.all()), list(game.away_players.all())) == ([ann], [cat])
    assert FixtureCorrection.objects.get().after["games"] == [
        {"number": 1, "score": [100, 250], "home": ["Ann"], "away": ["Cat"], "scorepad": False,
         "corrected": False}]
    page = admin.get(correction_url(fixture)).content.decode()
    assert f'<option value="{ann.pk}" selected>Ann</option>' in page


def test_the_season_says_whether_corrections_are_confirmed_again(club, people):
    url = reverse("matches:season_new", kwargs={"slug": club.slug})
    shown = sent_as_shown(as_(people["admin"]).get(url).content.decode())
    assert "corrections_confirmed_again" not in shown  # unticked: final, as before
    response = as_(people["admin"]).post(url, {
        **shown, "name": "Again", "starts_on": "2026-10-05",
        "corrections_confirmed_again": "on"})
    assert response.status_code == 302
    season = Season.objects.get(name="Again")
    assert season.corrections_confirmed_again
    page = Client().get(season.get_absolute_url()).content.decode()
    assert "correction of a result goes to the away captain to confirm again" in \
        unescape(page)
    season.corrections_confirmed_again = False
    season.save()
    page = Client().get(season.get_absolute_url()).content.decode()
    assert "correction of a result is final" in unescape(page)


def test_the_spreadsheets_refusal_links_to_the_fixtures_correction_page():
    night = league_night_at(FixtureStatus.CONFIRMED)
    season = night.fixture.division.season
    admin = as_(night.admin)

    page = upload(admin, season, "date,home,away,home_games,away_games\n,Royal Oak A,"
                  "Bowes Dragons,0,1\n").content.decode()

    assert ("Row 2: Royal Oak A v Bowes Dragons has games scored on the scorepad; correct "
            "its result on the fixture&#x27;s correction page, or leave the row out.") in page
    link = re.search(r'<a href="([^"]+)">Correct this fixture&#x27;s result</a>', page)
    assert link is not None and link[1] == correction_url(night.fixture)
    followed = admin.get(link[1])
    assert followed.status_code == 200 and 'id="correction-form"' in followed.content.decode()


def test_the_match_page_says_the_league_corrected_its_result():
    night = league_night_at(FixtureStatus.CONFIRMED)
    as_(night.admin).post(correction_url(night.fixture), {
        "home_1": "0", "away_1": "10", "reason": "Bob played the 5-5"})

    page = unescape(Client().get(night.match.get_absolute_url()).content.decode())

    assert ("The league corrected this game's result on its fixture: Bowes Dragons won it, "
            "Royal Oak A 0–10 Bowes Dragons. That result counts in the league and in the "
            "ratings, not the score played here. Why: Bob played the 5-5") in page
    assert f'<a href="{night.fixture.get_absolute_url()}">Its fixture, with the correction' \
        in page


def test_the_league_changes_how_a_seasons_corrections_go_on_its_page():
    night = league_night_at(FixtureStatus.CONFIRMED)
    season = night.fixture.division.season
    Club.objects.filter(pk=season.club_id).update(visibility=Visibility.MEMBERS)
    outsider, member = outsider_member(night)
    url = reverse("matches:season_corrections", kwargs={"slug": season.club.slug,
                                                        "season": season.slug})
    for who, status in ((outsider, 404), (member, 403), (night.home_captain, 403)):
        assert as_(who).post(url, {"confirmed_again": "on"}).status_code == status
    assert not Season.objects.get(pk=season.pk).corrections_confirmed_again
    admin = as_(night.admin)
    assert 'id="corrections-form"' in admin.get(season.get_absolute_url()).content.decode()

    page = admin.post(url, {"confirmed_again": "on"}, follow=True).content.decode()

    assert "Corrections now go to the away captain to confirm again." in page
    assert Season.objects.get(pk=season.pk).corrections_confirmed_again
    # and the next correction goes back to the away captain
    as_(night.admin).post(correction_url(night.fixture), {
        "home_1": "0", "away_1": "10", "reason": "Bob played the 5-5"})
    night.fixture.refresh_from_db()
    assert night.fixture.status == FixtureStatus.SUBMITTED

    admin.post(url, {})
    assert not Season.objects.get(pk=season.pk).corrections_confirmed_again
    Season.objects.filter(pk=season.pk).update(locked=True)
    page = admin.post(url, {"confirmed_again": "on"}, follow=True).content.decode()
    assert "The season is locked: its results can no longer change." in page
    assert not Season.objects.get(pk=season.pk).corrections_confirmed_again
