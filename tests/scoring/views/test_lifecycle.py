"""The match management pages: abandon (and resume), delete, rename before play and
rematch — who may, the confirmation pages, what a POST does, what is refused."""

from __future__ import annotations

import datetime
import re
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from matches import rules
from matches.clubs.services import club_create, player_add
from matches.leagues.services import entrant_add, fixture_game_start, season_create
from matches.models import Club, DeletedMatch, Match, MatchStatus, Membership, Role
from matches.scoring.creation_keys import NOT_HERE as CREATION_KEY_NOT_HERE
from matches.scoring.selectors.play import match_engine, match_names, match_record, match_summary
from matches.scoring.services.lifecycle import (
    NOT_OVER,
    RENAME_AFTER_PLAY,
    match_abandon,
    match_delete_recorded,
)
from matches.scoring.services.play import MATCH_ABANDONED, OUT_OF_DATE, match_import
from matches.scoring.views.lifecycle import DELETE_NOT_ALLOWED
from tests.support.helpers import T, drawn_key, night, site_admin, snapshot, won_at_once

pytestmark = pytest.mark.django_db


def url(match: Match, name: str) -> str:
    return reverse(f"matches:{name}", kwargs={"public_id": match.public_id})


def start(client: Client, names: tuple[str, ...] = ("Olena", "Taras")) -> Match:
    """This browser starts a match with the new-match form (Olena opens round 1), so it
    holds the starting phone's grant."""
    fields = {f"player_{seat}": name for seat, name in enumerate(names)}
    response = client.post(reverse("matches:new"), {
        "creation_key": drawn_key(client), "game": "all-fives", "hand_size": "2",
        "starter": "0", "mode": "tracked", **fields})
    assert response.status_code == 302
    return Match.objects.latest("pk")


def join(client: Client, match: Match) -> None:
    """This browser takes a grant by the shared scorer's link (not the starting phone)."""
    assert client.post(match.get_join_url()).status_code == 302


def w(match: Match) -> dict[str, object]:
    match.refresh_from_db()
    return {"version": match.version, "key": str(uuid.uuid4())}


def html_of(response) -> str:  # noqa: ANN001
    return response.content.decode()


# -- who may ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "method"), [
    ("abandon", "get"), ("abandon", "post"), ("resume", "post"), ("delete", "get"),
    ("delete", "post"), ("rename", "get"), ("rename", "post"), ("rematch", "post"),
])
def test_a_watcher_gets_403_and_changes_nothing(client, name, method):
    match = start(Client())
    if name == "resume":
        match_abandon(match=match)
    before = snapshot(match)

    response = getattr(client, method)(url(match, name), {
        **w(match), "player_0": "Olga", "player_1": "Taras",
        "creation_key": str(uuid.uuid4())} if method == "post" else None)

    assert response.status_code == 403
    assert snapshot(match) == before
    assert Match.objects.count() == 1 and not DeletedMatch.objects.exists()


@pytest.mark.parametrize("name", ["abandon", "delete", "rename"])
def test_the_pages_that_ask_are_never_cached_and_do_not_write_on_get(client, name):
    match = start(client)
    before = snapshot(match)

    response = client.get(url(match, name))

    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    assert len(re.findall(r"<h1[ >]", html_of(response))) == 1
    assert 'name="csrfmiddlewaretoken"' in html_of(response)
    assert snapshot(match) == before


@pytest.mark.parametrize("name", ["resume", "rematch"])
def test_resume_and_rematch_take_posts_only(client, name):
    match = start(client)

    assert client.get(url(match, name)).status_code == 405


# -- abandon ---------------------------------------------------------------------------


