"""A cup's tie is played on the leagues' fixture page: it opens for the tie's captains,
names the cup (linking to its bracket), and a step the cup refuses (a level tie the cup
cannot decide, a correction that would change a winner who has played on) comes back as
the page again with the rules' words, storing nothing."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from matches.cups import services as cups
from matches.models import Fixture, FixtureCorrection, FixtureStatus
from tests.support.cups import HOME_WIN, a_cup

pytestmark = pytest.mark.django_db


def as_(user) -> Client:  # noqa: ANN001
    client = Client()
    client.force_login(user)
    return client


def fixture_url(fixture: Fixture, action: str | None = None) -> str:
    season = fixture.division.season
    kwargs = {"slug": season.club.slug, "season": season.slug, "pk": fixture.pk}
    if action is None:
        return reverse("matches:fixture", kwargs=kwargs)
    if action == "correction":
        return reverse("matches:fixture_correct", kwargs=kwargs)
    return reverse("matches:fixture_action", kwargs={**kwargs, "action": action})


def test_a_ties_fixture_page_names_the_cup_and_links_to_its_bracket():
    folk = a_cup(["Ann", "Bob"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    response = as_(folk.captain(fixture.home)).get(fixture_url(fixture))
    assert response.status_code == 200
    page = response.content.decode()
    assert f'<a href="{folk.cup.get_absolute_url()}">Teesdale Cup</a>' in page


def test_a_level_tie_sent_from_the_fixture_page_is_refused_in_the_rules_words():
    folk = a_cup(["Ann", "Bob"], fixture_format="games", singles=2)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    captain = as_(folk.captain(fixture.home))
    home = fixture.home.players.get()
    away = fixture.away.players.get()
    entered = captain.post(fixture_url(fixture, "games"), {
        "home_1": "60", "away_1": "40", "home_2": "40", "away_2": "60",
        "home_1_player_1": home.pk, "away_1_player_1": away.pk,
        "home_2_player_1": home.pk, "away_2_player_1": away.pk})
    assert entered.status_code == 302, entered.content.decode()[:2000]
    response = captain.post(fixture_url(fixture, "submit"))
    assert response.status_code == 400
    assert ("Tie 1 of round 1 is level at 1-1 in games and 100-100 in points: a deciding "
            "game is needed. A fixture night takes no deciding game yet: play it, and a club "
            "admin awards the tie to its winner as a walkover.") in unescape(
                response.content.decode())
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED


def test_a_correction_changing_a_winner_who_played_on_is_refused_on_its_page():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = folk.fixture(1, 1)
    folk.play(first, HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    folk.play(folk.fixture(2, 1), HOME_WIN)
    response = as_(folk.admin).post(fixture_url(first, "correction"), {
        "home_1": "35", "away_1": "60", "reason": "swapped"})
    assert response.status_code == 400
    assert ("its winner can change only while tie 1 of round 2 is unplayed, or by an admin "
            "who resets the ties after it") in response.content.decode()
    assert not FixtureCorrection.objects.exists()
