"""A captain without an account acts through their side's captain's link, on the one
phone that opened it: exactly what the sign-off table lets that side's captain do, on
that entrant's fixtures only, logged as the link; the league admin hands it over as a
QR code and replaces it, which ends the old one."""

from __future__ import annotations

import datetime
import re
from html import unescape

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from matches.clubs.services import club_create, membership_remove, player_add
from matches.leagues.selectors import CaptainsLink, captain_link_token
from matches.leagues.services import (
    LINK_REPLACED,
    captain_link_open,
    captain_link_replace,
    entrant_add,
    fixture_games_enter,
    fixture_submit,
    season_create,
)
from matches.models import (
    Club,
    Entrant,
    Fixture,
    FixtureChange,
    FixtureStatus,
    Match,
    Membership,
    Season,
    Visibility,
)
from tests.leagues.test_views import fixture_url
from tests.support.helpers import paper_games

pytestmark = pytest.mark.django_db

SCORES = [(61, 40), (61, 12), (58, 61)]


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_user("admin", password="pw")


@pytest.fixture
def season(admin) -> Season:
    club = club_create(name="Teesdale", by=admin)
    season = season_create(
        club=club, by=admin, name="Monday League", starts_on=datetime.date(2026, 9, 7),
        game="fives-and-threes", options={"deal": "short"}, fixture_format="games",
        singles=3, divisions=["Division A"])
    division = season.divisions.get()
    for name, players in (("Royal Oak A", ["Ann", "Alf"]), ("Bowes Dragons", ["Bea", "Bob"]),
                          ("Middleton Club", ["Cy"])):
        for player in players:
            player_add(club=club, by=admin, name=player)
        entrant_add(division=division, by=admin, name=name, player_names=players)
    return season


def entrant(season: Season, name: str) -> Entrant:
    return season.divisions.get().entrants.get(name=name)


def oak_v_bowes(season: Season) -> Fixture:
    division = season.divisions.get()
    return Fixture.objects.create(division=division, week=1,
                                  date=datetime.date(2026, 9, 7),
                                  home=entrant(season, "Royal Oak A"),
                                  away=entrant(season, "Bowes Dragons"))


def link_url(side: Entrant) -> str:
    return reverse("matches:captain_open", kwargs={"token": captain_link_token(side)})


def holding(side: Entrant) -> Client:
    """A phone that opened ``side``'s captain's link (no account)."""
    phone = Client()
    assert phone.post(link_url(side)).status_code == 302
    return phone


def state(fixture: Fixture) -> tuple:
    fixture.refresh_from_db()
    return (fixture.status, fixture.date, fixture.home_games, fixture.away_games,
            fixture.walkover, sorted(fixture.games.values_list("number", "home_score",
                                                              "away_score")),
            FixtureChange.objects.count())


ACTIONS = ["games", "scorepad", "submit", "confirm", "dispute", "resolve", "walkover-home",
           "void", "redate"]
# what the sign-off table lets each side's captain do (from the status each is taken in)
ALLOWED = {"home": {"games", "scorepad", "submit", "redate"}, "away": {"confirm", "dispute"}}


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.MEMBERS])
@pytest.mark.parametrize("holder", ["home", "away", "other", "replaced", "none"])
@pytest.mark.parametrize("action", ACTIONS)
def test_a_captains_link_acts_exactly_as_its_sides_captain(season, admin, holder, action,
                                                          visibility):
    """The role × action matrix: the link of the home side, the away side, another
    entrant, a replaced link, none; each action from a status it is taken in."""
    Club.objects.filter(pk=season.club.pk).update(visibility=visibility)
    fixture = oak_v_bowes(season)
    if action in ("submit", "confirm", "dispute", "resolve"):
        fixture_games_enter(fixture=fixture, by=admin, games=paper_games(fixture, SCORES))
    if action in ("confirm", "dispute", "resolve"):
        fixture_submit(fixture=fixture, by=admin)
    side = {"home": "Royal Oak A", "away": "Bowes Dragons", "other": "Middleton Club",
            "replaced": "Royal Oak A", "none": ""}[holder]
    phone = holding(entrant(season, side)) if side else Client()
    if holder == "replaced":
        captain_link_replace(entrant=entrant(season, side), by=admin)
    squad = {e.name: list(e.players.values_list("pk", flat=True))
             for e in season.divisions.get().entrants.all()}
    data = {"games": {"home_1": "61", "away_1": "40",
                      "home_1_player_1": squad["Royal Oak A"][0],
                      "away_1_player_1": squad["Bowes Dragons"][0]},
            "scorepad": {"number": "1", "home_player": squad["Royal Oak A"][:1],
                         "away_player": squad["Bowes Dragons"][:1]},
            "dispute": {"message": "game 3 was 61-58 to us"},
            "redate": {"date": "2026-09-14"}}.get(action, {})
    before = state(fixture)
    response = phone.post(fixture_url(fixture, "play" if action == "scorepad" else action), data)
    if action in ALLOWED.get(holder, set()):
        assert response.status_code == 302, response.content.decode()[:2000]
        assert state(fixture) != before
        change = FixtureChange.objects.filter(fixture=fixture).last()
        if action not in ("games", "scorepad"):  # entering games changes no status: no log
            assert change is not None and change.user is None
            assert change.by_link == entrant(season, side)
        return
    reached = holder in ("home", "away") or visibility == Visibility.PUBLIC
    assert response.status_code == (403 if reached else 404)
    assert state(fixture) == before


