"""A league game's scorepad once its fixture is sent or voided, or its season locked:
the page says it is closed and offers no controls, a tap made on a page drawn before is
refused there, in the page's language, and changes nothing; casual matches are scored
as before."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from matches import rules
from matches.leagues.selectors import (
    SCOREPAD_CLOSED,
    SCOREPAD_CLOSED_LOCKED,
    SCOREPAD_CLOSED_VOID,
    scorepad_closure,
)
from matches.leagues.services import fixture_submit, fixture_void, season_lock
from matches.models import DeletedMatch, Match, MatchStatus
from matches.scoring.services.lifecycle import NO_LEAGUE_REMATCH, match_abandon
from matches.scoring.services.play import event_record, round_start
from tests.scoring.views.test_play import HTMX, error, join, notices, scorer_url, w
from tests.support.helpers import (
    LeagueNight,
    T,
    league_night,
    site_admin,
    snapshot,
    two_player_all_fives,
)

pytestmark = pytest.mark.django_db

SENT = SCOREPAD_CLOSED % {"home": "Royal Oak A", "away": "Bowes Dragons",
                          "status": "submitted, awaiting the away captain"}
CONTROLS = ('id="undo-button"', 'class="controls"', 'id="start-round"', 'id="place-form"',
            ">Abandon match<", ">Players&#x27; names<")


def closed_note(html: str) -> str | None:
    found = re.search(r'id="scorepad-closed">(.*?)</p>', html, re.S)
    return unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip() if found else None


def won_and_sent(client: Client) -> LeagueNight:
    """The night's game won 10–0 on ``client``'s phone, then the night submitted."""
    night = league_night(target=10)
    join(client, night.match)
    round_start(match=night.match, starter=0)
    event_record(match=night.match, action=rules.Play(0, T("5-5")))
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    return night


def test_a_sent_nights_scorepad_says_it_is_closed_and_offers_no_controls(client):
    night = league_night(target=10)
    join(client, night.match)
    round_start(match=night.match, starter=0)
    event_record(match=night.match, action=rules.Play(0, T("5-5")))
    before = client.get(scorer_url(night.match)).content.decode()
    assert closed_note(before) is None and 'id="undo-button"' in before

    fixture_submit(fixture=night.fixture, by=night.home_captain)
    page = client.get(scorer_url(night.match)).content.decode()

    assert closed_note(page) == f"{SENT} The fixture's page"
    assert f'href="{night.fixture.get_absolute_url()}"' in page
    assert [control for control in CONTROLS if control in page] == []
    assert 'data-match-over="finished"' in page  # the game's end is still shown


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "no-javascript"])
def test_an_undo_from_a_page_drawn_before_the_night_was_sent_is_refused_on_it(client, htmx):
    night = won_and_sent(client)
    before = snapshot(night.match)
    data = w(night.match)  # the version the phone's page showed

    if htmx:
        answer = client.post(scorer_url(night.match, "undo"), data, **HTMX)
        page = answer.content.decode()
        assert answer.status_code == 200 and unescape(error(page) or "") == SENT
    else:
        answer = client.post(scorer_url(night.match, "undo"), data, follow=True)
        page = answer.content.decode()
        assert answer.redirect_chain == [(scorer_url(night.match), 302)]
        assert SENT in [unescape(text) for text in notices(page)]
    assert closed_note(page) == f"{SENT} The fixture's page"
    assert 'id="undo-button"' not in page
    assert snapshot(night.match) == before


def test_the_refusal_is_said_in_the_pages_language():
    phone = Client(HTTP_ACCEPT_LANGUAGE="uk")
    night = won_and_sent(phone)
    with translation.override("uk"):
        closure = scorepad_closure(night.match)
        assert closure is not None
        words = closure.reason
    assert words.startswith("Ця гра входить у результат зустрічі Royal Oak A — Bowes Dragons")

    answer = phone.post(scorer_url(night.match, "undo"), w(night.match),
                         HTTP_HX_REQUEST="true")

    page = answer.content.decode()
    assert unescape(error(page) or "") == words
    assert closed_note(page) == f"{words} Сторінка зустрічі"


def test_a_restore_from_the_history_is_refused_and_the_history_offers_none(client):
    night = won_and_sent(client)
    client.force_login(night.admin)  # the club's admin, who may restore its games
    history = reverse("matches:history", kwargs={"public_id": night.match.public_id})
    before = snapshot(night.match)

    answer = client.post(reverse("matches:restore", kwargs={"public_id": night.match.public_id}),
                         {**w(night.match), "to_version": 0}, follow=True)

    page = answer.content.decode()
    assert answer.redirect_chain == [(history, 302)]
    assert SENT in unescape(page)
    assert closed_note(page) == SENT
    assert ">Restore<" not in page
    assert snapshot(night.match) == before


def test_a_voided_nights_game_in_play_is_not_abandoned(client):
    night = league_night()
    join(client, night.match)
    round_start(match=night.match, starter=0)
    fixture_void(fixture=night.fixture, by=night.admin)
    void = SCOREPAD_CLOSED_VOID % {"home": "Royal Oak A", "away": "Bowes Dragons"}
    abandon = reverse("matches:abandon", kwargs={"public_id": night.match.public_id})

    page = client.get(abandon).content.decode()
    assert closed_note(page) == void and 'id="abandon-button"' not in page
    answer = client.post(abandon, w(night.match), follow=True)
    assert void in unescape(answer.content.decode())
    night.match.refresh_from_db()
    assert night.match.status == MatchStatus.IN_PROGRESS


def test_an_abandoned_game_of_a_locked_season_offers_no_resume(client):
    night = league_night()
    join(client, night.match)
    round_start(match=night.match, starter=0)
    match_abandon(match=night.match)
    season_lock(season=night.fixture.division.season, by=night.admin)
    locked = SCOREPAD_CLOSED_LOCKED % {"season": "Monday League"}

    scorepad = client.get(scorer_url(night.match)).content.decode()
    match_page = client.get(night.match.get_absolute_url()).content.decode()
    abandon = client.get(reverse("matches:abandon",
                                 kwargs={"public_id": night.match.public_id})).content.decode()

    assert closed_note(scorepad) == f"{locked} The fixture's page"
    assert closed_note(abandon) == locked
    for page in (scorepad, match_page, abandon):
        assert 'id="resume-link"' not in page and 'id="resume-button"' not in page
    answer = client.post(reverse("matches:resume", kwargs={"public_id": night.match.public_id}),
                         w(night.match), follow=True)
    assert locked in unescape(answer.content.decode())
    night.match.refresh_from_db()
    assert night.match.status == MatchStatus.ABANDONED


def test_an_open_nights_scorepad_and_a_casual_ones_are_scored_as_before(client):
    night = league_night()
    join(client, night.match)
    casual = two_player_all_fives()
    join(client, casual)

    for match in (night.match, casual):
        page = client.get(scorer_url(match)).content.decode()
        assert closed_note(page) is None and 'id="start-round"' in page
        answer = client.post(scorer_url(match, "round"),
                             {**w(match), "starter": "0", "mode": "tracked"}, **HTMX)
        assert error(answer.content.decode()) is None
        match.refresh_from_db()
        assert match.rounds.filter(undone_by=None).count() == 1


def test_a_voided_nights_game_not_yet_begun_offers_no_renaming(client):
    night = league_night()
    join(client, night.match)
    fixture_void(fixture=night.fixture, by=night.admin)
    void = SCOREPAD_CLOSED_VOID % {"home": "Royal Oak A", "away": "Bowes Dragons"}
    rename = reverse("matches:rename", kwargs={"public_id": night.match.public_id})

    page = client.get(rename).content.decode()

    assert closed_note(page) == void and 'id="rename-button"' not in page


# -- deleting a closed game -----------------------------------------------------------


def delete_url(night: LeagueNight) -> str:
    return reverse("matches:delete", kwargs={"public_id": night.match.public_id})


def test_a_sent_nights_game_offers_no_delete_and_a_delete_sent_anyway_is_refused(client):
    """The home captain's phone started the game: its delete page, opened after the night
    was sent, says why the match stays; a delete from a page drawn before answers 400
    with that page, and the match, its record and the fixture stay as they were."""
    night = won_and_sent(client)
    phone = Client()
    phone.force_login(night.home_captain)  # the game's creator: may delete an open one
    before = snapshot(night.match)

    page = phone.get(delete_url(night)).content.decode()
    scorepad = phone.get(scorer_url(night.match)).content.decode()
    refused = phone.post(delete_url(night))

    assert closed_note(page) == SENT and 'id="delete-button"' not in page
    assert "This match can no longer be deleted" in page
    assert ">Delete match<" not in scorepad
    assert refused.status_code == 400
    assert closed_note(refused.content.decode()) == SENT
    assert 'id="delete-button"' not in refused.content.decode()
    assert snapshot(night.match) == before and not DeletedMatch.objects.exists()


def test_the_refusal_to_delete_is_said_in_the_pages_language():
    night = won_and_sent(Client())
    phone = Client(HTTP_ACCEPT_LANGUAGE="uk")
    phone.force_login(night.admin)

    page = phone.post(delete_url(night)).content.decode()

    assert "Цей матч більше не можна видалити" in page
    assert "Ця гра входить у результат зустрічі Royal Oak A — Bowes Dragons" in unescape(page)
    assert Match.objects.filter(pk=night.match.pk).exists()


def test_a_staff_scorer_is_offered_delete_on_an_open_game_only(client):
    night = league_night()
    client.force_login(site_admin())
    join(client, night.match)
    round_start(match=night.match, starter=0)
    assert ">Delete match<" in client.get(scorer_url(night.match)).content.decode()

    fixture_void(fixture=night.fixture, by=night.admin)

    page = client.get(scorer_url(night.match)).content.decode()
    assert ">Delete match<" not in page and closed_note(page) is not None


def test_the_admin_site_deletes_no_closed_game(client):
    """Neither from its delete page nor by the "Delete selected" action, which refuses a
    selection holding one, as Django refuses any object the user may not delete."""
    night = won_and_sent(Client())
    casual = two_player_all_fives()
    client.force_login(User.objects.create_superuser("root"))
    changelist = reverse("admin:matches_match_changelist")

    page = client.get(reverse("admin:matches_match_delete", args=[night.match.pk]))
    both = client.post(changelist, {"action": "delete_selected", "post": "yes",
                                    "_selected_action": [night.match.pk, casual.pk]})
    assert page.status_code == both.status_code == 403
    assert Match.objects.filter(pk__in=[night.match.pk, casual.pk]).count() == 2
    client.post(changelist, {"action": "delete_selected", "post": "yes",
                             "_selected_action": [casual.pk]})

    assert list(Match.objects.values_list("pk", flat=True)) == [night.match.pk]


# -- where a league game belongs --------------------------------------------------------


def match_place(html: str) -> list[tuple[str, str]]:
    """The links of the line that names the game's fixture, season and club."""
    found = re.search(r'<p class="match-place" id="match-place">(.*?)</p>', html, re.S)
    assert found is not None, "the page names no fixture"
    return [(href, unescape(words)) for href, words in
            re.findall(r'<a href="([^"]+)">([^<]+)</a>', found[1])]


