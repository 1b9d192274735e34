"""matches.admin: what the admin may write, and that it writes only through the services.

The admin's pages for every model are opened in tests/records/test_views.py;
these tests are about the rows the site's services own: clubs, players, matches and the
phones that score them."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from matches import rules
from matches.admin import CLUBS_START_ON_THE_SITE
from matches.clubs import services as clubs_services
from matches.models import Club, Match, Membership, Player, ScorerGrant
from matches.rules.simulate import simulated_record
from matches.scoring.services import play as scoring_services

pytestmark = pytest.mark.django_db


def _url(model, view: str, *args) -> str:
    return reverse(f"admin:matches_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def club(admin_user) -> Club:
    return clubs_services.club_create(name="Teesdale", by=admin_user)


@pytest.fixture
def match() -> Match:
    return scoring_services.match_import(document=simulated_record(rules.ALL_FIVES, 2, seed=7))


def _inputs(page, *names: str) -> list[str]:
    """Which of the form fields ``names`` the page offers to edit."""
    content = page.content.decode()
    return [name for name in names if f'name="{name}"' in content]


# -- clubs -----------------------------------------------------------------------------


def test_the_admin_does_not_add_clubs_and_says_where_they_are_started(admin_client):
    """An "Add club" form once answered 500: a club's address (slug) was read-only, so
    it was stored blank against the club_slug_not_blank constraint. Clubs are started
    on the site, by clubs_services.club_create, which makes the starter the owner."""
    assert admin_client.get(_url(Club, "add")).status_code == 403
    assert admin_client.post(_url(Club, "add"), {"name": "Oak",
                                                 "visibility": "public"}).status_code == 403
    assert not Club.objects.exists()
    listing = admin_client.get(_url(Club, "changelist"))
    assert _url(Club, "add") not in listing.content.decode()
    assert escape(str(CLUBS_START_ON_THE_SITE)) in listing.content.decode()


# -- players ---------------------------------------------------------------------------


def test_a_players_name_club_and_member_are_shown_never_edited(admin_client, admin_user,
                                                                club):
    """player_add checks the name is the club's only one; player_claim that the member
    is in the club and is no other player: the admin's form checked neither."""
    player = clubs_services.player_add(club=club, name="Ann Dale", by=admin_user)
    page = admin_client.get(_url(Player, "change", player.pk))
    assert page.status_code == 200
    assert _inputs(page, "name", "club", "user", "_save") == []

    answer = admin_client.post(_url(Player, "change", player.pk), {
        "name": "Bob Hart", "club": "", "user": str(admin_user.pk),
        "created_at_0": "2026-01-01", "created_at_1": "10:00:00"})

    assert answer.status_code == 403
    player.refresh_from_db()
    assert (player.name, player.club, player.user) == ("Ann Dale", club, None)


def test_the_admin_neither_adds_nor_deletes_players(admin_client, admin_user, club):
    player = clubs_services.player_add(club=club, name="Ann Dale", by=admin_user)

    assert admin_client.get(_url(Player, "add")).status_code == 403
    assert admin_client.post(_url(Player, "add"), {"name": "Nobody's"}).status_code == 403
    assert admin_client.post(_url(Player, "delete", player.pk),
                             {"post": "yes"}).status_code == 403
    assert list(Player.objects.values_list("name", flat=True)) == ["Ann Dale"]


# -- matches ---------------------------------------------------------------------------


def test_a_matchs_club_season_and_creator_are_shown_never_edited(admin_client, admin_user,
                                                                  club, match):
    """Who may see a match follows its club, who may restore it its creator: changed
    here, neither was checked nor were the club's ratings recomputed."""
    page = admin_client.get(_url(Match, "change", match.pk))
    assert page.status_code == 200
    assert _inputs(page, "club", "season", "created_by", "_save") == []

    answer = admin_client.post(_url(Match, "change", match.pk), {
        "club": str(club.pk), "season": "", "created_by": str(admin_user.pk),
        "sides-TOTAL_FORMS": "0", "sides-INITIAL_FORMS": "0",
        "seats-TOTAL_FORMS": "0", "seats-INITIAL_FORMS": "0"})

    assert answer.status_code == 403
    match.refresh_from_db()
    assert (match.club, match.created_by) == (None, None)


def test_the_admin_adds_no_match(admin_client):
    assert admin_client.get(_url(Match, "add")).status_code == 403


# -- scorer grants ---------------------------------------------------------------------


def test_a_phones_grant_is_shown_never_edited_nor_un_revoked(admin_client, match):
    """A revoked phone once came back by clearing "revoked" on its admin page."""
    phone = scoring_services.grant_create(match=match, phone="Pixel")
    grant = scoring_services.grant_revoke(grant=phone, by=phone)
    page = admin_client.get(_url(ScorerGrant, "change", grant.pk))
    assert page.status_code == 200
    assert _inputs(page, "name", "revoked_at_0", "revoked_at_1", "_save") == []

    answer = admin_client.post(_url(ScorerGrant, "change", grant.pk),
                               {"name": "Table 3", "revoked_at_0": "", "revoked_at_1": ""})

    assert answer.status_code == 403
    grant.refresh_from_db()
    assert grant.revoked_at is not None and grant.name == ""
    assert admin_client.post(_url(ScorerGrant, "delete", grant.pk),
                             {"post": "yes"}).status_code == 403


