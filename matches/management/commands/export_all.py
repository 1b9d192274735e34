"""``manage.py export_all FILE``: the whole site as one ``scorekeeper-backup/2`` file.

Users (with their password hashes), clubs, players, league seasons, every match and the
records of deleted ones; the format is described in :mod:`matches.records.backup`.
``-`` writes to stdout. FILE appears only once it is whole: the backup is written beside
it first, and removed if it fails.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.records.backup import BackupFailed, backup_export


class Command(BaseCommand):
    help = "Write every user, club, player, season and match to FILE (scorekeeper-backup/2)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", help="where to write it (- for stdout)")

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        try:
            if file == "-":
                backup_export(out=self.stdout)
                return
            target = Path(file)
            # beside it, readable by this user alone (it holds password hashes and
            # scorers' secrets), with the mode of a file it replaces
            with tempfile.NamedTemporaryFile(
                    "w", encoding="utf-8", newline="\n", dir=target.parent,
                    prefix=f".{target.name}.", suffix=".partial", delete=False) as out:
                partial = Path(out.name)
            try:
                with partial.open("w", encoding="utf-8", newline="\n") as out:
                    lines = backup_export(out=out)
                if target.exists():
                    partial.chmod(target.stat().st_mode & 0o777)
                partial.replace(target)
            finally:
                partial.unlink(missing_ok=True)
        except OSError as error:
            raise CommandError(f"cannot write {file}: {error.strerror or error}") from None
        except BackupFailed as error:
            raise CommandError(f"{error}. No backup was written.") from None
        self.stderr.write(f"Wrote {lines} lines to {file}.")
