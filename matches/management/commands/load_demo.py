"""``manage.py load_demo``: demo matches, stored by importing the records in ``matches/demo/``,
and a demo club with a league season: teams, a fixture list, fixtures keyed in and one
game played on the scorepad, one disputed, one postponed, and a points adjustment.

The records were generated once with ``matches.rules.simulate`` and are checked in, so
the demo is the same on every machine and goes through the same import (and the same
verification) as a club's own records. Loading twice does nothing the second time: the
command only runs on a database without matches.
"""

from __future__ import annotations

import datetime
import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.text import slugify

from matches import rules
from matches.accounts.services import account_create
from matches.clubs.services import club_create, club_invite, club_join, player_add
from matches.leagues.services import (
    PaperGame,
    adjustment_add,
    entrant_add,
    fixture_confirm,
    fixture_dispute,
    fixture_game_start,
    fixture_games_enter,
    fixture_redate,
    fixture_submit,
    fixtures_generate,
    season_create,
)
from matches.models import Fixture, Match, MatchStatus, Role
from matches.rules.simulate import simulated_match
from matches.scoring.selectors.play import match_names
from matches.scoring.services.bulk import matches_store_bulk
from matches.scoring.services.play import actions_record

DEMO_DIR = Path(__file__).resolve().parents[2] / "demo"
SITE = "http://127.0.0.1:8000"  # where scripts/run serves it (--site: elsewhere)
ALREADY_LOADED = ("There are already {count} matches: the demo club was not loaded. Its "
                  "links and passwords were printed when it was; to load it again, {reset} "
                  "and run scripts/run, or set a demo account's password with: python "
                  "manage.py changepassword secretary")
NAMES_TAKEN = ("An account already has one of the demo's user names (secretary, or "
               "captain- and a team's name): the demo club was not loaded. Nothing was "
               "changed.")
RESET = {"sqlite": "remove db.sqlite3 (it holds everything)",
         "postgresql": "give it an empty database (DATABASE_URL)"}


