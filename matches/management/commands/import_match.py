"""``manage.py import_match PATH [PATH ...]``: verify and store ``domino-match/1`` records.

Prints one line per record, in input order, then exits 1 if any record was refused. Its
matches belong to no account, and a record already stored as such a match (the same
record by its hash, as an upload knows its account's: ``record_store``) is not
stored again: its line names that match, and the summary on stderr counts it apart from
the refusals (it is no failure: running the command twice on a file is harmless).
``--dry-run`` stores nothing and never opens a database connection: it replays each
record through the rules engine and checks what storing it would refuse (the players'
names), so it says "valid" only of what the import stores, or finds already stored (it
cannot tell which without the database). CI and the benchmark run it over thousands of
records: ``manage.py`` runs a plain dry run without setting Django up at all
(:mod:`matches.records.dry_run`, which also writes this command's dry-run lines).
Records are stored a batch at a time, each batch in one transaction (an interrupted run
keeps the batches before it)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, NamedTuple

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.records.dry_run import REFUSED, json_line, path_sources, verify
from matches.records.files import RecordSource


class Outcome(NamedTuple):
    """One record's line: its summary (and match's id, if stored or already stored),
    or why it was refused."""

    summary: dict[str, Any] | None = None
    match_id: int | None = None
    error: str | None = None
    already_stored: bool = False


class Command(BaseCommand):
    help = ("Verify domino-match/1 records (.json: one record; .jsonl: one per line) and "
            "store each valid one as a match, unless this command stored it already.")
    # The records are checked by the rules engine; Django's system checks would only add
    # start-up time to a command that CI runs over thousands of records.
    requires_system_checks: list[str] = []
    # records stored per transaction: one write a table for them all (an interrupted
    # run keeps the batches before; running it again stores only what is missing)
    batch_size = 500

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH", type=Path)
        parser.add_argument("--dry-run", action="store_true",
                            help="Verify the records without storing them.")
        parser.add_argument("--json", action="store_true",
                            help="Print one JSON line per record: its summary (with the "
                                 "match's id unless --dry-run, and \"already_stored\": "
                                 "true if it was not stored again), or {\"error\": message}.")

    def handle(self, *args: Any, paths: list[Path], dry_run: bool, json: bool,
               **options: Any) -> None:
        if dry_run:
            verified = verify(path_sources(paths), as_json=json, write=self.stdout.write)
            if verified.refused:
                raise CommandError(REFUSED.format(**verified._asdict()))
            return
        refused = already = total = 0
        for batch in itertools.batched(path_sources(paths), self.batch_size):
            for source, outcome in zip(batch, self._store(batch), strict=True):
                total += 1
                refused += outcome.error is not None
                already += outcome.already_stored
                self.stdout.write(self._line(source, outcome, as_json=json))
        if total - refused - already >= self.batch_size:  # a store as large as a batch
            from matches.scoring.services.bulk import statistics_refresh

            statistics_refresh()
        # on stderr, as the refusals' count: stdout holds one line per record (--json)
        not_again = f"{already} of {total} records already stored, not stored again."
        if refused:
            raise CommandError(REFUSED.format(refused=refused, total=total)
                               + (f" {not_again}" if already else ""))
        if already:
            self.stderr.write(not_again, style_func=self.style.WARNING)

    @staticmethod
    def _store(batch: tuple[RecordSource, ...]) -> list[Outcome]:
        """The batch stored in one transaction; each record's summary as the replay that
        verified it gives it (a record found stored already: as its match's rows give
        it, having not been replayed)."""
        from matches.models import LineOutcome
        from matches.records.services import records_store
        from matches.scoring.selectors.play import match_summary

        outcomes = []
        for result, summary in records_store(sources=batch):  # no account: the command's own
            if result.match is None:
                outcomes.append(Outcome(error=result.message))
                continue
            outcomes.append(Outcome(summary=summary or match_summary(result.match),
                                    match_id=result.match.pk,
                                    already_stored=result.outcome == LineOutcome.DUPLICATE))
        return outcomes

    def _line(self, source: RecordSource, outcome: Outcome, *, as_json: bool) -> str:
        summary, match_id, error = outcome.summary, outcome.match_id, outcome.error
        if as_json:
            if error is not None:
                return json_line({"error": error})
            assert summary is not None
            return json_line({**summary, "id": match_id,
                              **({"already_stored": True} if outcome.already_stored else {})})
        if error is not None:
            return f"{source.label}: refused: {error}"
        assert summary is not None
        what = f"{summary['game']}, {summary['status']}"
        if outcome.already_stored:
            return f"{source.label}: already stored as match {match_id} ({what})"
        return f"{source.label}: stored match {match_id} ({what})"
