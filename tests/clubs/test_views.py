"""Club pages for each role: create, invite, join, roles, players, privacy."""

from __future__ import annotations

import datetime
import re
import time
from unittest import mock

import pytest
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.clubs.access import RUNS_LEAGUE, require_role
from matches.clubs.selectors import INVITE_SALT
from matches.clubs.services import club_create, club_update, membership_set_role
from matches.core import resends
from matches.leagues.services import season_create
from matches.models import Club, Membership, Player, Role, Visibility

pytestmark = pytest.mark.django_db


def as_(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(name: str, club: Club, **kwargs) -> str:
    return reverse(f"matches:{name}", kwargs={"slug": club.slug, **kwargs})


def test_a_signed_in_user_creates_a_club_and_owns_it(people):
    response = as_(people["outsider"]).post(reverse("matches:club_new"), {
        "name": "  Bowes   Dragons ", "visibility": "members"})
    club = Club.objects.get()
    assert response["Location"] == club.get_absolute_url() == "/clubs/bowes-dragons/"
    assert (club.name, club.visibility) == ("Bowes Dragons", Visibility.MEMBERS)
    assert Membership.objects.get(club=club).role == Role.OWNER
    assert Client().get(reverse("matches:club_new"))["Location"].startswith("/accounts/login/")


def test_a_new_club_sent_twice_is_one_club(people):
    """A double tap made /clubs/fuzz-club/ and /clubs/fuzz-club-2/; a club of the same
    name made later, or by another, is a club of its own."""
    form = {"name": "Fuzz Club", "visibility": "public"}
    first = as_(people["outsider"]).post(reverse("matches:club_new"), form)
    again = as_(people["outsider"]).post(reverse("matches:club_new"), form)
    assert first["Location"] == again["Location"] == "/clubs/fuzz-club/"
    assert Club.objects.count() == 1 and Membership.objects.count() == 1
    Club.objects.update(created_at=timezone.now() - resends.SENT_AGAIN_WITHIN)
    later = as_(people["outsider"]).post(reverse("matches:club_new"), form)
    other = as_(people["member"]).post(reverse("matches:club_new"), form)
    assert (later["Location"], other["Location"]) == ("/clubs/fuzz-club-2/",
                                                      "/clubs/fuzz-club-3/")


def test_a_club_season_or_cup_named_new_gets_an_address_of_its_own_not_the_new_page(people):
    owner = as_(people["outsider"])
    response = owner.post(reverse("matches:club_new"), {"name": "New", "visibility": "public"})
    club = Club.objects.get()
    assert club.slug == "new-2" and response["Location"] == "/clubs/new-2/"
    page = owner.get(response["Location"])
    assert page.status_code == 200 and "<h1>New</h1>" in page.content.decode()
    season = season_create(club=club, by=people["outsider"], name="New", game="all-fives",
                           starts_on=datetime.date(2026, 9, 7))
    assert season.slug == "new-2"
    assert owner.get(season.get_absolute_url()).status_code == 200


def test_a_members_only_club_is_not_found_by_others(club, people):
    club.visibility = Visibility.MEMBERS
    club.save()
    assert Client().get(club.get_absolute_url()).status_code == 404
    assert as_(people["outsider"]).get(club.get_absolute_url()).status_code == 404
    assert as_(people["member"]).get(club.get_absolute_url()).status_code == 200
    listed = as_(people["outsider"]).get(reverse("matches:clubs")).content.decode()
    assert club.name not in listed
    # writes are refused the same way
    assert as_(people["outsider"]).post(url("club_player_add", club),
                                        {"name": "X"}).status_code == 404


def test_a_public_club_is_read_by_anyone_without_member_details(club):
    html = Client().get(club.get_absolute_url()).content.decode()
    assert "Teesdale" in html and 'id="members"' not in html


def test_the_club_pages_export_links_are_a_row_of_links_alone(club):
    html = Client().get(club.get_absolute_url()).content.decode()
    row = re.search(r'<p class="links">(.*?)</p>', html, re.S)
    assert row is not None and "Match history" in row[1]
    # the row spaces them: a "·" between them stood alone where the row wrapped
    assert re.sub(r"<a [^>]*>.*?</a>", "", row[1], flags=re.S).strip() == ""


def test_invites_join_with_the_role_they_give_and_expire(club, people):
    response = as_(people["captain"]).post(url("club_invite", club), {"role": "scorer"})
    link = response.context["invite_link"]
    newcomer = as_(people["outsider"])
    assert newcomer.get(link).status_code == 200
    newcomer.post(link)
    assert Membership.objects.get(club=club, user=people["outsider"]).role == Role.SCORER
    # a captain cannot invite a captain or above; an admin can invite captains
    assert as_(people["captain"]).post(url("club_invite", club),
                                       {"role": "captain"}).status_code == 403
    assert as_(people["admin"]).post(url("club_invite", club),
                                     {"role": "captain"}).status_code == 200
    # a tampered or expired token is refused with a message
    token = link.rstrip("/").rsplit("/", 1)[1]
    bad = link.replace(token, token[:-2] + "xx")
    assert "not valid" in newcomer.get(bad).content.decode()
    old = signing.dumps({"club": club.pk, "role": "member"}, salt=INVITE_SALT,
                        compress=True)
    with mock.patch.object(time, "time", return_value=time.time() + 8 * 24 * 3600):
        expired = newcomer.get(url("club_join", club, token=old))
    assert expired.status_code == 404 and "expired" in expired.content.decode()


def test_an_invite_does_not_change_a_members_role_up_or_down(club, people):
    link = as_(people["owner"]).post(url("club_invite", club),
                                     {"role": "admin"}).context["invite_link"]
    newcomer = as_(people["outsider"])
    newcomer.post(link)
    joined = Membership.objects.get(club=club, user=people["outsider"])
    assert joined.role == Role.ADMIN
    as_(people["owner"]).post(url("club_member_role", club, pk=joined.pk), {"role": "member"})

    page = newcomer.get(link)  # the week-long link, opened again after the demotion
    newcomer.post(link)

    assert "Your role is <strong>Member</strong>" in page.content.decode()
    joined.refresh_from_db()
    assert joined.role == Role.MEMBER
    captain = as_(people["captain"])
    captain.post(as_(people["owner"]).post(url("club_invite", club),
                                           {"role": "member"}).context["invite_link"])
    assert Membership.objects.get(club=club, user=people["captain"]).role == Role.CAPTAIN


@pytest.mark.parametrize("who", ["member", "scorer", "captain"])
def test_who_cannot_set_roles(club, people, who):
    target = Membership.objects.get(club=club, user=people["member"])
    response = as_(people[who]).post(url("club_member_role", club, pk=target.pk),
                                     {"role": "admin"})
    assert response.status_code == 403
    target.refresh_from_db()
    assert target.role == Role.MEMBER


def test_a_role_the_club_has_not_is_refused_with_a_reason_and_changes_nothing(club, people):
    target = Membership.objects.get(club=club, user=people["member"])
    response = as_(people["owner"]).post(url("club_member_role", club, pk=target.pk),
                                         {"role": "bogus"}, follow=True)
    assert "Select a valid choice. bogus is not one of the available choices." in \
        response.content.decode()
    target.refresh_from_db()
    assert target.role == Role.MEMBER


def test_admins_set_roles_below_admin_and_only_owners_above(club, people):
    member = Membership.objects.get(club=club, user=people["member"])
    as_(people["admin"]).post(url("club_member_role", club, pk=member.pk), {"role": "captain"})
    member.refresh_from_db()
    assert member.role == Role.CAPTAIN
    assert as_(people["admin"]).post(url("club_member_role", club, pk=member.pk),
                                     {"role": "admin"}).status_code == 403
    as_(people["owner"]).post(url("club_member_role", club, pk=member.pk), {"role": "admin"})
    member.refresh_from_db()
    assert member.role == Role.ADMIN


def test_the_club_page_offers_only_the_roles_its_reader_may_give(club, people):
    def offered(who: str) -> tuple[list[str], dict[str, list[str]]]:
        page = as_(people[who]).get(club.get_absolute_url()).content.decode()
        invite = re.search(r'<select name="role" id="invite-role">(.*?)</select>', page)
        selects = re.findall(r'<select name="role" id="role-(\d+)">(.*?)</select>', page)
        names = {m.pk: m.user.username for m in club.memberships.select_related("user")}
        return (re.findall(r'value="(\w+)"', invite.group(1)) if invite else [],
                {names[int(pk)]: re.findall(r'value="(\w+)"', options)
                 for pk, options in selects})

    assert offered("captain") == (["scorer", "member"], {})
    below_admin = ["captain", "scorer", "member"]
    assert offered("admin") == (below_admin, {name: below_admin
                                              for name in ("captain", "member", "scorer")})
    everything = ["owner", "admin", "captain", "scorer", "member"]
    assert offered("owner") == (everything, {name: everything for name in
                                             ("admin", "captain", "member", "scorer")})
    assert offered("member") == ([], {})
    # a crafted request for a role beyond them says which they can give
    refused = as_(people["captain"]).post(url("club_invite", club), {"role": "captain"})
    assert refused.status_code == 403
    assert "As captain you can invite as: scorer, member." in refused.content.decode()


def test_the_last_owner_stays_an_owner(club, people):
    owner = Membership.objects.get(club=club, user=people["owner"])
    with pytest.raises(ValidationError, match="at least one owner"):
        membership_set_role(membership=owner, role="member", by=people["owner"])
    owner.refresh_from_db()
    assert owner.role == Role.OWNER


def test_a_member_cannot_edit_another_club(club, people, django_user_model):
    other = club_create(name="Elsewhere", by=people["outsider"])
    assert as_(people["owner"]).post(url("club_player_add", other),
                                     {"name": "Intruder"}).status_code == 403
    assert as_(people["owner"]).post(url("club_invite", other),
                                     {"role": "member"}).status_code == 403
    assert not Player.objects.filter(club=other).exists()


def test_captains_add_players_and_members_claim_themselves(club, people):
    assert as_(people["member"]).post(url("club_player_add", club),
                                      {"name": "Ann Dale"}).status_code == 403
    as_(people["captain"]).post(url("club_player_add", club), {"name": "Ann Dale"})
    again = as_(people["captain"]).post(url("club_player_add", club), {"name": "ann dale"})
    assert again.status_code == 400 and "already has a player" in again.content.decode()
    ann = Player.objects.get(club=club)
    assert ann.user is None  # a guest until claimed
    as_(people["member"]).post(url("club_player_claim", club, pk=ann.pk))
    ann.refresh_from_db()
    assert ann.user == people["member"]
    taken = as_(people["scorer"]).post(url("club_player_claim", club, pk=ann.pk), follow=True)
    assert "already claimed" in taken.content.decode()
    assert as_(people["outsider"]).post(url("club_player_claim", club, pk=ann.pk)).status_code \
        == 403
    # the account that claimed a player is named to the club's members, not to outsiders
    claimant = f"({people['member'].get_username()})"
    assert claimant in as_(people["scorer"]).get(club.get_absolute_url()).content.decode()
    for reader in (Client(), as_(people["outsider"])):
        page = reader.get(club.get_absolute_url()).content.decode()
        assert "Ann Dale" in page and claimant not in page


def test_a_players_name_is_one_line_and_holds_no_comma(club, people):
    captain = as_(people["captain"])
    comma = captain.post(url("club_player_add", club), {"name": "Dale, Ann"})
    assert comma.status_code == 400
    assert ("A player&#x27;s name cannot hold a comma: a team&#x27;s squad lists its players "
            "separated by commas.") in comma.content.decode()
    assert not Player.objects.filter(club=club).exists()
    captain.post(url("club_player_add", club), {"name": " Ann\n\u202eDale "})
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == [
        "Ann Dale"]


def test_the_club_page_runs_a_fixed_number_of_queries(club, people, django_user_model,
                                                      django_assert_max_num_queries):
    owner = as_(people["owner"])

    def page() -> None:
        with django_assert_max_num_queries(12):
            assert owner.get(club.get_absolute_url()).status_code == 200

    page()
    for n in range(30):
        user = django_user_model.objects.create_user(f"m{n}")
        Membership.objects.create(club=club, user=user)
        Player.objects.create(club=club, name=f"Player {n}", user=user if n % 2 else None)
    page()


def test_admins_change_who_can_read_the_club_and_others_cannot(club, people):
    url_ = url("club_settings", club)
    assert as_(people["captain"]).post(url_, {"name": "X", "visibility": "members"}) \
        .status_code == 403
    as_(people["admin"]).post(url_, {"name": "Royal Oak", "visibility": "members"})
    club.refresh_from_db()
    assert (club.name, club.visibility) == ("Royal Oak", Visibility.MEMBERS)
    assert Client().get(club.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("who", ["owner", "admin", "captain", "scorer", "member"])
def test_the_club_page_offers_settings_and_a_new_season_exactly_to_whom_the_services_accept(
        club, people, who):
    page = as_(people[who]).get(club.get_absolute_url()).content.decode()

    def accepts(write) -> bool:
        try:
            write()
        except PermissionDenied:
            return False
        return True

    sets_up = accepts(lambda: club_update(club=club, by=people[who],
                                                   name=club.name, visibility=club.visibility))
    runs_league = accepts(lambda: require_role(club=club, user=people[who],
                                                        role=RUNS_LEAGUE))
    assert ('id="save-club"' in page) == sets_up
    assert ('id="new-season"' in page) == runs_league
    assert sets_up == (who in ("owner", "admin"))
