"""Cups for the tests, made and played through the real services: a club run by
``admin``, single-player entrants each captained by their own member, one game of All
Fives a tie kept on paper."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from matches.clubs.services import club_create, player_add
from matches.cups.models import Cup
from matches.cups.selectors import cup_shown, tie_key
from matches.cups.services import cup_create, cup_draw, cup_entrant_add
from matches.leagues.services import (
    PaperGame,
    fixture_confirm,
    fixture_games_enter,
    fixture_submit,
)
from matches.models import Club, Entrant, Fixture, Membership
from matches.rules import cup as cup_rules

STARTS = datetime.date(2026, 10, 5)
HOME_WIN, AWAY_WIN = (60, 40), (35, 60)
FOUR = ["Ann", "Bob", "Cy", "Dee"]


@dataclass
class Cupfolk:
    club: Club
    admin: User
    cup: Cup
    captains: dict[str, User] = field(default_factory=dict)

    def entrant(self, name: str) -> Entrant:
        return Entrant.objects.get(division__season=self.cup.season, name=name)

    def fixture(self, round: int, position: int, *, plate: bool = False) -> Fixture:
        tie = self.refreshed().ties.get(round=round, position=position, plate=plate)
        assert tie.fixture is not None, f"tie {position} of round {round} has no fixture"
        return Fixture.objects.select_related("home", "away").get(pk=tie.fixture.pk)

    def refreshed(self) -> Cup:
        self.cup = Cup.objects.select_related("season__club").get(pk=self.cup.pk)
        return self.cup

    def captain(self, entrant: Entrant) -> User:
        assert entrant.captain is not None
        return entrant.captain

    def play(self, fixture: Fixture, score: tuple[int, int], *, confirm: bool = True
             ) -> Fixture:
        """The home captain keys in the night's one game and sends it; the away captain
        confirms it."""
        home = list(fixture.home.players.all())
        away = list(fixture.away.players.all())
        fixture_games_enter(fixture=fixture, by=self.captain(fixture.home),
                            games=[PaperGame(*score, home_players=home, away_players=away)])
        fixture_submit(fixture=fixture, by=self.captain(fixture.home))
        if confirm:
            fixture_confirm(fixture=fixture, by=self.captain(fixture.away))
        fixture.refresh_from_db()
        return fixture

    def winners(self) -> dict[str, str]:
        """Each tie decided so far: its winner's name, by tie ("tie 1 of round 1")."""
        shown = cup_shown(self.refreshed())
        return {tie.label: tie.winner.name
                for round in [*shown.rounds, *shown.plate_rounds] for tie in round.ties
                if tie.winner is not None}

    def tie_sides(self, round: int, position: int, plate: bool = False) -> tuple[str, str]:
        fixture = self.fixture(round, position, plate=plate)
        return fixture.home.name, fixture.away.name


def a_cup(names: list[str], **options: Any) -> Cupfolk:
    """A cup of ``names`` (single players, each captained by a member of their own),
    made by the club's admin; not drawn yet. ``options`` go to ``cup_create``."""
    admin = User.objects.create_user("cup-admin")
    club = club_create(name="Teesdale", by=admin)
    cup = cup_create(club=club, by=admin, name="Teesdale Cup", starts_on=STARTS,
                     game="all-fives", options={"target": 60}, **options)
    folk = Cupfolk(club, admin, cup)
    for name in names:
        captain = User.objects.create_user(f"cap-{name.lower()}")
        Membership.objects.create(club=club, user=captain, role="captain")
        player_add(club=club, name=name, by=admin)
        cup_entrant_add(cup=cup, by=admin, name=name, kind="single", player_names=[name],
                        captain_username=captain.username)
        folk.captains[name] = captain
    return folk


def key(round: int, position: int, plate: bool = False) -> cup_rules.TieKey:
    return cup_rules.TieKey(round, position, plate=plate)


__all__ = ["AWAY_WIN", "HOME_WIN", "STARTS", "Cupfolk", "a_cup", "key", "tie_key"]


def played_to_the_final() -> tuple[Cupfolk, Fixture, Fixture]:
    """A cup of four drawn, every tie won at home, the final too: the cup's folk, the
    first tie of round 1 and the final."""
    folk = a_cup(FOUR)
    cup_draw(cup=folk.cup, by=folk.admin)
    first = folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    return folk, first, folk.play(folk.fixture(2, 1), HOME_WIN)
