"""The cups' pages: the club's cups, a new cup, the cup's page (its bracket, the seed,
the winners marked, each tie linking to its fixture; the admin's forms), every cup write
refused to whoever it is not theirs to make (an outsider of a members-only club: 404; a
member below club admin: 403; nothing stored), and a refused form said beside it."""

from __future__ import annotations

import datetime
from html import unescape
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.cups import services as cups
from matches.cups.models import Cup, CupLog, CupRound, CupTie
from matches.leagues.services import entrant_add, season_create, season_lock
from matches.models import Club, Entrant, Fixture, Membership, Season, Visibility
from tests.support.cups import FOUR, HOME_WIN, Cupfolk, a_cup, played_to_the_final

pytestmark = pytest.mark.django_db



def as_(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(folk: Cupfolk, name: str) -> str:
    return reverse(f"matches:{name}", kwargs={"slug": folk.club.slug,
                                               "season": folk.cup.season.slug})


class Headings(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.h1 = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:  # noqa: ARG002
        self.h1 += tag == "h1"


def test_the_cup_page_shows_the_bracket_the_seed_and_links_each_tie_to_its_fixture():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first = folk.fixture(1, 1)
    folk.play(first, HOME_WIN)
    response = Client().get(url(folk, "cup"))
    assert response.status_code == 200
    page = response.content.decode()
    parser = Headings()
    parser.feed(page)
    assert parser.h1 == 1
    assert f"<strong>{folk.cup.draw_seed}</strong>" in page
    assert first.get_absolute_url() in page
    assert folk.fixture(1, 2).get_absolute_url() in page
    assert f'<span class="cup-side cup-winner">{first.home.name}' in page
    assert ">Semi-finals</h3>" in page and ">Final</h3>" in page
    assert 'class="cup-rounds"' in page
    assert "Run the cup" not in page  # not an admin


def test_a_locked_cups_page_says_so_and_offers_its_admins_no_forms():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    admin = as_(folk.admin)
    assert "Run the cup" in admin.get(url(folk, "cup")).content.decode()
    season_lock(season=folk.cup.season, by=folk.admin)
    page = admin.get(url(folk, "cup")).content.decode()
    assert "Run the cup" not in page and " · <strong>locked</strong></p>" in page


def test_a_form_the_page_no_longer_shows_says_its_refusal_at_the_top():
    """Sent from a page opened before the draw, or twice: the form is not on the page
    that answers, so its reason is said where it can be read."""
    folk = a_cup(FOUR, plate=True)
    admin = as_(folk.admin)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    late = admin.post(url(folk, "cup_entrant_add"), {"name": "Eve", "kind": "team"})
    assert late.status_code == 400
    assert '<h2 id="admin-title">' in late.content.decode()
    assert str(cups.ALREADY_DRAWN) in unescape(late.content.decode())
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    admin.post(url(folk, "cup_plate_undraw"), {"reason": "Ann's tie was the wrong way"})
    again = admin.post(url(folk, "cup_plate_undraw"), {"reason": "Ann's tie was the wrong way"})
    assert again.status_code == 400
    assert "The plate is not drawn yet" in unescape(again.content.decode())


def test_a_cup_season_is_shown_as_its_bracket_and_listed_with_the_cups():
    folk = a_cup(FOUR)
    season_url = reverse("matches:season", kwargs={"slug": folk.club.slug,
                                                   "season": folk.cup.season.slug})
    response = Client().get(season_url)
    assert response.status_code == 302 and response["Location"] == url(folk, "cup")
    club_page = Client().get(folk.club.get_absolute_url()).content.decode()
    assert 'id="seasons"' not in club_page  # a cup is not a league season
    assert f'href="{url(folk, "cup")}"' in club_page
    listed = Client().get(reverse("matches:cups", kwargs={"slug": folk.club.slug}))
    assert folk.cup.season.name in listed.content.decode()


def test_a_club_admin_makes_a_cup_from_the_form():
    folk = a_cup([])
    response = as_(folk.admin).post(reverse("matches:cup_new", kwargs={"slug": folk.club.slug}), {
        "name": "Summer Cup", "starts_on": "2026-06-01", "game": "all-fives",
        "fixture_format": "single", "draw_method": "seeded", "draw_timing": "all_at_once",
        "level_tie": "total_points", "walkover_winner": "2", "walkover_loser": "0",
        "plate": "on", "tile_set": "double-six", "deal": "full"})
    cup = Cup.objects.get(season__name="Summer Cup")
    assert response.status_code == 302 and response["Location"] == cup.get_absolute_url()
    assert (cup.draw_method, cup.plate, cup.walkover_winner) == ("seeded", True, 2)


def test_a_refused_new_cup_comes_back_with_why_and_what_was_typed():
    folk = a_cup([])
    response = as_(folk.admin).post(reverse("matches:cup_new", kwargs={"slug": folk.club.slug}), {
        "name": "Summer Cup", "starts_on": "2026-06-01", "game": "all-fives",
        "fixture_format": "single", "draw_method": "random", "draw_timing": "all_at_once",
        "level_tie": "total_points", "walkover_winner": "0", "walkover_loser": "0",
        "tile_set": "double-six", "deal": "full"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "A walkover gives more games to the side that turned up than to the other." in page
    assert 'value="Summer Cup"' in page
    assert Cup.objects.count() == 1


def test_the_admin_adds_entrants_draws_and_dates_a_round_from_the_page():
    folk = a_cup(["Ann", "Bob"])
    admin = as_(folk.admin)
    response = admin.post(url(folk, "cup_entrant_add"), {"name": "Cy", "kind": "team"})
    assert response.status_code == 302
    assert admin.get(url(folk, "cup")).content.decode().count("Draw the cup") >= 1
    assert admin.post(url(folk, "cup_draw")).status_code == 302
    assert Cup.objects.get().drawn is not None
    response = admin.post(url(folk, "cup_round_date"), {"number": "1",
                                                        "date": "2026-10-12"})
    assert response.status_code == 302
    assert CupRound.objects.get(number=1).date == datetime.date(2026, 10, 12)


def test_a_refused_finals_form_says_why_beside_it_and_keeps_what_was_typed():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    response = as_(folk.admin).post(url(folk, "cup_finals"), {"date": "2026-12-01",
                                                               "venue": ""})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'id="error-summary"' in page and 'value="2026-12-01"' in page
    assert Cup.objects.get().finals_on is None


def test_a_reset_without_a_reason_is_refused_and_one_with_it_is_logged():
    folk, _first, _final = played_to_the_final()
    admin = as_(folk.admin)
    refused = admin.post(url(folk, "cup_reset"), {"round": "1", "position": "1", "reason": ""})
    assert refused.status_code == 400
    done = admin.post(url(folk, "cup_reset"), {"round": "1", "position": "1",
                                               "reason": "scores swapped"})
    assert done.status_code == 302
    assert CupLog.objects.filter(kind="reset", details__startswith="scores swapped").exists()
    assert "scores swapped" in admin.get(url(folk, "cup")).content.decode()
    # who did it is named to the club's members; outsiders read what was done
    named = f"({folk.admin.get_username()})"
    assert named in admin.get(url(folk, "cup")).content.decode()
    outside = Client().get(url(folk, "cup")).content.decode()
    assert "scores swapped" in outside and named not in outside


def test_a_draw_refused_by_the_rules_says_so_at_the_top_of_the_page():
    folk = a_cup(["Ann"])
    response = as_(folk.admin).post(url(folk, "cup_draw"))
    assert response.status_code == 400
    assert "A cup needs at least 2 entrants, not 1." in response.content.decode()
    assert Cup.objects.get().drawn is None


CUP_WRITES = ["cup_new", "cup_entrant_add", "cup_entrants_from_season", "cup_entrant_rename",
              "cup_entrant_remove", "cup_seeds", "cup_draw", "cup_round_draw",
              "cup_plate_draw", "cup_round_date", "cup_finals", "cup_reset",
              "cup_plate_undraw"]
# the writes made before the draw
BEFORE_THE_DRAW = ("cup_new", "cup_entrant_add", "cup_entrants_from_season",
                   "cup_entrant_remove", "cup_seeds")


def target(folk: Cupfolk, write: str) -> str:
    if write == "cup_new":
        return reverse("matches:cup_new", kwargs={"slug": folk.club.slug})
    if write == "cup_entrant_remove":
        return reverse("matches:cup_entrant_remove", kwargs={
            "slug": folk.club.slug, "season": folk.cup.season.slug,
            "pk": folk.entrant("Bob").pk})
    return url(folk, write)


def a_league_beside(folk: Cupfolk) -> Season:
    """A league season of the cup's club with an entrant the cup does not have."""
    season = season_create(club=folk.club, by=folk.admin, name="Winter",
                           starts_on=datetime.date(2026, 9, 1), game="all-fives")
    entrant_add(division=season.divisions.get(), by=folk.admin, name="Oak")
    return season


def posted(folk: Cupfolk, league: Season) -> dict[str, object]:
    """One request's fields for every cup write: each takes what it reads."""
    return {
        "name": "X", "kind": "team", "seeds": "Bob", "number": "1", "date": "2026-11-02",
        "venue": "The Oak", "round": "1", "position": "1", "reason": "x",
        "starts_on": "2026-06-01", "game": "all-fives", "fixture_format": "single",
        "draw_method": "random", "draw_timing": "all_at_once", "level_tie": "total_points",
        "walkover_winner": "1", "walkover_loser": "0", "tile_set": "double-six",
        "deal": "full", "season": league.pk, "entrant": folk.entrant("Ann").pk,
        "confirm": "yes"}


def state() -> tuple:
    return (Cup.objects.count(), list(Cup.objects.values_list("drawn", "plate_drawn", "seeds",
                                                              "finals_on")),
            Fixture.objects.count(), CupTie.objects.count(), CupRound.objects.count(),
            CupLog.objects.count(), list(Fixture.objects.values_list("status", "date")),
            sorted(Entrant.objects.values_list("pk", "name")))


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.MEMBERS])
@pytest.mark.parametrize("who", ["anonymous", "outsider", "member", "scorer", "captain"])
@pytest.mark.parametrize("write", CUP_WRITES)
def test_no_cup_write_for_those_it_is_not_theirs_to_make(who, write, visibility):
    folk = a_cup(FOUR, draw_method="seeded", plate=True, draw_timing="round_by_round")
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin, seeds=[folk.entrant("Ann")])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    Club.objects.filter(pk=folk.club.pk).update(visibility=visibility)
    people = {}
    for role in ("member", "scorer"):
        people[role] = User.objects.create_user(f"a-{role}")
        Membership.objects.create(club=folk.club, user=people[role], role=role)
    people["outsider"] = User.objects.create_user("outsider")
    people["captain"] = folk.captains["Ann"]
    client = Client() if who == "anonymous" else as_(people[who])
    league = a_league_beside(folk)
    before = state()
    response = client.post(target(folk, write), posted(folk, league))
    outsider = who in ("anonymous", "outsider")
    assert response.status_code == (404 if outsider and visibility == Visibility.MEMBERS
                                    else 403)
    assert state() == before


@pytest.mark.parametrize("write", CUP_WRITES)
def test_a_club_admin_may_make_every_cup_write(write):
    """The same requests as above, by the club's admin, are taken (each write's own
    refusals aside: a plate or round drawn at the right moment, seeds before the draw)."""
    folk = a_cup(FOUR, draw_method="seeded", plate=True, draw_timing="round_by_round")
    league = a_league_beside(folk)
    if write not in BEFORE_THE_DRAW:
        cups.cup_seeds_set(cup=folk.cup, by=folk.admin, seeds=[folk.entrant("Ann")])
        if write != "cup_draw":
            cups.cup_draw(cup=folk.cup, by=folk.admin)
            folk.play(folk.fixture(1, 1), HOME_WIN)
            folk.play(folk.fixture(1, 2), HOME_WIN)
    if write == "cup_reset":
        cups.cup_round_draw(cup=folk.cup, by=folk.admin)
    if write == "cup_plate_undraw":
        cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    before = state()
    response = as_(folk.admin).post(target(folk, write), posted(folk, league))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert state() != before


@pytest.mark.parametrize("write", ["season_entrant_add", "season_entrant_change",
                                   "season_generate", "season_adjust", "season_import_csv"])
def test_a_cup_seasons_league_forms_are_not_there(write):
    """Entrants join a cup on its page, until its draw; it has no round robin, table or
    spreadsheet import: the league season's forms are a 404 for a cup's season."""
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    division = folk.cup.season.divisions.get()
    before = state()
    response = as_(folk.admin).post(url(folk, write), {
        "division": division.pk, "name": "Late", "kind": "team", "legs": "1",
        "entrant": folk.entrant("Ann").pk, "points": "1", "reason": "x", "do": "rename"})
    assert response.status_code == 404
    assert state() == before


def test_a_members_only_clubs_cups_are_not_there_for_outsiders():
    folk = a_cup(FOUR)
    Club.objects.filter(pk=folk.club.pk).update(visibility=Visibility.MEMBERS)
    pages = [url(folk, "cup"), reverse("matches:cups", kwargs={"slug": folk.club.slug})]
    outsider = as_(User.objects.create_user("outsider"))
    member = User.objects.create_user("member")
    Membership.objects.create(club=folk.club, user=member, role="member")
    for page in pages:
        assert Client().get(page).status_code == 404
        assert outsider.get(page).status_code == 404
        assert as_(member).get(page).status_code == 200


def test_a_draw_by_hand_from_the_page_takes_home_v_away_lines_and_names_a_stranger():
    folk = a_cup(["Ann", "Bob", "Cy"], draw_method="by_hand")
    admin = as_(folk.admin)
    refused = admin.post(url(folk, "cup_draw"), {"pairs": "Ann v bye\nCy v Zed"})
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Not the cup&#x27;s entrants: Zed." in page and "Cy v Zed" in page
    assert Cup.objects.get().drawn is None
    done = admin.post(url(folk, "cup_draw"), {"pairs": "ann v BYE\nCy v Bob"})
    assert done.status_code == 302
    assert folk.tie_sides(1, 2) == ("Cy", "Bob")


def test_seeds_are_set_from_the_page_one_a_line():
    folk = a_cup(FOUR, draw_method="seeded")
    response = as_(folk.admin).post(url(folk, "cup_seeds"), {"seeds": "Dee\n\nann\n"})
    assert response.status_code == 302
    assert Cup.objects.get().seeds == [folk.entrant("Dee").pk, folk.entrant("Ann").pk]
    assert "1. Dee, 2. Ann" in Client().get(url(folk, "cup")).content.decode()


NAMES = ["Ірина", "Тарас", "Олена", "Богдан", "Марко"]


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_the_cups_pages_are_in_the_language_with_no_english_left(lang, catalogues_compiled):
    """The club's cups, a new cup and a cup's page (its bracket with byes, a seeded
    draw round by round, a plate waiting, the finals night, the admin's forms, the log
    with a reset, a refusal naming a tie) in Ukrainian and Russian, as
    tests/scorekeeper/test_languages.py reads its pages: no Latin word left but the
    names the test made up."""
    from tests.scorekeeper.test_languages import english_left  # noqa: PLC0415

    folk = a_cup(NAMES, plate=True, draw_method="seeded", draw_timing="round_by_round")
    Club.objects.filter(pk=folk.club.pk).update(name="Тіздейл")
    Season.objects.filter(pk=folk.cup.season.pk).update(name="Кубок Тіздейла")
    folk.club.refresh_from_db()
    cups.cup_seeds_set(cup=folk.cup, by=folk.admin,
                       seeds=[folk.entrant("Ірина"), folk.entrant("Тарас")])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    played = next(tie for tie in folk.refreshed().ties.filter(round=1, plate=False)
                  if tie.fixture is not None)
    folk.play(folk.fixture(1, played.position), HOME_WIN)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=2,
                        date=datetime.date(2026, 10, 19))
    cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=datetime.date(2026, 11, 30),
                        venue="Клуб «Дубль»")
    admin = Client(HTTP_ACCEPT_LANGUAGE=lang)
    admin.force_login(folk.admin)
    refused = admin.post(url(folk, "cup_reset"), {"round": "1", "position": str(played.position),
                                                  "reason": "рахунок переплутано"})
    assert refused.status_code == 400  # nothing follows the tie yet: said in words
    assert admin.post(url(folk, "cup_round_draw")).status_code == 302
    assert admin.post(url(folk, "cup_reset"), {
        "round": "1", "position": str(played.position),
        "reason": "рахунок переплутано"}).status_code == 302
    created = {*NAMES, folk.club.name, folk.refreshed().season.name, folk.admin.username,
               *(user.username for user in folk.captains.values())}
    pages = {
        "the club": admin.get(folk.club.get_absolute_url()),
        "the club's cups": admin.get(reverse("matches:cups",
                                             kwargs={"slug": folk.club.slug})),
        "a new cup": admin.get(reverse("matches:cup_new", kwargs={"slug": folk.club.slug})),
        "the cup, to its admin": admin.get(url(folk, "cup")),
        "the cup, to anyone": Client(HTTP_ACCEPT_LANGUAGE=lang).get(url(folk, "cup")),
        "a refused reset": refused,
    }
    left = {what: english_left(response.content.decode(), created)
            for what, response in pages.items()}
    assert not any(left.values()), left
    cup_page = pages["the cup, to its admin"].content.decode()
    assert {"uk": "Вільний прохід", "ru": "Свободный проход"}[lang].lower() in cup_page
    assert {"uk": "Фінал", "ru": "Финал"}[lang] in cup_page
    tie = {"uk": "поєдинок %s раунду 1", "ru": "поединок %s раунда 1"}[lang] % played.position
    assert tie in refused.content.decode().lower()  # "tie 2 of round 1", in words


