"""matches.scoring.models: every named constraint holds in the database, and clean() explains it.

Rows are written with save()/update()/bulk_create, which skip full_clean(), so the
database itself must refuse them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from matches.models import (
    ABANDONED_WITH_WINNER,
    FINISHED_WITHOUT_WINNER,
    HANDS_AND_PIPS,
    PLAYERS_FOR_GAME,
    SEAT_OUTSIDE_TABLE,
    WINNER_SIDE_OUTSIDE,
    Change,
    DeletedMatch,
    Event,
    Match,
    Player,
    Round,
    RoundSide,
    ScorerGrant,
    Seat,
    Side,
)
from tests.support.helpers import play_short_round, two_player_all_fives

pytestmark = pytest.mark.django_db


@pytest.fixture
def match() -> Match:
    """Round 1 of a two-player All Fives match: three plays, ended by Olena's domino."""
    match = two_player_all_fives()
    play_short_round(match)
    return match


def _match(match: Match, **fields) -> None:
    Match.objects.filter(pk=match.pk).update(**fields)


def _same_record_twice(match: Match) -> None:
    """Two matches of one account imported from the same record."""
    from django.contrib.auth.models import User

    user = User.objects.create_user("importer")
    _match(match, created_by=user, record_hash="a" * 64)
    Match.objects.create(game="all-fives", player_count=2, target=61, created_by=user,
                         record_hash="a" * 64)


def _round(match: Match, **fields) -> None:
    Round.objects.filter(match=match).update(**fields)


def _event(match: Match, **fields) -> None:
    event = match.events.get(number=3)
    for name, value in fields.items():
        setattr(event, name, value)
    event.save()


def _new_round(match: Match, **fields) -> None:
    Round(match=match, **fields).save()


def _new_change(match: Match, *, first_key: uuid.UUID | None = None, **fields) -> None:
    if first_key is not None:
        match.changes.filter(version=1).update(key=first_key)
    values = {"version": 99, "kind": "play", "action": {}, "description": "x", **fields}
    Change(match=match, **values).save()


def _new_event(match: Match, **fields) -> None:
    values = {"number": 4, "seat": 1, "kind": "pass", **fields}
    Event(match=match, round=match.rounds.get(), **values).save()


TAP_KEY = uuid.UUID("8a0d6c1e-5f57-4a4e-9d7c-2b8f0b4a9e11")

