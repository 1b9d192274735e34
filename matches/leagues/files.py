"""A league's files, each format written and read here: the fixtures CSV (the season's
export, and the results kept in a spreadsheet that come in the same way), the table CSV
(written only), and the ``domino-league/1`` document (written here from plain values;
read and checked by the league rules, :func:`matches.rules.league.read_league`).

Nothing here reads or stores a model: the selectors hand in what a division holds
(:class:`FixtureLine`, a :class:`~matches.rules.league.Table`), the services store what
is read. Text cells go through :mod:`matches.core.cells` (a name a spreadsheet would
run as a formula is written after an apostrophe and read back without it; every CSV
starts with a byte-order mark, which the reader skips).
"""

from __future__ import annotations

import csv
import datetime
import difflib
import io
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.core import messages as rules_messages
from matches.core.cells import BYTE_ORDER_MARK, line_writer, read_text_cell, text_cell
from matches.rules import league as league_rules

# -- the table CSV ----------------------------------------------------------------------

TABLE_CSV_COLUMNS = ("rank", "entrant", "played", "won", "drawn", "lost", "games_for",
                     "games_against", "score_for", "score_against", "adjustment", "points")


def table_csv(table: league_rules.Table) -> Iterator[str]:
    """The standings as CSV lines, the byte-order mark first; a shared rank as ``2=``."""
    writer = line_writer()
    yield BYTE_ORDER_MARK + writer.writerow(TABLE_CSV_COLUMNS)
    for row in table.rows:
        yield writer.writerow([f"{row.rank}=" if row.shared else row.rank,
                               text_cell(row.entrant), row.played, row.won, row.drawn,
                               row.lost, row.games_for, row.games_against, row.score_for,
                               row.score_against, row.adjustment, row.points])


# -- the fixtures CSV -------------------------------------------------------------------

# what the season's fixtures export writes, in this order
FIXTURES_CSV_COLUMNS = ("week", "date", "home", "away", "status", "home_games",
                        "away_games", "walkover", "games")
# what the import reads (the columns a spreadsheet of results needs)
CSV_COLUMNS = ("date", "home", "away", "home_games", "away_games", "games", "status")
# the fixtures export's other columns: its walkover side is read, its week needs no reading
# (a row fills the matching fixture's week, or the next one). Any other column is refused:
# a misspelt one (``gmes``) would otherwise be dropped with what it holds.
EXPORT_COLUMNS = ("walkover", "week")
# statuses the fixtures export writes for rows that hold no result to import
UNSIGNED = ("scheduled", "submitted", "disputed")


@dataclass(frozen=True, slots=True)
class FixtureLine:
    """One fixture as the fixtures CSV writes it (its entrants by name)."""

    week: int
    date: datetime.date | None
    home: str
    away: str
    status: str
    home_games: int | None
    away_games: int | None
    walkover: str  # "home", "away" (the side that turned up) or ""
    games: Sequence[Sequence[int]] = ()  # each game's score, home first


def fixtures_csv(fixtures: Iterable[FixtureLine]) -> Iterator[str]:
    """The fixtures as CSV lines, the byte-order mark first: what :func:`read_fixtures_csv`
    reads back (its settled rows; the others are skipped)."""
    writer = line_writer()
    yield BYTE_ORDER_MARK + writer.writerow(FIXTURES_CSV_COLUMNS)
    for fixture in fixtures:
        yield writer.writerow([
            fixture.week, fixture.date.isoformat() if fixture.date else "",
            text_cell(fixture.home), text_cell(fixture.away), fixture.status,
            "" if fixture.home_games is None else fixture.home_games,
            "" if fixture.away_games is None else fixture.away_games,
            fixture.walkover,
            # as the spreadsheet import reads them: 61-40 61-12, home first
            " ".join(f"{home}-{away}" for home, away in fixture.games)])


@dataclass(frozen=True, slots=True)
class FixturesRead:
    """A fixtures CSV read: each data row as a ``domino-league/1`` fixture with its line
    number."""

    rows: list[tuple[int, dict[str, Any]]]


