"""``manage.py export_league CLUB SEASON [--division NAME]``: each division of a season
as one ``domino-league/1`` document, one JSON line per division; ``--division`` prints
that one alone, a file ``league_table`` and ``import_league`` read as it is."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.leagues.selectors import division_document, season_divisions
from matches.models import Season


class Command(BaseCommand):
    help = "Print a season's divisions as domino-league/1 documents (one JSON line each)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's address (slug)")
        parser.add_argument("season", help="the season's address (slug)")
        parser.add_argument("--division", help="only this division (its name, any case): "
                                               "one document, for league_table or "
                                               "import_league")

    def handle(self, *args: Any, **options: Any) -> None:
        season = Season.objects.filter(club__slug=options["club"],
                                       slug=options["season"]).first()
        if season is None:
            raise CommandError(f"no season {options['season']!r} in club {options['club']!r}")
        divisions = list(season_divisions(season))
        wanted = options.get("division")
        if wanted is not None:
            divisions = [d for d in divisions if d.name.casefold() == wanted.casefold()]
            if not divisions:
                raise CommandError(f"no division {wanted!r} in season {options['season']!r}")
        for division in divisions:
            self.stdout.write(json.dumps(division_document(division, season),
                                         ensure_ascii=False))
