"""matches.leagues.files: what the fixtures CSV writer writes, its reader reads back (names
a spreadsheet would run as formulas and the byte-order mark included); the table CSV; and
the domino-league/1 documents it writes, as the league rules read them."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from matches import rules
from matches.core.cells import BYTE_ORDER_MARK
from matches.leagues import files as league_files
from matches.leagues.files import FixtureLine
from matches.leagues.services import season_scheme_check
from matches.rules import league as league_rules

HOME, AWAY = "=HYPERLINK(\"x\")", "-Bowes Dragons"  # both run as formulas, unescaped

LINES = [
    FixtureLine(week=1, date=datetime.date(2026, 9, 7), home=HOME, away=AWAY,
                status="confirmed", home_games=2, away_games=1, walkover="",
                games=[[61, 40], [61, 12], [58, 61]]),
    FixtureLine(week=2, date=datetime.date(2026, 9, 14), home=AWAY, away="@Oak",
                status="confirmed", home_games=None, away_games=None, walkover="away"),
    FixtureLine(week=3, date=None, home="@Oak", away=HOME, status="postponed",
                home_games=None, away_games=None, walkover=""),
    FixtureLine(week=4, date=datetime.date(2026, 9, 28), home=HOME, away="@Oak",
                status="void", home_games=None, away_games=None, walkover=""),
    FixtureLine(week=5, date=datetime.date(2026, 10, 5), home="@Oak", away=AWAY,
                status="confirmed", home_games=1, away_games=0, walkover=""),
    # no result to import: the reader skips these
    FixtureLine(week=6, date=datetime.date(2026, 10, 12), home=AWAY, away=HOME,
                status="submitted", home_games=2, away_games=0, walkover=""),
    FixtureLine(week=6, date=datetime.date(2026, 10, 12), home="@Oak", away=HOME,
                status="scheduled", home_games=None, away_games=None, walkover=""),
]


def written(lines: list[FixtureLine]) -> str:
    return "".join(league_files.fixtures_csv(lines))


def test_the_fixtures_csv_starts_with_a_byte_order_mark_and_writes_names_as_text():
    text = written(LINES)
    assert text.startswith(BYTE_ORDER_MARK + "week,date,home,away,status,home_games,"
                                             "away_games,walkover,games\r\n")
    assert text.splitlines()[1] == ("1,2026-09-07,\"'=HYPERLINK(\"\"x\"\")\",'-Bowes Dragons,"
                                    "confirmed,2,1,,61-40 61-12 58-61")
    cells = [cell for row in csv.reader(io.StringIO(text.lstrip(BYTE_ORDER_MARK)))
             for cell in row[2:4]]
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)


def test_what_the_fixtures_csv_writes_its_reader_reads_back():
    read = league_files.read_fixtures_csv(written(LINES))

    assert read.rows == [
        (2, {"home": HOME, "away": AWAY, "date": "2026-09-07", "result": [2, 1],
             "games": [[61, 40], [61, 12], [58, 61]]}),
        (3, {"home": AWAY, "away": "@Oak", "date": "2026-09-14", "walkover": "away"}),
        (4, {"home": "@Oak", "away": HOME, "postponed": True}),
        (5, {"home": HOME, "away": "@Oak", "date": "2026-09-28", "void": True}),
        (6, {"home": "@Oak", "away": AWAY, "date": "2026-10-05", "result": [1, 0]}),
    ]


def test_the_rows_read_back_are_a_document_the_league_rules_read():
    rows = league_files.read_fixtures_csv(written(LINES)).rows
    league = league_rules.read_league(league_files.league_document(
        name="Ladder", game="five-up",
        entrants=[league_files.entrant_entry(name) for name in (HOME, AWAY, "@Oak")],
        fixtures=[doc for _line, doc in rows]))
    assert [(f.home, f.away, f.result, f.walkover) for f in league.fixtures][:2] == [
        (HOME, AWAY, (2, 1), None), (AWAY, "@Oak", None, league_rules.Side.AWAY)]


@given(st.lists(st.tuples(st.text(min_size=1).filter(lambda s: s.strip() == s and
                                                     "\x00" not in s),
                          st.integers(0, 99999), st.integers(0, 99999)),
                min_size=1, max_size=5))
def test_any_names_and_counts_read_back_as_written(rows):
    lines = [FixtureLine(week=n, date=None, home=home, away=home + "2", status="confirmed",
                         home_games=h, away_games=a, walkover="")
             for n, (home, h, a) in enumerate(rows, start=1)]
    read = league_files.read_fixtures_csv(written(lines))
    assert [(doc["home"], doc["away"], doc["result"]) for _line, doc in read.rows] == [
        (home, home + "2", [h, a]) for home, h, a in rows]


def test_a_spreadsheets_semicolons_and_headings_in_any_case_are_read():
    read = league_files.read_fixtures_csv(
        "Home ; AWAY;Home_Games;away_games;GAMES\n'=Oak;Bell;1;0;61-40\n")
    assert read.rows == [(2, {"home": "=Oak", "away": "Bell", "result": [1, 0],
                              "games": [[61, 40]]})]


def test_a_column_the_import_does_not_read_is_refused_with_the_columns_it_reads():
    """A misspelt ``games`` was once read as a row without its games."""
    with pytest.raises(ValidationError) as refused:
        league_files.read_fixtures_csv(
            "home,away,home_games,away_games,gmes,Notes\nOak,Bell,1,0,61-40,rain\n")
    assert refused.value.messages == [
        "The first row names columns the import does not read: gmes, Notes. It reads "
        "date, home, away, home_games, away_games, games, status, walkover, week; rename "
        "or remove the others. Nothing was imported."]


@pytest.mark.parametrize(("cell", "date"), [
    ("2026-12-14", "2026-12-14"), ("14/12/2026", "2026-12-14"), ("7/9/2026", "2026-09-07"),
    ("03/04/2026", "2026-04-03"),  # day first, as the UK and Europe write it
    ("14.12.2026", "2026-12-14"),
])
def test_a_date_is_read_as_iso_or_day_first(cell, date):
    read = league_files.read_fixtures_csv(f"date,home,away,status\n{cell},Oak,Bell,void\n")
    assert read.rows == [(2, {"home": "Oak", "away": "Bell", "date": date, "void": True})]


@pytest.mark.parametrize("cell", ["12/14/2026", "31/02/2026", "14/12/26", "14.12/2026"])
def test_a_date_that_cannot_be_read_day_first_is_refused_not_guessed(cell):
    with pytest.raises(ValidationError) as refused:
        league_files.read_fixtures_csv(f"date,home,away,status\n{cell},Oak,Bell,void\n")
    assert refused.value.messages == [
        f'Row 2, date: "{cell}" is not a date read day first: write dates as YYYY-MM-DD '
        "or DD/MM/YYYY."]


@pytest.mark.parametrize(("text", "message"), [
    ("home,status\nOak,", "The first row names the columns; away is missing."),
    ("home,away,home_games,away_games\nOak,Bell,1,x\n",
     'Row 2, away_games: "x" is not a whole number.'),
    ("home,away,status\nOak,Bell,lost\n", 'Row 2: status "lost" is not one of'),
    ("home,away,home_games,away_games,games\nOak,Bell,1,0,61:40\n",
     'Row 2, games: "61:40" is not a game score: write them like 61-40 61-12, home first.'),
    ("home,away,status\nOak,Bell,submitted\n", "The file has no fixture rows."),
])
def test_a_file_the_reader_cannot_take_is_refused_naming_the_row(text, message):
    with pytest.raises(ValidationError, match=message.replace("(", r"\(")):
        league_files.read_fixtures_csv(text)


def test_the_table_csv_writes_shared_ranks_and_names_as_text():
    league = league_rules.read_league(league_files.league_document(
        name="Ladder", game="five-up",
        entrants=[league_files.entrant_entry(name) for name in ("=Oak", "Bell", "Crown", "Dale")],
        fixtures=[league_files.fixture_entry(home="=Oak", away="Bell", date=None,
                                             result=(1, 0))]))
    text = "".join(league_files.table_csv(league_rules.standings(league)))

    assert text.startswith(BYTE_ORDER_MARK)
    rows = list(csv.reader(io.StringIO(text.lstrip(BYTE_ORDER_MARK))))
    assert rows[0] == list(league_files.TABLE_CSV_COLUMNS)
    assert [row[:2] for row in rows[1:]] == [["1", "'=Oak"], ["2=", "Crown"], ["2=", "Dale"],
                                             ["4", "Bell"]]


def test_a_document_written_reads_back_as_the_league_it_describes():
    document = league_files.league_document(
        name="Teesdale — Division A", game="fives-and-threes", options={"deal": "short"},
        scoring={"win": 2, "per_game": 1, "walkover": [5, 4]}, tiebreaks=["wins"],
        entrants=[league_files.entrant_entry("Oak", ["Ann Dale", "Bob Hart"]),
                  league_files.entrant_entry("Bell")],
        fixtures=[
            league_files.fixture_entry(home="Oak", away="Bell",
                                       date=datetime.date(2026, 9, 7), result=(2, 1),
                                       games=[[61, 40], [61, 12], [58, 61]]),
            # a game kept on paper and not keyed in: the night's scores are left out
            league_files.fixture_entry(home="Bell", away="Oak", date=None, result=(1, 1),
                                       games=[[61, 40]]),
            league_files.fixture_entry(home="Bell", away="Oak", date=None, walkover="home",
                                       result=(None, None)),
            league_files.fixture_entry(home="Oak", away="Bell", date=None, postponed=True),
            league_files.fixture_entry(home="Oak", away="Bell", date=None, void=True)],
        adjustments=[{"entrant": "Bell", "points": -3, "reason": "late"}])

    assert list(document) == ["format", "name", "game", "options", "entrants", "fixtures",
                              "adjustments", "scoring", "tiebreaks"]
    assert document["entrants"][1] == {"name": "Bell"}  # no squad, no players key
    assert "games" not in document["fixtures"][1]
    league = league_rules.read_league(document)
    assert (league.name, league.game.slug, dict(league.options)) == (
        "Teesdale — Division A", "fives-and-threes", {"deal": "short"})
    assert league.tiebreaks == ("wins",)
    assert [(f.result, f.games, f.walkover, f.postponed, f.void)
            for f in league.fixtures] == [
        ((2, 1), ((61, 40), (61, 12), (58, 61)), None, False, False),
        ((1, 1), None, None, False, False),
        (None, None, league_rules.Side.HOME, False, False),
        (None, None, None, True, False),
        (None, None, None, False, True)]
    assert league.adjustments[0].points == -3


def test_no_scheme_and_no_tiebreakers_are_the_formats_defaults_but_none_is_none():
    bare = league_files.league_document(name="L", game="five-up", scoring={})
    assert "scoring" not in bare and "tiebreaks" not in bare and "adjustments" not in bare
    assert league_rules.read_league(bare).tiebreaks == league_rules.DEFAULT_TIEBREAKS
    assert league_rules.read_league(league_files.league_document(
        name="L", game="five-up", tiebreaks=[])).tiebreaks == ()


def test_the_season_scheme_is_checked_once_as_a_document_the_rules_read():
    # the new season form and season_create both ask this one check
    league = season_scheme_check(game="fives-and-threes", options={"deal": "short"},
                                          scoring={"walkover": [5, 4]}, tiebreaks=["wins"])
    assert (league.scoring.walkover, league.tiebreaks) == ((5, 4), ("wins",))
    with pytest.raises(ValidationError) as refused:
        season_scheme_check(game="five-up", scoring={"walkover": [4, 5]})
    assert refused.value.code == "walkover_order"  # the form says it beside its own field


@pytest.mark.parametrize(("away", "message"), [
    ("royal oke a", 'Row 2: away "royal oke a" is not an entrant of this division; did you '
                    "mean Royal Oak A?"),
    ("Nobody FC", 'Row 2: away "Nobody FC" is not an entrant of this division.'),
])
def test_an_unknown_entrant_is_refused_with_the_nearest_name_when_one_is_close(away,
                                                                              message):
    entrants = ["Royal Oak A", "Bell"]
    rows = league_files.read_fixtures_csv(f"home,away,status\nBell,{away},void\n").rows
    with pytest.raises(rules.RulesError) as refused:
        league_rules.read_league(league_files.league_document(
            name="Ladder", game="five-up",
            entrants=[league_files.entrant_entry(name) for name in entrants],
            fixtures=[doc for _line, doc in rows]))
    assert league_files.row_refused(refused.value, rows, entrants) == message


def test_a_column_without_a_heading_is_read_when_empty_and_refused_when_it_holds_a_value():
    read = league_files.read_fixtures_csv("home,away,,status,\nOak,Bell,,void,\n")
    assert read.rows == [(2, {"home": "Oak", "away": "Bell", "void": True})]
    for text in ("home,away,,status,\nOak,Bell,,void,61-40\n",
                 "home,away,,status\nOak,Bell,2,void\n",
                 "home,away,status\nOak,Bell,void,1\n"):  # a cell past the last heading
        with pytest.raises(ValidationError) as refused:
            league_files.read_fixtures_csv(text)
        assert refused.value.messages == [
            "Row 2: a cell has no column name in the first row; name its column or clear "
            "the cell. Nothing was imported."]


def test_a_column_named_twice_is_refused():
    with pytest.raises(ValidationError) as refused:
        league_files.read_fixtures_csv("home,away,Games,status,games\nOak,Bell,,void,\n")
    assert refused.value.messages == [
        "The first row names games more than once; keep one column of each. Nothing was "
        "imported."]
