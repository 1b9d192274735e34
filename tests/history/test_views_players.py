"""A club player's page on hand-made matches: record, points, best placement, partner,
toughest opponent, form, rating chart."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.clubs.services import club_create
from matches.history.models import Rating
from matches.history.player_selectors import player_stats
from matches.leagues.services import (
    PaperGame,
    fixture_correct,
    fixture_games_enter,
    fixture_void,
)
from matches.models import FixtureStatus, Match, Player, Season
from matches.scoring.services.play import event_record, match_create, round_start
from tests.support.helpers import (
    A,
    T,
    league_night,
    league_night_at,
    night,
    paper_league,
    won_at_once,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(django_user_model):
    club = club_create(name="Oak", by=django_user_model.objects.create_user("o"))
    for name in ("Ann", "Bob", "Cat", "Dan"):
        Player.objects.create(club=club, name=name)
    return club


def test_the_player_page_tells_a_hand_made_season(club):
    ann = club.players.get(name="Ann")
    # Ann beats Bob three times and loses once to him; partners Cat once (they win)
    for day in (1, 2, 3):
        won_at_once(["Ann", "Bob"], opener=0, played_at=night(day), players_of=club)  # Ann
    won_at_once(["Ann", "Bob"], opener=1, played_at=night(4), players_of=club)  # Bob wins
    won_at_once(["Ann", "Bob", "Cat", "Dan"], opener=0, played_at=night(5),  # with Cat
                players_of=club)
    stats = player_stats(ann)
    [record] = stats.games
    assert (record.played, record.won, record.win_percent) == (5, 4, 80)
    assert stats.form == "WWWLW"
    assert stats.partner == ("Cat", 1)
    assert stats.toughest is not None and (stats.toughest.name, stats.toughest.met,
                                           stats.toughest.won) == ("Bob", 5, 4)
    assert stats.best is not None and stats.best.points == 10
    assert stats.best.match.started_at.day == 1 and stats.best_step == 1
    # her side made 10 in the one round of each of her four wins, nothing in the loss
    assert (record.rounds, record.points, record.points_per_round) == (5, 40, 8)
    page = Client().get(reverse("matches:club_player", kwargs={
        "slug": club.slug, "pk": ann.pk})).content.decode()
    assert 'id="form">WWWLW<' in page and "Toughest opponent: Bob" in page
    assert "?round=1&amp;step=1" in page
    assert "<polyline" in page and "provisional" in page


def test_a_rating_of_one_match_is_said_without_a_chart_of_one_point(club):
    ann = club.players.get(name="Ann")
    url = reverse("matches:club_player", kwargs={"slug": club.slug, "pk": ann.pk})
    won_at_once(["Ann", "Bob"], opener=0, played_at=night(1), players_of=club)

    page = Client().get(url).content.decode()

    assert "All Fives rating: " in page
    assert 'class="rating-chart"' not in page  # a line needs two matches
    won_at_once(["Ann", "Bob"], opener=0, played_at=night(2), players_of=club)
    page = Client().get(url).content.decode()
    assert re.search(r'class="rating-chart".*?<polyline points="6\.0,[\d.]+ 294\.0,[\d.]+"',
                     page, re.S)


def test_the_best_placement_links_to_its_step_of_the_replay_which_counts_placements_only(
        club):
    ann = club.players.get(name="Ann")
    match = match_create(game="all-fives", players=["Ann", "Bob"],
                                  options={"target": 20, "hand_size": 14})
    for seat in match.seats.all():
        seat.player = club.players.get(name=seat.name)
        seat.save(update_fields=["player"])
    round_start(match=match, starter=0)
    for action in (rules.Play(0, T("4-4")), rules.Pass(1), rules.Play(0, T("4-6"), A("4-4:4")),
                   rules.Pass(1), rules.Play(0, T("6-6"), A("4-6:6"))):  # 0, 0, then 20
        event_record(match=match, action=action)

    stats = player_stats(ann)

    assert stats.best is not None and (stats.best.tile, stats.best.points) == ("6-6", 20)
    assert stats.best_step == 3  # the third placement; the fifth event, with the passes
    page = Client().get(match.get_absolute_url() + "?round=1&step=3").content.decode()
    step = re.search(r'<p class="replay-step" id="replay-step">(.*?)</p>', page, re.S)
    assert step is not None and " ".join(re.sub(r"<[^>]+>", "", step[1]).split()) == (
        "Round 1, step 3 of 3: Ann placed 6-6 on the 6 of 4-6 — sum 20 → 20")


def test_the_player_page_runs_a_fixed_number_of_queries(club, django_assert_max_num_queries):
    ann = club.players.get(name="Ann")
    url = reverse("matches:club_player", kwargs={"slug": club.slug, "pk": ann.pk})
    won_at_once(["Ann", "Bob"], opener=0, played_at=night(1), players_of=club)
    with django_assert_max_num_queries(16):
        Client().get(url)
    for day in range(2, 12):
        won_at_once(["Ann", "Cat"] if day % 2 else ["Dan", "Ann"], opener=0,
                    played_at=night(day), players_of=club)
    with django_assert_max_num_queries(16):
        assert Client().get(url).status_code == 200


def test_paper_games_count_on_the_player_page_with_league_statistics_per_season(
        club, django_user_model):
    owner = django_user_model.objects.get(username="o")
    ann, bob, cat, dan = (club.players.get(name=n) for n in ("Ann", "Bob", "Cat", "Dan"))
    squads = {"Oak": [ann, bob], "Bowes": [cat, dan]}
    autumn = paper_league(club, owner, name="Autumn", squads=squads)
    spring = paper_league(club, owner, name="Spring", squads=squads,
                          starts_on=datetime.date(2027, 3, 1))
    fixture_games_enter(fixture=autumn.fixture(1), by=owner, games=[
        PaperGame(61, 40, [ann], [cat]), PaperGame(30, 61, [bob], [dan]),
        PaperGame(61, 58, [ann, bob], [cat, dan])])
    fixture_games_enter(fixture=autumn.fixture(2, reverse=True), by=owner, games=[
        PaperGame(61, 50, [cat], [ann])])
    fixture_games_enter(fixture=spring.fixture(1), by=owner, games=[
        None, PaperGame(61, 12, [ann], [dan])])
    # a game without players does not count for anyone; nor does a void fixture's
    Season.objects.filter(pk=spring.season.pk).update(paper_players_optional=True)
    fixture_games_enter(fixture=spring.fixture(2), by=owner, games=[PaperGame(61, 0)])
    void = spring.fixture(3)
    fixture_games_enter(fixture=void, by=owner, games=[PaperGame(61, 1, [ann], [cat])])
    fixture_void(fixture=void, by=owner)

    stats = player_stats(ann)

    assert [(r.season.name, r.played, r.won, r.points_for, r.points_against)
            for r in stats.league] == [("Spring", 1, 1, 61, 12),
                                       ("Autumn", 3, 2, 172, 159)]
    [record] = stats.games  # the paper games count in her record by game, void or not
    assert (record.game, record.played, record.won) == ("fives-and-threes", 5, 4)
    # her form is her results, paper ones too, by their nights: won both games of week 1,
    # lost week 2's to Cat, won in the spring (the void night's game too)
    assert stats.form == "WWLWW"
    assert stats.partner == ("Bob", 1)
    # Cat: met in game 1 and the pairs game of week 1, week 2's game and the void one
    assert stats.toughest is not None and (stats.toughest.name, stats.toughest.met,
                                           stats.toughest.won) == ("Cat", 4, 3)
    page = Client().get(reverse("matches:club_player", kwargs={
        "slug": club.slug, "pk": ann.pk})).content.decode()
    rows = re.findall(r'<tr data-season="\d+"><td><a href="[^"]+">(\w+)</a></td>'
                      r'<td class="num">(\d+)</td><td class="num">(\d+)</td>'
                      r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>', page)
    assert rows == [("Spring", "1", "1", "61", "12"), ("Autumn", "3", "2", "172", "159")]
    assert "No finished match yet." not in page and "Toughest opponent: Cat" in page
    assert "Fives and Threes rating" in page
    # paper games have no rounds: not "0" points a round, but none said
    assert record.points_per_round is None
    assert ('<td class="num"><span aria-hidden="true">—</span><span class="visually-hidden">'
            'no rounds scored</span></td>') in page
    cat_page = player_stats(cat)
    assert [(r.season.name, r.played, r.won, r.points_for, r.points_against)
            for r in cat_page.league] == [("Autumn", 3, 1, 159, 172)]


def test_a_scorepad_league_game_counts_in_the_league_statistics():
    # Ann (Royal Oak A) v Bob (Bowes Dragons), All Fives to 10
    night_of = league_night(target=10)
    ann = night_of.match.seats.get(position=0).player
    assert ann is not None and player_stats(ann).league == []  # not finished yet
    round_start(match=night_of.match, starter=0)
    event_record(match=night_of.match, action=rules.Play(0, T("5-5")))  # 10: Ann wins

    [record] = player_stats(ann).league
    assert (record.season.name, record.played, record.won, record.points_for,
            record.points_against) == ("Monday League", 1, 1, 10, 0)


def test_a_league_game_the_league_corrected_counts_as_corrected_on_both_players_pages():
    # Ann (home) wins the night's game on the scorepad, 10–0; the league corrects it to
    # 0–10 for Bob (away). Besides it they played two matches, one won each.
    night_of = league_night_at(FixtureStatus.CONFIRMED)
    Match.objects.filter(pk=night_of.match.pk).update(started_at=night(3),
                                                      finished_at=night(3))
    ann, bob = (night_of.match.seats.get(position=p).player for p in (0, 1))
    assert ann is not None and bob is not None
    club = night_of.fixture.division.season.club
    won_at_once(["Ann", "Bob"], opener=0, played_at=night(1), players_of=club)  # Ann
    won_at_once(["Ann", "Bob"], opener=1, played_at=night(2), players_of=club)  # Bob
    assert player_stats(ann).form == "WLW"  # as played, before the correction
    fixture_correct(fixture=night_of.fixture, by=night_of.admin, scores=[(0, 10)],
                    reason="the scoresheet says Bob won")

    for player, form, won, rival in ((ann, "WLL", 1, "Bob"), (bob, "LWW", 2, "Ann")):
        stats = player_stats(player)
        [record] = stats.games
        assert (record.played, record.won, stats.form) == (3, won, form)
        assert stats.toughest is not None and (stats.toughest.name, stats.toughest.met,
                                               stats.toughest.won) == (rival, 3, won)
        [league] = stats.league
        assert (league.played, league.won) == (1, player == bob)
    # the ratings agree: Bob won two of the three
    ratings = {r.player: r.ordinal for r in Rating.objects.filter(club=club)}
    assert ratings[bob] > ratings[ann]
    page = Client().get(reverse("matches:club_player", kwargs={
        "slug": club.slug, "pk": ann.pk})).content.decode()
    assert 'id="form">WLL<' in page
    row = re.search(rf'<a href="{night_of.match.get_absolute_url()}">.*?</a>', page, re.S)
    assert row is not None and "won by <strong>Bob</strong> · corrected by the league" in \
        row[0]
    assert page.count("corrected by the league") == 1  # its other matches count as played

    # corrected back to the score played: the match's own end counts again
    fixture_correct(fixture=night_of.fixture, by=night_of.admin, scores=[(10, 0)],
                    reason="we misread the scoresheet")
    stats = player_stats(ann)
    assert (stats.games[0].won, stats.form) == (2, "WLW")
    assert "corrected by the league" not in Client().get(reverse("matches:club_player", kwargs={
        "slug": club.slug, "pk": ann.pk})).content.decode()
