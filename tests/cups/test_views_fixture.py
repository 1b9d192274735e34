"""A cup's tie is played on the leagues' fixture page: it opens for the tie's captains,
names the cup (linking to its bracket), and a step the cup refuses (a level tie the cup
cannot decide, a correction that would change a winner who has played on) comes back as
the page again with the rules' words, storing nothing."""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.clubs.services import player_add
from matches.cups import services as cups
from matches.models import (
    Club,
    Fixture,
    FixtureCorrection,
    FixtureStatus,
    Membership,
    Season,
)
from tests.support.cups import HOME_WIN, a_cup, played_to_the_final

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


def test_a_ties_fixture_page_says_its_round_and_the_plate_s():
    folk = a_cup(["Ann", "Bob", "Cy", "Dee"], plate=True)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN)
    folk.play(second, HOME_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    admin = as_(folk.admin)
    cup_link = f'<a href="{folk.cup.get_absolute_url()}">Teesdale Cup</a>'
    assert f"{cup_link} · Semi-finals" in admin.get(fixture_url(first)).content.decode()
    assert f"{cup_link} · Final" in admin.get(fixture_url(folk.fixture(2, 1))).content.decode()
    plate = folk.refreshed().ties.get(plate=True, round=1, position=1).fixture
    assert plate is not None
    page = admin.get(fixture_url(plate)).content.decode()
    assert f"{cup_link} · The plate · Final" in page
    assert "week" not in page
    correction = admin.get(fixture_url(first, "correction")).content.decode()
    assert f"{cup_link} · Semi-finals</p>" in correction and "week" not in correction


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
            "game is needed.") in unescape(response.content.decode())
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED


def test_a_night_that_can_end_level_shows_its_deciding_game_and_takes_its_score():
    folk = a_cup(["Ann", "Bob"], fixture_format="games", singles=2)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    captain = as_(folk.captain(fixture.home))
    page = captain.get(fixture_url(fixture)).content.decode()
    assert '<tr data-game="3"><th scope="row">3 <small>deciding game</small></th>' in page
    assert "Game 3 is the deciding game: play it only if the night ends level" in page
    assert '<option value="3">Game 3 (the deciding game)</option>' in page
    assert 'data-game="4"' not in page
    home, away = fixture.home.players.get(), fixture.away.players.get()
    entered = captain.post(fixture_url(fixture, "games"), {
        "home_1": "60", "away_1": "40", "home_2": "40", "away_2": "60",
        "home_3": "60", "away_3": "55",
        **{f"{side}_{n}_player_1": player.pk for n in (1, 2, 3)
           for side, player in (("home", home), ("away", away))}})
    assert entered.status_code == 302, entered.content.decode()[:2000]
    assert captain.post(fixture_url(fixture, "submit")).status_code == 302
    fixture.refresh_from_db()
    assert (fixture.status, fixture.home_games, fixture.away_games) == ("submitted", 2, 1)


def test_a_night_that_cannot_end_level_has_no_deciding_game():
    """Three games: one side always wins more of them."""
    folk = a_cup(["Ann", "Bob"], fixture_format="games", singles=3)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    page = as_(folk.captain(fixture.home)).get(fixture_url(fixture)).content.decode()
    assert "deciding game" not in page
    assert 'data-game="3"' in page and 'data-game="4"' not in page


def test_a_correction_changing_a_winner_who_played_on_is_refused_on_its_page():
    folk, first, _final = played_to_the_final()
    response = as_(folk.admin).post(fixture_url(first, "correction"), {
        "home_1": "35", "away_1": "60", "reason": "swapped"})
    assert response.status_code == 400
    assert ("its winner can change only while tie 1 of round 2 is unplayed, or by an admin "
            "who resets the ties after it") in response.content.decode()
    assert not FixtureCorrection.objects.exists()


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_the_deciding_game_is_named_in_the_language_with_no_english_left(
        lang, catalogues_compiled):
    from tests.scorekeeper.test_languages import english_left  # noqa: PLC0415

    folk = a_cup(["Ірина", "Тарас"], fixture_format="games", singles=2)
    Club.objects.filter(pk=folk.club.pk).update(name="Тіздейл")
    Season.objects.filter(pk=folk.cup.season.pk).update(name="Кубок Тіздейла")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    captain = folk.captain(fixture.home)
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(captain)
    page = client.get(fixture_url(fixture)).content.decode()
    assert not english_left(page, {"Ірина", "Тарас", captain.username})
    # the tie is placed by its round (here the final), not by a division and a week
    assert {"uk": "Кубок Тіздейла</a> · Фінал", "ru": "Кубок Тіздейла</a> · Финал"}[lang] \
        in page
    assert {"uk": "Гра 3 — вирішальна", "ru": "Игра 3 — решающая"}[lang] in page
    assert {"uk": "Гра 3 (вирішальна)", "ru": "Игра 3 (решающая)"}[lang] in page


def test_a_pairs_nights_deciding_game_may_be_a_singles_game():
    """Both games of the night are pairs games; the deciding game's row lets a side's
    second player be left out (a singles game), and the page takes it."""
    folk = a_cup([], fixture_format="games", pairs=2)
    for team, squad in (("Oak", ["Ola", "Otto"]), ("Elm", ["Eli", "Eve"])):
        for name in squad:
            player_add(club=folk.club, name=name, by=folk.admin)
        member = User.objects.create_user(f"cap-{team.lower()}")
        Membership.objects.create(club=folk.club, user=member, role="captain")
        cups.cup_entrant_add(cup=folk.cup, by=folk.admin, name=team, kind="team",
                             player_names=squad, captain_username=member.username)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    fixture = folk.fixture(1, 1)
    captain = as_(folk.captain(fixture.home))
    page = captain.get(fixture_url(fixture)).content.decode()
    rows = {n: page.split(f'<tr data-game="{n}">')[1].split("</tr>")[0] for n in (1, 2, 3)}
    assert "a singles game" not in rows[1] and "a singles game" not in rows[2]
    assert rows[3].count("— none: a singles game —") == 2
    home, away = list(fixture.home.players.all()), list(fixture.away.players.all())
    picks = {f"{side}_{n}_player_{slot}": squad[slot - 1].pk
             for n in (1, 2) for side, squad in (("home", home), ("away", away))
             for slot in (1, 2)}
    entered = captain.post(fixture_url(fixture, "games"), {
        "home_1": "60", "away_1": "40", "home_2": "40", "away_2": "60",
        "home_3": "20", "away_3": "60", **picks,
        "home_3_player_1": home[0].pk, "away_3_player_1": away[0].pk})
    assert entered.status_code == 302, entered.content.decode()[:2000]
    game = fixture.games.get(number=3)
    assert list(game.home_players.all()) == home[:1]


def test_a_night_the_cup_took_back_offers_no_step_and_says_why():
    folk, _first, final = played_to_the_final()
    admin = as_(folk.admin)
    assert fixture_url(final, "void") in admin.get(fixture_url(final)).content.decode()

    cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1,
                        reason="Ann's result was keyed in the wrong way round")
    page = unescape(admin.get(fixture_url(final)).content.decode())
    assert ("This night is no longer one of the cup's ties (the ties after a corrected "
            "result were drawn again): it stays void, with its games and log.") in page
    for step in ("walkover-home", "void", "reinstate"):
        assert fixture_url(final, step) not in page
