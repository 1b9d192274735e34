"""Every tap exactly once, nothing erased: versions, tap keys, grants, history, restore.

Two phones (two test clients, each holding its own scorer grant) score one match, with
answers lost and taps resent as flaky Wi-Fi does.
"""

from __future__ import annotations

import io
import logging
import uuid
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.models import Change, Event, Match, ScorerGrant
from matches.scoring.selectors.play import match_engine, match_record
from matches.scoring.services.play import (
    OUT_OF_DATE,
    event_record,
    event_undo,
    match_create,
    match_restore,
    round_start,
)
from scorekeeper.logs import RedactSecrets
from tests.support.helpers import (
    assert_cache_equals_replay,
    drawn_key,
    live,
    snapshot,
    two_player_all_fives,
)

pytestmark = pytest.mark.django_db
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def url(match: Match, name: str) -> str:
    return reverse(f"matches:{name}", kwargs={"public_id": match.public_id})


def phone(match: Match) -> Client:
    """A new phone that opened the shared scorer's link and said yes."""
    client = Client()
    assert client.post(match.get_join_url()).status_code == 302
    return client


def page(match: Match) -> dict[str, object]:
    """What a page drawn now sends with a tap: the version it shows, the seat whose turn it
    shows, a fresh key."""
    match.refresh_from_db()
    rnd = match_engine(match).current_round
    fields: dict[str, object] = {"version": match.version, "key": str(uuid.uuid4())}
    if rnd is not None and rnd.turn is not None:
        fields["seat"] = rnd.turn
    return fields


def tiles_on_table(match: Match) -> list[str]:
    rnd = match_engine(match).current_round
    assert rnd is not None
    return [str(tile) for tile in rnd.layout.tiles]


@pytest.fixture
def table() -> Match:
    """Olena and Taras, All Fives, round 1 under way with Olena to open."""
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    return match


def test_a_retried_undo_does_not_take_back_another_phones_tile(table):
    a, b = phone(table), phone(table)
    a.post(url(table, "play"), {**page(table), "tile": "5-5"}, **HTMX)  # accepted
    undo = page(table)
    a.post(url(table, "undo"), undo, **HTMX)  # accepted; A never sees the answer
    b.post(url(table, "play"), {**page(table), "tile": "6-6"}, **HTMX)  # B saw the undo

    html = a.post(url(table, "undo"), undo, **HTMX).content.decode()  # A's retry

    assert "Already recorded: took back Olena opened with 5-5." in html
    assert tiles_on_table(table) == ["6-6"]
    table.refresh_from_db()
    assert table.version == 4
    assert_cache_equals_replay(table)


def test_a_tap_from_a_page_drawn_before_an_undo_is_refused(table):
    a, b = phone(table), phone(table)
    a.post(url(table, "play"), {**page(table), "tile": "5-5"}, **HTMX)
    b_page = page(table)  # B's page shows the 5-5 and Taras to play
    a.post(url(table, "undo"), page(table), **HTMX)
    before = snapshot(table)

    html = b.post(url(table, "play"), {**b_page, "tile": "5-6", "at": "5-5:5"},
                  **HTMX).content.decode()

    assert str(OUT_OF_DATE) in html.replace("&#x27;", "'")
    assert snapshot(table) == before


def test_a_retried_play_does_not_put_back_a_tile_another_phone_undid(table):
    a, b = phone(table), phone(table)
    play = {**page(table), "tile": "5-5"}
    a.post(url(table, "play"), play, **HTMX)  # accepted; the answer is lost
    b.post(url(table, "undo"), page(table), **HTMX)

    html = a.post(url(table, "play"), play, **HTMX).content.decode()  # A's retry

    # told that it is not on the table any more, not just that it was recorded
    assert ('<p class="message message-warning" data-recorded>Already recorded, and since '
            'taken back: Olena opened with 5-5.</p>' in html)
    assert tiles_on_table(table) == []
    assert live(table.events).count() == 0 and table.events.count() == 1
    assert_cache_equals_replay(table)