CASES: dict[str, tuple[str, Callable[[Match], object]]] = {
    # constraint name: (what is wrong, how to write it)
    "match_game_valid": ("an unknown game", lambda m: _match(m, game="poker")),
    "match_status_valid": ("an unknown status", lambda m: _match(m, status="paused")),
    "match_player_count_range": (
        "13 players", lambda m: _match(m, game="fives-and-threes", player_count=13)),
    "match_player_count_for_game": (
        "six players at All Fives", lambda m: _match(m, player_count=6)),
    "match_winner_iff_finished": (
        "finished without a winner",
        lambda m: _match(m, status="finished", finished_at=timezone.now())),
    "match_winner_side_at_table": (
        "side 2 of two players wins",
        lambda m: _match(m, status="finished", winner_side=2, finished_at=timezone.now())),
    "match_target_positive": ("a target of 0", lambda m: _match(m, target=0)),
    "match_record_hash_unique_per_user": ("one account's record imported twice",
                                          _same_record_twice),
    "match_finishes_after_start": (
        "finished before it started",
        lambda m: _match(m, status="finished", winner_side=0,
                         finished_at=m.started_at - timedelta(days=1))),
    "side_one_per_index": (
        "two sides with one index", lambda m: Side.objects.bulk_create([Side(match=m, index=0)])),
    "side_index_range": ("side 12", lambda m: Side(match=m, index=12).save()),
    "seat_one_per_position": (
        "two seats with one position",
        lambda m: Seat(match=m, position=0, name="Iryna", side=m.sides.get(index=0)).save()),
    "seat_one_per_player": (
        "one club player in two seats",
        lambda m: Seat.objects.filter(match=m).update(player=Player.objects.create(name="P"))),
    "seat_name_unique_ci": (
        "two seats whose names differ only in case",
        lambda m: Seat(match=m, position=3, name="OLENA", side=m.sides.get(index=0)).save()),
    "seat_name_not_blank": (
        "a seat without a name", lambda m: Seat.objects.filter(match=m).update(name="")),
    "seat_position_range": (
        "seat position 12",
        lambda m: Seat.objects.filter(match=m, position=1).update(position=12)),
    "round_number_unique": ("a second round 1", lambda m: _new_round(m, number=1)),
    "round_number_from_one": ("round 0", lambda m: _new_round(m, number=0)),
    "round_mode_valid": ("an unknown mode", lambda m: _round(m, mode="guessed")),
    "round_end_valid": ("an unknown end", lambda m: _round(m, end="resigned")),
    "round_hands_or_pips": (
        "hands and pips both set",
        lambda m: _round(m, settled=True, hands=[[], ["1-2"]], pips=[0, 3])),
    "round_finisher_only_on_domino": (
        "a finisher on a blocked round", lambda m: _round(m, end="blocked", finisher=0)),
    "round_settled_after_end": (
        "settled before it ended", lambda m: _round(m, end="", finisher=None, settled=True,
                                                    pips=[0, 3])),
    "round_starter_range": ("seat 12 starts", lambda m: _round(m, starter=12)),
    "round_finisher_range": ("seat 12 went out", lambda m: _round(m, finisher=12)),
    "round_side_unique": (
        "two totals for one side in one round",
        lambda m: RoundSide(round=m.rounds.get(), side=m.sides.get(index=0)).save()),
    "event_number_unique": ("duplicate event numbers", lambda m: _new_event(m, number=3)),
    "event_number_from_one": ("event 0", lambda m: _new_event(m, number=0)),
    "event_kind_valid": ("an unknown kind", lambda m: _new_event(m, kind="skip")),
    "event_seat_range": ("seat 12", lambda m: _new_event(m, seat=12)),
    "event_play_has_tile": (
        "a play event without a tile", lambda m: _new_event(m, kind="play", tile="")),
    "event_draw_has_count": (
        "a draw of no tiles", lambda m: _new_event(m, kind="draw", tiles_drawn=0)),
    "event_call_has_ends": ("a call without ends", lambda m: _new_event(m, kind="call")),
    "event_fields_match_kind": (
        "a pass with a tile", lambda m: _event(m, kind="pass")),
    "event_claim_or_miscall": (
        "a claim and a miscall on one placement",
        lambda m: _event(m, claim=10, miscall=15)),
    "grant_one_creator_per_match": (
        "two phones that started one match",
        lambda m: ScorerGrant.objects.bulk_create([
            ScorerGrant(match=m, label="a", is_creator=True),
            ScorerGrant(match=m, label="b", is_creator=True)])),
    "change_version_unique": (
        "two changes making one version", lambda m: _new_change(m, version=1)),
    "change_key_unique": (
        "one tap key on two changes",
        lambda m: _new_change(m, key=TAP_KEY, first_key=TAP_KEY)),
    "change_version_from_one": ("version 0", lambda m: _new_change(m, version=0)),
    "change_kind_valid": ("an unknown kind", lambda m: _new_change(m, kind="redo")),
    "change_restored_to_iff_restore": (
        "a restore that names no version", lambda m: _new_change(m, kind="restore")),
    "change_restores_earlier_version": (
        "a restore of a later version",
        lambda m: _new_change(m, kind="restore", restored_to=99)),
    "deleted_match_game_valid": (
        "a deleted match of an unknown game",
        lambda m: DeletedMatch.objects.create(public_id=uuid.uuid4(), game="poker",
                                              names="A, B", record={})),
}

UNIQUE_COLUMNS = {  # SQLite names the columns of a violated unique constraint, not the name
    "side_one_per_index": "matches_side.match_id, matches_side.index",
    "seat_one_per_position": "matches_seat.match_id, matches_seat.position",
    "seat_one_per_player": "matches_seat.match_id, matches_seat.player_id",
    "round_number_unique": "matches_round.match_id, matches_round.number",
    "seat_name_unique_ci": "seat_name_unique_ci",
    "change_version_unique": "matches_change.match_id, matches_change.version",
    "change_key_unique": "matches_change.match_id, matches_change.key",
    "grant_one_creator_per_match": "matches_scorergrant.match_id",
    "round_side_unique": "matches_roundside.round_id, matches_roundside.side_id",
    "event_number_unique": "matches_event.match_id, matches_event.number",
    "match_record_hash_unique_per_user": "matches_match.created_by_id, matches_match.record_hash",
}


def test_every_named_constraint_has_a_case():
    names = {constraint.name
             for model in (Match, Side, Seat, Round, RoundSide, Event, Change, ScorerGrant,
                           DeletedMatch)
             for constraint in model._meta.constraints}

    assert names == set(CASES)


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES))
def test_the_database_refuses_a_row_that_breaks_the_constraint(match, name):
    _, write = CASES[name]

    with pytest.raises(IntegrityError) as excinfo, transaction.atomic():
        write(match)

    expected = name
    if connection.vendor == "sqlite" and name in UNIQUE_COLUMNS:
        expected = UNIQUE_COLUMNS[name]
    assert expected in str(excinfo.value)


