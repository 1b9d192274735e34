"""matches.clubs.access: what a reader may do at a club (club_rights), and each club
write for each kind of person: an outsider of a members-only club gets a 404, a member
without the role a 403, the role the write."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.clubs.access import club_rights
from matches.clubs.services import player_add
from matches.models import Club, Membership, Player, Role, Visibility

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("who", "invite", "players", "roles", "league"), [
    ("owner", True, True, True, True),
    ("admin", True, True, True, True),
    ("captain", True, True, False, False),
    ("scorer", False, False, False, False),
    ("member", False, False, False, False),
    ("outsider", False, False, False, False),
])
def test_club_rights_by_role(club, people, who, invite, players, roles, league):
    rights = club_rights(club=club, user=people[who])
    assert (rights.can_invite, rights.can_add_players, rights.can_set_roles,
            rights.runs_league) == (invite, players, roles, league)


def test_club_rights_read_the_membership_once_and_none_for_a_reader_not_signed_in(
        club, people):
    rights = club_rights(club=club, user=people["captain"])
    with CaptureQueriesContext(connection) as queries:
        assert rights.can_invite and not rights.can_set_roles and rights.member is not None
    assert len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        anonymous = club_rights(club=club, user=AnonymousUser())
        assert not anonymous.can_invite and anonymous.member is None
    assert len(queries) == 0


def test_club_rights_say_which_roles_a_reader_may_invite_as_and_give(club, people):
    admin = club_rights(club=club, user=people["admin"])
    member = Membership.objects.get(club=club, user=people["member"])
    owner = Membership.objects.get(club=club, user=people["owner"])
    assert admin.invite_roles() == [Role.CAPTAIN, Role.SCORER, Role.MEMBER]
    assert admin.roles_for(member) == [Role.CAPTAIN, Role.SCORER, Role.MEMBER]
    assert admin.roles_for(owner) == []
    assert admin.member is not None and admin.roles_for(admin.member) == []  # never their own
    scorer = club_rights(club=club, user=people["scorer"])
    assert scorer.invite_roles() == [] and scorer.roles_for(member) == []




# -- each club write for each kind of person ---------------------------------------------

# the least role each write needs, said here again so that a guard lost or loosened in
# the code shows as a status no longer expected
RANKS = [Role.MEMBER, Role.SCORER, Role.CAPTAIN, Role.ADMIN, Role.OWNER]
NEEDS = {"invite": Role.CAPTAIN, "set role": Role.ADMIN, "add player": Role.CAPTAIN,
         "claim player": Role.MEMBER, "settings": Role.ADMIN}
PEOPLE = ["owner", "admin", "captain", "scorer", "member", "outsider", "anonymous"]


def club_write(client: Client, club: Club, write: str) -> int:
    """Make ``write`` at ``club`` as ``client``'s browser would; its status."""
    slug = {"slug": club.slug}
    if write == "invite":
        return client.post(reverse("matches:club_invite", kwargs=slug),
                           {"role": Role.MEMBER}).status_code
    if write == "set role":
        target = Membership.objects.get(club=club, user__username="target")
        return client.post(reverse("matches:club_member_role",
                                   kwargs={**slug, "pk": target.pk}),
                           {"role": Role.SCORER}).status_code
    if write == "add player":
        return client.post(reverse("matches:club_player_add", kwargs=slug),
                           {"name": "Ann Dale"}).status_code
    if write == "claim player":
        guest = Player.objects.get(club=club, name="Bob Guest")
        return client.post(reverse("matches:club_player_claim",
                                   kwargs={**slug, "pk": guest.pk})).status_code
    assert write == "settings"
    return client.post(reverse("matches:club_settings", kwargs=slug),
                       {"name": "Teesdale DC", "visibility": club.visibility}).status_code


def club_state(club: Club) -> tuple[object, ...]:
    club.refresh_from_db()
    return (club.name, club.visibility,
            sorted(Membership.objects.filter(club=club).values_list("user__username", "role")),
            sorted(Player.objects.filter(club=club).values_list("name", "user__username")))


def expected(who: str, write: str, visibility: str) -> int:
    if who == "anonymous" and write == "claim player":
        return 302  # to sign in first (login_required)
    if who in ("outsider", "anonymous"):
        return 404 if visibility == Visibility.MEMBERS else 403
    if RANKS.index(Role(who)) < RANKS.index(NEEDS[write]):
        return 403
    return 200 if write == "invite" else 302


@pytest.mark.parametrize("visibility", [Visibility.MEMBERS, Visibility.PUBLIC])
@pytest.mark.parametrize("write", list(NEEDS))
@pytest.mark.parametrize("who", PEOPLE)
def test_each_club_write_for_each_kind_of_person(club, people, django_user_model, who, write,
                                                 visibility):
    club.visibility = visibility
    club.save()
    target = django_user_model.objects.create_user("target")
    Membership.objects.create(club=club, user=target, role=Role.MEMBER)
    player_add(club=club, name="Bob Guest", by=people["owner"])
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    before = club_state(club)

    status = club_write(client, club, write)

    assert status == expected(who, write, visibility)
    if status in (403, 404) or who == "anonymous" or write == "invite":
        assert club_state(club) == before  # refused (or an invite, which writes nothing)
    else:
        assert club_state(club) != before