def test_every_change_through_a_link_is_logged_as_the_link(season, admin):
    fixture = oak_v_bowes(season)
    home, away = holding(entrant(season, "Royal Oak A")), holding(entrant(season, "Bowes Dragons"))
    typed = {f"{side}_{n}": str(score[i]) for n, score in enumerate(SCORES, start=1)
             for i, side in enumerate(("home", "away"))}
    for n, game in enumerate(paper_games(fixture, SCORES), start=1):  # who played each
        assert game is not None
        typed[f"home_{n}_player_1"] = str(game.home_players[0].pk)
        typed[f"away_{n}_player_1"] = str(game.away_players[0].pk)
    assert home.post(fixture_url(fixture, "games"), typed).status_code == 302
    assert home.post(fixture_url(fixture, "submit")).status_code == 302
    assert away.post(fixture_url(fixture, "confirm")).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.CONFIRMED
    assert [(c.kind, c.by_link and c.by_link.name, c.user)
            for c in fixture.changes.all()] == [
        ("submitted", "Royal Oak A", None), ("confirmed", "Bowes Dragons", None)]
    page = Client()
    page.force_login(admin)
    text = re.sub(r"\s+", " ", unescape(page.get(fixture_url(fixture)).content.decode()))
    assert "<strong>submitted</strong> by captain's link of Royal Oak A" in text
    assert "<strong>confirmed</strong> by captain's link of Bowes Dragons" in text


def test_opening_the_link_asks_first_and_one_phone_holds_it(season):
    oak = entrant(season, "Royal Oak A")
    phone = Client()
    asked = phone.get(link_url(oak))  # a link preview takes nothing
    assert asked.status_code == 200
    assert "Act as Royal Oak A's captain on this phone?" in asked.content.decode()
    assert asked["Referrer-Policy"] == "strict-origin"
    oak.refresh_from_db()
    assert not oak.link_phone_key and oak.link_opened_at is None
    assert phone.post(link_url(oak)).status_code == 302
    assert phone.get(link_url(oak))["Location"] == reverse("matches:captain")
    other = Client()
    for refused in (other.get(link_url(oak)), other.post(link_url(oak))):
        assert refused.status_code == 403
        assert "This captain's link is in use on another phone" in refused.content.decode()
    fixture = oak_v_bowes(season)
    game = paper_games(fixture, SCORES[:1])[0]
    assert game is not None
    typed = {"home_1": "61", "away_1": "40",
             "home_1_player_1": str(game.home_players[0].pk),
             "away_1_player_1": str(game.away_players[0].pk)}
    assert other.post(fixture_url(fixture, "games"), typed).status_code == 403
    assert phone.post(fixture_url(fixture, "games"), typed).status_code == 302


def test_replacing_the_link_ends_the_old_one_and_its_phone(season, admin):
    oak = entrant(season, "Royal Oak A")
    old_url = link_url(oak)
    phone = holding(oak)
    captain_link_replace(entrant=oak, by=admin)
    oak.refresh_from_db()
    gone = Client().get(old_url)
    assert gone.status_code == 404
    assert "This captain's link no longer works" in gone.content.decode()
    assert "no captain's link" in phone.get(reverse("matches:captain")).content.decode()
    assert link_url(oak) != old_url
    assert holding(oak).get(reverse("matches:captain")).status_code == 200


