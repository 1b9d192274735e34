"""A league admin's correction of a fixture's result: refused to anyone else, from a
status without a result, in a locked season, without a reason or with bad scores (each
storing nothing); kept beside what it superseded; confirmed again or final as the
season chooses; a scorepad game's score replaced by the league's, which the table, the
match's page and the ratings all count."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from openskill.models import PlackettLuce

from matches.history.models import Rating
from matches.leagues.selectors import (
    division_table,
    fixture_game_score,
    scorepad_closure,
    season_divisions,
)
from matches.leagues.services import (
    CORRECTION_CHANGES_NOTHING,
    CORRECTION_NEEDS_WHY,
    SCOREPAD_GAME_PLAYERS,
    SCOREPAD_GAME_SCORE,
    fixture_confirm,
    fixture_correct,
    season_corrections_choose,
)
from matches.models import (
    FixtureChange,
    FixtureCorrection,
    FixtureStatus,
    Membership,
    Season,
)
from tests.support.helpers import LeagueNight, fixture_state, league_night_at

pytestmark = pytest.mark.django_db

WHY = "the scoresheet says Bob won"


def correct(night: LeagueNight, by: User, scores=((0, 10),), reason: str = WHY, **kw):  # noqa: ANN001, ANN201
    return fixture_correct(fixture=night.fixture, by=by, scores=list(scores), reason=reason,
                           **kw)


def refused_and_nothing_stored(night: LeagueNight, by: User, error: type[Exception],
                               **kw: Any) -> Any:
    before = fixture_state(night.fixture)
    with pytest.raises(error) as refused:
        correct(night, by, **kw)
    assert fixture_state(night.fixture) == before
    assert not FixtureCorrection.objects.exists()
    return refused.value


@pytest.mark.parametrize("status", [FixtureStatus.SUBMITTED, FixtureStatus.CONFIRMED,
                                    FixtureStatus.DISPUTED])
def test_a_captain_or_member_may_not_correct_a_result(status):
    night = league_night_at(status)
    member = User.objects.create_user("member")
    Membership.objects.create(club=night.fixture.division.season.club, user=member,
                              role="member")
    for who in (night.home_captain, night.away_captain, member):
        refusal = refused_and_nothing_stored(night, who, PermissionDenied)
        assert str(refusal) == "Only a club admin or above can do that."


@pytest.mark.parametrize("status", [FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED,
                                    FixtureStatus.VOID])
def test_a_fixture_without_a_result_is_not_corrected(status):
    night = league_night_at(status)
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError)
    assert refusal.code == "wrong_status"
    assert refusal.messages == [f"This fixture is {status.label.lower()}: that cannot be "
                                "done now."]


def test_a_locked_season_takes_no_correction():
    night = league_night_at(FixtureStatus.CONFIRMED)
    Season.objects.filter(pk=night.fixture.division.season_id).update(locked=True)
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError)
    assert refusal.messages == ["The season is locked: its results can no longer change."]


def test_a_correction_says_why_or_is_refused():
    night = league_night_at(FixtureStatus.CONFIRMED)
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError, reason="  \n ")
    assert refusal.message_dict == {"reason": [str(CORRECTION_NEEDS_WHY)]}


def test_a_correction_that_changes_nothing_is_refused_not_kept():
    """Sent twice, the second stored a correction whose before and after were equal."""
    night = league_night_at(FixtureStatus.CONFIRMED)
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError,
                                         scores=[(10, 0)])
    assert refusal.messages == [str(CORRECTION_CHANGES_NOTHING)]


def test_a_reason_longer_than_is_kept_is_refused_not_cut_short():
    night = league_night_at(FixtureStatus.CONFIRMED)
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError,
                                         reason="game 2 " + "x" * 300)
    assert refusal.message_dict == {"reason": [
        "Ensure this value has at most 300 characters (it has 307)."]}


@pytest.mark.parametrize(("scores", "message"), [
    (((5, 5),), "Game 1: a game has a winner; 5–5 is level."),
    ((), "Game 1 was played on the scorepad: give its score (as played, or corrected)."),
    (((10, 0), (10, 0)), "Game 2 is not a game of the night: it has at most 1."),
])
def test_bad_scores_are_refused_naming_the_game(scores, message):
    night = league_night_at(FixtureStatus.CONFIRMED)
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError, scores=scores)
    assert refusal.messages == [message]


def test_a_scorepad_games_players_stay_those_seated():
    night = league_night_at(FixtureStatus.CONFIRMED)
    bob = night.fixture.away.players.get()
    refusal = refused_and_nothing_stored(night, night.admin, ValidationError,
                                         home_players=[[bob]], away_players=[[bob]])
    assert refusal.messages == [str(SCOREPAD_GAME_PLAYERS % {"n": 1})]
    assert str(SCOREPAD_GAME_SCORE)  # (the other scorepad refusal: its test above)


def test_a_final_correction_supersedes_the_scorepad_score_and_counts_everywhere():
    night = league_night_at(FixtureStatus.CONFIRMED)
    season = night.fixture.division.season
    ann, bob = night.fixture.home.players.get(), night.fixture.away.players.get()
    played = {r.player.name: r.ordinal for r in Rating.objects.select_related("player")}
    assert played["Ann"] > played["Bob"]  # Ann won it on the scorepad

    fixture = correct(night, night.admin)

    # final by the league's authority (the season's default): confirmed at once
    assert (fixture.status, fixture.home_games, fixture.away_games) == ("confirmed", 0, 1)
    game = fixture.games.select_related("match").get()
    assert game.match == night.match and game.score_corrected
    assert fixture_game_score(game) == (0, 10)
    night.match.refresh_from_db()
    assert night.match.winner_side == 0  # the match stays as it was played
    # the original stays readable beside the correction, with who, when and why
    kept = FixtureCorrection.objects.get()
    assert (kept.user, kept.reason, kept.confirmed_again) == (night.admin, WHY, False)
    assert kept.before == {"result": [1, 0], "walkover": None, "games": [
        {"number": 1, "score": [10, 0], "home": ["Ann"], "away": ["Bob"], "scorepad": True,
         "corrected": False}]}
    assert kept.after == {"result": [0, 1], "walkover": None, "games": [
        {"number": 1, "score": [0, 10], "home": ["Ann"], "away": ["Bob"], "scorepad": True,
         "corrected": True}]}
    change = FixtureChange.objects.filter(fixture=fixture).last()
    assert change is not None
    assert (change.kind, change.user, change.before["result"], change.after["result"],
            change.before["status"], change.after["status"]) == (
        "corrected", night.admin, [1, 0], [0, 1], "confirmed", "confirmed")
    # the table is computed from the corrected result
    table = division_table(season_divisions(season).get(), season)
    assert [(row.entrant, row.won, row.lost, row.games_for, row.games_against, row.points)
            for row in table.rows] == [("Bowes Dragons", 1, 0, 1, 0, 2),
                                       ("Royal Oak A", 0, 1, 0, 1, 0)]
    # the ratings are rebuilt as if Bob had won it: one game, Bob first
    model = PlackettLuce()
    a, b = model.rate([[model.rating()], [model.rating()]], ranks=[2.0, 1.0])
    rating = {r.player_id: r for r in Rating.objects.all()}
    assert rating[ann.pk].ordinal == pytest.approx(a[0].ordinal())
    assert rating[bob.pk].ordinal == pytest.approx(b[0].ordinal())
    assert rating[bob.pk].ordinal > rating[ann.pk].ordinal
    # the match's page is told what counts (the scorepad's own end stays as played)
    closure = scorepad_closure(night.match)
    assert closure is not None and closure.note == (
        "The league corrected this game's result on its fixture: Bowes Dragons won it, "
        "Royal Oak A 0–10 Bowes Dragons. That result counts in the league and in the "
        f"ratings, not the score played here. Why: {WHY}")

    # corrected back to the score played: the match's own score counts again
    correct(night, night.admin, scores=[(10, 0)], reason="we misread the scoresheet")
    game.refresh_from_db()
    assert not game.score_corrected and fixture_game_score(game) == (10, 0)
    assert scorepad_closure(night.match).note is None  # type: ignore[union-attr]
    rating = {r.player_id: r for r in Rating.objects.all()}
    assert rating[ann.pk].ordinal == pytest.approx(b[0].ordinal())  # Ann first again
    assert FixtureCorrection.objects.count() == 2


def test_a_correction_the_season_sends_back_is_confirmed_again_by_the_away_captain():
    night = league_night_at(FixtureStatus.DISPUTED)
    Season.objects.filter(pk=night.fixture.division.season_id).update(
        corrections_confirmed_again=True)

    fixture = correct(night, night.admin)

    assert (fixture.status, fixture.home_games, fixture.away_games) == ("submitted", 0, 1)
    assert FixtureCorrection.objects.get().confirmed_again
    season = Season.objects.get(pk=fixture.division.season_id)
    table = division_table(season_divisions(season).get(), season)
    assert all(row.played == 0 for row in table.rows)  # not counted until confirmed
    with pytest.raises(PermissionDenied):
        fixture_confirm(fixture=fixture, by=night.home_captain)  # not their own side's

    fixture = fixture_confirm(fixture=fixture, by=night.away_captain)

    assert fixture.status == FixtureStatus.CONFIRMED
    table = division_table(season_divisions(season).get(), season)
    assert [(row.entrant, row.points) for row in table.rows] == [("Bowes Dragons", 2),
                                                                 ("Royal Oak A", 0)]


def test_only_the_league_chooses_how_corrections_go_and_not_in_a_locked_season():
    night = league_night_at(FixtureStatus.CONFIRMED)
    season = Season.objects.get(pk=night.fixture.division.season_id)
    with pytest.raises(PermissionDenied):
        season_corrections_choose(season=season, by=night.home_captain, confirmed_again=True)
    assert season_corrections_choose(season=season, by=night.admin,
                                     confirmed_again=True).corrections_confirmed_again
    Season.objects.filter(pk=season.pk).update(locked=True)
    with pytest.raises(ValidationError, match="The season is locked"):
        season_corrections_choose(season=season, by=night.admin, confirmed_again=False)
    assert Season.objects.get(pk=season.pk).corrections_confirmed_again
