"""``manage.py export_matches --club SLUG [--season SLUG]``: a club's matches as
``domino-match/1`` records, one JSON line each, oldest first.

A club's matches are those ``scoring.selectors.play.club_matches`` finds: the matches that are the
club's own (its league games scored on the scorepad, and their rematches), the games of
its seasons' fixtures, and every match whose seats hold its players; with ``--season``,
the games of that season's fixtures only.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.http import Http404

from matches.leagues.selectors import club_season, season_matches
from matches.models import Club
from matches.scoring.selectors.play import RECORDS_A_READ, club_matches, match_records


class Command(BaseCommand):
    help = "Print a club's (or one league season's) matches as domino-match/1 JSON lines."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", required=True, help="the club's address (slug)")
        parser.add_argument("--season", help="only this season's games (its slug)")

    def handle(self, *args: Any, club: str, season: str | None, **options: Any) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"no club {club!r}")
        if season is not None:
            try:
                chosen = club_season(club=found, slug=season)
            except Http404:
                raise CommandError(f"no season {season!r} in club {club!r}") from None
            matches = season_matches(season=chosen)
        else:
            matches = club_matches(found)
        for record in match_records(matches.iterator(chunk_size=RECORDS_A_READ)):
            self.stdout.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))