def read_fixtures_csv(text: str) -> FixturesRead:
    """Results kept in a spreadsheet, one fixture a row (columns :data:`CSV_COLUMNS`;
    ``games`` like ``61-40 61-12 58-61``; ``status`` empty for a result, or ``walkover
    home``, ``walkover away``, ``postponed``, ``void``), or the fixtures export read back.
    Column names are read without regard to case or spaces around them; a column it
    does not read is refused. Dates as ``YYYY-MM-DD``, ``DD/MM/YYYY`` or ``DD.MM.YYYY``.
    Commas, semicolons or tabs. A refusal is a :class:`ValidationError` naming the row; a cell
    the CSV reader cannot take raises :class:`csv.Error`."""
    text = text.lstrip(BYTE_ORDER_MARK)
    reader = csv.DictReader(io.StringIO(text), delimiter=_delimiter(text))
    header = [name.strip() for name in reader.fieldnames or []]
    # a column without a heading is kept apart (a name no heading can have, as headings
    # are stripped): a spreadsheet's empty trailing columns are fine, a value in one is not
    reader.fieldnames = [name.lower() or f" {number}" for number, name in enumerate(header)]
    unread = [name for name in header
              if name and name.lower() not in CSV_COLUMNS + EXPORT_COLUMNS]
    if unread:
        raise ValidationError(_("The first row names columns the import does not read: "
                                "%(unread)s. It reads %(columns)s; rename or remove the "
                                "others. Nothing was imported.")
                              % {"unread": ", ".join(unread),
                                 "columns": ", ".join(CSV_COLUMNS + EXPORT_COLUMNS)},
                              code="columns")
    # two columns of one name: the reader would keep the last and drop the other
    twice = sorted({name for name in reader.fieldnames if reader.fieldnames.count(name) > 1})
    if twice:
        raise ValidationError(_("The first row names %(twice)s more than once; keep one "
                                "column of each. Nothing was imported.")
                              % {"twice": ", ".join(twice)}, code="columns")
    missing = [c for c in ("home", "away") if c not in reader.fieldnames]
    if missing:
        raise ValidationError(_("The first row names the columns; %(missing)s is missing. "
                                "Columns: %(columns)s.")
                              % {"missing": ", ".join(missing),
                                 "columns": ", ".join(CSV_COLUMNS)}, code="columns")
    rows = []
    for row in reader:
        line = reader.line_num
        stray = [value for key, value in row.items() if key is None or key.startswith(" ")]
        if any(v.strip() for value in stray
               for v in (value if isinstance(value, list) else [value or ""])):
            raise ValidationError(_("Row %(line)s: a cell has no column name in the first "
                                    "row; name its column or clear the cell. Nothing was "
                                    "imported.") % {"line": line}, code="columns")
        cell = {key: (value or "").strip() for key, value in row.items() if key is not None}
        doc: dict[str, Any] = {"home": read_text_cell(cell.get("home", "")),
                               "away": read_text_cell(cell.get("away", ""))}
        if cell.get("date"):
            doc["date"] = _date(cell["date"], line)
        status = " ".join(cell.get("status", "").lower().split())
        if status == "scheduled" and (cell.get("home_games") or cell.get("away_games")):
            status = ""  # a result typed into the exported sheet's unplayed row
        if status in UNSIGNED:  # the fixtures export's rows without a result to store
            continue
        if status == "confirmed":  # the export's: a result, or a walkover in its column
            side = cell.get("walkover", "").lower()
            status = f"walkover {side}" if side in ("home", "away") else ""
        if status in ("postponed", "void"):
            doc[status] = True
        elif status in ("walkover home", "walkover away"):
            doc["walkover"] = status.split()[1]
        elif status:
            raise ValidationError(_('Row %(line)s: status "%(status)s" is not one of: empty '
                                    "or confirmed, walkover home, walkover away, postponed, "
                                    "void.")
                                  % {"line": line, "status": cell["status"]}, code="status")
        else:
            doc["result"] = [_number(cell.get("home_games", ""), line, "home_games"),
                             _number(cell.get("away_games", ""), line, "away_games")]
            if cell.get("games"):
                doc["games"] = _games(cell["games"], line)
        rows.append((line, doc))
    if not rows:
        raise ValidationError(_("The file has no fixture rows."), code="empty")
    return FixturesRead(rows=rows)


def row_refused(error: rules.RulesError, rows: Sequence[tuple[int, dict[str, Any]]],
                entrants: Sequence[str] = ()) -> str:
    """The league rules' refusal of a read file's document: the rules name "fixture N";
    the spreadsheet's user knows rows. A name that is not one of ``entrants`` (the
    division's) is refused with the nearest of them, when one is close: a typo is
    named, never read as the entrant it is probably meant to be."""
    where = getattr(error, "where", None) or ""
    match = re.fullmatch(r"fixture (\d+)", where)
    if match is None:
        return rules_messages.explain(error)
    line, doc = rows[int(match.group(1)) - 1]
    if error.code == "side_not_an_entrant":
        key = str(error.params["key"])
        name = doc[key]
        nearest = _nearest(name, entrants)
        if nearest:
            return str(_('Row %(line)s: %(key)s "%(name)s" is not an entrant of this '
                         'division; did you mean %(nearest)s?')
                       % {"line": line, "key": key, "name": name, "nearest": nearest})
        return str(_('Row %(line)s: %(key)s "%(name)s" is not an entrant of this division.')
                   % {"line": line, "key": key, "name": name})
    return str(_("Row %(line)s: %(why)s") % {"line": line,
                                              "why": rules_messages.reason(error)})


def _nearest(name: str, entrants: Sequence[str]) -> str:
    """The entrant whose name is closest to ``name`` (case aside), or "" if none is."""
    by_key = {entrant.casefold(): entrant for entrant in entrants}
    close = difflib.get_close_matches(name.casefold(), list(by_key), n=1)
    return by_key[close[0]] if close else ""


