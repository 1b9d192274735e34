"""Taking a member out of a club, and leaving one: who may, what goes with it."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from matches.clubs.models import Club, Membership, Player, Role, Visibility
from matches.clubs.services import player_add, player_claim

pytestmark = pytest.mark.django_db


def as_(user) -> Client:  # noqa: ANN001
    client = Client()
    client.force_login(user)
    return client


def remove_url(club: Club, membership: Membership) -> str:
    return reverse("matches:club_member_remove", kwargs={"slug": club.slug,
                                                         "pk": membership.pk})


def membership(club: Club, user) -> Membership:  # noqa: ANN001
    return Membership.objects.get(club=club, user=user)


def test_an_owner_takes_a_member_out_and_their_claimed_player_is_no_ones(club, people):
    ann = player_add(club=club, name="Ann", by=people["owner"])
    player_claim(player=ann, user=people["member"])
    club.visibility = Visibility.MEMBERS
    club.save()

    response = as_(people["owner"]).post(remove_url(club, membership(club, people["member"])),
                                         follow=True)

    assert "member is no longer a member." in unescape(response.content.decode())
    assert not Membership.objects.filter(club=club, user=people["member"]).exists()
    assert Player.objects.get(pk=ann.pk).user is None
    # the members-only club is no longer theirs to read
    assert as_(people["member"]).get(club.get_absolute_url()).status_code == 404


def test_an_admin_takes_out_captains_and_below_but_not_admins_or_owners(club, people):
    admin = as_(people["admin"])
    assert admin.post(remove_url(club, membership(club, people["captain"]))).status_code == 302
    assert not Membership.objects.filter(club=club, user=people["captain"]).exists()
    for other in ("owner",):
        assert admin.post(remove_url(club, membership(club, people[other]))).status_code == 403
    second = Membership.objects.create(club=club, user=people["outsider"], role=Role.ADMIN)
    assert admin.post(remove_url(club, second)).status_code == 403
    assert Membership.objects.filter(pk=second.pk).exists()


@pytest.mark.parametrize("who", ["captain", "scorer", "member"])
def test_no_one_below_admin_takes_anyone_out(club, people, who):
    target = membership(club, people["member" if who != "member" else "scorer"])
    assert as_(people[who]).post(remove_url(club, target)).status_code == 403
    assert Membership.objects.filter(pk=target.pk).exists()


def test_a_site_admin_takes_no_one_out_on_the_clubs_page_by_being_one(club, people):
    """Staff take members out on the admin's club page; on the club's own page a staff
    account is the member it is (``membership_remove``'s ``as_site_admin``)."""
    people["member"].is_staff = True
    people["member"].save()
    target = membership(club, people["scorer"])
    assert as_(people["member"]).post(remove_url(club, target)).status_code == 403
    assert Membership.objects.filter(pk=target.pk).exists()


def test_outsiders_are_not_told_the_club_or_its_members_exist(club, people):
    club.visibility = Visibility.MEMBERS
    club.save()
    target = membership(club, people["member"])
    assert as_(people["outsider"]).post(remove_url(club, target)).status_code == 404
    assert Client().post(remove_url(club, target)).status_code == 404
    assert Membership.objects.filter(pk=target.pk).exists()


def test_a_member_leaves_and_the_last_owner_cannot(club, people):
    left = as_(people["scorer"]).post(remove_url(club, membership(club, people["scorer"])),
                                      follow=True)
    assert "You left Teesdale." in left.content.decode()
    assert left.redirect_chain[-1][0] == reverse("matches:clubs")
    assert not Membership.objects.filter(club=club, user=people["scorer"]).exists()

    owner = as_(people["owner"])
    kept = owner.post(remove_url(club, membership(club, people["owner"])), follow=True)
    assert "A club keeps at least one owner: make someone else owner first." in \
        kept.content.decode()
    assert membership(club, people["owner"]).role == Role.OWNER
    Membership.objects.filter(club=club, user=people["admin"]).update(role=Role.OWNER)
    owner.post(remove_url(club, membership(club, people["owner"])))
    assert not Membership.objects.filter(club=club, user=people["owner"]).exists()


def test_the_page_offers_each_member_the_ways_out_they_may_take(club, people):
    def offered(who: str) -> tuple[set[str], bool]:
        page = unescape(as_(people[who]).get(club.get_absolute_url()).content.decode())
        taken = set(re.findall(r"Take (\w+) out of the club", page))
        return taken, "Leave Teesdale" in page

    # the only owner is told how to leave rather than offered a button that is refused
    assert offered("owner") == ({"admin", "captain", "scorer", "member"}, False)
    assert ("You are the club's only owner: make another member an owner before you "
            "leave it.") in unescape(as_(people["owner"]).get(club.get_absolute_url())
                                     .content.decode())
    assert offered("admin") == ({"captain", "scorer", "member"}, True)
    assert offered("member") == (set(), True)
    Membership.objects.filter(club=club, user=people["admin"]).update(role=Role.OWNER)
    assert offered("owner") == ({"admin", "captain", "scorer", "member"}, True)
    page = Client().get(club.get_absolute_url()).content.decode()
    assert "Leave Teesdale" not in page and "out of the club" not in page


def test_withdrawn_invite_links_let_no_one_in_and_new_ones_do(club, people):
    owner = as_(people["owner"])

    def invite() -> str:
        page = owner.post(reverse("matches:club_invite", kwargs={"slug": club.slug}),
                          {"role": "member"}).content.decode()
        found = re.search(r'id="invite-link"', page) and re.search(
            r'value="(http[^"]+)"[^>]*id="invite-link"', page)
        assert found
        return found[1].removeprefix("http://testserver")

    forwarded = invite()
    assert as_(people["captain"]).post(reverse("matches:club_invites_withdraw", kwargs={
        "slug": club.slug})).status_code == 403  # a captain invites, but sets no roles
    done = owner.post(reverse("matches:club_invites_withdraw", kwargs={"slug": club.slug}),
                      follow=True)
    assert "Every invite link made so far no longer works; new ones do." in \
        done.content.decode()

    stranger = as_(people["outsider"])
    refused = stranger.post(forwarded)
    assert refused.status_code == 404
    assert "This invite link was withdrawn by the club: ask it for a new one." in \
        refused.content.decode()
    assert not Membership.objects.filter(club=club, user=people["outsider"]).exists()
    stranger.post(invite())
    assert membership(club, people["outsider"]).role == Role.MEMBER
