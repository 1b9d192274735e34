"""``import_league`` and ``export_league``: a season in and out as domino-league/1."""

from __future__ import annotations

import datetime
import json
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from matches.clubs.services import club_create, player_add
from matches.leagues.services import season_create
from matches.models import Fixture, Season
from matches.rules import league as league_rules
from tests.rules.test_league import SPEC_DOCUMENT, SPEC_STANDINGS

pytestmark = pytest.mark.django_db



@pytest.fixture
def club(django_user_model):
    return club_create(name="Teesdale",
                                by=django_user_model.objects.create_user("sec"))


def test_import_then_export_gives_the_same_standings(club, tmp_path):
    path = tmp_path / "league.json"
    path.write_text(json.dumps(SPEC_DOCUMENT), "utf-8")
    out = StringIO()
    call_command("import_league", club.slug, str(path), stdout=out)
    season = Season.objects.get()
    assert f"stored as season {season.slug!r} (3 entrants, 3 fixtures)" in out.getvalue()

    exported = StringIO()
    call_command("export_league", club.slug, season.slug, stdout=exported)
    document = json.loads(exported.getvalue().splitlines()[0])
    table = league_rules.standings(league_rules.read_league(document))
    assert league_rules.table_json(table)["standings"] == SPEC_STANDINGS["standings"]
    # the names and the squads come back as they went in: "season — division" named
    # both, and a squad's players were added to the club's
    assert (season.name, season.divisions.get().name) == ("Teesdale Monday League 2026/27",
                                                          "Division A")
    assert document["name"] == SPEC_DOCUMENT["name"]
    assert (sorted(document["entrants"], key=lambda e: e["name"])
            == sorted(SPEC_DOCUMENT["entrants"], key=lambda e: e["name"]))
    assert "Ann Dale" in set(club.players.values_list("name", flat=True))


def test_a_season_whose_name_has_a_dash_comes_back_with_both_names(club, tmp_path):
    """The export names a division "season — division" and the import reads the last
    " — " back: a dash in the season's name is kept, and none is let into a division's
    (it would come back split at the wrong dash)."""
    season = season_create(club=club, by=club.memberships.get().user, name="Summer — 2027",
                           game="all-fives", starts_on=datetime.date(2027, 6, 7),
                           divisions=["North"])
    for dashed_name in ("Premier — North", "— North"):  # the second: "Summer — — North"
        with pytest.raises(ValidationError) as dashed:
            season_create(club=club, by=club.memberships.get().user, name="Autumn",
                          game="all-fives", starts_on=datetime.date(2027, 9, 6),
                          divisions=["South", dashed_name])
    assert not club.seasons.filter(name="Autumn").exists()
    assert dashed.value.message_dict["divisions"] == [
        "A division's name cannot hold \" — \": the season's files name a division "
        "\"season — division\", and it would come back split."]
    exported = StringIO()
    call_command("export_league", club.slug, season.slug, "--division", "North",
                 stdout=exported)
    path = tmp_path / "north.json"
    path.write_text(exported.getvalue(), "utf-8")
    season.delete()  # its name is taken while it stands
    call_command("import_league", club.slug, str(path), stdout=StringIO())
    again = Season.objects.get()
    assert (again.name, again.divisions.get().name) == ("Summer — 2027", "North")


def test_one_division_of_several_exports_as_a_file_the_table_command_reads(club, tmp_path):
    """One JSON line per division is not one document: league_table and import_league
    refused a season of two ("Extra data: line 2")."""
    path = tmp_path / "league.json"
    path.write_text(json.dumps(SPEC_DOCUMENT), "utf-8")
    call_command("import_league", club.slug, str(path), stdout=StringIO())
    season = Season.objects.get()
    season.divisions.create(name="Division B", order=2)
    both = StringIO()
    call_command("export_league", club.slug, season.slug, stdout=both)
    assert len(both.getvalue().splitlines()) == 2

    one = StringIO()
    call_command("export_league", club.slug, season.slug, "--division", "division a",
                 stdout=one)
    exported = tmp_path / "division-a.json"
    exported.write_text(one.getvalue(), "utf-8")
    table = StringIO()
    call_command("league_table", str(exported), "--json", stdout=table)
    assert json.loads(table.getvalue())["standings"] == SPEC_STANDINGS["standings"]
    with pytest.raises(CommandError, match="no division 'Division C'"):
        call_command("export_league", club.slug, season.slug, "--division", "Division C")


