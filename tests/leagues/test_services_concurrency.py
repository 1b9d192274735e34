"""Two league admins putting one player in two squads of a division at the same moment
(a signing for one entrant, a new entrant with them), over PostgreSQL: one squad a
division still (_check_squad locks the division's row before it looks for the player in
the other squads)."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections, transaction

from matches.clubs.services import club_create, player_add
from matches.leagues.services import entrant_add, entrant_squad_change, season_create
from matches.models import Entrant

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql",
                       reason="row locks under real concurrency: PostgreSQL (CI) only"),
]


def test_one_player_put_in_two_squads_at_once_goes_in_one(django_user_model):
    admin = django_user_model.objects.create_user("admin")
    club = club_create(name="Oak", by=admin)
    division = season_create(club=club, by=admin, name="Monday", game="all-fives",
                             starts_on=datetime.date(2026, 9, 7)).divisions.get()
    player_add(club=club, name="Ann Dale", by=admin)
    oak = entrant_add(division=division, by=admin, name="Royal Oak")
    second: list[BaseException | None] = []

    def into_bowes() -> None:
        try:
            entrant_add(division=division, by=admin, name="Bowes", player_names=["Ann Dale"])
            second.append(None)
        except ValidationError as refused:
            second.append(refused)
        finally:
            connections.close_all()

    with transaction.atomic():  # into Oak's squad, not committed yet
        entrant_squad_change(entrant=oak, by=admin, add=["Ann Dale"])
        thread = threading.Thread(target=into_bowes)
        thread.start()
        thread.join(timeout=2)  # without the lock, Bowes goes in meanwhile
        waited = thread.is_alive()
    thread.join(timeout=10)

    assert waited
    assert isinstance(second[0], ValidationError)
    assert second[0].messages == [
        "Already in another squad of this division: Ann Dale (Royal Oak)."]
    assert [e.name for e in Entrant.objects.filter(players__name="Ann Dale")] == ["Royal Oak"]
    assert not Entrant.objects.filter(name="Bowes").exists()