class Command(BaseCommand):
    help = "Load a demo club (finished matches of every game and one in progress)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--site", default=SITE,
                            help=f"the address its links start with (default {SITE})")

    def handle(self, *args: Any, site: str = SITE, **options: Any) -> None:
        self.site = site.rstrip("/")
        count = Match.objects.count()
        if count:
            reset = RESET.get(connection.vendor, RESET["postgresql"])
            self.stdout.write(ALREADY_LOADED.format(count=count, reset=reset))
            return
        if User.objects.filter(username__in=self._usernames()).exists():
            raise CommandError(NAMES_TAKEN)
        try:
            self._load()
        except ValidationError as refused:  # e.g. a site's stricter password checks
            raise CommandError("the demo was not loaded (nothing of it is kept): "
                               + " ".join(refused.messages)) from None

    @staticmethod
    def _usernames() -> list[str]:
        """The demo's accounts: its secretary and each team's captain."""
        return ["secretary", *(captain_username(team) for team in DEMO_TEAMS)]

    @transaction.atomic  # all of the demo or none of it
    def _load(self) -> None:
        self._league()
        paths = sorted(DEMO_DIR.glob("*.json"))
        for path, imported in zip(paths, matches_store_bulk(
                documents=[json.loads(path.read_text("utf-8")) for path in paths]), strict=True):
            if imported.match is None:  # the demo's own records: refused only if edited
                raise ValidationError(f"{path.name}: {imported.refusal}")
            match = imported.match
            names = ", ".join(match_names(match))
            self.stdout.write(f"Loaded match {match.pk}: {match.get_game_display()}, "
                              f"{match.get_status_display().lower()} ({names}).")
            self.stdout.write(f"  watch: {self.site}{match.get_absolute_url()}")
            if match.status == MatchStatus.IN_PROGRESS:
                self.stdout.write(f"  score: {self.site}{match.get_join_url()}")

    def _league(self) -> None:
        """Teesdale Dominoes Club's Monday league, half a season in."""
        passwords: dict[str, str] = {}

        def person(username: str) -> User:
            # made as signing up makes an account: 12 random characters pass the site's
            # password checks (length, common, numeric, like the user name)
            passwords[username] = secrets.token_urlsafe(9)
            return account_create(username=username, password=passwords[username])

        secretary = person("secretary")
        club = club_create(name="Teesdale Dominoes Club", by=secretary)
        # half a season in whenever it is loaded: week 3 was last Monday (or today)
        today = timezone.localdate()
        starts_on = today - datetime.timedelta(days=today.weekday(), weeks=2)
        year = starts_on.year if starts_on.month >= 8 else starts_on.year - 1
        season = season_create(
            club=club, by=secretary, name=f"Monday League {year}/{(year + 1) % 100:02d}",
            starts_on=starts_on, game="fives-and-threes",
            fixture_format="games", singles=3,
            scoring={"win": 2, "draw": 1, "loss": 0, "per_game": 1,
                     "close_loss": {"margin": 1, "points": 1}},
            tiebreaks=["game_difference", "games_for", "head_to_head"],
            divisions=["Division A"])
        division = season.divisions.get()
        captains = {}
        for team, squad in DEMO_TEAMS.items():
            captain = person(captain_username(team))
            # as on the site: the secretary invites each captain, who joins
            club_join(user=captain, token=club_invite(
                club=club, by=secretary, role=Role.CAPTAIN))
            players = [player_add(club=club, name=name, by=secretary)
                       for name in squad]
            captains[team] = captain
            entrant_add(division=division, by=secretary, name=team,
                                 players=players, captain=captain)
        fixtures_generate(division=division, by=secretary, legs=2)
        fixtures = list(division.fixtures.select_related("home", "away")
                        .order_by("week", "id"))
        # weeks 1 and 2 are played and confirmed; the first night's opening game was
        # scored on the scorepad, the rest kept on paper and keyed in
        for n, fixture in enumerate(fixtures[:4]):
            home, away = captains[fixture.home.name], captains[fixture.away.name]
            if n == 0:
                self._scorepad_game(fixture, home)
                fixture_games_enter(fixture=fixture, by=home, games=self._paper_games(
                    fixture, [None, (61, 47), (38, 61)]))
            else:
                fixture_games_enter(fixture=fixture, by=home, games=self._paper_games(
                    fixture, DEMO_SCORES[n % len(DEMO_SCORES)]))
            fixture_submit(fixture=fixture, by=home)
            fixture_confirm(fixture=fixture, by=away)
        # week 3: one result disputed, one fixture postponed
        disputed, postponed = fixtures[4], fixtures[5]
        fixture_games_enter(fixture=disputed, by=captains[disputed.home.name],
                            games=self._paper_games(disputed, [(61, 52), (61, 58), (44, 61)]))
        fixture_submit(fixture=disputed, by=captains[disputed.home.name])
        fixture_dispute(fixture=disputed, by=captains[disputed.away.name],
                                 message="Game 2 was 61-58 to us, not to them.")
        fixture_redate(fixture=postponed, by=secretary, date=None, postponed=True)
        adjustment_add(entrant=fixtures[0].away, by=secretary, points=-1,
                                reason="result card sent in late")
        self.stdout.write(f"Loaded the demo league: {self.site}{season.get_absolute_url()}")
        self.stdout.write("  demo accounts (this database only): " + ", ".join(
            f"{name} / {password}" for name, password in passwords.items()))

    def _paper_games(self, fixture: Fixture, scores: Sequence[tuple[int, int] | None]
                     ) -> list[PaperGame | None]:
        """The night's singles kept on paper: game n between each squad's n-th player
        (by name), as a card would read."""
        home = list(fixture.home.players.order_by("name"))
        away = list(fixture.away.players.order_by("name"))
        return [None if score is None else
                PaperGame(*score, home_players=[home[n]], away_players=[away[n]])
                for n, score in enumerate(scores)]

    def _scorepad_game(self, fixture: Fixture, captain: User) -> None:
        """Game 1 of the night, scored tile by tile on the scorepad (a simulated match)."""
        home, away = fixture.home.players.order_by("name")[0], \
            fixture.away.players.order_by("name")[0]
        started = fixture_game_start(fixture=fixture, by=captain, number=1,
                                              home_players=[home], away_players=[away])
        match = started.match  # no round yet: the highest double's holder starts it
        played = simulated_match(rules.FIVES_AND_THREES, 2, seed=7)
        actions_record(match=match, actions=played.log)


def captain_username(team: str) -> str:
    return f"captain-{slugify(team)}"


DEMO_TEAMS = {
    "Royal Oak A": ["Ann Dale", "Bob Hart", "Cath Lund"],
    "Bowes Dragons": ["Dev Patel", "Edna Moss", "Frank Ives"],
    "Middleton Club": ["Gwen Rowe", "Harry Stott", "Iris Kemp"],
    "Black Bull": ["Jack Pyle", "Kay Noble", "Len Oakes"],
}
DEMO_SCORES = [[(61, 40), (61, 12), (58, 61)], [(35, 61), (61, 59), (20, 61)],
               [(61, 33), (61, 48), (61, 9)], [(47, 61), (61, 55), (61, 60)]]