def test_before_the_draw_the_admin_enters_a_seasons_entrants_and_takes_one_out():
    folk = a_cup(["Ann", "Bob"])
    admin = as_(folk.admin)
    page = admin.get(url(folk, "cup")).content.decode()
    assert "Enter a season's entrants" not in page  # no other season has entrants yet
    league = a_league_beside(folk)
    page = admin.get(url(folk, "cup")).content.decode()
    assert f'<option value="{league.pk}">Winter</option>' in page
    assert page.count(">Take out ") == 2
    response = admin.post(url(folk, "cup_entrants_from_season"), {"season": league.pk})
    assert response.status_code == 302
    assert sorted(e.name for e in Entrant.objects.filter(division__season=folk.cup.season)) \
        == ["Ann", "Bob", "Oak"]
    refused = admin.post(url(folk, "cup_entrants_from_season"), {"season": league.pk})
    assert refused.status_code == 400
    assert "Every entrant of Winter is in the cup already." in refused.content.decode()
    unticked = admin.post(target(folk, "cup_entrant_remove"))
    assert unticked.status_code == 400
    assert "Tick the box to say that Bob is to be taken out." in unticked.content.decode()
    assert Entrant.objects.filter(division__season=folk.cup.season, name="Bob").exists()
    assert page.count("> Yes, take ") == 2  # each entrant's own box
    removed = admin.post(target(folk, "cup_entrant_remove"), {"confirm": "yes"})
    assert removed.status_code == 302
    assert not Entrant.objects.filter(division__season=folk.cup.season, name="Bob").exists()
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    page = admin.get(url(folk, "cup")).content.decode()
    assert ">Take out " not in page and "Enter a season's entrants" not in page
    assert "Rename an entrant" in page  # a name can still be put right


