"""``manage.py import_match PATH [PATH ...]``: verify and store ``domino-match/1`` records.

Prints one line per record, in input order, then exits 1 if any record was refused.
``--dry-run`` stores nothing and never opens a database connection: it replays each
record through the rules engine and checks what storing it would refuse (the players'
names), so it says "valid" only of what the import stores. CI and the benchmark run it
over thousands of records (no system checks, to keep start-up light).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.record_files import RecordSource, record_sources

UNREADABLE = "cannot read the file: {error}"


class Command(BaseCommand):
    help = ("Verify domino-match/1 records (.json: one record; .jsonl: one per line) and "
            "store each valid one as a match.")
    # The records are checked by the rules engine; Django's system checks would only add
    # start-up time to a command that CI runs over thousands of records.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", type=Path)
        parser.add_argument("--dry-run", action="store_true",
                            help="Verify the records without storing them.")
        parser.add_argument("--json", action="store_true",
                            help="Print one JSON line per record: its summary (with the new "
                                 "match's id unless --dry-run), or {\"error\": message}.")

    def handle(self, *args: Any, paths: list[Path], dry_run: bool, json: bool,
               **options: Any) -> None:
        refused = total = 0
        for source in self._sources(paths):
            total += 1
            summary, match_id, error = self._import(source, dry_run=dry_run)
            if error is not None:
                refused += 1
            self.stdout.write(self._line(source, summary, match_id, error, as_json=json,
                                         dry_run=dry_run))
        if refused:
            raise CommandError(f"{refused} of {total} records refused.")

    def _sources(self, paths: list[Path]) -> Any:
        for path in paths:
            try:
                data = path.read_bytes()
            except OSError as error:
                yield RecordSource(str(path), None, None,
                                   UNREADABLE.format(error=error.strerror or error))
                continue
            yield from record_sources(str(path), data)

    def _import(self, source: RecordSource, *, dry_run: bool
                ) -> tuple[dict[str, Any] | None, int | None, str | None]:
        if source.document is None:
            return None, None, source.error
        from matches import selectors, services

        if dry_run:  # the store's own checks, with nothing stored
            summary, refusal = services.record_check(document=source.document)
            return summary, None, refusal

        match, refusal = services.record_import(source=source)
        if match is None:
            return None, None, refusal
        return selectors.match_summary(match), match.pk, None

    def _line(self, source: RecordSource, summary: dict[str, Any] | None, match_id: int | None,
              error: str | None, *, as_json: bool, dry_run: bool) -> str:
        if as_json:
            if error is not None:
                return json_line({"error": error})
            assert summary is not None
            return json_line(summary if match_id is None else {**summary, "id": match_id})
        if error is not None:
            return f"{source.label}: refused: {error}"
        assert summary is not None
        what = f"{summary['game']}, {summary['status']}"
        if dry_run:
            return f"{source.label}: valid ({what})"
        return f"{source.label}: stored match {match_id} ({what})"


def json_line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))
