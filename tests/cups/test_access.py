"""Who runs a club's cups: its admins and owners, as the page's flag and every cup
service ask alike; a captain, scorer or member may not (PermissionDenied, nothing
stored)."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied

from matches.cups import services as cups
from matches.cups.access import runs_cups
from matches.cups.models import Cup, CupLog, CupRound
from matches.leagues.services import entrant_add, season_create
from matches.models import Entrant, Fixture, Membership, Season
from tests.support.cups import STARTS, Cupfolk, a_cup

pytestmark = pytest.mark.django_db

def a_league_of(folk: Cupfolk) -> Season:
    """A league season of the cup's club with one entrant the cup does not have."""
    season = season_create(club=folk.club, by=folk.admin, name="Winter", starts_on=STARTS,
                           game="all-fives")
    entrant_add(division=season.divisions.get(), by=folk.admin, name="Oak")
    return season


WRITES: dict[str, Callable[[Cupfolk, User], Any]] = {
    "cup_create": lambda f, by: cups.cup_create(club=f.club, by=by, name="Other",
                                                starts_on=STARTS, game="all-fives"),
    "cup_entrant_add": lambda f, by: cups.cup_entrant_add(cup=f.cup, by=by, name="Late"),
    "cup_entrants_from_season": lambda f, by: cups.cup_entrants_from_season(
        cup=f.cup, by=by, season=a_league_of(f)),
    "cup_entrant_rename": lambda f, by: cups.cup_entrant_rename(
        cup=f.cup, by=by, entrant=f.entrant("Ann"), name="Anne"),
    "cup_entrant_remove": lambda f, by: cups.cup_entrant_remove(cup=f.cup, by=by,
                                                                entrant=f.entrant("Ann")),
    "cup_seeds_set": lambda f, by: cups.cup_seeds_set(cup=f.cup, by=by,
                                                      seeds=[f.entrant("Ann")]),
    "cup_draw": lambda f, by: cups.cup_draw(cup=f.cup, by=by),
    "cup_round_draw": lambda f, by: cups.cup_round_draw(cup=f.cup, by=by),
    "cup_plate_draw": lambda f, by: cups.cup_plate_draw(cup=f.cup, by=by),
    "cup_round_date": lambda f, by: cups.cup_round_date(
        cup=f.cup, by=by, number=1, date=STARTS + datetime.timedelta(days=7)),
    "cup_finals_set": lambda f, by: cups.cup_finals_set(
        cup=f.cup, by=by, date=STARTS + datetime.timedelta(days=28), venue="The Oak"),
    "cup_plate_undraw": lambda f, by: cups.cup_plate_undraw(cup=f.cup, by=by, reason="x"),
    "cup_ties_reset": lambda f, by: cups.cup_ties_reset(cup=f.cup, by=by, round=1,
                                                        position=1, reason="x"),
}


@pytest.mark.parametrize("role", ["member", "scorer", "captain"])
@pytest.mark.parametrize("write", list(WRITES))
def test_only_a_club_admin_runs_a_cup(role, write):
    folk = a_cup(["Ann", "Bob", "Cy", "Dee"], draw_method="seeded", plate=True)
    someone = User.objects.create_user(f"a-{role}")
    Membership.objects.create(club=folk.club, user=someone, role=role)
    assert not runs_cups(club=folk.club, user=someone)
    before = (Cup.objects.count(), Fixture.objects.count(), CupRound.objects.count(),
              CupLog.objects.count(), list(Cup.objects.values_list("seeds", "drawn")))
    names = set(Entrant.objects.values_list("pk", "name"))
    with pytest.raises(PermissionDenied, match="Only a club admin or above can do that."):
        WRITES[write](folk, someone)
    assert before == (Cup.objects.count(), Fixture.objects.count(), CupRound.objects.count(),
                      CupLog.objects.count(), list(Cup.objects.values_list("seeds", "drawn")))
    # no entrant of the cup came, went or changed its name (the league's own Oak aside)
    assert names == set(Entrant.objects.exclude(division__season__kind="league")
                        .values_list("pk", "name"))


def test_a_club_admin_and_owner_run_its_cups():
    folk = a_cup([])
    admin = User.objects.create_user("an-admin")
    Membership.objects.create(club=folk.club, user=admin, role="admin")
    assert runs_cups(club=folk.club, user=folk.admin)  # the club's owner
    assert runs_cups(club=folk.club, user=admin)
    assert not runs_cups(club=folk.club, user=None)
