"""``import_league`` and ``export_league``: a season in and out as domino-league/1."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from matches import services
from matches.models import Fixture, Season
from matches.rules import league as league_rules
from tests.rules.test_league import SPEC_DOCUMENT, SPEC_STANDINGS

pytestmark = pytest.mark.django_db



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