@pytest.mark.parametrize("tap", [("play", {"tile": "5-6", "at": "5-5:5"}), ("undo", {}),
                                 ("draw", {"tiles": "1"})])
def test_a_key_used_again_with_the_current_version_is_answered_not_applied(table, tap):
    """A phone that sends a key a change already holds, with the version that change
    made (no phone of ours does: each tap draws a fresh key), is answered as a tap sent
    again is; nothing else is written. (A tap the rules refuse says why first.)"""
    a = phone(table)
    first = page(table)
    a.post(url(table, "play"), {**first, "tile": "5-5"}, **HTMX)
    before = snapshot(table)
    name, fields = tap

    response = a.post(url(table, name), {**page(table), "key": first["key"], **fields}, **HTMX)

    assert response.status_code == 200
    assert "Already recorded: Olena opened with 5-5." in response.content.decode()
    assert snapshot(table) == before


def test_a_tap_names_its_seat_and_is_refused_for_any_other(table):
    a = phone(table)
    a.post(url(table, "play"), {**page(table), "tile": "5-5"}, **HTMX)
    before = snapshot(table)
    for name, extra in (("play", {"tile": "5-6", "at": "5-5:5"}), ("draw", {"tiles": "1"}),
                        ("pass", {})):
        html = a.post(url(table, name), {**page(table), "seat": 0, **extra},
                      **HTMX).content.decode()
        assert "id=\"scorepad-error\"" in html
        assert snapshot(table) == before


def test_every_write_and_every_undo_bumps_the_version(table):
    a = phone(table)
    versions = [Match.objects.get(pk=table.pk).version]
    for name, extra in (("play", {"tile": "5-5"}), ("undo", {}), ("play", {"tile": "6-6"})):
        a.post(url(table, name), {**page(table), **extra}, **HTMX)
        versions.append(Match.objects.get(pk=table.pk).version)
    assert versions == [1, 2, 3, 4]
    assert list(table.changes.values_list("version", "kind")) == \
        [(1, "start"), (2, "play"), (3, "undo"), (4, "play")]


# -- after a lost answer -----------------------------------------------------------------


def test_the_page_resyncs_and_says_whether_the_lost_tap_was_recorded(table):
    a = phone(table)
    recorded = {**page(table), "tile": "5-5"}
    a.post(url(table, "play"), recorded, **HTMX)

    html = a.get(url(table, "scorepad") + f"?sync={recorded['key']}", **HTMX).content.decode()
    assert "Your last tap was recorded: Olena opened with 5-5." in html

    html = a.get(url(table, "scorepad") + f"?sync={uuid.uuid4()}", **HTMX).content.decode()
    assert "Your last tap was not recorded." in html
    # the page's script asks for the whole scorepad (its target) with the answer
    html = a.get(url(table, "scorepad") + "?sync=not-a-key", **HTMX,
                 HTTP_HX_TARGET="scorepad").content.decode()
    assert 'id="scorepad"' in html and "<html" not in html


def test_a_lost_tap_another_phone_took_back_since_is_said_so(table):
    a, b = phone(table), phone(table)
    recorded = {**page(table), "tile": "5-5"}
    a.post(url(table, "play"), recorded, **HTMX)  # the answer is lost
    b.post(url(table, "undo"), page(table), **HTMX)

    html = a.get(url(table, "scorepad") + f"?sync={recorded['key']}", **HTMX).content.decode()
    # a warning, marked recorded: a phone's queue (static/js/offline.js) must not take it
    # for a tap that never arrived and ask for it again
    assert ('<p class="message message-warning" data-recorded>Your last tap was recorded, '
            'and since taken back: Olena opened with 5-5.</p>' in html)
    # put down again, it stands: recorded, no more
    b.post(url(table, "play"), {**page(table), "tile": "5-5"}, **HTMX)
    html = a.get(url(table, "scorepad") + f"?sync={recorded['key']}", **HTMX).content.decode()
    assert "Your last tap was recorded: Olena opened with 5-5." in html


