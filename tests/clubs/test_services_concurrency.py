"""Two owners who unmake each other at the same moment, over PostgreSQL: the club keeps
an owner (membership_set_role locks the club's row before it counts the owners)."""

from __future__ import annotations

import threading

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, connections, transaction

from matches.clubs.services import club_create, membership_set_role
from matches.models import Membership, Role

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks under real concurrency: PostgreSQL (CI) only"),
]


def test_two_owners_unmaking_each_other_at_once_leave_the_club_an_owner(django_user_model):
    ann, bob = (django_user_model.objects.create_user(name) for name in ("ann", "bob"))
    club = club_create(name="Oak", by=ann)
    Membership.objects.create(club=club, user=bob, role=Role.OWNER)
    ann_seat, bob_seat = (Membership.objects.get(club=club, user=user) for user in (ann, bob))
    second: list[BaseException | None] = []

    def bob_unmakes_ann() -> None:
        try:
            membership_set_role(membership=Membership.objects.get(pk=ann_seat.pk),
                                role=Role.MEMBER, by=bob)
            second.append(None)
        except (PermissionDenied, ValidationError) as refused:
            second.append(refused)
        finally:
            connections.close_all()

    with transaction.atomic():  # Ann unmakes Bob, and has not committed yet
        membership_set_role(membership=bob_seat, role=Role.MEMBER, by=ann)
        thread = threading.Thread(target=bob_unmakes_ann)
        thread.start()
        thread.join(timeout=2)  # without the lock, Bob's change goes through meanwhile
        waited = thread.is_alive()
    thread.join(timeout=10)

    assert waited  # Bob's change waited for Ann's
    assert isinstance(second[0], PermissionDenied)  # Bob is no owner any more
    assert list(Membership.objects.filter(club=club, role=Role.OWNER)
                .values_list("user__username", flat=True)) == ["ann"]