def scorer_page(match: Match, name: str = "scorepad") -> str:
    return reverse(f"matches:{name}", kwargs={"public_id": match.public_id})


def played_on_the_scorepad(phone: Client, fixture: Fixture, number: int) -> Match:
    """Game ``number`` of the night, started on the scorepad from ``phone``."""
    squad = {side: list(getattr(fixture, side).players.values_list("pk", flat=True))
             for side in ("home", "away")}
    started = phone.post(fixture_url(fixture, "play"), {
        "number": str(number), "home_player": squad["home"][number - 1:number],
        "away_player": squad["away"][number - 1:number]})
    assert started.status_code == 302, started.content.decode()[:2000]
    match = fixture.games.get(number=number).match
    assert match is not None and phone.get(scorer_page(match)).status_code == 200
    return match


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.MEMBERS])
def test_the_replaced_links_phone_no_longer_scores_or_deletes_its_games(season, admin,
                                                                       visibility):
    """The old link's phone had started a game of its side's night: it keeps no grant to
    score it, pass it on, restore or delete it. A game the league admin started stays
    theirs."""
    Club.objects.filter(pk=season.club.pk).update(visibility=visibility)
    fixture = oak_v_bowes(season)
    phone = holding(entrant(season, "Royal Oak A"))
    by_link = played_on_the_scorepad(phone, fixture, 1)
    by_admin_phone = Client()
    by_admin_phone.force_login(admin)
    by_admin = played_on_the_scorepad(by_admin_phone, fixture, 2)

    seen_join_link = by_link.get_join_url()  # on its scorers' page, and as a QR code

    captain_link_replace(entrant=entrant(season, "Royal Oak A"), by=admin)

    hidden = 404 if visibility == Visibility.MEMBERS else 403
    assert phone.post(seen_join_link).status_code == 404  # it would join again by it
    for name in ("scorepad", "scorers", "history"):
        assert phone.get(scorer_page(by_link, name)).status_code == hidden, name
    assert phone.post(scorer_page(by_link, "delete")).status_code == hidden
    assert Match.objects.filter(pk=by_link.pk).exists()
    assert fixture.games.get(number=1).match == by_link
    assert by_link.grants.get(is_creator=True).revoked_at is not None
    assert by_admin_phone.get(scorer_page(by_admin)).status_code == 200
    assert by_admin.grants.get(is_creator=True).revoked_at is None


@pytest.mark.parametrize("visibility", [Visibility.PUBLIC, Visibility.MEMBERS])
def test_a_member_who_leaves_no_longer_scores_or_deletes_the_games_they_started(
        season, admin, django_user_model, visibility):
    """A captain by account started a game, then left the club (or was taken out): their
    phone's grant and their account's right as its starter end with their membership."""
    club = season.club
    Club.objects.filter(pk=club.pk).update(visibility=visibility)
    oak_captain = django_user_model.objects.create_user("oakcap", password="pw")
    Membership.objects.create(club=club, user=oak_captain)
    Entrant.objects.filter(pk=entrant(season, "Royal Oak A").pk).update(captain=oak_captain)
    fixture = oak_v_bowes(season)
    phone = Client()
    phone.force_login(oak_captain)
    match = played_on_the_scorepad(phone, fixture, 1)
    seen_join_link = match.get_join_url()

    membership_remove(membership=Membership.objects.get(club=club, user=oak_captain),
                      by=admin)

    hidden = 404 if visibility == Visibility.MEMBERS else 403
    assert phone.post(seen_join_link).status_code == 404
    for name in ("scorepad", "history"):
        assert phone.get(scorer_page(match, name)).status_code == hidden, name
    for name in ("claim", "delete"):
        assert phone.post(scorer_page(match, name)).status_code == hidden, name
    assert match.grants.filter(revoked_at=None).count() == 0
    assert Match.objects.filter(pk=match.pk).exists()
    assert fixture.games.get(number=1).match == match


