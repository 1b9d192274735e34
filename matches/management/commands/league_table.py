"""``manage.py league_table FILE [FILE ...] [--json]``: the standings of ``domino-league/1`` files.

Reads each file (UTF-8 JSON, one league), ranks it with the rules engine
(:mod:`matches.rules.league`) and prints, in input order, its table or why it was
refused; then exits 1 if any file was refused. ``--json`` prints one line per file:
the spec's standings JSON or ``{"error": message}``. Nothing is stored and the
database is never opened: the command is the engine's, run on documents.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from matches.rules import RulesError
from matches.rules.league import League, Table, loads, read_league, standings, table_json

UNREADABLE = "cannot read the file: {error}"
NOT_UTF8 = "the file is not UTF-8 text: {error}"
REFUSED = "{refused} of {total} league files refused."


class Command(BaseCommand):
    help = ("Print the standings of domino-league/1 documents (one league per file) "
            "without storing anything.")
    # No models are involved: Django's system checks would only add start-up time.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", metavar="FILE", type=Path)
        parser.add_argument("--json", action="store_true",
                            help="Print one JSON line per file: its standings, or "
                                 "{\"error\": message}.")

    def handle(self, *args: Any, paths: list[Path], json: bool, **options: Any) -> None:
        refused = 0
        for index, path in enumerate(paths):
            if index and not json:
                self.stdout.write("")  # a blank line between files
            league, error = read_file(path)
            if league is None:
                refused += 1
                line = (json_line({"error": error}) if json
                        else f"{path}: refused: {error}")
                self.stdout.write(line)
                continue
            table = standings(league)
            if json:
                self.stdout.write(json_line(table_json(table)))
            else:
                self.stdout.write(f"{path}: {league.name}")
                self.stdout.write(plain_table(league, table))
        if refused:
            raise CommandError(REFUSED.format(refused=refused, total=len(paths)))


def read_file(path: Path) -> tuple[League | None, str | None]:
    """The league in ``path``, or why it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, UNREADABLE.format(error=error.strerror or error)
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is fine
    except UnicodeDecodeError as error:
        return None, NOT_UTF8.format(error=error)
    try:
        return read_league(loads(text)), None
    except RulesError as error:
        return None, str(error)


def plain_table(league: League, table: Table) -> str:
    """The table for people: rank (``2=`` when shared), P W D L, games for–against, points;
    then any adjustment with its reason and any tie the league must decide itself."""
    rows = [(f"{row.rank}{'=' if row.shared else ''}", row.entrant, str(row.played),
             str(row.won), str(row.drawn), str(row.lost),
             f"{row.games_for}–{row.games_against}", str(row.points)) for row in table.rows]
    header = ("Pos", "Entrant", "P", "W", "D", "L", "Games", "Pts")
    widths = [max(len(cells[column]) for cells in [header, *rows])
              for column in range(len(header))]
    lines = []
    for cells in [header, *rows]:
        padded = [cell.ljust(width) if column == 1 else cell.rjust(width)
                  for column, (cell, width) in enumerate(zip(cells, widths, strict=True))]
        lines.append("  ".join(padded).rstrip())
    for adjustment in league.adjustments:
        lines.append(f"Adjusted: {adjustment.entrant} {adjustment.points:+d} "
                     f"({adjustment.reason})")
    for above, row in zip(table.rows, table.rows[1:], strict=False):
        if row.decided_by is not None:
            lines.append(f"Tie-break: {row.entrant} below {above.entrant} on "
                         f"{row.decided_by.replace('_', ' ')}")
    if any(row.shared for row in table.rows):
        lines.append("=: level on points and every tie-breaker; the league decides the order")
    return "\n".join(lines)


def json_line(value: dict[str, Any]) -> str:
    return json.dumps(value, separators=(",", ":"))