def test_revoking_phones_in_the_admin_goes_through_the_service(admin_client, match,
                                                               monkeypatch):
    live = scoring_services.grant_create(match=match, phone="Pixel")
    earlier = timezone.now() - datetime.timedelta(days=1)
    gone = scoring_services.grant_create(match=match, phone="iPhone")
    ScorerGrant.objects.filter(pk=gone.pk).update(revoked_at=earlier)
    revoked = []
    real = scoring_services.grant_revoke

    def grant_revoke(*, grant: ScorerGrant, by: User) -> ScorerGrant:
        revoked.append((grant.pk, by))
        return real(grant=grant, by=by)

    monkeypatch.setattr("matches.admin.grant_revoke", grant_revoke)

    answer = admin_client.post(_url(ScorerGrant, "changelist"), {
        "action": "revoke_phones", "_selected_action": [str(live.pk), str(gone.pk)]},
        follow=True)

    assert answer.status_code == 200
    admin = User.objects.get(username="admin")
    assert sorted(revoked) == sorted([(live.pk, admin), (gone.pk, admin)])
    live.refresh_from_db()
    gone.refresh_from_db()
    assert live.revoked_at is not None and not live.active
    assert gone.revoked_at == earlier  # revoked once, when it was: the service keeps it
    assert "1 phone revoked." in answer.content.decode()


def test_only_who_may_change_grants_may_revoke_them(client, match):
    grant = scoring_services.grant_create(match=match, phone="Pixel")
    viewer = User.objects.create_user("viewer", is_staff=True)
    viewer.user_permissions.add(Permission.objects.get(codename="view_scorergrant"))
    client.force_login(viewer)

    listing = client.get(_url(ScorerGrant, "changelist"))
    assert listing.status_code == 200 and b"revoke_phones" not in listing.content
    client.post(_url(ScorerGrant, "changelist"), {
        "action": "revoke_phones", "_selected_action": [str(grant.pk)]})
    grant.refresh_from_db()
    assert grant.active


def test_a_member_taken_out_here_leaves_as_on_the_clubs_page(admin_client,
                                                            django_user_model):
    """The inline once deleted the membership row alone: the member's player stayed
    theirs, and the phone that started the club's games under their account still
    scored and could delete them (``membership_remove`` and its ``member_left``). The
    site admin repairing the club is none of its members."""
    olga = django_user_model.objects.create_user("olga", password="pw")
    club = clubs_services.club_create(name="Teesdale", by=olga)
    ann = django_user_model.objects.create_user("ann", password="pw")
    kept = Membership.objects.create(club=club, user=ann)
    owner = Membership.objects.get(club=club, user=olga)
    player = clubs_services.player_add(club=club, name="Ann Dale", by=olga)
    clubs_services.player_claim(player=player, user=ann)
    started = scoring_services.match_start(game="all-fives", players=["Ann Dale", "Bo"],
                                           created_by=ann)
    Match.objects.filter(pk=started.match.pk).update(club=club)
    page = admin_client.get(_url(Club, "change", club.pk)).content.decode()
    assert 'name="memberships-TOTAL_FORMS"' in page
    rows = {"memberships-TOTAL_FORMS": "2", "memberships-INITIAL_FORMS": "2",
            "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000"}
    for index, membership in enumerate((owner, kept)):
        rows |= {f"memberships-{index}-id": str(membership.pk),
                 f"memberships-{index}-club": str(club.pk),
                 f"memberships-{index}-user": str(membership.user_id),
                 f"memberships-{index}-role": membership.role}
    rows["memberships-1-DELETE"] = "on"

    answer = admin_client.post(_url(Club, "change", club.pk),
                               {"name": club.name, "visibility": club.visibility, **rows})

    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert not Membership.objects.filter(user=ann).exists()
    player.refresh_from_db()
    assert player.user is None
    assert not started.match.grants.filter(revoked_at=None).exists()


def test_a_new_owner_in_place_of_one_taken_out_in_the_same_save(admin_client,
                                                               django_user_model):
    """What the page is for (an owner who left): the promotion is saved before the
    owner is taken out, who was once refused as the club's last owner (a 500)."""
    olga = django_user_model.objects.create_user("olga", password="pw")
    club = clubs_services.club_create(name="Teesdale", by=olga)
    ann = django_user_model.objects.create_user("ann", password="pw")
    member = Membership.objects.create(club=club, user=ann)
    owner = Membership.objects.get(club=club, user=olga)
    rows = {"memberships-TOTAL_FORMS": "2", "memberships-INITIAL_FORMS": "2",
            "memberships-MIN_NUM_FORMS": "0", "memberships-MAX_NUM_FORMS": "1000",
            "memberships-0-id": str(owner.pk), "memberships-0-club": str(club.pk),
            "memberships-0-user": str(olga.pk), "memberships-0-role": "owner",
            "memberships-0-DELETE": "on",
            "memberships-1-id": str(member.pk), "memberships-1-club": str(club.pk),
            "memberships-1-user": str(ann.pk), "memberships-1-role": "owner"}

    answer = admin_client.post(_url(Club, "change", club.pk),
                               {"name": club.name, "visibility": club.visibility, **rows})

    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert list(club.memberships.values_list("user__username", "role")) == [("ann", "owner")]
