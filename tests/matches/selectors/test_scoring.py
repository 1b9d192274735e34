"""matches.selectors.scoring: a match, its phones and its changes as the pages find
them, and which phone may revoke which (can_revoke)."""

from __future__ import annotations

import uuid

import pytest
from django.http import Http404

from matches import rules, selectors, services
from tests.matches.helpers import T, two_player_all_fives

pytestmark = pytest.mark.django_db


def started() -> services.MatchStarted:
    return services.match_start(game="all-fives", players=["Olena", "Taras"],
                                options={"hand_size": 2}, starter=0,
                                creation_key=uuid.uuid4(), phone="Android phone")


def test_match_by_public_id_or_a_404():
    match = two_player_all_fives()
    assert selectors.match_by_public_id(public_id=match.public_id) == match
    with pytest.raises(Http404):
        selectors.match_by_public_id(public_id=uuid.uuid4())


def test_match_grant_is_the_matchs_own_phone_or_a_404():
    first, other = started(), started()
    assert selectors.match_grant(match=first.match, pk=first.grant.pk) == first.grant
    with pytest.raises(Http404):
        selectors.match_grant(match=first.match, pk=other.grant.pk)


def test_change_by_key_finds_the_taps_change():
    match = two_player_all_fives()
    key = uuid.uuid4()
    services.round_start(match=match, starter=0)
    change = services.event_record(match=match, action=rules.Play(0, T("5-5")), key=key)
    assert selectors.change_by_key(match=match, key=key) == change
    assert selectors.change_by_key(match=match, key=uuid.uuid4()) is None


def test_match_fresh_reads_what_another_write_changed():
    match = two_player_all_fives()
    seen = selectors.match_by_public_id(public_id=match.public_id)
    services.round_start(match=match, starter=0)
    assert selectors.match_fresh(match=seen, fields=["version"]).version == 1


def test_a_phone_may_revoke_itself_and_others_but_not_the_starting_phone():
    first = started()
    one = services.grant_create(match=first.match, phone="iPhone")
    two = services.grant_create(match=first.match, phone="iPhone")
    stranger = started().grant
    assert selectors.can_revoke(grant=two, by=one)
    assert selectors.can_revoke(grant=one, by=one)
    assert selectors.can_revoke(grant=one, by=first.grant)
    assert selectors.can_revoke(grant=first.grant, by=first.grant)
    assert not selectors.can_revoke(grant=first.grant, by=one)
    assert not selectors.can_revoke(grant=one, by=stranger)
    assert not selectors.can_revoke(grant=one, by=None)
    services.grant_revoke(grant=two, by=two)
    assert not selectors.can_revoke(grant=one, by=two)  # revoked: no longer a scorer

