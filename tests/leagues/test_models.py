"""matches.clubs.models and .leagues: every named constraint holds in the database."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.clubs.services import club_create
from matches.leagues.models import (
    DECIDER_ONLY_IN_CUPS,
    FIXTURE_ONE_ENTRANT,
    GAME_LEVEL,
    NIGHT_TOO_LONG,
    RESULT_IFF_PLAYED,
)
from matches.leagues.services import entrant_add, season_create
from matches.models import (
    Adjustment,
    Club,
    Division,
    Entrant,
    Fixture,
    FixtureChange,
    FixtureCorrection,
    FixtureGame,
    FixtureNotice,
    Match,
    Membership,
    Player,
    Rating,
    RatingStep,
    RecordImport,
    RecordImportChunk,
    RecordImportFile,
    RecordImportLine,
    Season,
)
from matches.scoring.services.play import match_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(django_user_model) -> dict[str, Any]:
    owner = django_user_model.objects.create_user("owner")
    club = club_create(name="Oak", by=owner)
    season = season_create(club=club, by=owner, name="Monday",
                                    starts_on=datetime.date(2026, 9, 7), game="all-fives")
    division = season.divisions.get()
    home = entrant_add(division=division, by=owner, name="Home")
    away = entrant_add(division=division, by=owner, name="Away")
    fixture = Fixture.objects.create(division=division, week=1, home=home, away=away)
    player = Player.objects.create(club=club, name="Ann", user=owner)
    return {"owner": owner, "club": club, "season": season, "division": division,
            "home": home, "away": away, "fixture": fixture, "player": player}


def _upload(x: dict[str, Any]) -> RecordImport:
    return RecordImport.objects.create(created_by=x["owner"], max_records=1)


def _update(model: Any, pk: int, **fields: Any) -> None:
    model.objects.filter(pk=pk).update(**fields)


CASES: dict[str, Callable[[dict[str, Any]], object]] = {
    "club_visibility_valid": lambda x: _update(Club, x["club"].pk, visibility="secret"),
    "club_name_not_blank": lambda x: _update(Club, x["club"].pk, name=""),
    "club_slug_not_blank": lambda x: _update(Club, x["club"].pk, slug=""),
    "club_slug_not_a_page": lambda x: _update(Club, x["club"].pk, slug="new"),
    "membership_once_per_club": lambda x: Membership.objects.create(club=x["club"],
                                                                    user=x["owner"]),
    "membership_role_valid": lambda x: Membership.objects.filter(club=x["club"]).update(
        role="king"),
    "player_name_unique_ci": lambda x: Player.objects.create(club=x["club"], name="ANN"),
    "player_name_not_blank": lambda x: Player.objects.create(club=x["club"], name=""),
    "player_one_per_member": lambda x: Player.objects.create(club=x["club"], name="Bo",
                                                             user=x["owner"]),
    "season_slug_per_club": lambda x: Season.objects.create(
        club=x["club"], name="Again", slug=x["season"].slug, game="all-fives",
        starts_on=datetime.date(2026, 1, 1)),
    "season_game_valid": lambda x: _update(Season, x["season"].pk, game="chess"),
    "season_format_valid": lambda x: _update(Season, x["season"].pk, fixture_format="cup"),
    "season_ends_after_start": lambda x: _update(Season, x["season"].pk,
                                                 ends_on=datetime.date(2026, 1, 1)),
    "season_games_format_has_games": lambda x: _update(Season, x["season"].pk,
                                                       fixture_format="games"),
    "season_race_has_target": lambda x: _update(Season, x["season"].pk, fixture_format="race"),
    "season_night_fits": lambda x: _update(Season, x["season"].pk, fixture_format="games",
                                           singles=30, pairs=11),
    "season_race_fits": lambda x: _update(Season, x["season"].pk, fixture_format="race",
                                          race_to=21),
    "season_name_not_blank": lambda x: _update(Season, x["season"].pk, name=""),
    "season_kind_valid": lambda x: _update(Season, x["season"].pk, kind="friendly"),
    "season_decider_in_cup_games": lambda x: _update(Season, x["season"].pk,
                                                     fixture_format="games", singles=2,
                                                     decider=True),
    "season_decider_fits": lambda x: _update(Season, x["season"].pk, kind="cup",
                                             fixture_format="games", singles=30, pairs=10,
                                             decider=True),
    "season_slug_not_blank": lambda x: _update(Season, x["season"].pk, slug=""),
    "season_slug_not_a_page": lambda x: _update(Season, x["season"].pk, slug="new"),
    "division_name_not_blank": lambda x: _update(Division, x["division"].pk, name=""),
    "entrant_name_not_blank": lambda x: _update(Entrant, x["home"].pk, name=""),
    "fixture_game_number_at_most": lambda x: FixtureGame.objects.create(fixture=x["fixture"],
                                                                        number=41),
    "division_name_per_season": lambda x: Division.objects.create(season=x["season"],
                                                                  name="DIVISION 1"),
    "entrant_name_per_division": lambda x: Entrant.objects.create(division=x["division"],
                                                                  name="home"),
    "entrant_kind_valid": lambda x: _update(Entrant, x["home"].pk, kind="club"),
    "fixture_two_entrants": lambda x: _update(Fixture, x["fixture"].pk, away=x["home"]),
    "fixture_status_valid": lambda x: _update(Fixture, x["fixture"].pk, status="lost"),
    "fixture_change_kind_known": lambda x: FixtureChange.objects.create(
        fixture=x["fixture"], kind="lost", what="lost"),
    "fixture_change_one_author": lambda x: FixtureChange.objects.create(
        fixture=x["fixture"], user=x["owner"], by_link=x["home"], kind="submitted",
        what="submitted"),
    "entrant_link_opened_with_key": lambda x: _update(Entrant, x["home"].pk,
                                                      link_phone_key="0" * 64),
    "entrant_link_generation_from_one": lambda x: _update(Entrant, x["home"].pk,
                                                          link_generation=0),
    "fixture_notice_once": lambda x: [FixtureNotice.objects.create(
        fixture=x["fixture"], kind="reminder") for _ in range(2)],
    "fixture_notice_kind_known": lambda x: FixtureNotice.objects.create(
        fixture=x["fixture"], kind="postcard"),
    "fixture_week_from_one": lambda x: _update(Fixture, x["fixture"].pk, week=0),
    "fixture_result_iff_played": lambda x: _update(Fixture, x["fixture"].pk,
                                                   status="confirmed"),
    "fixture_walkover_valid": lambda x: _update(Fixture, x["fixture"].pk, status="confirmed",
                                                walkover="both"),
    "fixture_game_number": lambda x: FixtureGame.objects.bulk_create([
        FixtureGame(fixture=x["fixture"], number=1), FixtureGame(fixture=x["fixture"],
                                                                 number=1)]),
    "fixture_game_from_one": lambda x: FixtureGame.objects.create(fixture=x["fixture"],
                                                                  number=0),
    "fixture_game_has_a_winner": lambda x: FixtureGame.objects.create(
        fixture=x["fixture"], number=1, home_score=61, away_score=61),
    "fixture_game_corrected_has_score": lambda x: FixtureGame.objects.create(
        fixture=x["fixture"], number=2, score_corrected=True),
    "fixture_correction_has_reason": lambda x: FixtureCorrection.objects.create(
        fixture=x["fixture"], reason=""),
    "adjustment_not_zero": lambda x: Adjustment.objects.create(entrant=x["home"], points=0,
                                                               reason="x"),
    "adjustment_has_reason": lambda x: Adjustment.objects.create(entrant=x["home"], points=1,
                                                                 reason=""),
    "rating_once_per_player_and_game": lambda x: Rating.objects.bulk_create([
        _rating(x), _rating(x)]),
    "rating_game_valid": lambda x: Rating.objects.bulk_create([_rating(x, game="chess")]),
    "rating_sigma_positive": lambda x: Rating.objects.bulk_create([_rating(x, sigma=0)]),
    "rating_step_once": lambda x: RatingStep.objects.bulk_create([
        RatingStep(rating=_saved_rating(x), match=_match(), number=1, ordinal=0),
        RatingStep(rating=Rating.objects.get(), match=_match(), number=1, ordinal=0)]),
    # a step is after one result: a match or a paper game, never neither
    "rating_step_one_result": lambda x: RatingStep.objects.bulk_create([
        RatingStep(rating=_saved_rating(x), number=1, ordinal=0)]),
    # record imports: kept with the app's other tables
    "record_import_status_valid": lambda x: RecordImport.objects.create(
        created_by=x["owner"], max_records=1, status="lost"),
    "record_import_file_position_unique": lambda x: RecordImportFile.objects.bulk_create(
        [RecordImportFile(record_import=upload, position=0, name=name)
         for upload in [_upload(x)] for name in ("a.json", "b.json")]),
    "record_import_line_outcome_valid": lambda x: RecordImportLine.objects.create(
        record_import=_upload(x), number=1, source="a.json", outcome="maybe"),
    # a second runner's row for a line already read
    "record_import_line_once": lambda x: RecordImportLine.objects.bulk_create(
        [RecordImportLine(record_import=upload, number=1, source="a.json", outcome="stored")
         for upload in [_upload(x)] for _ in range(2)]),
    "record_import_chunk_once": lambda x: RecordImportChunk.objects.bulk_create(
        [RecordImportChunk(file=kept, number=0, data=b"{}") for kept in [
            RecordImportFile.objects.create(record_import=_upload(x), position=0,
                                            name="a.json")] for _ in range(2)]),
    "record_import_stopped_says_why": lambda x: RecordImport.objects.create(
        created_by=x["owner"], max_records=1, status="failed"),
    "record_import_lease_while_running": lambda x: RecordImport.objects.create(
        created_by=x["owner"], max_records=1, status="queued", leased_by="a worker",
        leased_until=timezone.now()),
}


def _rating(x: dict[str, Any], **fields: Any) -> Rating:
    values = {"club": x["club"], "game": "all-fives", "player": x["player"], "mu": 25.0,
              "sigma": 8.3, "ordinal": 0.0, "matches": 1, **fields}
    return Rating(**values)


def _saved_rating(x: dict[str, Any]) -> Rating:
    rating = _rating(x)
    rating.save()
    return rating


def _match() -> Match:
    return match_create(game="all-fives", players=["A", "B"])
MODELS: list[Any] = [Club, Membership, Player, Season, Division, Entrant, Fixture, FixtureGame,
          Adjustment]


def test_every_named_constraint_of_the_app_has_a_case():
    from tests.accounts.test_models import CASES as ACCOUNTS
    from tests.cups.test_models import CASES as CUPS
    from tests.scoring.test_models import CASES as SCORING

    names = {c.name for model in apps.get_app_config("matches").get_models()
             for c in model._meta.constraints}
    assert names == set(CASES) | set(SCORING) | set(CUPS) | set(ACCOUNTS)


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES))
def test_the_database_refuses_a_row_that_breaks_the_constraint(league, name):
    with pytest.raises(IntegrityError), transaction.atomic():
        CASES[name](league)


def test_the_fixture_itself_satisfies_every_constraint(league):
    for model in MODELS:
        for row in model.objects.all():
            row.validate_constraints()


@pytest.mark.parametrize(("break_it", "message"), [
    (lambda x: setattr(x["fixture"], "away", x["home"]), FIXTURE_ONE_ENTRANT),
    (lambda x: setattr(x["fixture"], "status", "confirmed"), RESULT_IFF_PLAYED),
], ids=["one entrant", "played without a result"])
def test_a_fixtures_constraints_say_what_is_wrong_in_words(league, break_it, message):
    """full_clean() in the services shows these, not "Constraint … is violated"."""
    break_it(league)

    with pytest.raises(ValidationError) as refused:
        league["fixture"].full_clean()

    assert refused.value.messages == [str(message)]


def test_a_level_game_is_refused_in_words(league):
    game = FixtureGame(fixture=league["fixture"], number=1, home_score=61, away_score=61)

    with pytest.raises(ValidationError) as refused:
        game.full_clean()

    assert refused.value.messages == [str(GAME_LEVEL)]


@pytest.mark.parametrize(("kind", "fixture_format"), [("league", "games"), ("cup", "race")])
def test_a_deciding_game_outside_a_cup_s_night_of_games_is_refused_in_words(
        league, kind, fixture_format):
    season = league["season"]
    season.kind, season.fixture_format, season.singles, season.race_to = (
        kind, fixture_format, 2, 3)
    season.decider = True

    with pytest.raises(ValidationError) as refused:
        season.full_clean()

    assert refused.value.message_dict == {"decider": [str(DECIDER_ONLY_IN_CUPS)]}


def test_a_deciding_game_counts_among_the_nights_games(league):
    season = league["season"]
    season.kind, season.fixture_format, season.singles, season.pairs = "cup", "games", 30, 10
    season.full_clean()  # forty games fit
    season.decider = True

    with pytest.raises(ValidationError) as refused:
        season.full_clean()

    assert refused.value.message_dict == {"pairs": [str(NIGHT_TOO_LONG % {"most": 39})]}