def test_a_lost_or_resent_undo_is_said_as_taking_back_not_as_the_tile_placed(table):
    a = phone(table)
    a.post(url(table, "play"), {**page(table), "tile": "5-5"}, **HTMX)
    undo = page(table)
    a.post(url(table, "undo"), undo, **HTMX)

    html = a.get(url(table, "scorepad") + f"?sync={undo['key']}", **HTMX).content.decode()
    assert "Your last tap was recorded: took back Olena opened with 5-5." in html
    html = a.post(url(table, "undo"), undo, **HTMX).content.decode()  # the same tap again
    assert "Already recorded: took back Olena opened with 5-5." in html
    assert list(table.changes.values_list("kind", flat=True)) == ["start", "play", "undo"]


# -- nothing erased --------------------------------------------------------------------------


def test_undo_is_recorded_and_the_history_shows_who_took_back_what(table):
    a = phone(table)
    a.post(url(table, "play"), {**page(table), "tile": "5-5"}, **HTMX)
    a.post(url(table, "undo"), page(table), **HTMX)

    event = table.events.get()
    undo = table.changes.get(kind="undo")
    assert event.undone_by == undo and undo.grant is not None
    assert undo.description == "Olena opened with 5-5"
    html = a.get(url(table, "history")).content.decode()
    assert "<strong>Undo</strong>: Olena opened with 5-5" in html
    assert undo.grant.label in html
    # the exported record and every replay leave the undone tile out
    assert match_record(table)["rounds"][0].get("events", []) == []
    assert Client().get(url(table, "history")).status_code == 403


def test_the_creator_restores_an_earlier_version_and_that_is_recorded_too():
    creator = Client()
    creator.post(reverse("matches:new"), {
        "creation_key": drawn_key(creator), "game": "all-fives", "player_0": "Olena",
        "player_1": "Taras", "starter": "0", "mode": "tracked"})
    match = Match.objects.get()
    helper = phone(match)
    for tile, at in (("5-5", ""), ("5-6", "5-5:5")):
        helper.post(url(match, "play"), {**page(match), "tile": tile, "at": at}, **HTMX)
    for _ in range(3):  # a leaked link's holder takes it all back, round start included
        helper.post(url(match, "undo"), page(match), **HTMX)
    assert live(match.rounds).count() == 0

    # only the phone that started the match may restore
    refused = helper.post(url(match, "restore"), {**page(match), "to_version": 3},
                          follow=True).content.decode()
    assert "Only the phone that started the match" in refused
    assert live(match.rounds).count() == 0

    creator.post(url(match, "restore"), {**page(match), "to_version": 3})

    assert tiles_on_table(match) == ["5-5", "5-6"]
    match.refresh_from_db()
    assert match.version == 7
    restore = match.changes.get(version=7)
    assert restore.grant is not None and restore.grant.is_creator
    assert (restore.kind, restore.restored_to) == ("restore", 3)
    assert_cache_equals_replay(match)
    # the rows the undos took back stay taken back; the restore wrote its own
    assert match.events.count() == 4 and live(match.events).count() == 2
    html = creator.get(url(match, "history")).content.decode()
    assert "the match as it stood at version 3" in html


def test_restore_refuses_a_version_that_is_not_earlier(table):
    creator_grant = ScorerGrant.objects.create(match=table, label="creator", is_creator=True)
    with pytest.raises(ValidationError):
        match_restore(match=table, to_version=1, grant=creator_grant)


# -- the scorer's secret out of URLs -------------------------------------------------------


def test_the_shared_link_is_exchanged_for_a_grant_and_left_behind(table):
    client = Client()
    ask = client.get(table.get_join_url())
    assert ask.status_code == 200 and ask["Referrer-Policy"] == "strict-origin"
    assert "no-store" in ask["Cache-Control"]
    assert not ScorerGrant.objects.filter(match=table).exists()  # a link preview makes none

    answer = client.post(table.get_join_url())
    assert answer["Location"] == table.get_scorer_url() == url(table, "scorepad")
    assert table.scorer_token not in answer["Location"]
    pad = client.get(answer["Location"])
    assert pad.status_code == 200 and "no-store" in pad["Cache-Control"]
    assert table.scorer_token not in pad.content.decode()


