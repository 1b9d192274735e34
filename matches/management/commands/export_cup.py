"""``manage.py export_cup CLUB CUP``: the cup (by its season's address) as one
``domino-cup/1`` document, a file ``import_cup`` reads as it is."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.cups.exports import cup_document
from matches.cups.models import Cup
from matches.leagues.models import SeasonKind


class Command(BaseCommand):
    help = "Print a cup as a domino-cup/1 document (JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's address (slug)")
        parser.add_argument("cup", help="the cup's address (its season's slug)")

    def handle(self, *args: Any, **options: Any) -> None:
        cup = Cup.objects.select_related("season__club").filter(
            season__club__slug=options["club"], season__slug=options["cup"],
            season__kind=SeasonKind.CUP).first()
        if cup is None:
            raise CommandError(f"no cup {options['cup']!r} in club {options['club']!r}")
        self.stdout.write(json.dumps(cup_document(cup), ensure_ascii=False, indent=1))