def test_abandoning_asks_first_then_stops_the_match_and_says_so(client):
    match = start(client)
    page = html_of(client.get(url(match, "abandon")))
    assert "<h1>Abandon this match?</h1>" in page and 'id="abandon-button"' in page
    assert f'name="version" value="{match.version}"' in page

    response = client.post(url(match, "abandon"), w(match), follow=True)

    match.refresh_from_db()
    assert match.status == MatchStatus.ABANDONED and match.finished_at is not None
    assert response.redirect_chain == [(match.get_absolute_url(), 302)]
    page = html_of(response)
    assert "Match abandoned: it is kept with its scores" in page
    assert 'id="match-end"' in page and 'data-status="abandoned"' in page
    assert "Match abandoned</h2>" in page and 'id="rematch-button"' in page


def test_an_abandoned_match_leaves_scoring_on_this_phone_and_shows_as_abandoned(client):
    match = start(client)
    client.post(url(match, "abandon"), w(match))

    home = html_of(client.get(reverse("matches:home")))
    history = html_of(client.get(reverse("matches:history_list")))

    assert 'id="scoring-here"' not in home
    assert 'id="finished-here"' in home and "abandoned" in home.split('id="finished-here"')[1]
    row = history.split(f'data-match="{match.public_id}"')[1].split("</li>")[0]
    assert "abandoned" in row and "won by" not in row


def test_an_abandoned_match_refuses_a_tap_with_a_message(client):
    match = start(client)
    client.post(url(match, "abandon"), w(match))
    before = snapshot(match)

    response = client.post(url(match, "play"), {**w(match), "seat": 0, "tile": "5-5"},
                           follow=True)

    assert str(MATCH_ABANDONED) in html_of(response)
    assert snapshot(match) == before


def test_an_abandoned_matchs_history_offers_no_restore_but_says_to_resume_first(client):
    match = start(client)
    client.post(url(match, "abandon"), w(match))

    page = client.get(url(match, "history"))

    assert page.context["can_restore"] is False and "Restore version" not in html_of(page)
    assert f'to restore an earlier version, <a href="{url(match, "abandon")}">resume it</a>' \
        in html_of(page)
    client.post(url(match, "resume"), w(match))
    assert "Restore version 1" in html_of(client.get(url(match, "history")))
    # a site admin who holds no grant for it is not sent to a page it may not open
    client.post(url(match, "abandon"), w(match))
    staff = Client()
    staff.force_login(User.objects.create_user("staff", is_staff=True))
    page = html_of(staff.get(url(match, "history")))
    assert "a phone that scores it resumes it first" in page
    assert url(match, "abandon") not in page


def test_a_watchers_poll_of_an_abandoned_match_reloads_into_the_match_page(client):
    match = start(Client())
    match_abandon(match=match)

    poll = client.get(match.get_absolute_url(), HTTP_HX_REQUEST="true",
                      HTTP_HX_TARGET="scorepad")
    page = html_of(client.get(match.get_absolute_url()))

    assert poll.status_code == 200 and poll["HX-Refresh"] == "true"
    assert 'data-status="abandoned"' in page and 'id="share-link"' in page
    assert 'id="rematch-button"' not in page  # watchers start no rematch


def test_resume_plays_on(client):
    match = start(client)
    client.post(url(match, "abandon"), w(match))
    page = html_of(client.get(url(match, "abandon")))
    assert "<h1>This match was abandoned</h1>" in page and 'id="resume-button"' in page

    response = client.post(url(match, "resume"), w(match))

    match.refresh_from_db()
    assert response["Location"] == match.get_scorer_url()
    assert match.status == MatchStatus.IN_PROGRESS
    client.post(url(match, "play"), {**w(match), "seat": 0, "tile": "5-5"})
    rnd = match_engine(match).current_round
    assert rnd is not None and rnd.events == [rules.Play(0, T("5-5"))]


def test_a_finished_match_is_not_abandoned(client):
    finished = won_at_once(["Ann", "Bob"], opener=0, played_at=night(1))
    join(client, finished)

    page = html_of(client.get(url(finished, "abandon")))
    response = client.post(url(finished, "abandon"), w(finished), follow=True)

    assert "<h1>This match is finished</h1>" in page and "abandon-button" not in page
    assert "this one is finished" in html_of(response)
    finished.refresh_from_db()
    assert finished.status == MatchStatus.FINISHED


