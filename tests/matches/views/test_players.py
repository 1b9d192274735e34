"""A club player's page on hand-made matches: record, points, best placement, partner,
toughest opponent, form, rating chart."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches import rules, services
from matches.models import Match, Player
from matches.selectors.players import player_stats

pytestmark = pytest.mark.django_db
T = rules.Tile.parse


@pytest.fixture
def club(django_user_model):
    club = services.club_create(name="Oak", by=django_user_model.objects.create_user("o"))
    for name in ("Ann", "Bob", "Cat", "Dan"):
        Player.objects.create(club=club, name=name)
    return club


def match(club, names: list[str], plays: list[rules.Play], *, day: int) -> Match:
    """An All Fives match to 10 between club players, played out by ``plays``."""
    players = {p.name: p for p in club.players.all()}
    made = services.match_create(game="all-fives", players=names,
                                 options={"target": 10, "hand_size": 3})
    for seat in made.seats.all():
        seat.player = players[seat.name]
        seat.save(update_fields=["player"])
    services.round_start(match=made, starter=plays[0].seat)
    for play in plays:
        services.event_record(match=made, action=play)
    when = timezone.make_aware(datetime.datetime(2026, 9, day, 20))
    Match.objects.filter(pk=made.pk).update(started_at=when, finished_at=when)
    made.refresh_from_db()
    assert made.status == "finished"
    return made


def test_the_player_page_tells_a_hand_made_season(club):
    ann = club.players.get(name="Ann")
    # Ann beats Bob three times and loses once to him; partners Cat once (they win)
    for day in (1, 2, 3):
        match(club, ["Ann", "Bob"], [rules.Play(0, T("5-5"))], day=day)  # 10: Ann wins
    match(club, ["Ann", "Bob"], [rules.Play(1, T("5-5"))], day=4)  # Bob wins
    match(club, ["Ann", "Bob", "Cat", "Dan"], [rules.Play(0, T("5-5"))], day=5)  # with Cat
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


def test_the_player_page_runs_a_fixed_number_of_queries(club, django_assert_max_num_queries):
    ann = club.players.get(name="Ann")
    url = reverse("matches:club_player", kwargs={"slug": club.slug, "pk": ann.pk})
    match(club, ["Ann", "Bob"], [rules.Play(0, T("5-5"))], day=1)
    with django_assert_max_num_queries(16):
        Client().get(url)
    for day in range(2, 12):
        match(club, ["Ann", "Cat"] if day % 2 else ["Dan", "Ann"], [rules.Play(0, T("5-5"))],
              day=day)
    with django_assert_max_num_queries(16):
        assert Client().get(url).status_code == 200