def test_a_refused_document_names_the_fixture_and_stores_nothing(club, tmp_path):
    bad = json.loads(json.dumps(SPEC_DOCUMENT))
    bad["fixtures"][1]["home"] = "Nobody FC"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), "utf-8")
    err = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_league", club.slug, str(path), stderr=err)
    assert exit_.value.code == 1
    assert "fixture 2" in err.getvalue()
    assert Season.objects.count() == 0 and Fixture.objects.count() == 0


def _spec(**changes: object) -> str:
    document = json.loads(json.dumps(SPEC_DOCUMENT))
    document.update(changes)
    return json.dumps(document)


@pytest.mark.parametrize(("text", "message"), [
    ('{"a":' * 100_000 + "1" + "}" * 100_000,
     "not a league record: it nests deeper than 32 levels"),
    (_spec(name=json.loads("[" * 40 + "]" * 40)),
     "not a league record: it nests deeper than 32 levels"),
    (_spec()[:-1] + ', "x": ' + "9" * 5000 + "}",
     "not a league record: a number in it has thousands of digits"),
    (_spec(name="Monday\x00League"),
     "a text in the league record holds a NUL character (\\u0000), which cannot be stored"),
    (_spec(entrants=[{"name": "Royal Oak A", "players": ["Ann Dale", "Bob Hart"]},
                     {"name": "Bowes Dragons", "players": ["Cy Lund", "ann dale"]}],
           fixtures=[], adjustments=[]),
     "entrant 2, players: Already in another squad of this division: Ann Dale (Royal Oak "
     "A)."),
    (_spec(name="Monday\ud800League"),
     "a text in the league record holds half of a character (an escape from \\ud800 to "
     "\\udfff without its other half), which cannot be stored"),
    ("[1, 2]", "a league record is a JSON object"),
    ("\x00", "not valid JSON: Expecting value: line 1 column 1 (char 0)"),
    (_spec(adjustments=[{"entrant": "Bowes Dragons", "points": 10**29, "reason": "late"}]),
     "adjustment 1, points: Ensure this value is less than or equal to {IntegerField}."),
    (_spec(fixtures=[{"home": "Royal Oak A", "away": "Bowes Dragons",
                      "result": [10**29, 1]}]),
     "fixture 1, home_games: Ensure this value is less than or equal to "
     "{PositiveSmallIntegerField}."),
    (_spec(fixtures=[{"home": "Royal Oak A", "away": "Bowes Dragons", "result": [1, 0],
                      "games": [[10**29, 1]]}]),
     "fixture 1, game 1, home_score: Ensure this value is less than or equal to "
     "{PositiveIntegerField}."),
    (_spec(entrants=[{"name": "Royal Oak A" * 100}, {"name": "Bowes Dragons"}],
           fixtures=[], adjustments=[]),
     "entrant 1, name: Ensure this value has at most 80 characters (it has 1100)."),
])
def test_a_hostile_league_document_is_refused_and_stores_nothing(club, tmp_path, text,
                                                                 message):
    """The league loader reads as the record reader does (rules.record.read_json), and
    a number beyond what the database holds is refused by its field."""
    message = message.format_map({kind: connection.ops.integer_field_range(kind)[1]
                                  for kind in ("IntegerField", "PositiveIntegerField",
                                               "PositiveSmallIntegerField")})
    path = tmp_path / "hostile.json"
    path.write_text(text, "utf-8")
    err = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_league", club.slug, str(path), stderr=err)
    assert exit_.value.code == 1
    assert f"{path}: refused: " in err.getvalue() and message in err.getvalue()
    assert Season.objects.count() == 0 and Fixture.objects.count() == 0


def test_an_import_uses_the_clubs_own_players_and_a_long_division_name_fits(club, tmp_path):
    player_add(club=club, name="Ann Dale", by=club.created_by)
    document = json.loads(json.dumps(SPEC_DOCUMENT))
    document["name"] = "Teesdale Monday League — " + "Division " * 20
    document["entrants"][0]["players"] = ["ann   DALE", "Bob Hart"]
    path = tmp_path / "league.json"
    path.write_text(json.dumps(document), "utf-8")

    call_command("import_league", club.slug, str(path), stdout=StringIO())

    assert sorted(club.players.values_list("name", flat=True)) == ["Ann Dale", "Bob Hart"]
    division = Season.objects.get().divisions.get()
    assert len(division.name) == 80 and division.name.startswith("Division Division")