def test_a_stale_abandon_page_is_refused(client):
    match = start(client)
    stale = w(match)
    client.post(url(match, "play"), {**w(match), "seat": 0, "tile": "5-5"})

    response = client.post(url(match, "abandon"), stale, follow=True)

    assert str(OUT_OF_DATE) in html_of(response)
    match.refresh_from_db()
    assert match.status == MatchStatus.IN_PROGRESS


# -- rename ----------------------------------------------------------------------------


def test_renaming_before_play_changes_the_names_and_logs_it(client):
    match = start(client, ("Olena", "Tars"))
    page = html_of(client.get(url(match, "rename")))
    assert '<label for="id_player_1">Seat 2</label>' in page and 'value="Tars"' in page

    response = client.post(url(match, "rename"), {**w(match), "player_0": "Olena",
                                                   "player_1": "Taras"}, follow=True)

    assert response.redirect_chain == [(match.get_scorer_url(), 302)]
    assert "Renamed: Tars → Taras." in html_of(response)
    assert match_names(match) == ["Olena", "Taras"]
    history = html_of(client.get(url(match, "history")))
    assert "Players renamed</strong>: Tars → Taras" in history


def test_renaming_is_refused_once_round_one_is_under_way(client):
    match = start(client)
    client.post(url(match, "play"), {**w(match), "seat": 0, "tile": "5-5"})
    before = snapshot(match)

    response = client.post(url(match, "rename"), {**w(match), "player_0": "Olga",
                                                   "player_1": "Taras"})

    assert response.status_code == 200
    assert str(RENAME_AFTER_PLAY) in html_of(response)
    assert 'id="rename-error"' in html_of(response)
    assert snapshot(match) == before
    page = html_of(client.get(url(match, "rename")))
    assert 'id="rename-closed"' in page and 'id="rename-button"' not in page


def test_a_name_twice_is_refused_on_its_field(client):
    match = start(client)

    response = client.post(url(match, "rename"), {**w(match), "player_0": "Olena",
                                                   "player_1": " olena "})

    page = html_of(response)
    assert 'aria-invalid="true"' in page and "Each player needs a different name." in page
    field = page.split('for="id_player_1"')[1].split("</p>")[0]
    assert "Each player needs a different name." in field
    assert match_names(match) == ["Olena", "Taras"]


def test_an_empty_name_is_refused(client):
    match = start(client)

    response = client.post(url(match, "rename"), {**w(match), "player_0": "",
                                                   "player_1": "Taras"})

    assert "This field is required." in html_of(response)
    assert match_names(match) == ["Olena", "Taras"]


def test_a_league_games_club_players_keep_their_names(client):
    match = start(client)
    club = club_create(name="Oak", by=User.objects.create_user("owner"))
    olena = club.players.create(name="Olena")
    match.seats.filter(position=0).update(player=olena)

    page = html_of(client.get(url(match, "rename")))
    client.post(url(match, "rename"), {**w(match), "player_0": "Olga", "player_1": "Tara"})

    assert 'name="player_0"' in page and "disabled" in page.split('name="player_0"')[1][:80]
    assert "A club&#x27;s player: named by the club." in page
    assert match_names(match) == ["Olena", "Tara"]  # the disabled field stays


# -- rematch ---------------------------------------------------------------------------


def test_rematch_is_one_post_to_a_new_scorepad_and_exactly_once(client):
    match = start(client, ("Olena", "Taras", "Iryna"))
    client.post(url(match, "abandon"), w(match))
    page = html_of(client.get(match.get_absolute_url()))
    found = re.search(r'name="creation_key" value="([0-9a-f-]{36})"', page)
    assert found is not None
    key = found.group(1)

    first = client.post(url(match, "rematch"), {"creation_key": key})
    again = client.post(url(match, "rematch"), {"creation_key": key})

    new = Match.objects.exclude(pk=match.pk).get()
    assert first["Location"] == again["Location"] == new.get_scorer_url()
    assert match_names(new) == ["Olena", "Taras", "Iryna"]
    assert (new.game, new.options) == (match.game, match.options)
    assert client.get(new.get_scorer_url()).status_code == 200  # this phone scores it
    assert new.grants.get().is_creator