def test_a_link_replaced_while_its_page_was_open_writes_nothing(season, admin):
    """The service asks the link once more, holding the fixture: the phone's page read
    it before the admin replaced it."""
    oak = entrant(season, "Royal Oak A")
    key = captain_link_open(entrant=oak, generation=oak.link_generation, phone="Firefox")
    assert key
    oak.refresh_from_db()
    read = CaptainsLink(entrant=oak, generation=oak.link_generation,
                        phone_key=oak.link_phone_key)
    fixture = oak_v_bowes(season)
    fixture_games_enter(fixture=fixture, by=read, games=paper_games(fixture, SCORES))
    captain_link_replace(entrant=oak, by=admin)
    with pytest.raises(PermissionDenied) as refused:
        fixture_submit(fixture=fixture, by=read)
    assert str(refused.value) == str(LINK_REPLACED)
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SCHEDULED and not fixture.changes.exists()


def test_the_admin_hands_the_link_over_as_a_qr_code(season, admin, django_user_model):
    oak = entrant(season, "Royal Oak A")
    url = reverse("matches:captain_link", kwargs={"slug": season.club.slug,
                                                  "season": season.slug, "entrant": oak.pk})
    client = Client()
    client.force_login(admin)
    season_page = client.get(season.get_absolute_url()).content.decode()
    assert f'href="{url}"' in season_page
    page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200
    assert re.search(r'<figure class="qr" id="captain-qr"><svg[^>]*>\s*<title>QR code of the '
                     r"captain's link of Royal Oak A</title>", text), text[:3000]
    assert link_url(oak) in text
    assert "Not opened yet" in text
    holding(oak)
    assert "Opened on" in client.get(url).content.decode()
    replaced = client.post(url + "replace/")
    assert replaced.status_code == 302
    oak.refresh_from_db()
    assert oak.link_generation == 2 and not oak.link_phone_key
    # a member who does not run the league sees no link; to an outsider it is not there
    member = django_user_model.objects.create_user("member")
    Membership.objects.create(club=season.club, user=member, role="captain")
    reader = Client()
    reader.force_login(member)
    assert reader.get(url).status_code == 403
    assert reader.post(url + "replace/").status_code == 403
    assert url not in reader.get(season.get_absolute_url()).content.decode()
    Club.objects.filter(pk=season.club.pk).update(visibility=Visibility.MEMBERS)
    assert Client().get(url).status_code == 404
    oak.refresh_from_db()
    assert oak.link_generation == 2


def test_a_members_only_clubs_link_reaches_its_fixtures_and_nothing_else(season, admin):
    Club.objects.filter(pk=season.club.pk).update(visibility=Visibility.MEMBERS)
    fixture = oak_v_bowes(season)
    division = season.divisions.get()
    elsewhere = Fixture.objects.create(division=division, week=2,
                                       home=entrant(season, "Bowes Dragons"),
                                       away=entrant(season, "Middleton Club"))
    phone = holding(entrant(season, "Royal Oak A"))
    mine = phone.get(reverse("matches:captain")).content.decode()
    assert fixture_url(fixture) in mine and fixture_url(elsewhere) not in mine
    page = phone.get(fixture_url(fixture))
    assert page.status_code == 200
    assert "This phone holds the captain's link of Royal Oak A." in page.content.decode()
    assert f'href="{season.get_absolute_url()}"' not in page.content.decode()
    assert phone.get(fixture_url(elsewhere)).status_code == 404
    assert phone.get(season.get_absolute_url()).status_code == 404
    assert phone.get(reverse("matches:club", kwargs={"slug": season.club.slug})).status_code \
        == 404


def test_a_forged_link_is_not_a_link(season):
    oak = entrant(season, "Royal Oak A")
    token = captain_link_token(oak)
    forged = token.replace(f"{oak.pk}-", f"{entrant(season, 'Bowes Dragons').pk}-", 1)
    for bad in (forged, "nonsense", token + "x"):
        response = Client().post(reverse("matches:captain_open", kwargs={"token": bad}))
        assert response.status_code == 404
    assert not Entrant.objects.exclude(link_phone_key="").exists()