def test_a_finished_league_game_goes_back_to_its_fixture_and_offers_no_rematch(client):
    night = won_and_sent(client)

    page = client.get(scorer_url(night.match)).content.decode()

    back = re.search(r'<a href="([^"]+)" class="btn btn-primary btn-block" '
                     r'id="fixture-back">([^<]+)</a>', page)
    assert back is not None and back.groups() == (night.fixture.get_absolute_url(),
                                                   "Back to the fixture")
    assert 'id="rematch-button"' not in page  # a rematch would count in no fixture
    # nor is one started by a post the page never offered: it would be the club's match
    drawn = re.search(r'name="creation_key" value="([0-9a-f-]{36})"',
                      client.get(reverse("matches:new")).content.decode())
    assert drawn is not None  # a key this browser holds, as a rematch form would have
    sent = client.post(scorer_url(night.match) + "rematch/", {"creation_key": drawn[1]},
                       follow=True)
    assert str(NO_LEAGUE_REMATCH) in unescape(sent.content.decode())
    assert not Match.objects.filter(season=None).exclude(pk=night.match.pk).exists()
    # a casual match's scorer still has it
    casual = two_player_all_fives(target=10)
    join(client, casual)
    round_start(match=casual, starter=0)
    event_record(match=casual, action=rules.Play(0, T("5-5")))
    casual_page = client.get(scorer_url(casual)).content.decode()
    assert 'id="rematch-button"' in casual_page and 'id="fixture-back"' not in casual_page
    assert 'id="match-place"' not in casual_page


