"""What storing a record refuses, told without the database (matches.scoring.record_checks).

No database mark: the dry run checks records in a process that has none."""

from __future__ import annotations

import pytest

from matches import rules
from matches.core.messages import explain
from matches.rules.simulate import simulated_record
from matches.scoring.models import MAX_SEATS, GameKind, Match, Seat
from matches.scoring.record_checks import (
    SEAT_NAME_MAX_LENGTH,
    record_check,
    seat_names,
)

VALID = simulated_record(rules.ALL_FIVES, 2, seed=7)
POSTGRES_INTEGER_MAX = 2**31 - 1  # a PositiveIntegerField's column


def test_a_valid_record_checks_to_its_summary():
    assert record_check(document=VALID) == (rules.summary(rules.replay(VALID)), None)


def test_a_record_the_rules_refuse_is_refused_in_the_readers_words():
    document = {**VALID, "game": "dominoes"}
    with pytest.raises(rules.RulesError) as refused:
        rules.replay(document)

    assert record_check(document=document) == (None, explain(refused.value))


@pytest.mark.parametrize(("players", "refusal"), [
    (["Olena", " OLENA "], "Each player needs a different name: OLENA sits twice."),
    (["Olena", "x" * 61],
     "The name of the player in seat 2 has 61 characters: a name has at most 60."),
])
def test_names_a_store_would_refuse_are_refused(players, refusal):
    assert record_check(document={**VALID, "players": players}) == (None, refusal)


def test_names_are_stored_stripped_and_seats_without_names_are_numbered():
    assert seat_names(rules.Match(rules.ALL_FIVES, [" Olena", "x" * 60])) == ["Olena", "x" * 60]
    assert seat_names(rules.Match(rules.ALL_FIVES, 2)) == ["Seat 1", "Seat 2"]


def test_the_name_column_is_as_long_as_the_check_allows():
    assert Seat._meta.get_field("name").max_length == SEAT_NAME_MAX_LENGTH


# The match row's own fields are not checked: the engine refuses first what they would.

def test_every_game_the_engine_plays_is_one_a_match_row_holds():
    assert set(rules.GAMES) <= set(GameKind.values)


@pytest.mark.parametrize("game", rules.GAMES.values(), ids=lambda game: game.slug)
def test_the_engine_refuses_more_seats_than_a_match_row_holds(game):
    for tile_set in game.tile_sets:
        names = [f"P{seat}" for seat in range(MAX_SEATS + 1)]
        with pytest.raises(rules.RulesError):
            rules.Match(game, names, {"set": tile_set.slug} if len(game.tile_sets) > 1 else {})


def test_the_engine_refuses_a_target_past_what_the_column_holds():
    column = Match._meta.get_field("target")
    assert rules.MAX_TARGET <= POSTGRES_INTEGER_MAX
    assert column.get_internal_type() == "PositiveIntegerField"
    with pytest.raises(rules.RulesError):
        rules.Match(rules.ALL_FIVES, ["A", "B"], {"target": rules.MAX_TARGET + 1})
