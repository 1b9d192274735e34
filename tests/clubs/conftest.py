"""A club with one member of each role, and someone from outside it."""

import pytest

from matches.clubs.services import club_create
from matches.models import Club, Membership


@pytest.fixture
def people(django_user_model):
    return {name: django_user_model.objects.create_user(name, password="pw")
            for name in ("owner", "admin", "captain", "scorer", "member", "outsider")}


@pytest.fixture
def club(people) -> Club:
    club = club_create(name="Teesdale", by=people["owner"])
    for role in ("admin", "captain", "scorer", "member"):
        Membership.objects.create(club=club, user=people[role], role=role)
    return club
