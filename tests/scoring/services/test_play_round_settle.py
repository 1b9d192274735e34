"""round_settle and the rows of rounds settled without a count, or whose called
result came before its count: the change log and the rows must give the same actions."""

from __future__ import annotations

from typing import Any

import pytest

from matches import rules
from matches.models import Match, RoundEnd, RoundMode
from matches.scoring.changelog import action_doc, action_from_doc
from matches.scoring.selectors.play import (
    actions_at,
    match_actions,
    match_engine,
    match_record,
    match_summary,
)
from matches.scoring.services.play import (
    event_record,
    event_undo,
    match_create,
    match_import,
    match_restore,
    round_settle,
    round_start,
)
from tests.support.helpers import (
    T,
    assert_cache_equals_replay,
    live,
    site_admin,
    snapshot,
    two_player_all_fives,
)

pytestmark = pytest.mark.django_db

E = rules.ScoringEnd.parse


def ends(*texts: str) -> tuple[rules.ScoringEnd, ...]:
    return tuple(E(text) for text in texts)


def row(match: Match) -> tuple[Any, ...]:
    """The last live round's row: how it ended, whether settled, its count, and whether
    its result came apart from its count."""
    round_ = live(match.rounds).order_by("-number").first()
    assert round_ is not None
    return (round_.end, round_.finisher, round_.settled, round_.hands, round_.pips,
            round_.result_apart)


def assert_log_agrees_with_rows(match: Match) -> None:
    """Undo takes back the rows' last action, the log's view pops its last document, and
    a backup compares the two: they must hold the same actions, one for one."""
    match.refresh_from_db()
    assert actions_at(match, match.version) == [
        action_doc(action) for action in match_actions(match)]
    assert_cache_equals_replay(match)


def fives_and_threes(**options: Any) -> Match:
    return match_create(game="fives-and-threes", players=["Olena", "Taras"],
                                 options=options)


# -- Fives and Threes: no count is waited for ------------------------------------------


def test_a_fives_and_threes_round_is_settled_by_its_going_out_play():
    match = fives_and_threes(hand_size=2)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"),
                                                         rules.AttachmentPoint.parse("5-5:5")))
    event_record(match=match, action=rules.Play(0, T("5-6"),
                                                         rules.AttachmentPoint.parse("5-5:5")))

    assert row(match) == (RoundEnd.DOMINO, 0, True, None, None, False)
    assert match_engine(match).phase == "start"
    assert_log_agrees_with_rows(match)
    round_start(match=match, starter=1)  # nothing to settle first
    # undo: the next round's start, then the going out, which unsettles the round
    event_undo(match=match)
    event_undo(match=match)
    assert row(match) == (RoundEnd.NONE, None, False, None, None, False)
    assert match_engine(match).phase == "play"
    assert_log_agrees_with_rows(match)


def test_a_blocked_called_fives_and_threes_round_is_settled_with_no_count():
    match = fives_and_threes()
    round_start(match=match, starter=None, mode=RoundMode.CALLED)
    event_record(match=match, action=rules.Call(0, ends("6-6", "3")))

    change = round_settle(match=match, result=rules.RoundEnd.BLOCKED)

    assert change.action == {"settle": {"hands": None, "pips": None, "result": "blocked",
                                        "domino_seat": None}}
    assert change.description == "the round's result"
    assert row(match) == (RoundEnd.BLOCKED, None, True, None, None, True)
    assert match_engine(match).phase == "start"
    assert match_summary(match)["rounds"][0]["settlement"] == [0, 0]
    assert_log_agrees_with_rows(match)