def _delimiter(text: str) -> str:
    """Commas, or what a spreadsheet saved instead: Excel writes CSV with semicolons
    where a comma is the decimal mark (Ukrainian, Russian, most of Europe), and a
    "text" export uses tabs. Read from the first row, which names the columns; the rest
    of the dialect stays Excel's (a quote in a cell written twice)."""
    header = text.split("\n", 1)[0]
    try:
        return csv.Sniffer().sniff(header, delimiters=",;\t").delimiter
    except csv.Error:  # one column, or none: as commas (the columns are then named)
        return ","


_DAY_FIRST = re.compile(r"(\d{1,2})([/.])(\d{1,2})\2(\d{4})")


def _date(text: str, line: int) -> str:
    """A date cell as ``YYYY-MM-DD``. Slashes and dots are read day first, as UK and
    European spreadsheets write them (14/12/2026, 14.12.2026); a date that cannot be
    read day first (12/14/2026, month first) is refused rather than guessed. Anything
    else is left for the league rules to read (or refuse) as ``YYYY-MM-DD``."""
    match = _DAY_FIRST.fullmatch(text)
    if match is None:
        if "/" in text or "." in text:
            raise ValidationError(_DATE_REFUSED % {"line": line, "value": text}, code="date")
        return text
    day, month, year = int(match.group(1)), int(match.group(3)), int(match.group(4))
    try:
        return datetime.date(year, month, day).isoformat()
    except ValueError:
        raise ValidationError(_DATE_REFUSED % {"line": line, "value": text},
                              code="date") from None


_DATE_REFUSED = _('Row %(line)s, date: "%(value)s" is not a date read day first: write '
                  'dates as YYYY-MM-DD or DD/MM/YYYY.')


def _games(text: str, line: int) -> list[list[int]]:
    """``61-40 61-12 58-61``: each game's score, home first."""
    games = []
    for score in text.split():
        home, dash, away = score.partition("-")
        if not dash or not (_is_count(home) and _is_count(away)):
            raise ValidationError(_('Row %(line)s, games: "%(value)s" is not a game score: '
                                    "write them like 61-40 61-12, home first.")
                                  % {"line": line, "value": score}, code="games")
        games.append([int(home), int(away)])
    return games


def _is_count(text: str) -> bool:
    """A whole number a spreadsheet cell may hold: ASCII digits, at most five."""
    return text.isascii() and text.isdigit() and len(text) < 6


def _number(text: str, line: int, column: str) -> int:
    if _is_count(text):
        return int(text)
    raise ValidationError(_('Row %(line)s, %(column)s: "%(value)s" is not a whole number.')
                          % {"line": line, "column": column, "value": text}, code="number")


# -- domino-league/1 --------------------------------------------------------------------


def league_document(*, name: str, game: str, options: Mapping[str, Any] | None = None,
                    scoring: Mapping[str, Any] | None = None,
                    tiebreaks: Sequence[str] | None = None,
                    entrants: Sequence[Mapping[str, Any]] = (),
                    fixtures: Sequence[Mapping[str, Any]] = (),
                    adjustments: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """A ``domino-league/1`` document (``../shared/league-record.md``), its keys in the
    order the exports write them. No ``scoring`` (or an empty one) is the format's
    default scheme; no ``tiebreaks`` (None) its default order, while ``[]`` is none at
    all; no ``adjustments`` (None) leaves the key out."""
    document: dict[str, Any] = {"format": league_rules.FORMAT, "name": name, "game": game,
                                "options": dict(options or {}),
                                "entrants": [dict(e) for e in entrants],
                                "fixtures": [dict(f) for f in fixtures]}
    if adjustments is not None:
        document["adjustments"] = [dict(a) for a in adjustments]
    if scoring:
        document["scoring"] = dict(scoring)
    if tiebreaks is not None:
        document["tiebreaks"] = list(tiebreaks)
    return document


def entrant_entry(name: str, players: Sequence[str] = ()) -> dict[str, Any]:
    """An entrant of a document: its ``players`` only when it has some."""
    return {"name": name, **({"players": list(players)} if players else {})}


def fixture_entry(*, home: str, away: str, date: datetime.date | None,
                  postponed: bool = False, void: bool = False, walkover: str = "",
                  result: tuple[int | None, int | None] | None = None,
                  games: Sequence[Sequence[int]] = ()) -> dict[str, Any]:
    """A fixture of a document, settled one way: postponed, void, a walkover (the side
    that turned up), else its ``result``. Its game scores are written only when there
    is one for every game its result counts (a game kept on paper and not keyed in
    leaves the night's scores out, as the format wants all or none)."""
    entry: dict[str, Any] = {"home": home, "away": away}
    if date is not None:
        entry["date"] = date.isoformat()
    if postponed:
        entry["postponed"] = True
    elif void:
        entry["void"] = True
    elif walkover:
        entry["walkover"] = walkover
    elif result is not None:
        home_games, away_games = result
        entry["result"] = [home_games, away_games]
        if games and len(games) == (home_games or 0) + (away_games or 0):
            entry["games"] = [list(game) for game in games]
    return entry
