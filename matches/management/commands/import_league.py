"""``manage.py import_league CLUB FILE...``: store each ``domino-league/1`` document as
a season of the club (one division). A refused document stores nothing and says why,
naming the fixture or field; the command exits 1 when any was refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.leagues.services import league_import
from matches.models import Club
from matches.rules import league as league_rules


class Command(BaseCommand):
    help = "Store domino-league/1 documents as seasons of a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's address (slug)")
        parser.add_argument("files", nargs="+", help="domino-league/1 JSON files")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club {options['club']!r}")
        refused = 0
        for name in options["files"]:
            try:
                document = league_rules.loads(Path(name).read_bytes())
                season = league_import(club=club, document=document)
            except (OSError, ValueError) as error:  # RulesError is a ValueError too
                refused += 1
                self.stderr.write(f"{name}: refused: {error}")
            except ValidationError as error:  # a value the database cannot hold
                refused += 1
                self.stderr.write(f"{name}: refused: {'; '.join(error.messages)}")
            else:
                self.stdout.write(f"{name}: stored as season {season.slug!r} "
                                  f"({season.divisions.get().entrants.count()} entrants, "
                                  f"{season.divisions.get().fixtures.count()} fixtures)")
        if refused:
            raise SystemExit(1)
