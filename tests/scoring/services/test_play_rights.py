"""Who may revoke a scoring phone, restore an earlier version of a match or delete it:
checked by the services themselves (``grant_revoke``, ``match_restore``,
``match_delete_recorded``), as the pages' flags are (``scoring.selectors.play.can_revoke``,
``scoring.selectors.play.can_restore``)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from matches import rules
from matches.clubs.services import club_create
from matches.models import DeletedMatch, Match, Membership
from matches.scoring.services import lifecycle as lifecycle_services
from matches.scoring.services import play as scoring_services
from matches.scoring.services.lifecycle import DELETE_NOT_ALLOWED
from matches.scoring.services.play import (
    CREATOR_REVOKED_ELSEWHERE,
    NOT_ITS_SCORER,
    RESTORE_NOT_ALLOWED,
)
from tests.support.helpers import T

pytestmark = pytest.mark.django_db


def started(created_by=None) -> scoring_services.MatchStarted:
    """A match of Olena and Taras started on a phone, with its first tile played."""
    started = scoring_services.match_start(game="all-fives", players=["Olena", "Taras"],
                                   options={"hand_size": 2}, starter=0,
                                   created_by=created_by, creation_key=uuid.uuid4(),
                                   phone="Android phone")
    scoring_services.event_record(match=started.match, action=rules.Play(0, T("5-5")))
    return started


def another_phone(match: Match):
    return scoring_services.grant_create(match=match, phone="iPhone")


def started_with_one_who_may(who: str, django_user_model) -> tuple[scoring_services.MatchStarted,
                                                                    dict[str, Any]]:
    """A match Olena's account created, and the service arguments of ``who`` among
    those who may restore or delete it: its starting phone, its creator, a site admin."""
    creator = django_user_model.objects.create_user("olena")
    first = started(created_by=creator)
    actor = {"starting phone": {"grant": first.grant},
             "creator": {"user": creator},
             "staff": {"user": django_user_model.objects.create_user("staff", is_staff=True)},
             "superuser": {"user": django_user_model.objects.create_superuser("root")},
             }[who]
    return first, actor


# -- revoking a phone ----------------------------------------------------------------


def test_another_phone_cannot_revoke_the_phone_that_started_the_match():
    first = started()
    other = another_phone(first.match)

    with pytest.raises(PermissionDenied) as refused:
        scoring_services.grant_revoke(grant=first.grant, by=other)

    assert str(refused.value) == str(CREATOR_REVOKED_ELSEWHERE)
    first.grant.refresh_from_db()
    assert first.grant.active


def test_the_phone_that_started_the_match_may_revoke_itself_and_any_other():
    first = started()
    other = another_phone(first.match)

    scoring_services.grant_revoke(grant=other, by=first.grant)
    scoring_services.grant_revoke(grant=first.grant, by=first.grant)

    assert not other.active and not first.grant.active


def test_any_scoring_phone_may_revoke_another_that_did_not_start_the_match():
    first = started()
    one, two = another_phone(first.match), another_phone(first.match)
    scoring_services.grant_revoke(grant=two, by=one)
    assert not two.active


def test_a_phone_of_another_match_or_a_revoked_one_revokes_nothing():
    first = started()
    stranger = started().grant
    gone = another_phone(first.match)
    scoring_services.grant_revoke(grant=gone, by=gone)
    target = another_phone(first.match)

    for by in (stranger, gone):
        with pytest.raises(PermissionDenied) as refused:
            scoring_services.grant_revoke(grant=target, by=by)
        assert str(refused.value) == str(NOT_ITS_SCORER)
    target.refresh_from_db()
    assert target.active


# -- restoring an earlier version ------------------------------------------------------


def test_a_site_admin_revokes_any_phone_and_another_account_none(django_user_model):
    """The admin's "Revoke the selected phones" acts as the staff account using it."""
    first = started()
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    member = django_user_model.objects.create_user("member")

    with pytest.raises(PermissionDenied) as refused:
        scoring_services.grant_revoke(grant=first.grant, by=member)

    assert str(refused.value) == str(NOT_ITS_SCORER)
    assert scoring_services.grant_revoke(grant=first.grant, by=staff).revoked_at is not None


@pytest.mark.parametrize("who", ["other phone", "stranger", "anonymous", "club member",
                                 "nobody"])
def test_restoring_is_refused_to_all_but_the_starters_and_admins(who, django_user_model):
    first = started(created_by=django_user_model.objects.create_user("olena"))
    club = club_create(name="Teesdale", by=django_user_model.objects.create_user(
        "owner"))
    member = django_user_model.objects.create_user("member")
    Membership.objects.create(club=club, user=member, role="captain")
    Match.objects.filter(pk=first.match.pk).update(club=club)
    actor = {"other phone": {"grant": another_phone(first.match)},
             "stranger": {"user": django_user_model.objects.create_user("stranger")},
             "anonymous": {"user": AnonymousUser()},
             "club member": {"user": member},
             "nobody": {}}[who]
    version = Match.objects.get(pk=first.match.pk).version

    with pytest.raises(PermissionDenied) as refused:
        scoring_services.match_restore(match=first.match, to_version=1, **actor)

    assert str(refused.value) == str(RESTORE_NOT_ALLOWED)
    first.match.refresh_from_db()
    assert first.match.version == version


@pytest.mark.parametrize("who", ["starting phone", "creator", "staff", "superuser"])
def test_restoring_is_for_the_starting_phone_the_creator_and_site_admins(
        who, django_user_model):
    first, actor = started_with_one_who_may(who, django_user_model)

    change = scoring_services.match_restore(match=first.match, to_version=1, **actor)

    assert change.restored_to == 1


# -- deleting ------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["other phone", "stranger", "nobody"])
def test_deleting_is_refused_to_all_but_the_starters_and_admins(who, django_user_model):
    first = started(created_by=django_user_model.objects.create_user("olena"))
    actor = {"other phone": {"grant": another_phone(first.match)},
             "stranger": {"user": django_user_model.objects.create_user("stranger")},
             "nobody": {}}[who]

    with pytest.raises(PermissionDenied) as refused:
        lifecycle_services.match_delete_recorded(match=first.match, **actor)

    assert str(refused.value) == str(DELETE_NOT_ALLOWED)
    assert Match.objects.filter(pk=first.match.pk).exists()
    assert not DeletedMatch.objects.exists()


@pytest.mark.parametrize("who", ["starting phone", "creator", "staff", "superuser"])
def test_deleting_is_for_the_starting_phone_the_creator_and_site_admins(
        who, django_user_model):
    """Staff and superusers: the admin site's delete calls the service with its user."""
    first, actor = started_with_one_who_may(who, django_user_model)

    lifecycle_services.match_delete_recorded(match=first.match, **actor)

    assert not Match.objects.filter(pk=first.match.pk).exists()
    assert DeletedMatch.objects.get().public_id == first.match.public_id