def test_a_league_games_pages_name_its_fixture_season_and_club(client):
    night = league_night(target=10)
    season = night.fixture.division.season
    named = [(night.fixture.get_absolute_url(), "Royal Oak A v Bowes Dragons"),
             (season.get_absolute_url(), "Monday League"),
             (season.club.get_absolute_url(), "Teesdale")]
    # watched while it is played, and its own page once it is over
    watching = Client().get(night.match.get_absolute_url()).content.decode()
    assert match_place(watching) == named
    assert "Game 1 of <a" in watching
    round_start(match=night.match, starter=0)
    event_record(match=night.match, action=rules.Play(0, T("5-5")))
    over = Client().get(night.match.get_absolute_url()).content.decode()
    assert match_place(over) == named
    reader = Client()
    reader.cookies["django_language"] = "uk"
    assert "Гра 1 зустрічі <a" in reader.get(night.match.get_absolute_url()).content.decode()


def test_a_members_only_clubs_league_game_is_still_hidden_from_outsiders(client):
    night = league_night(target=10)
    club = night.fixture.division.season.club
    club.visibility = "members"
    club.save(update_fields=["visibility"])

    assert Client().get(night.match.get_absolute_url()).status_code == 404
    member = Client()
    member.force_login(night.away_captain)
    assert match_place(member.get(night.match.get_absolute_url()).content.decode())[0] == (
        night.fixture.get_absolute_url(), "Royal Oak A v Bowes Dragons")