def test_a_link_shared_before_grants_still_joins(table):
    client = Client()
    legacy = f"/matches/{table.public_id}/score/{table.scorer_token}/"
    assert client.post(legacy)["Location"] == table.get_scorer_url()


def test_a_leaked_old_link_is_refused_after_rotation_and_granted_phones_keep_scoring(table):
    a = phone(table)
    old_link = table.get_join_url()
    html = a.get(url(table, "scorers")).content.decode()
    assert "<svg" in html and old_link in html  # the QR code and the link to copy

    a.post(url(table, "scorers_rotate"))

    table.refresh_from_db()
    stranger = Client()
    assert stranger.get(old_link).status_code == 404
    assert stranger.post(old_link).status_code == 404
    assert stranger.get(url(table, "scorepad")).status_code == 403
    assert a.get(url(table, "scorepad")).status_code == 200
    assert phone(table).get(url(table, "scorepad")).status_code == 200  # the new link works


def test_a_revoked_phone_scores_no_more(table):
    a, b = phone(table), phone(table)
    b_grant = ScorerGrant.objects.get(match=table, pk=b.session["scorer_grants"][
        str(table.public_id)])
    a.post(reverse("matches:scorers_revoke", kwargs={"public_id": table.public_id,
                                                     "grant_id": b_grant.pk}))
    before = snapshot(table)
    assert b.post(url(table, "play"), {**page(table), "tile": "5-5"}).status_code == 403
    assert snapshot(table) == before
    assert a.get(url(table, "scorers")).content.decode().count("revoked") >= 1


def test_another_phone_cannot_revoke_the_phone_that_started_the_match():
    creator = Client()
    creator.post(reverse("matches:new"), {
        "creation_key": drawn_key(creator), "game": "all-fives", "player_0": "Olena",
        "player_1": "Taras", "starter": "0", "mode": "tracked"})
    match = Match.objects.get()
    intruder = phone(match)
    first = match.grants.get(is_creator=True)
    answer = intruder.post(reverse("matches:scorers_revoke", kwargs={
        "public_id": match.public_id, "grant_id": first.pk}), follow=True).content.decode()
    assert "can only be revoked from that phone" in answer
    first.refresh_from_db()
    assert first.active
    # the creator takes the intruder's right back, and replaces the leaked link
    intruder_grant = match.grants.get(is_creator=False)
    creator.post(reverse("matches:scorers_revoke", kwargs={
        "public_id": match.public_id, "grant_id": intruder_grant.pk}))
    creator.post(url(match, "scorers_rotate"))
    assert intruder.get(url(match, "scorepad")).status_code == 403
    assert creator.get(url(match, "scorepad")).status_code == 200


def test_logs_never_hold_a_scorers_secret(table):
    handler = next(h for h in logging.getLogger().handlers
                   if any(isinstance(f, RedactSecrets) for f in h.filters))
    buffer = io.StringIO()
    old = handler.setStream(buffer)  # type: ignore[attr-defined]
    try:
        wrong = table.scorer_token[::-1]
        Client().get(reverse("matches:join", kwargs={"public_id": table.public_id,
                                                     "token": wrong}))
        Client().get(f"/matches/{table.public_id}/score/{wrong}/")
    finally:
        handler.setStream(old)  # type: ignore[attr-defined]
    logged = buffer.getvalue()
    assert "Not Found" in logged and "[secret]" in logged
    assert wrong not in logged


# -- casual names stay with their match ---------------------------------------------------


def test_a_casual_match_attaches_no_one_elses_name():
    match_create(game="all-fives", players=["Olena", "Taras"])
    other = match_create(game="all-fives", players=["olena", "Iryna"])
    assert list(other.seats.values_list("name", "player")) == [("olena", None), ("Iryna", None)]


def test_exports_ignore_undone_entries(table):
    event_record(match=table, action=rules.Play(0, rules.Tile.parse("5-5")))
    event_undo(match=table)
    assert Event.objects.filter(match=table).count() == 1
    record = match_record(table)
    assert all("events" not in r or not r["events"] for r in record["rounds"])
    assert Change.objects.filter(match=table, kind="undo").count() == 1
