"""What waits for a cup's secretary: the draws the rules allow now (on the home page's
"Needs you"), and the ties to see to (on the cup's page), as a league season's are."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.cups import services as cups
from matches.cups.access import clubs_whose_cups_they_run
from matches.cups.selectors import cups_to_draw
from matches.leagues.services import fixture_dispute
from matches.models import Membership, Season
from tests.support.cups import HOME_WIN, STARTS, a_cup

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def waiting(user: User) -> list[tuple[str, bool, bool, bool]]:
    return [(found.cup.season.name, found.next_round, found.plate, found.plate_round)
            for found in cups_to_draw(clubs=clubs_whose_cups_they_run(user))]


def test_a_draw_waits_for_the_cups_admins_once_the_rules_allow_it():
    folk = a_cup(FOUR, draw_timing="round_by_round", plate=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    assert waiting(folk.admin) == []
    folk.play(folk.fixture(1, 1), HOME_WIN)
    assert waiting(folk.admin) == []  # tie 2 is still to play
    folk.play(folk.fixture(1, 2), HOME_WIN)
    assert waiting(folk.admin) == [("Teesdale Cup", True, True, False)]
    member = User.objects.create_user("a-member")
    Membership.objects.create(club=folk.club, user=member, role="captain")
    assert waiting(member) == []
    assert waiting(folk.captains["Ann"]) == []
    cups.cup_round_draw(cup=folk.cup, by=folk.admin)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    assert waiting(folk.admin) == []
    Season.objects.filter(pk=folk.cup.season.pk).update(locked=True)
    assert waiting(folk.admin) == []


def test_the_home_page_says_which_draw_waits():
    folk = a_cup(FOUR, draw_timing="round_by_round", plate=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    client = Client()
    client.force_login(folk.admin)
    page = client.get(reverse("matches:home")).content.decode()
    assert '<h3>Cups to draw</h3>' in page
    assert (f'<a href="{folk.cup.season.get_absolute_url()}"><strong>Teesdale Cup</strong>'
            in page)
    assert "Teesdale · the next round can be drawn; the plate can be drawn" in page
    captain = Client()
    captain.force_login(folk.captains["Ann"])
    assert "Cups to draw" not in captain.get(reverse("matches:home")).content.decode()


def test_the_cups_page_shows_its_admins_the_disputed_ties_without_a_division():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    tie = folk.play(folk.fixture(1, 1), HOME_WIN, confirm=False)
    fixture_dispute(fixture=tie, by=folk.captain(tie.away), message="not so")
    client = Client()
    client.force_login(folk.admin)
    page = client.get(folk.cup.season.get_absolute_url()).content.decode()
    assert 'id="attention-disputed"' in page
    assert tie.get_absolute_url() in page.split('id="attention-disputed"')[1]
    assert "Entrants ·" not in page and "· Entrants" not in page
    anyone = Client().get(folk.cup.season.get_absolute_url()).content.decode()
    assert 'id="attention' not in anyone
    home = client.get(reverse("matches:home")).content.decode()  # the admin's disputes
    row = home.split('id="needs-disputes"')[1].split("</li>")[0]
    assert "Teesdale Cup" in row and "Entrants" not in row


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_the_draws_waiting_are_said_in_the_language(lang, catalogues_compiled):
    folk = a_cup(FOUR, draw_timing="round_by_round", plate=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(folk.admin)
    page = client.get(reverse("matches:home")).content.decode()
    assert {"uk": "Кубки до жеребкування", "ru": "Кубки к жеребьёвке"}[lang] in page
    assert {"uk": "можна провести жеребкування наступного раунду; можна провести "
                  "жеребкування втішного кубка",
            "ru": "можно провести жеребьёвку следующего раунда; можно провести жеребьёвку "
                  "утешительного кубка"}[lang] in page


def test_a_cup_entrants_captain_pages_leave_out_the_cups_one_division():
    folk = a_cup(FOUR)
    ann = folk.entrant("Ann")
    client = Client()
    client.force_login(folk.admin)
    page = client.get(reverse("matches:captain_link", kwargs={
        "slug": folk.club.slug, "season": folk.cup.season.slug,
        "entrant": ann.pk})).content.decode()
    assert "Teesdale Cup</a></p>" in page and "Entrants" not in page


def test_the_draws_waiting_are_read_in_the_same_queries_however_many_cups(
        django_assert_num_queries):
    folk = a_cup(FOUR, draw_timing="round_by_round")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    clubs = clubs_whose_cups_they_run(folk.admin)
    with django_assert_num_queries(2):  # the cups, and their ties with a result
        assert len(cups_to_draw(clubs=clubs)) == 1
    for name in ("Weardale Cup", "Tyneside Cup"):
        more = cups.cup_create(club=folk.club, by=folk.admin, name=name, starts_on=STARTS,
                               game="all-fives", options={"target": 60})
        for entrant in FOUR:
            cups.cup_entrant_add(cup=more, by=folk.admin, name=entrant, kind="single",
                                 player_names=[entrant])
        cups.cup_draw(cup=more, by=folk.admin)

    with django_assert_num_queries(2):
        assert len(cups_to_draw(clubs=clubs)) == 1  # the new ones wait for their results