def test_a_count_for_a_settled_fives_and_threes_round_is_checked_and_kept():
    match = fives_and_threes()
    round_start(match=match, starter=None, mode=RoundMode.CALLED)
    event_record(match=match, action=rules.Call(0, ends("6-6", "3")))
    event_record(match=match, action=rules.Call(1, ends("4", "2"), goes_out=True))
    assert row(match) == (RoundEnd.DOMINO, 1, True, None, None, False)
    before = snapshot(match)

    with pytest.raises(rules.RulesError) as wrong:
        round_settle(match=match, pips=(3, 0), result=rules.RoundEnd.DOMINO,
                              domino_seat=0)
    assert str(wrong.value) == "Taras went out with the last call; the result must say so"
    with pytest.raises(rules.HandsMismatch) as holds:
        round_settle(match=match, pips=(3, 5))
    assert str(holds.value) == "pips: Taras went out and cannot hold 5 pips"
    assert snapshot(match) == before

    change = round_settle(match=match, pips=(3, 0))

    # stored as the rows give it back: a called round's count names its result
    assert change.action["settle"] == {"hands": None, "pips": [3, 0], "result": "domino",
                                       "domino_seat": 1}
    assert row(match) == (RoundEnd.DOMINO, 1, True, None, [3, 0], False)
    assert list(match.sides.order_by("index").values_list("score", flat=True)) == [8, 3]
    assert_log_agrees_with_rows(match)
    event_undo(match=match)  # only the count goes: the round stays settled
    assert row(match) == (RoundEnd.DOMINO, 1, True, None, None, False)
    assert_log_agrees_with_rows(match)


def test_a_count_given_after_a_called_block_is_kept_apart_from_it():
    match = fives_and_threes()
    round_start(match=match, starter=None, mode=RoundMode.CALLED)
    event_record(match=match, action=rules.Call(0, ends("6-6", "3")))
    round_settle(match=match, result=rules.RoundEnd.BLOCKED)

    round_settle(match=match, pips=(4, 9))

    assert row(match) == (RoundEnd.BLOCKED, None, True, None, [4, 9], True)
    assert_log_agrees_with_rows(match)
    event_undo(match=match)  # the count
    assert row(match) == (RoundEnd.BLOCKED, None, True, None, None, True)
    assert_log_agrees_with_rows(match)
    event_undo(match=match)  # the block
    assert row(match) == (RoundEnd.NONE, None, False, None, None, False)
    assert_log_agrees_with_rows(match)


def test_a_fives_and_threes_record_without_counts_is_stored_settled():
    document = {"format": "domino-match/1", "game": "fives-and-threes",
                "players": ["Olena", "Taras"], "options": {"hand_size": 2}, "rounds": [
                    {"starter": 0, "events": [
                        {"seat": 0, "play": "5-5"}, {"seat": 1, "play": "0-5", "at": "5-5:5"},
                        {"seat": 0, "play": "5-6", "at": "5-5:5"}]},
                    {"mode": "ends", "events": [{"seat": 1, "ends": ["6-6"]}],
                     "result": {"blocked": True}}]}

    match = match_import(document=document)

    rounds = list(match.rounds.order_by("number").values_list(
        "end", "settled", "hands", "pips", "result_apart"))
    assert rounds == [(RoundEnd.DOMINO, True, None, None, False),
                      (RoundEnd.BLOCKED, True, None, None, True)]
    assert match_record(match) == document
    assert_log_agrees_with_rows(match)


# -- a called round's result before its count (All Fives) ------------------------------


def called_all_fives() -> Match:
    match = two_player_all_fives()
    round_start(match=match, starter=0, mode=RoundMode.CALLED)
    event_record(match=match, action=rules.Call(0, ends("6-6", "3")))  # 15
    return match


