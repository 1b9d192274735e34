"""Every CSV the site writes: a name a spreadsheet would run as a formula (starting with
``=``, ``+``, ``-`` or ``@``) is written as text, after an apostrophe, in every column
that holds a name, of every export (matches.core.cells.text_cell). Each export's
columns are sorted into names and the rest, so a new column is looked at too."""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches.clubs.services import club_create
from matches.core.cells import read_text_cell
from matches.leagues.services import entrant_add, season_create
from matches.models import Club
from tests.support.helpers import night, won_at_once

pytestmark = pytest.mark.django_db

FORMULA_STARTS = ["=", "+", "-", "@"]


@dataclass(frozen=True)
class Export:
    """A CSV export, made with every name in it starting with ``start``: its text."""

    make: Callable[[str], str]
    names: frozenset[str]  # the columns that hold a name someone typed
    others: frozenset[str]  # the rest: numbers, dates, statuses, links, the game


def _club(start: str) -> tuple[Club, User]:
    owner = User.objects.create_user("owner")
    return club_create(name=f"{start}Teesdale", by=owner), owner


def _season_export(what: str) -> Callable[[str], str]:
    def make(start: str) -> str:
        club, owner = _club(start)
        season = season_create(club=club, by=owner, name="Monday League",
                                        game="all-fives", starts_on=datetime.date(2026, 9, 7),
                                        divisions=["Only"])
        division = season.divisions.get()
        home, away = (entrant_add(division=division, by=owner, name=f"{start}{name}")
                      for name in ("Royal Oak A", "Bowes Dragons"))
        division.fixtures.create(week=1, home=home, away=away)
        answer = Client().get(reverse("matches:season_export", kwargs={
            "slug": club.slug, "season": season.slug, "what": what}))
        assert answer.status_code == 200
        return answer.content.decode()
    return make


def _history(start: str) -> str:
    club, owner = _club(start)
    won_at_once([f"{start}Ann", f"{start}Bob"], opener=0, played_at=night(1), club=club)
    client = Client()
    client.force_login(owner)
    answer = client.get(reverse("matches:history_csv"))
    assert answer.status_code == 200
    return b"".join(answer.streaming_content).decode()  # type: ignore[attr-defined]


EXPORTS = {
    "season table.csv": Export(
        _season_export("table.csv"), frozenset({"entrant"}),
        frozenset({"rank", "played", "won", "drawn", "lost", "games_for", "games_against",
                   "score_for", "score_against", "adjustment", "points"})),
    "season fixtures.csv": Export(
        _season_export("fixtures.csv"), frozenset({"home", "away"}),
        frozenset({"week", "date", "status", "home_games", "away_games", "walkover",
                   "games"})),
    "match history": Export(
        _history, frozenset({"players", "winner", "club"}),
        frozenset({"date", "game", "scores", "status", "link", "note"})),
}
NAME_COLUMNS = [(export, column) for export, spec in EXPORTS.items()
                for column in sorted(spec.names)]


def table(text: str) -> list[dict[str, str]]:
    assert text.startswith("\ufeff")  # so Excel reads it as UTF-8
    return list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))


@pytest.mark.parametrize("start", FORMULA_STARTS)
@pytest.mark.parametrize(("export", "column"), NAME_COLUMNS)
def test_a_name_a_spreadsheet_would_run_is_written_as_text(export, column, start):
    rows = table(EXPORTS[export].make(start))

    cells = [row[column] for row in rows]
    assert cells and all(cell.startswith(f"'{start}") for cell in cells), cells
    assert all(read_text_cell(cell).startswith(start) for cell in cells)  # read back as typed


@pytest.mark.parametrize("export", list(EXPORTS))
def test_every_column_of_an_export_is_known_as_a_name_or_not(export):
    """A column added to an export is sorted here (and, if it holds a name, tested above)."""
    spec = EXPORTS[export]
    header = next(csv.reader(io.StringIO(spec.make("=").removeprefix("\ufeff"))))

    assert set(header) == spec.names | spec.others
    assert len(header) == len(set(header))