def test_a_rematch_key_sent_from_another_scorers_browser_starts_nothing_there(client):
    match = start(client)
    client.post(url(match, "abandon"), w(match))
    page = html_of(client.get(match.get_absolute_url()))
    key = re.search(r'name="creation_key" value="([0-9a-f-]{36})"', page)
    assert key is not None
    client.post(url(match, "rematch"), {"creation_key": key[1]})
    rematch = Match.objects.exclude(pk=match.pk).get()
    other_scorer = Client()
    join(other_scorer, match)

    response = other_scorer.post(url(match, "rematch"), {"creation_key": key[1]},
                                 follow=True)

    assert response.redirect_chain == [(match.get_absolute_url(), 302)]
    assert escape(str(CREATION_KEY_NOT_HERE)) in html_of(response)
    assert Match.objects.count() == 2 and rematch.grants.count() == 1
    assert other_scorer.get(rematch.get_scorer_url()).status_code == 403


def test_a_rematch_keeps_the_name_this_phone_was_given(client):
    match = start(client)
    client.post(reverse("matches:scorers_name", args=[match.public_id]), {"name": "Table 3"})
    client.post(url(match, "abandon"), w(match))
    client.post(url(match, "rematch"), {"creation_key": drawn_key(client)})

    new = Match.objects.exclude(pk=match.pk).get()
    assert new.grants.get().name == "Table 3"
    assert str(new.grants.get()).startswith("Table 3 (")  # the admin's lists say so too


def test_no_rematch_of_a_match_still_played(client):
    match = start(client)

    response = client.post(url(match, "rematch"), {"creation_key": drawn_key(client)},
                           follow=True)

    assert str(NOT_OVER) in html_of(response)
    assert Match.objects.count() == 1


def test_the_public_page_of_a_finished_match_sums_it_up(client):
    match = won_at_once(["Ann", "Bob"], opener=1, played_at=night(1))
    watcher = html_of(client.get(match.get_absolute_url()))
    join(client, match)
    scorer = html_of(client.get(match.get_absolute_url()))

    for page in (watcher, scorer):
        assert 'data-status="finished"' in page and "Bob won</h2>" in page
        assert 'data-final="1">10<' in page and "1 round · played" in page
        assert 'id="match-end-time">under a minute<' in page
        assert f'<a href="{match.get_absolute_url()}" id="share-link">' in page
    assert 'id="rematch-button"' not in watcher and 'id="rematch-button"' in scorer


# -- delete ----------------------------------------------------------------------------


def test_the_starting_phone_deletes_after_asking_and_lands_home(client):
    match = start(client)
    client.post(url(match, "play"), {**w(match), "seat": 0, "tile": "5-5"})
    summary, record = match_summary(match), match_record(match)
    page = html_of(client.get(url(match, "delete")))
    assert "<h1>Delete this match?</h1>" in page and 'id="delete-button"' in page

    response = client.post(url(match, "delete"), follow=True)

    assert response.redirect_chain == [(reverse("matches:home"), 302)]
    assert "Deleted the match of Olena, Taras." in html_of(response)
    for name in ("detail", "scorepad", "abandon", "delete"):
        assert client.get(url(match, name)).status_code == 404
    deleted = DeletedMatch.objects.get()
    assert deleted.record == record and deleted.public_id == match.public_id
    assert deleted.grant_label and deleted.user is None
    assert match_summary(match_import(document=deleted.record)) == summary


def test_a_phone_that_joined_may_abandon_but_not_delete(client):
    match = start(Client())
    join(client, match)

    assert client.get(url(match, "abandon")).status_code == 200
    refused = client.post(url(match, "delete"))

    assert refused.status_code == 403 and escape(str(DELETE_NOT_ALLOWED)) in html_of(refused)
    assert Match.objects.filter(pk=match.pk).exists()


