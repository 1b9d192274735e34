"""The leagues' writes that would be wrong for a cup's season refuse it: round robins,
removing an entrant, a fixture added by hand, corrections confirmed again, a spreadsheet's rows."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from matches.leagues.services import (
    CUP_CORRECTIONS_FINAL,
    CUP_ENTRANT_STAYS,
    CUP_NO_CSV,
    CUP_NO_FIXTURE_ADDED,
    CUP_NO_ROUND_ROBIN,
    entrant_remove,
    fixture_add,
    fixtures_csv_import,
    fixtures_generate,
    season_corrections_choose,
)
from matches.models import Fixture
from tests.support.cups import a_cup

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_league_only_writes_refuse_a_cup_season():
    folk = a_cup(FOUR)
    division = folk.cup.season.divisions.get()
    with pytest.raises(ValidationError) as generate:
        fixtures_generate(division=division, by=folk.admin)
    assert generate.value.messages == [str(CUP_NO_ROUND_ROBIN)]
    with pytest.raises(ValidationError) as added:
        fixture_add(division=division, by=folk.admin, home=folk.entrant("Ann"),
                    away=folk.entrant("Bob"), date=folk.cup.season.starts_on)
    assert added.value.messages == [str(CUP_NO_FIXTURE_ADDED)]
    with pytest.raises(ValidationError) as remove:
        entrant_remove(entrant=folk.entrant("Ann"), by=folk.admin)
    assert remove.value.messages == [str(CUP_ENTRANT_STAYS) % {"name": "Ann"}]
    assert not Fixture.objects.exists() and division.entrants.count() == 4


def test_a_cups_corrections_stay_final_and_a_spreadsheet_adds_nothing_to_it():
    folk = a_cup(FOUR)
    season, division = folk.cup.season, folk.cup.season.divisions.get()
    with pytest.raises(ValidationError) as again:
        season_corrections_choose(season=season, by=folk.admin, confirmed_again=True)
    assert again.value.messages == [str(CUP_CORRECTIONS_FINAL)]
    with pytest.raises(ValidationError) as csv:
        fixtures_csv_import(division=division, by=folk.admin,
                            text="date,home,away,home_games,away_games\n")
    assert csv.value.messages == [str(CUP_NO_CSV)]
    season.refresh_from_db()
    assert season.corrections_confirmed_again is False and not Fixture.objects.exists()