def test_the_database_refuses_a_draw_without_a_count(match):
    try:
        with transaction.atomic():
            _new_event(match, kind="draw", tiles_drawn=None)
    except IntegrityError as error:
        assert "event_draw_has_count" in str(error)
    else:
        raise AssertionError("a draw event with tiles_drawn NULL was stored")


def test_the_fixture_match_itself_satisfies_every_constraint(match):
    for model in (Match, Side, Seat, Round, RoundSide, Event, Change, ScorerGrant):
        for row in model.objects.all():
            row.validate_constraints()


# -- clean(): the same rules as field errors -------------------------------------------


def test_seat_clean_refuses_a_position_outside_the_table(match):
    seat = Seat(match=match, position=2, name="Iryna", side=match.sides.get(index=0))

    with pytest.raises(ValidationError) as excinfo:
        seat.full_clean(validate_constraints=False)

    assert excinfo.value.message_dict == {
        "position": [SEAT_OUTSIDE_TABLE % {"position": 2, "count": 2}]}
    assert excinfo.value.error_dict["position"][0].code == "position"


def test_seat_clean_refuses_a_side_of_another_match(match):
    other = two_player_all_fives()
    seat = Seat.objects.get(match=match, position=0)
    seat.side = other.sides.get(index=0)

    with pytest.raises(ValidationError) as excinfo:
        seat.clean()

    assert list(excinfo.value.message_dict) == ["side"]


def test_match_clean_refuses_six_players_at_all_fives():
    match = Match(game="all-fives", player_count=6, target=250)

    with pytest.raises(ValidationError) as excinfo:
        match.full_clean()

    assert excinfo.value.message_dict["player_count"] == [
        PLAYERS_FOR_GAME % {"game": "All Fives", "low": 2, "high": 4, "count": 6}]
    assert excinfo.value.error_dict["player_count"][0].code == "player_count"


def test_match_clean_accepts_twelve_players_at_fives_and_threes():
    Match(game="fives-and-threes", player_count=12, target=61).full_clean()


def test_match_clean_refuses_a_finished_match_without_winner():
    match = Match(game="all-fives", player_count=2, target=250, status="finished",
                  finished_at=timezone.now())

    with pytest.raises(ValidationError) as excinfo:
        match.full_clean()

    assert excinfo.value.message_dict["winner_side"] == [str(FINISHED_WITHOUT_WINNER)]


def test_round_clean_refuses_hands_and_pips_together(match):
    round_ = match.rounds.get()
    round_.hands, round_.pips = [[], ["1-2"]], [0, 3]

    with pytest.raises(ValidationError) as excinfo:
        round_.clean()

    assert excinfo.value.message_dict == {"pips": [str(HANDS_AND_PIPS)]}


def test_event_clean_refuses_a_seat_outside_the_table(match):
    event = match.events.get(number=3)
    event.seat = 5

    with pytest.raises(ValidationError) as excinfo:
        event.clean()

    assert excinfo.value.message_dict == {
        "seat": [SEAT_OUTSIDE_TABLE % {"position": 5, "count": 2}]}



def test_the_database_takes_an_abandoned_match_without_a_winner(match):
    _match(match, status="abandoned", finished_at=timezone.now())

    Match.objects.get().validate_constraints()


def test_the_database_refuses_an_abandoned_match_with_a_winner(match):
    with pytest.raises(IntegrityError, match="match_winner_iff_finished"), transaction.atomic():
        _match(match, status="abandoned", winner_side=0, finished_at=timezone.now())


def test_match_clean_refuses_an_abandoned_match_with_a_winner(match):
    match.status, match.winner_side, match.finished_at = "abandoned", 1, timezone.now()

    with pytest.raises(ValidationError) as excinfo:
        match.full_clean(validate_constraints=False)

    assert excinfo.value.message_dict == {"winner_side": [str(ABANDONED_WITH_WINNER)]}


def test_round_clean_refuses_a_starter_or_finisher_outside_the_table(match):
    rnd = match.rounds.get()
    rnd.starter, rnd.finisher = 2, 3

    with pytest.raises(ValidationError) as excinfo:
        rnd.full_clean()

    errors = excinfo.value.error_dict
    assert [e.code for e in errors["starter"]] == ["seat"]
    assert errors["starter"][0].message == SEAT_OUTSIDE_TABLE
    assert errors["starter"][0].params == {"position": 2, "count": 2}
    assert errors["finisher"][0].params == {"position": 3, "count": 2}


def test_match_clean_refuses_a_winning_side_the_match_does_not_have(match):
    match.status, match.winner_side, match.finished_at = "finished", 2, timezone.now()

    with pytest.raises(ValidationError) as excinfo:
        match.full_clean()

    errors = excinfo.value.error_dict["winner_side"]
    assert [(e.code, e.message) for e in errors] == [("winner_side", WINNER_SIDE_OUTSIDE)]
