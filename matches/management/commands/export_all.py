"""``manage.py export_all FILE``: the whole site as one ``scorekeeper-backup/1`` file.

Users (with their password hashes), clubs, players, league seasons and every match;
the format is described in :mod:`matches.services.backup`. ``-`` writes to stdout.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.services.backup import backup_export


class Command(BaseCommand):
    help = "Write every user, club, player, season and match to FILE (scorekeeper-backup/1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="where to write it (- for stdout)")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        if file == "-":
            backup_export(out=self.stdout)
            return
        try:
            with Path(file).open("w", encoding="utf-8", newline="\n") as out:
                lines = backup_export(out=out)
        except OSError as error:
            raise CommandError(f"cannot write {file}: {error.strerror or error}") from None
        self.stderr.write(f"Wrote {lines} lines to {file}.")