def test_an_entrant_renamed_from_the_page_is_renamed_on_the_bracket():
    folk = a_cup(["Ann", "Bob"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    admin = as_(folk.admin)
    blank = admin.post(url(folk, "cup_entrant_rename"), {"entrant": folk.entrant("Ann").pk,
                                                         "name": " "})
    assert blank.status_code == 400
    assert 'id="rename-name"' in blank.content.decode()
    response = admin.post(url(folk, "cup_entrant_rename"),
                          {"entrant": folk.entrant("Ann").pk, "name": "Annie"})
    assert response.status_code == 302
    bracket = Client().get(url(folk, "cup")).content.decode()
    assert bracket.count("Annie") >= 2  # the entrants' list and the tie
    assert not Entrant.objects.filter(name="Ann").exists()


def test_taking_out_an_entrant_of_another_cup_is_a_404():
    folk = a_cup(["Ann", "Bob"])
    other = cups.cup_create(club=folk.club, by=folk.admin, name="Plate Cup",
                            starts_on=datetime.date(2026, 10, 5), game="all-fives")
    stranger = cups.cup_entrant_add(cup=other, by=folk.admin, name="Zed")
    response = as_(folk.admin).post(reverse("matches:cup_entrant_remove", kwargs={
        "slug": folk.club.slug, "season": folk.cup.season.slug, "pk": stranger.pk}),
        {"confirm": "yes"})
    assert response.status_code == 404
    assert Entrant.objects.filter(pk=stranger.pk).exists()


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_the_entrants_forms_before_the_draw_have_no_english_left(lang, catalogues_compiled):
    from tests.scorekeeper.test_languages import english_left  # noqa: PLC0415

    folk = a_cup(["Ірина", "Тарас"])
    Club.objects.filter(pk=folk.club.pk).update(name="Тіздейл")
    Season.objects.filter(pk=folk.cup.season.pk).update(name="Кубок Тіздейла")
    league = a_league_beside(folk)
    Season.objects.filter(pk=league.pk).update(name="Зима")
    Entrant.objects.filter(name="Oak").update(name="Дуб")
    admin = Client(HTTP_ACCEPT_LANGUAGE=lang)
    admin.force_login(folk.admin)
    page = admin.get(url(folk, "cup")).content.decode()
    assert not english_left(page, {"Ірина", "Тарас", folk.admin.username,
                                   *(user.username for user in folk.captains.values())})
    assert {"uk": "Вилучити Ірина", "ru": "Убрать Ірина"}[lang] in page


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_a_drawn_plates_admin_forms_have_no_english_left(lang, catalogues_compiled):
    from tests.scorekeeper.test_languages import english_left  # noqa: PLC0415

    folk = a_cup(["Ірина", "Тарас", "Олена", "Богдан"], plate=True)
    Club.objects.filter(pk=folk.club.pk).update(name="Тіздейл")
    Season.objects.filter(pk=folk.cup.season.pk).update(name="Кубок Тіздейла")
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)
    admin = Client(HTTP_ACCEPT_LANGUAGE=lang)
    admin.force_login(folk.admin)
    made = {"Ірина", "Тарас", "Олена", "Богдан", folk.admin.username,
            *(user.username for user in folk.captains.values())}
    drawn = admin.get(url(folk, "cup")).content.decode()
    assert 'action="' + url(folk, "cup_plate_undraw") + '"' in drawn
    assert not english_left(drawn, made)
    response = admin.post(url(folk, "cup_plate_undraw"), {"reason": "помилка"})
    assert response.status_code == 302
    page = admin.get(url(folk, "cup")).content.decode()
    assert not english_left(page, made)
    assert {"uk": "скасовано адміністратором", "ru": "отменена администратором"}[lang] in page