def test_the_creators_account_deletes_without_the_phone(client):
    owner = User.objects.create_user("olena")
    client.force_login(owner)
    match = start(client)
    other = Client()
    other.force_login(owner)  # the same account on another browser: no grant there

    response = other.post(url(match, "delete"))

    assert response.status_code == 302
    assert DeletedMatch.objects.get().user == owner


def test_a_club_admin_deletes_a_league_game(client):
    admin, member = User.objects.create_user("admin"), User.objects.create_user("member")
    club = club_create(name="Oak", by=admin)
    Membership.objects.create(club=club, user=member, role=Role.MEMBER)
    game = league_game(club, admin)
    as_member, as_admin = Client(), Client()
    as_member.force_login(member)
    as_admin.force_login(admin)

    assert as_member.post(url(game, "delete")).status_code == 403
    assert as_admin.get(url(game, "delete")).status_code == 200
    as_admin.post(url(game, "delete"))

    assert not Match.objects.filter(pk=game.pk).exists()


def league_game(club: Club, admin: User) -> Match:
    """Game 1 of a fixture night, Ann against Bob, started on the scorepad."""
    season = season_create(club=club, by=admin, name="Quick",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives",
                                    options={"hand_size": 2}, divisions=["Only"])
    division = season.divisions.get()
    ann, bob = (player_add(club=club, name=n, by=admin) for n in ("Ann", "Bob"))
    home = entrant_add(division=division, by=admin, name="Home", players=[ann])
    away = entrant_add(division=division, by=admin, name="Away", players=[bob])
    fixture = division.fixtures.create(week=1, home=home, away=away)
    return fixture_game_start(fixture=fixture, by=admin, number=1,
                                       home_players=[ann], away_players=[bob]).match


def test_whoever_may_delete_a_match_is_offered_the_way_and_no_one_else(client):
    # the scorepad's link and the finished match's page ask what the delete page asks
    owner = User.objects.create_user("olena")
    client.force_login(owner)
    match = start(client)
    joined = Client()
    join(joined, match)
    assert ">Delete match<" in html_of(client.get(url(match, "scorepad")))
    assert ">Delete match<" not in html_of(joined.get(url(match, "scorepad")))
    # a tap's answer draws the links again: the same ones
    tapped = client.post(url(match, "play"), {**w(match), "seat": 0, "tile": "5-5", "at": ""},
                         HTTP_HX_REQUEST="true")
    assert 'id="links"' in html_of(tapped) and ">Delete match<" in html_of(tapped)
    tapped = joined.post(url(match, "play"), {**w(match), "seat": 1, "tile": "0-5",
                                              "at": "5-5:5"}, HTTP_HX_REQUEST="true")
    assert 'id="links"' in html_of(tapped) and ">Delete match<" not in html_of(tapped)
    match_abandon(match=match, user=owner)  # played no more: its own page
    elsewhere = Client()  # the creator's account, on a browser that holds no grant
    elsewhere.force_login(owner)
    assert ">Delete match<" in html_of(elsewhere.get(url(match, "detail")))
    for other in (joined, Client()):
        assert ">Delete match<" not in html_of(other.get(url(match, "detail")))


def test_the_admin_lists_deleted_matches_read_only(client):
    match = start(Client())
    match_delete_recorded(match=match, user=site_admin())
    client.force_login(User.objects.create_superuser("root", password="pw"))

    listing = client.get(reverse("admin:matches_deletedmatch_changelist"))
    one = client.get(reverse("admin:matches_deletedmatch_change",
                             args=[DeletedMatch.objects.get().pk]))

    assert listing.status_code == 200 and "Olena, Taras" in html_of(listing)
    assert one.status_code == 200 and 'name="_save"' not in html_of(one)
    assert client.get(reverse("admin:matches_deletedmatch_add")).status_code == 403
