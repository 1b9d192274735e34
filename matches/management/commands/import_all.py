"""``manage.py import_all FILE``: restore a ``scorekeeper-backup/1`` file (written by
``export_all``) into an empty database, all of it or nothing.

Every match is replayed and verified on the way in; every score, standing and rating
comes out as it was. Exits 1, with a message naming the line, if the file cannot be
restored, and before reading it if the database already holds users, clubs or matches.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.services.backup import BackupInvalid, DatabaseNotEmpty, backup_import


class Command(BaseCommand):
    help = "Restore a backup written by export_all into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", type=Path)

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        try:
            with file.open(encoding="utf-8") as source:
                counts = backup_import(source=source)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            raise CommandError(f"{file}: not UTF-8 text: {error}") from None
        except DatabaseNotEmpty as error:
            raise CommandError(str(error)) from None
        except BackupInvalid as error:
            raise CommandError(f"{file}: {error}. Nothing was restored.") from None
        self.stdout.write(f"Restored {file}: " + ", ".join(
            f"{what}: {count}" for what, count in counts.items()) + ".")