def test_one_phone_holds_a_link_and_a_replaced_one_opens_no_more(season, admin):
    """The service's own refusals, whatever a page checked before it."""
    oak = entrant(season, "Royal Oak A")
    captain_link_open(entrant=oak, generation=1, phone="Firefox")
    with pytest.raises(ValidationError) as taken:
        captain_link_open(entrant=oak, generation=1, phone="Chrome")
    assert taken.value.code == "taken"
    captain_link_replace(entrant=oak, by=admin)
    with pytest.raises(ValidationError) as replaced:
        captain_link_open(entrant=oak, generation=1, phone="Chrome")
    assert replaced.value.code == "replaced"
    oak.refresh_from_db()
    assert (oak.link_generation, oak.link_phone_key, oak.link_phone) == (2, "", "")
    captain_link_open(entrant=oak, generation=2, phone="Chrome")
    oak.refresh_from_db()
    assert oak.link_phone == "Chrome" and oak.link_opened_at is not None


def test_a_link_holder_scores_a_game_on_this_phone_in_a_members_only_club(season):
    Club.objects.filter(pk=season.club.pk).update(visibility=Visibility.MEMBERS)
    fixture = oak_v_bowes(season)
    phone = holding(entrant(season, "Royal Oak A"))
    squad = {e.name: list(e.players.values_list("pk", flat=True))
             for e in season.divisions.get().entrants.all()}
    started = phone.post(fixture_url(fixture, "play"), {
        "how": "scorepad", "number": "1", "home_player": squad["Royal Oak A"][:1],
        "away_player": squad["Bowes Dragons"][:1]})
    assert started.status_code == 302
    game = fixture.games.get(number=1)
    assert game.match is not None and game.match.created_by is None
    assert started["Location"] == game.match.get_scorer_url()
    assert phone.get(game.match.get_scorer_url()).status_code == 200
    # the other side's link holder has not this phone's grant: the match is not there
    assert holding(entrant(season, "Bowes Dragons")).get(
        game.match.get_scorer_url()).status_code == 404


def test_an_account_acts_by_itself_where_it_may_and_through_the_link_where_not(
        season, admin, django_user_model):
    """A signed-in member holding the home side's link submits through it; the league
    admin holding it voids as themself."""
    member = django_user_model.objects.create_user("member")
    Membership.objects.create(club=season.club, user=member, role="member")
    fixture = oak_v_bowes(season)
    fixture_games_enter(fixture=fixture, by=admin, games=paper_games(fixture, SCORES))
    oak = entrant(season, "Royal Oak A")
    phone = Client()
    phone.force_login(member)
    assert phone.post(link_url(oak)).status_code == 302
    assert phone.post(fixture_url(fixture, "submit")).status_code == 302
    captain_link_replace(entrant=oak, by=admin)
    oak.refresh_from_db()
    admins_phone = Client()
    admins_phone.force_login(admin)
    assert admins_phone.post(link_url(oak)).status_code == 302
    assert "captain's link of Royal Oak A" in admins_phone.get(
        fixture_url(fixture)).content.decode()
    assert admins_phone.post(fixture_url(fixture, "void")).status_code == 302
    assert [(c.kind, c.user and c.user.username, c.by_link and c.by_link.name)
            for c in fixture.changes.all()] == [("submitted", None, "Royal Oak A"),
                                                ("voided", "admin", None)]


@pytest.mark.parametrize("both", ["two links", "an account and a link"])
def test_one_who_holds_both_sides_never_signs_their_own_result(season, admin, both,
                                                               django_user_model):
    oak, bowes = entrant(season, "Royal Oak A"), entrant(season, "Bowes Dragons")
    fixture = oak_v_bowes(season)
    fixture_games_enter(fixture=fixture, by=admin, games=paper_games(fixture, SCORES))
    fixture_submit(fixture=fixture, by=admin)
    phone = Client()
    if both == "two links":
        phone.post(link_url(oak))
    else:
        captain = django_user_model.objects.create_user("oaks-captain")
        Membership.objects.create(club=season.club, user=captain, role="captain")
        Entrant.objects.filter(pk=oak.pk).update(captain=captain)
        phone.force_login(captain)
    assert phone.post(link_url(bowes)).status_code == 302
    page = phone.get(fixture_url(fixture)).content.decode()
    assert 'id="confirm-fixture"' not in page and 'id="both-captains"' in page
    for action in ("confirm", "dispute"):
        refused = phone.post(fixture_url(fixture, action), {"message": "wrong"})
        assert refused.status_code == 403
    fixture.refresh_from_db()
    assert fixture.status == FixtureStatus.SUBMITTED
    assert list(fixture.changes.values_list("kind", flat=True)) == ["submitted"]
