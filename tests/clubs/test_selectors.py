"""matches.clubs.selectors: a club's members, players and seasons as the pages find
them."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from matches.clubs import selectors as clubs_selectors
from matches.clubs.services import club_create, player_add
from matches.leagues.selectors import club_season, season_matches
from matches.leagues.services import season_create
from matches.models import Membership

pytestmark = pytest.mark.django_db


def test_member_club_ids_are_the_clubs_a_user_belongs_to(club, people, django_user_model):
    other = club_create(name="Bowes", by=people["member"])
    assert clubs_selectors.member_club_ids(user=people["member"]) == {club.pk, other.pk}
    assert clubs_selectors.member_club_ids(user=people["outsider"]) == set()
    assert clubs_selectors.member_club_ids(user=AnonymousUser()) == set()


def test_a_member_or_player_of_another_club_is_a_404(club, people):
    other = club_create(name="Bowes", by=people["outsider"])
    theirs = player_add(club=other, name="Ann Dale", by=people["outsider"])
    ours = player_add(club=club, name="Ann Dale", by=people["owner"])
    outsider = Membership.objects.get(club=other)
    assert clubs_selectors.club_player(club=club, pk=ours.pk) == ours
    assert clubs_selectors.club_member(club=other, pk=outsider.pk).user == people["outsider"]
    with pytest.raises(Http404):
        clubs_selectors.club_player(club=club, pk=theirs.pk)
    with pytest.raises(Http404):
        clubs_selectors.club_member(club=club, pk=outsider.pk)


def test_club_member_named_answers_alike_for_a_stranger_and_a_name_no_one_has(club, people):
    captain = clubs_selectors.club_member_named(club=club, username="captain")
    assert captain is not None and captain.user == people["captain"]
    assert clubs_selectors.club_member_named(club=club, username="outsider") is None
    assert clubs_selectors.club_member_named(club=club, username="nobody") is None


def test_club_players_named_fold_case(club, people):
    ann = player_add(club=club, name="Ann Dale", by=people["owner"])
    player_add(club=club, name="Bob Hay", by=people["owner"])
    assert clubs_selectors.club_players_named(club=club, names=["ANN DALE", "Nobody"]) == {
        "ann dale": ann}


def test_club_season_is_the_clubs_own_and_knows_its_club(club, people):
    season = season_create(club=club, by=people["owner"], name="Monday League",
                                    game="all-fives", starts_on=datetime.date(2026, 9, 7))
    other = club_create(name="Bowes", by=people["outsider"])
    found = club_season(club=club, slug=season.slug)
    with CaptureQueriesContext(connection) as queries:
        assert found == season and found.club == club
    assert len(queries) == 0
    with pytest.raises(Http404):
        club_season(club=other, slug=season.slug)
    assert list(season_matches(season=season)) == []
