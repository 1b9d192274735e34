"""matches.clubs.selectors: a club's members, players and seasons as the pages find
them, and what a reader may do there (club_rights)."""

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
from matches.models import Club, Membership, Role

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name)
            for name in ("owner", "admin", "captain", "scorer", "member", "outsider")}


@pytest.fixture
def club(people) -> Club:
    club = club_create(name="Teesdale", by=people["owner"])
    for role in ("admin", "captain", "scorer", "member"):
        Membership.objects.create(club=club, user=people[role], role=role)
    return club


@pytest.mark.parametrize(("who", "invite", "players", "roles", "league"), [
    ("owner", True, True, True, True),
    ("admin", True, True, True, True),
    ("captain", True, True, False, False),
    ("scorer", False, False, False, False),
    ("member", False, False, False, False),
    ("outsider", False, False, False, False),
])
def test_club_rights_by_role(club, people, who, invite, players, roles, league):
    rights = clubs_selectors.club_rights(club=club, user=people[who])
    assert (rights.can_invite, rights.can_add_players, rights.can_set_roles,
            rights.runs_league) == (invite, players, roles, league)


def test_club_rights_read_the_membership_once_and_none_for_a_reader_not_signed_in(
        club, people):
    rights = clubs_selectors.club_rights(club=club, user=people["captain"])
    with CaptureQueriesContext(connection) as queries:
        assert rights.can_invite and not rights.can_set_roles and rights.member is not None
    assert len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        anonymous = clubs_selectors.club_rights(club=club, user=AnonymousUser())
        assert not anonymous.can_invite and anonymous.member is None
    assert len(queries) == 0


def test_club_rights_say_which_roles_a_reader_may_invite_as_and_give(club, people):
    admin = clubs_selectors.club_rights(club=club, user=people["admin"])
    member = Membership.objects.get(club=club, user=people["member"])
    owner = Membership.objects.get(club=club, user=people["owner"])
    assert admin.invite_roles() == [Role.CAPTAIN, Role.SCORER, Role.MEMBER]
    assert admin.roles_for(member) == [Role.CAPTAIN, Role.SCORER, Role.MEMBER]
    assert admin.roles_for(owner) == []
    assert admin.member is not None and admin.roles_for(admin.member) == []  # never their own
    scorer = clubs_selectors.club_rights(club=club, user=people["scorer"])
    assert scorer.invite_roles() == [] and scorer.roles_for(member) == []


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
