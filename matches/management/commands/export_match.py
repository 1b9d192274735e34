"""``manage.py export_match ID``: print a stored match as its ``domino-match/1`` record."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.models import Match
from matches.scoring.selectors.play import match_record

NO_SUCH_MATCH = "There is no match with id {id}."
BIGINT_MAX = 2**63 - 1


class Command(BaseCommand):
    help = "Print a stored match as a domino-match/1 record (JSON). ID is its number or UUID."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", metavar="ID")

    def handle(self, *args: Any, id: str, **options: Any) -> None:
        match = self._match(id)
        self.stdout.write(json.dumps(match_record(match), indent=1, ensure_ascii=False))

    def _match(self, key: str) -> Match:
        lookup: dict[str, Any]
        if key.isdigit():
            if int(key) > BIGINT_MAX:  # PostgreSQL would raise DataError, not DoesNotExist
                raise CommandError(NO_SUCH_MATCH.format(id=key))
            lookup = {"pk": int(key)}
        else:
            try:
                lookup = {"public_id": uuid.UUID(key)}
            except ValueError:
                raise CommandError(NO_SUCH_MATCH.format(id=key)) from None
        try:
            return Match.objects.get(**lookup)
        except Match.DoesNotExist:
            raise CommandError(NO_SUCH_MATCH.format(id=key)) from None
