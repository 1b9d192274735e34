"""``manage.py import_cup CLUB FILE [--by USERNAME]``: store a ``domino-cup/1`` document
as a new cup of the club, made by one of its admins (the first, unless ``--by`` names
one). A refused document stores nothing and says why, naming the field; exit 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.clubs.models import Membership, Role
from matches.cups.services import cup_import
from matches.models import Club
from matches.rules import cup_record


class Command(BaseCommand):
    help = "Store a domino-cup/1 document as a cup of a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", help="the club's address (slug)")
        parser.add_argument("file", help="a domino-cup/1 JSON file")
        parser.add_argument("--by", help="the username of the club admin it is made by "
                                         "(the club's first admin by default)")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club {options['club']!r}")
        admins = Membership.objects.filter(
            club=club, role__in=(Role.OWNER, Role.ADMIN)).select_related("user").order_by("pk")
        if options.get("by"):
            admins = admins.filter(user__username=options["by"])
        admin = admins.first()
        if admin is None:
            who = f"admin {options['by']!r}" if options.get("by") else "admin"
            raise CommandError(f"no {who} of club {options['club']!r}")
        name = options["file"]
        try:
            document = cup_record.loads(Path(name).read_bytes())
            cup = cup_import(club=club, document=document, by=admin.user)
        except (OSError, ValueError) as error:  # a CupError is a ValueError too
            self.stderr.write(f"{name}: refused: {error}")
            raise SystemExit(1) from None
        except (ValidationError, PermissionDenied) as error:
            messages = error.messages if isinstance(error, ValidationError) else [str(error)]
            self.stderr.write(f"{name}: refused: {'; '.join(messages)}")
            raise SystemExit(1) from None
        self.stdout.write(f"{name}: stored as cup {cup.season.slug!r} "
                          f"({cup.season.divisions.get().entrants.count()} entrants, "
                          f"{cup.ties.filter(result__isnull=False).count()} results)")
