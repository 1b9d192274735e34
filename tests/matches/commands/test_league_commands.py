"""``import_league`` and ``export_league``: a season in and out as domino-league/1."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from matches import services
from matches.models import Fixture, Season
from matches.rules import league as league_rules
from tests.matches.views.test_leagues import SPEC_STANDINGS

pytestmark = pytest.mark.django_db

SPEC_DOCUMENT = {  # ../shared/league-record.md, "Document"
    "format": "domino-league/1",
    "name": "Teesdale Monday League 2026/27 — Division A",
    "game": "fives-and-threes",
    "options": {"deal": "short"},
    "entrants": [{"name": "Royal Oak A", "players": ["Ann Dale", "Bob Hart"]},
                 {"name": "Bowes Dragons"}, {"name": "Middleton Club"}],
    "scoring": {"win": 2, "draw": 1, "loss": 0, "per_game": 1,
                "close_loss": {"margin": 1, "points": 1},
                "heavy_win": {"margin": 6, "points": 1}, "walkover": [5, 4]},
    "tiebreaks": ["game_difference", "games_for", "head_to_head"],
    "fixtures": [
        {"date": "2026-09-07", "home": "Royal Oak A", "away": "Bowes Dragons",
         "result": [2, 1], "games": [[61, 40], [61, 12], [58, 61]]},
        {"date": "2026-09-14", "home": "Bowes Dragons", "away": "Middleton Club",
         "walkover": "away"},
        {"date": "2026-09-21", "home": "Middleton Club", "away": "Royal Oak A",
         "postponed": True},
    ],
    "adjustments": [{"entrant": "Bowes Dragons", "points": -3, "reason": "result sent late"}],
}


@pytest.fixture
def club(django_user_model):
    return services.club_create(name="Teesdale",
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
