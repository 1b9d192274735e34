"""matches.services.leagues: who may do what to an entrant and a fixture, checked by the
services themselves (the pages' flags ask the same selectors)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from matches import services
from matches.models import Division, Membership
from matches.services.leagues import CAPTAIN_OUTSIDE, PLAYERS_UNKNOWN

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name)
            for name in ("admin", "oak", "bowes", "member", "stranger")}


@pytest.fixture
def division(people) -> Division:
    club = services.club_create(name="Teesdale", by=people["admin"])
    for name in ("oak", "bowes"):
        Membership.objects.create(club=club, user=people[name], role="captain")
    Membership.objects.create(club=club, user=people["member"], role="member")
    return services.season_create(club=club, by=people["admin"], name="Monday League",
                                  game="all-fives",
                                  starts_on=datetime.date(2026, 9, 7)).divisions.get()


def test_entrant_add_takes_its_captain_by_a_members_username(division, people):
    entrant = services.entrant_add(division=division, by=people["admin"], name="Black Bull",
                                   captain_username="member")
    assert entrant.captain == people["member"]


@pytest.mark.parametrize("username", ["stranger", "nobody"])
def test_entrant_add_refuses_a_username_outside_the_club_alike_whether_or_not_it_exists(
        division, people, username):
    with pytest.raises(ValidationError) as refused:
        services.entrant_add(division=division, by=people["admin"], name="Black Bull",
                             captain_username=username)
    assert refused.value.message_dict == {"captain": [CAPTAIN_OUTSIDE % {"name": username}]}
    assert not division.entrants.exists()


def test_entrant_add_takes_its_squad_by_the_clubs_players_names(division, people):
    club = division.season.club
    ann = services.player_add(club=club, name="Ann Dale", by=people["admin"])
    bob = services.player_add(club=club, name="Bob Hay", by=people["admin"])
    entrant = services.entrant_add(division=division, by=people["admin"], name="Black Bull",
                                   player_names=[" bob  hay", "ann dale", " "])
    assert list(entrant.players.order_by("name")) == [ann, bob]


def test_entrant_add_refuses_names_that_are_not_the_clubs_players(division, people):
    services.player_add(club=division.season.club, name="Ann Dale", by=people["admin"])
    with pytest.raises(ValidationError) as refused:
        services.entrant_add(division=division, by=people["admin"], name="Black Bull",
                             player_names=["Ann Dale", "Nobody", "Somebody"])
    assert refused.value.message_dict == {
        "players": [PLAYERS_UNKNOWN % {"names": "Nobody, Somebody"}]}
