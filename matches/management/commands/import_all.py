"""``manage.py import_all FILE``: restore a ``scorekeeper-backup/1`` file (written by
``export_all``) into an empty database, all of it or nothing.

Every match is replayed and verified on the way in; every score, standing and rating
comes out as it was. Exits 1, with a message naming the line, if the file cannot be
restored, and before reading it if the database already holds users, clubs or matches.

A big site takes minutes (every match is replayed, 500 at a time; bench/store.py
--restore times it), so it says how far it got: once the file is read, then at most every
``progress_every`` seconds, and before the ratings are rebuilt; ``--verbosity 0`` leaves
out these progress lines.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.records.backup import BackupInvalid, DatabaseNotEmpty, backup_import
from matches.scoring.services.bulk import statistics_refresh


class Command(BaseCommand):
    help = "Restore a backup written by export_all into an empty database."
    progress_every = 10.0  # seconds between progress lines

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE", type=Path)

    def handle(self, *args: Any, file: Path, verbosity: int = 1, **options: Any) -> None:
        self._last = 0.0
        try:
            with file.open(encoding="utf-8") as source:
                counts = backup_import(source=source,
                                       progress=self._progress if verbosity else None)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error.strerror or error}") from None
        except UnicodeDecodeError as error:
            raise CommandError(f"{file}: not UTF-8 text: {error}") from None
        except DatabaseNotEmpty as error:
            raise CommandError(str(error)) from None
        except BackupInvalid as error:
            raise CommandError(f"{file}: {error}. Nothing was restored.") from None
        statistics_refresh()  # every match table filled from empty
        self.stdout.write(f"Restored {file}: {_counts(counts)}.")

    def _progress(self, done: int, total: int, counts: Mapping[str, int]) -> None:
        now = time.monotonic()
        if done == 0:
            self._last = now
            self.stdout.write(f"Read {total} lines to restore.")
            return
        if done < total and now - self._last < self.progress_every:
            return
        self._last = now
        self.stdout.write(f"Restoring: {done} of {total} lines ({done * 100 // total}%), "
                          f"{_counts(counts)}.")
        if done == total:
            self.stdout.write("Checking the counts and rebuilding the ratings.")


def _counts(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{what}: {count}" for what, count in counts.items())