def test_an_all_fives_called_round_takes_its_result_then_its_count():
    match = called_all_fives()

    round_settle(match=match, result=rules.RoundEnd.DOMINO, domino_seat=1)

    assert row(match) == (RoundEnd.DOMINO, 1, False, None, None, True)
    engine = match_engine(match)
    assert engine.phase == "settle" and engine.required_starter() == 1  # once it is settled
    assert match_summary(match)["rounds"][0]["finisher"] == 1
    assert_log_agrees_with_rows(match)
    with pytest.raises(rules.RoundOver):
        round_start(match=match, starter=1)

    change = round_settle(match=match, pips=(12, 0))

    assert change.action["settle"] == {"hands": None, "pips": [12, 0], "result": "domino",
                                       "domino_seat": 1}
    assert change.description == "the round's settlement"
    assert row(match) == (RoundEnd.DOMINO, 1, True, None, [12, 0], True)
    assert list(match.sides.order_by("index").values_list("score", flat=True)) == [15, 10]
    assert match_engine(match).required_starter() == 1
    assert match_record(match)["rounds"][0] == {
        "mode": "ends", "starter": 0, "events": [{"seat": 0, "ends": ["6-6", "3"]}],
        "result": {"domino": 1}, "pips": [12, 0]}
    assert_log_agrees_with_rows(match)


def test_undo_and_restore_step_through_a_called_rounds_result_and_count():
    match = called_all_fives()
    round_settle(match=match, result=rules.RoundEnd.DOMINO, domino_seat=1)
    round_settle(match=match, pips=(12, 0))
    match.refresh_from_db()
    counted_at = match.version

    event_undo(match=match)  # the count: the round waits for it again
    assert row(match) == (RoundEnd.DOMINO, 1, False, None, None, True)
    assert_log_agrees_with_rows(match)
    event_undo(match=match)  # the result: the round is open to calls again
    assert row(match) == (RoundEnd.NONE, None, False, None, None, False)
    assert match_engine(match).phase == "play"
    assert_log_agrees_with_rows(match)

    match_restore(match=match, to_version=counted_at - 1, user=site_admin())
    assert row(match) == (RoundEnd.DOMINO, 1, False, None, None, True)
    assert_log_agrees_with_rows(match)
    match_restore(match=match, to_version=counted_at, user=site_admin())
    assert row(match) == (RoundEnd.DOMINO, 1, True, None, [12, 0], True)
    assert_log_agrees_with_rows(match)


def test_a_called_rounds_result_and_count_in_one_tap_stay_one_action():
    match = called_all_fives()

    round_settle(match=match, pips=(12, 0), result=rules.RoundEnd.DOMINO,
                          domino_seat=1)

    assert row(match) == (RoundEnd.DOMINO, 1, True, None, [12, 0], False)
    assert_log_agrees_with_rows(match)
    event_undo(match=match)  # one undo takes back the one tap
    assert row(match) == (RoundEnd.NONE, None, False, None, None, False)
    assert_log_agrees_with_rows(match)


def test_an_imported_match_waiting_for_a_called_rounds_count_goes_on():
    document = {"format": "domino-match/1", "game": "all-fives", "players": ["Olena", "Taras"],
                "options": {}, "rounds": [{"mode": "ends", "events": [
                    {"seat": 0, "ends": ["6-6", "3"]}], "result": {"domino": 1}}]}

    match = match_import(document=document)

    assert row(match) == (RoundEnd.DOMINO, 1, False, None, None, True)
    assert match_engine(match).phase == "settle"
    assert match_record(match) == document
    round_settle(match=match, pips=(12, 0))
    assert row(match) == (RoundEnd.DOMINO, 1, True, None, [12, 0], True)
    assert_log_agrees_with_rows(match)


# -- the change log's codec ------------------------------------------------------------


@pytest.mark.parametrize("settle", [
    rules.Settle(),
    rules.Settle(result=rules.RoundEnd.BLOCKED),
    rules.Settle(result=rules.RoundEnd.DOMINO, domino_seat=1),
    rules.Settle(hands=((), (T("1-2"),)), result=rules.RoundEnd.DOMINO, domino_seat=0),
], ids=["nothing", "blocked", "domino", "hands"])
def test_settle_actions_round_trip_through_the_change_log(settle):
    assert action_from_doc(action_doc(settle)) == settle
