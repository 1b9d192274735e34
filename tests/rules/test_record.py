"""The domino-match/1 format: samples, strict input, called rounds, round trips."""

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.rules import (
    ALL_FIVES,
    FIVE_UP,
    FIVES_AND_THREES,
    FORMAT,
    Call,
    Layout,
    Play,
    RecordInvalid,
    RulesError,
    export,
    iter_documents,
    loads,
    replay,
    summary,
)
from matches.rules.record import MAX_DEPTH, read_json
from matches.rules.simulate import simulated_match, simulated_record

# shared/samples is a sibling of the repository (<parent>/<clone>, <parent>/shared)
SAMPLES = Path(__file__).resolve().parents[3] / "shared" / "samples"
VALID = sorted(p for p in (SAMPLES / "valid").glob("*.json")
               if not p.name.endswith(".expected.json"))
MANIFEST = (json.loads((SAMPLES / "manifest.json").read_text())
            if (SAMPLES / "manifest.json").is_file() else None)
INVALID = MANIFEST["invalid"] if MANIFEST else []
needs_samples = pytest.mark.skipif(MANIFEST is None,
                                   reason=f"the shared sample records are not at {SAMPLES}")


def roundtrip(match):
    """Export, serialise, parse and replay: the match a club would get back."""
    return replay(loads(json.dumps(export(match))))


# -- the shared samples ----------------------------------------------------------------

@needs_samples
def test_the_samples_are_all_here():
    assert MANIFEST is not None
    assert len(VALID) == MANIFEST["count"]["valid"] == 60
    assert len(INVALID) == MANIFEST["count"]["invalid"] == 64


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_sample_replays_to_its_expected_summary(path):
    match = replay(loads(path.read_text()))
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    assert summary(match) == expected  # numbers compared as numbers: 2.5 == 2.5


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_sample_export_round_trips(path):
    match = replay(loads(path.read_text()))
    again = roundtrip(match)
    assert export(again) == export(match)
    assert summary(again) == summary(match)
    assert json.loads(json.dumps(export(again))) == export(match)


@pytest.mark.parametrize("entry", INVALID, ids=lambda e: Path(e["file"]).stem)
def test_invalid_sample_is_refused_with_the_reference_message(entry):
    text = (SAMPLES / entry["file"]).read_bytes()
    with pytest.raises(RecordInvalid) as excinfo:
        replay(loads(text))
    assert isinstance(excinfo.value, RulesError)
    assert str(excinfo.value) == entry["error"]


# -- a small record to bend ------------------------------------------------------------

def base_record():
    return {
        "format": FORMAT,
        "game": "all-fives",
        "players": ["Olena", "Taras"],
        "options": {"hand_size": 2},
        "rounds": [{
            "starter": 0,
            "events": [
                {"seat": 0, "play": "5-5"},
                {"seat": 1, "play": "0-5", "at": "5-5:5", "claim": 10},
                {"seat": 0, "play": "5-6", "at": "5-5:5"},
            ],
            "hands": [[], ["3-4"]],
        }],
    }


def refused(document):
    with pytest.raises(RecordInvalid) as excinfo:
        replay(document)
    return str(excinfo.value)


def test_base_record_replays():
    match = replay(base_record())
    assert match.scores == [10 + 5, 10]
    assert export(match) == base_record()


@pytest.mark.parametrize(("where", "message"), [
    (lambda d: d.update(extra=1), "unknown field 'extra' in the record"),
    (lambda d: d["rounds"][0].update(note="x"), "round 1: unknown field 'note' in a round"),
    (lambda d: d["rounds"][0]["events"][1].update(claims=10),
     "round 1, event 2: unknown field 'claims' in an event"),
    (lambda d: d["rounds"][0]["events"][1].update(seat=True),
     "round 1, event 2: seat must be an integer, not true"),
    (lambda d: d["rounds"][0]["events"][1].update(seat="1"),
     "round 1, event 2: seat must be an integer, not \"1\""),
    (lambda d: d["rounds"][0]["events"][1].pop("seat"), "round 1, event 2: an event needs a seat"),
    (lambda d: d["rounds"][0].update(starter=True), "round 1: starter must be a seat number, "
     "not true"),
    (lambda d: d.update(format="domino-match/2"),
     "format must be 'domino-match/1', not 'domino-match/2'"),
    (lambda d: d.update(format="Domino-Match/1"),
     "format must be 'domino-match/1', not 'Domino-Match/1'"),
    (lambda d: d.pop("format"), "format must be 'domino-match/1', not None"),
    (lambda d: d["options"].update(set="double-six"), "option 'set' does not apply to all-fives"),
    (lambda d: d["options"].update(divisors=[3, 5]),
     "option 'divisors' does not apply to all-fives"),
    (lambda d: d.update(players="Olena, Taras"), "players must be a list of names"),
    (lambda d: d.update(players=["Olena", " "]), "players must be a list of names"),
    (lambda d: d.update(options=[]), "options must be an object"),
    (lambda d: d.update(rounds={}), "rounds must be a list"),
    (lambda d: d["rounds"].__setitem__(0, []), "round 1: a round is an object"),
    (lambda d: d["rounds"][0].update(mode="tracked"),
     "round 1: mode must be 'ends' (a called round) or absent, not 'tracked'"),
    (lambda d: d["rounds"][0].update(events={}), "round 1: events must be a list"),
    (lambda d: d["rounds"][0]["events"][1].update(claim="10"),
     "round 1, event 2: claim must be a number of points, not \"10\""),
    # a null is not an absent key: read as absent, a claim of null would skip its check
    (lambda d: d["rounds"][0]["events"][1].update(claim=None),
     "round 1, event 2: claim must be a number of points, not null"),
    (lambda d: d["rounds"][0]["events"][0].update(at=None),
     "round 1, event 1: null is not an attachment point (write it as c-d:v)"),
    (lambda d: d["rounds"][0].update(mode=None),
     "round 1: mode must be 'ends' (a called round) or absent, not null"),
    (lambda d: d["rounds"][0].update(starter=None),
     "round 1: starter must be a seat number, not null"),
    (lambda d: d["rounds"][0]["events"][1].update(play="٥-٦"),
     "round 1, event 2: '٥-٦' is not a tile (write it as a-b)"),
    (lambda d: d["rounds"][0]["events"][1].update(claim=2.5),
     "round 1, event 2: claim 2.5 differs from the 10 the rules give (end sum 10)"),
    (lambda d: d["rounds"][0]["events"][1].update(draw=1),
     "round 1, event 2: an event is exactly one of play, draw or pass"),
    (lambda d: d["rounds"][0]["events"].insert(1, {"seat": 1, "draw": 1, "at": "5-5:5"}),
     "round 1, event 2: draw takes no at"),
    (lambda d: d["rounds"][0]["events"].insert(1, {"seat": 1, "draw": 0}),
     "round 1, event 2: draw must be a whole number of tiles from 1, not 0"),
    (lambda d: d["rounds"][0]["events"].insert(1, {"seat": 1, "pass": False}),
     "round 1, event 2: pass must be true, not false"),
    (lambda d: d["rounds"][0]["events"].__setitem__(1, "0-5"),
     "round 1, event 2: an event is an object"),
    (lambda d: d["rounds"][0].update(hands=[[], ["3-4"]], pips=[0, 7]),
     "round 1: give hands or pips, not both"),
    (lambda d: d["rounds"][0].update(hands=[[], "3-4"]),
     "round 1: hands must be a list of tile lists, one per seat"),
    (lambda d: d["rounds"][0].update(hands=[[], ["3-x"]]),
     "round 1: hands: '3-x' is not a tile (write it as a-b)"),
    (lambda d: d["rounds"][0].update(hands=[[], ["[7|3]"]]),
     "round 1: hands: seat 1 shows 3-7, which is not in the double-six set"),
    (lambda d: d["options"].update(hand_size=15),
     "option hand_size must be a positive integer with hand_size x 2 players <= 28 tiles, "
     "not 15"),
    (lambda d: d["rounds"][0].pop("hands") and d["rounds"][0].update(pips=[0, 7.0]),
     "round 1: pips: 7.0 is not a whole number"),
    (lambda d: d["rounds"][0]["events"].pop(), "round 1: the round has not ended; hands and "
     "pips are refused"),
    (lambda d: d["rounds"].append({"starter": 1, "events": []}),
     "round 2: seat 0 placed the last tile of round 1 and must start, not seat 1"),
])
def test_strict_input(where, message):
    document = base_record()
    where(document)
    assert refused(document) == message


def test_the_documented_example_replays():
    """The example of match-record.md: an All Fives match still in its first round."""
    document = {
        "format": "domino-match/1", "game": "all-fives",
        "players": ["Olena", "Taras", "Iryna", "Bohdan"], "options": {},
        "rounds": [{"starter": 0, "events": [
            {"seat": 0, "play": "5-5"},
            {"seat": 1, "play": "0-5", "at": "5-5:5", "claim": 10},
            {"seat": 2, "draw": 2},
            {"seat": 2, "play": "5-6", "at": "5-5:5"},
            {"seat": 3, "draw": 1},
            {"seat": 3, "play": "4-6", "at": "5-6:6"}]}],
    }
    match = replay(document)
    assert match.status == "in-progress" and match.scores == [10 + 0, 10]
    assert match.current_round is not None
    assert [a.end_sum for a in match.current_round.awards if a] == [10, 10, 6, 4]
    assert export(match) == document
    result = summary(match)
    assert result["sides"] == [{"seats": [0, 2]}, {"seats": [1, 3]}]
    assert result["rounds"] == [{"placements": [10, 10], "settlement": [0, 0],
                                 "finisher": None, "blocked": False, "scores": [10, 10]}]


def test_a_record_is_a_json_object():
    with pytest.raises(RecordInvalid, match="^a match record is a JSON object$"):
        loads("[1, 2]")
    with pytest.raises(RecordInvalid, match="^a match record is a JSON object$"):
        replay([])  # type: ignore[arg-type]
    with pytest.raises(RecordInvalid, match="^not valid JSON: "):
        loads(b"\xff\xfe{")


def test_recordinvalid_locates_the_fault():
    document = base_record()
    document["rounds"][0]["events"][2]["play"] = "5-5"
    with pytest.raises(RecordInvalid) as excinfo:
        replay(document)
    error = excinfo.value
    assert (error.round, error.event) == (1, 3)
    assert error.reason == "tile 5-5 is already on the table"
    assert str(error) == "round 1, event 3: tile 5-5 is already on the table"


def test_an_unfinished_last_round_is_in_progress():
    document = base_record()
    document["rounds"][0]["events"].pop()
    document["rounds"][0].pop("hands")
    match = replay(document)
    assert match.status == "in-progress" and match.phase == "play"
    assert summary(match)["rounds"][0]["finisher"] is None
    assert export(match) == document


def test_an_ended_last_round_without_hands_waits_for_them():
    document = base_record()
    document["rounds"][0].pop("hands")
    match = replay(document)
    assert match.phase == "settle" and match.status == "in-progress"


# -- called rounds ---------------------------------------------------------------------

def called(game="all-fives", events=(), result=None, players=2, **round_fields):
    doc = {"mode": "ends", "events": list(events), **round_fields}
    if result is not None:
        doc["result"] = result
    return {"format": FORMAT, "game": game, "players": ["A", "B", "C", "D"][:players],
            "options": {}, "rounds": [doc]}


def followed(document):
    """``document`` with one more round after its first: the first is no longer the last."""
    document["rounds"].append({"mode": "ends", "events": []})
    return document


def test_called_round_sums_the_ends_and_checks_the_claim():
    match = replay(called(events=[{"seat": 0, "ends": ["6-6", "3"], "claim": 15},
                                  {"seat": 1, "ends": ["2-2", "1"]}],
                          result={"domino": 0}, pips=[0, 13]))
    assert match.scores == [15 + 15, 5]
    document = called(events=[{"seat": 0, "ends": ["6-6", "3"], "claim": 10}],
                      result={"domino": 0}, pips=[0, 13])
    assert refused(document) == ("round 1, event 1: claim 10 differs from the 15 the rules "
                                 "give (end sum 15)")


def test_called_round_export_round_trips():
    document = called(events=[{"seat": 0, "ends": ["6-6", "3"], "claim": 15},
                              {"seat": 1, "ends": ["0", "5"]}], result={"blocked": True},
                      pips=[10, 20])
    match = replay(document)
    assert export(match)["rounds"] == document["rounds"]
    assert summary(roundtrip(match)) == summary(match)


@pytest.mark.parametrize(("document", "message"), [
    (called(events=[{"seat": 0, "ends": ["1", "1", "1", "1", "1"]}], result={"blocked": True},
            pips=[1, 1]), "round 1, event 1: all-fives has at most 4 scoring ends, not 5"),
    (called("fives-and-threes", events=[{"seat": 0, "ends": ["1", "1", "1"]}],
            result={"blocked": True}, pips=[1, 1]),
     "round 1, event 1: fives-and-threes has at most 2 scoring ends, not 3"),
    (called(events=[{"seat": 0, "ends": ["7"]}], result={"blocked": True}, pips=[1, 1]),
     "round 1, event 1: 7 is not a value of the double-six set"),
    (called(events=[{"seat": 0, "ends": ["x"]}], result={"blocked": True}, pips=[1, 1]),
     "round 1, event 1: 'x' is not a tile (write it as a-b)"),
    (called(events=[{"seat": 0, "ends": ["0-0", "0-0"]}], result={"blocked": True},
            pips=[1, 1]),
     "round 1, event 1: end 0-0 is listed twice: the set has one 0-0"),
    (called(events=[{"seat": 0, "ends": ["5"]}, {"seat": 1, "ends": ["6-6", "3", "[6|6]"]}],
            result={"blocked": True}, pips=[1, 1]),
     "round 1, event 2: end 6-6 is listed twice: the set has one 6-6"),
    (called(events=[{"seat": 0, "ends": ["2", "7-7"]}], result={"blocked": True},
            pips=[1, 1]),
     "round 1, event 1: end '7-7' is not a double of the set"),
    (called(result={"blocked": True}, hands=[["6-7"], ["1-1"]],
            events=[{"seat": 0, "ends": ["6-6"]}]),
     "round 1: hands: seat 0 shows 6-7, which is not in the double-six set"),
    (called(events=[{"seat": 0, "ends": "5"}], result={"blocked": True}, pips=[1, 1]),
     "round 1, event 1: a called placement lists its scoring ends (\"ends\")"),
    (called(events=[{"seat": 0, "ends": ["5"], "play": "0-5"}], result={"blocked": True}),
     "round 1, event 1: unknown field 'play' in an event"),
    (called(result={"domino": True}, pips=[0, 1]),
     "round 1: result must be {\"domino\": seat} or {\"blocked\": true}, not "
     "{\"domino\": true}"),
    (called(result={"domino": 5}, pips=[0, 1]), "round 1: result: seat 5 is not at this table"),
    (called(events=[{"seat": 0, "ends": ["5"]}], result=None) | {"rounds": [
        {"mode": "ends", "events": [{"seat": 0, "ends": ["5"]}], "result": None}]},
     "round 1: result must be {\"domino\": seat} or {\"blocked\": true}, not null"),
    (called(events=[{"seat": 0, "ends": ["5"], "claim": None}]),
     "round 1, event 1: claim must be a number of points, not null"),
    (followed(called(events=[{"seat": 0, "ends": ["5"]}], result={"domino": 0})),
     "round 1: the round ended (domino); its hands or pips are required"),
    (called(events=[{"seat": 0, "ends": ["5"]}], pips=[0, 1]),
     "round 1: the round has not ended; hands and pips are refused"),
    (called("fives-and-threes", events=[{"seat": 0, "ends": ["5"]}], result={"domino": 1},
            pips=[1, 0]),
     "round 1, event 1: the round ended with seat 1's domino, so the last call must be that "
     "seat's going-out placement, not seat 0's"),
    (called("fives-and-threes", result={"domino": 1}, pips=[1, 0]),
     "round 1: a called round that ends in a domino lists the going-out placement last"),
    (called(result={"blocked": True}, hands=[["1-1"], []], events=[{"seat": 0, "ends": ["6-6"]}]),
     "round 1: hands: seat 1 did not go out, so holds at least one tile"),
    (called(result={"blocked": True}, hands=[["6-6"], ["1-1"]],
            events=[{"seat": 0, "ends": ["6-6"]}]),
     "round 1: hands: seat 0 shows 6-6, which is on the table"),
])
def test_called_round_refusals(document, message):
    assert refused(document) == message


def test_called_fives_and_threes_going_out_gets_the_bonus():
    document = called("fives-and-threes", events=[{"seat": 0, "ends": ["6-6", "3"]},
                                                 {"seat": 1, "ends": ["4", "2"], "claim": 3}],
                      result={"domino": 1}, pips=[7, 0])
    match = replay(document)
    assert match.scores == [8, 3]  # 15 → 8; 6 → 2 + 1 for going out
    assert match.current_round is not None and match.current_round.finisher == 1


def last_call(match) -> Call:
    """The last event of the match's first round, a called placement."""
    event = match.rounds[0].events[-1]
    assert isinstance(event, Call)
    return event


def called_from_notation(game, placements, **options):
    """A called record of one round whose placements are tracked notation, each with its
    seat (``"1:0-5@5-5:5"``): every scoring placement is called with the ends the layout
    shows after it, so the round is the one the notation plays."""
    layout, events = Layout(game.policy), []
    for step in placements:
        seat, _, notation = step.partition(":")
        before = layout.notation()
        layout = Layout.from_notation(f"{before} {notation}", game.policy)
        if game.placement_points(layout.end_sum):
            events.append({"seat": int(seat), "ends": [str(end) for end in layout.scoring_ends()]})
    return {"format": FORMAT, "game": game.slug, "players": ["Olena", "Taras"],
            "options": options, "rounds": [{"mode": "ends", "events": events}]}


# All Fives to 15: Taras goes out with 0-1 (ends 4 + 1), which takes him from 10 to 15
WON_GOING_OUT = ["0:5-5", "1:0-5@5-5:5", "0:5-6@5-5:5", "1:1-6@5-6:6", "0:1-4@1-6:1",
                 "1:0-1@0-5:0"]


def test_a_called_round_won_by_the_seats_last_tile_has_that_seat_as_finisher():
    document = called_from_notation(ALL_FIVES, WON_GOING_OUT, target=15)
    assert document["rounds"][0]["events"][-1] == {"seat": 1, "ends": ["4", "1"]}
    document["rounds"][0]["result"] = {"domino": 1}

    match = replay(document)

    assert (match.winner, match.scores) == (1, [10, 15])
    [rnd] = summary(match)["rounds"]
    assert (rnd["finisher"], rnd["blocked"], rnd["settlement"]) == (1, False, [0, 0])
    assert match.rounds[0].won_here and last_call(match).goes_out
    assert export(match) == document  # the result is kept: the round ended by domino
    assert summary(roundtrip(match)) == summary(match)


def test_a_called_round_won_without_a_result_has_no_finisher():
    document = called_from_notation(ALL_FIVES, WON_GOING_OUT, target=15)
    match = replay(document)
    assert match.winner == 1 and summary(match)["rounds"][0]["finisher"] is None
    assert not last_call(match).goes_out
    assert export(match) == document


@pytest.mark.parametrize("result", [{"domino": 0}, {"blocked": True}])
def test_a_called_round_won_mid_round_takes_no_other_result(result):
    document = called_from_notation(ALL_FIVES, WON_GOING_OUT, target=15)
    document["rounds"][0]["result"] = result
    assert refused(document) == (
        "round 1: the match was won with seat 1's placement during this round: its result "
        "can only be seat 1's domino (the winning tile was the last), or none")


def test_a_called_rounds_last_call_is_not_read_as_going_out_unless_it_wins():
    # the same round to 250: Taras's 0-1 wins nothing, and his going out may have been a
    # later tile that scored nothing, so only the result says who went out
    document = called_from_notation(ALL_FIVES, WON_GOING_OUT)
    document["rounds"][0].update(result={"domino": 1}, pips=[9, 0])
    match = replay(document)
    assert not last_call(match).goes_out
    assert summary(match)["rounds"][0]["finisher"] == 1 and match.scores == [10, 15 + 10]
    assert export(match) == document


# -- rounds without a count: Fives and Threes, and a called round's result alone -------

def fives_and_threes_record(options=None, **first_round):
    """Two tracked rounds of two tiles each: seat 0 goes out (5-5, 0-5, 5-6), then 6-6 and
    a block. No hands or pips unless ``first_round`` gives them."""
    return {"format": FORMAT, "game": "fives-and-threes", "players": ["Olena", "Taras"],
            "options": {"hand_size": 2, **(options or {})}, "rounds": [
                {"starter": 0, "events": [{"seat": 0, "play": "5-5"},
                                          {"seat": 1, "play": "0-5", "at": "5-5:5"},
                                          {"seat": 0, "play": "5-6", "at": "5-5:5"}],
                 **first_round},
                {"starter": 1, "events": [{"seat": 1, "play": "6-6"}, {"seat": 0, "pass": True},
                                          {"seat": 1, "pass": True}]}]}


def test_fives_and_threes_rounds_need_no_count():
    document = fives_and_threes_record()
    match = replay(document)
    assert match.status == "in-progress" and match.phase == "start"
    assert summary(match)["rounds"] == [
        {"placements": [5, 2], "settlement": [0, 0], "finisher": 0, "blocked": False,
         "scores": [5, 2]},
        {"placements": [0, 4], "settlement": [0, 0], "finisher": None, "blocked": True,
         "scores": [5, 6]}]
    assert export(match) == document  # no count is made up
    assert summary(roundtrip(match)) == summary(match)


def test_fives_and_threes_count_is_checked_kept_and_changes_nothing():
    counted = fives_and_threes_record(hands=[[], ["1-1"]])
    match = replay(counted)
    assert export(match) == counted
    assert summary(match) == summary(replay(fives_and_threes_record()))
    assert refused(fives_and_threes_record(hands=[[], ["1-1", "2-2"]])) == \
        "round 1: hands: seat 1 shows 2 tiles but holds 1"
    assert refused(fives_and_threes_record(pips=[0, 60])) == \
        "round 1: pips: no unseen tile adds up to 60 (seat 1)"
    assert refused(fives_and_threes_record(hands=[[], ["1-1"]], pips=[0, 2])) == \
        "round 1: give hands or pips, not both"


@pytest.mark.parametrize("count", [{}, {"pips": [0, 2]}])
def test_fives_and_threes_match_won_at_the_settlement_may_give_its_count(count):
    # immediate end off: the 5 seat 0 has after its going out is checked after the round
    document = fives_and_threes_record({"immediate_end": False, "target": 5}, **count)
    document["rounds"].pop()
    match = replay(document)
    assert (match.status, match.winner) == ("finished", 0)
    assert not match.rounds[0].won_here and match.rounds[0].settled
    assert export(match) == document
    followed_by_more = fives_and_threes_record({"immediate_end": False, "target": 5}, **count)
    assert refused(followed_by_more) == "round 2: the match was already won; no round may follow"


def test_fives_and_threes_round_won_during_play_refuses_a_count():
    document = fives_and_threes_record({"target": 5}, pips=[0, 2])  # immediate end: at once
    document["rounds"].pop()
    assert refused(document) == ("round 1: the match was won during this round; hands and "
                                 "pips are refused")


def test_fives_and_threes_called_rounds_need_no_count():
    document = called("fives-and-threes", events=[{"seat": 0, "ends": ["6-6", "3"]}],
                      result={"blocked": True})
    document["rounds"].append({"mode": "ends", "events": [
        {"seat": 1, "ends": ["4", "2"]}], "result": {"domino": 1}})
    match = replay(document)
    assert match.phase == "start" and match.scores == [8, 3]
    assert [r["finisher"] for r in summary(match)["rounds"]] == [None, 1]
    assert export(match) == document
    document["rounds"][1]["hands"] = [["0-0"], ["1-2"]]
    assert refused(document) == "round 2: hands: seat 1 shows 1 tiles, but went out"


@pytest.mark.parametrize("game", ["all-fives", "five-up"])
@pytest.mark.parametrize(("result", "finisher", "blocked", "pips"), [
    ({"domino": 1}, 1, False, [12, 0]), ({"blocked": True}, None, True, [12, 9])])
def test_a_called_last_round_with_its_result_but_no_count_waits_for_it(game, result, finisher,
                                                                         blocked, pips):
    document = called(game, events=[{"seat": 0, "ends": ["6-6", "3"]}], result=result)
    match = replay(document)
    assert match.status == "in-progress" and match.phase == "settle"
    [rnd] = summary(match)["rounds"]
    assert (rnd["finisher"], rnd["blocked"], rnd["settlement"]) == (finisher, blocked, [0, 0])
    assert export(match) == document  # the result, and no count
    # the count comes later, as a second settle action; the record holds them as one
    match.settle(pips=pips)
    assert export(match)["rounds"][0] == {**document["rounds"][0], "pips": pips}
    assert summary(roundtrip(match)) == summary(match) and match.phase == "start"


# -- .jsonl ----------------------------------------------------------------------------

def test_jsonl_with_one_malformed_line_yields_an_error_for_that_line_only():
    good = json.dumps(base_record())
    text = "\n".join([good, "", "{\"format\": ", "   ", good, "[]"]) + "\n"
    results = list(iter_documents(text, lines=True))
    assert len(results) == 4
    assert isinstance(results[0], dict) and isinstance(results[2], dict)
    assert isinstance(results[1], RecordInvalid)
    assert str(results[1]).startswith("not valid JSON: ")
    assert isinstance(results[3], RecordInvalid)
    assert str(results[3]) == "a match record is a JSON object"
    assert summary(replay(results[0])) == summary(replay(results[2]))


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_a_jsonl_line_is_ended_by_a_newline_only_not_by_a_unicode_separator_in_a_string(
        separator):
    record = {**base_record(), "players": [f"Ol{separator}ena", "Taras"]}
    text = json.dumps(record, ensure_ascii=False) + "\r\n" + json.dumps(base_record())

    assert list(iter_documents(text, lines=True)) == [record, base_record()]
    # an old Mac's line end, which JSON never holds inside a string, still ends one
    assert list(iter_documents(text.replace("\r\n", "\r"), lines=True)) == [
        record, base_record()]


def test_json_file_is_one_document():
    assert list(iter_documents(json.dumps(base_record()), lines=False)) == [base_record()]
    [error] = list(iter_documents("{", lines=False))
    assert isinstance(error, RecordInvalid)


# -- properties over simulated matches -------------------------------------------------

CONFIGS = [
    (ALL_FIVES, 2, None), (ALL_FIVES, 3, None), (ALL_FIVES, 4, None),
    (FIVE_UP, 2, {"target": 21}), (FIVE_UP, 3, {"target": 21}), (FIVE_UP, 4, {"target": 21}),
    (FIVES_AND_THREES, 2, None), (FIVES_AND_THREES, 5, {"deal": "short"}),
    (FIVES_AND_THREES, 4, {"set": "double-nine", "drawing": True}),
    (FIVES_AND_THREES, 7, {"set": "double-twelve", "divisors": [3, 5, 7, 11, 13]}),
    (FIVES_AND_THREES, 3, {"immediate_end": False, "target": 41}),
]
configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32)
PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def _exact(value):
    return type(value) is int or (type(value) is Fraction and value.denominator <= 2)


@PROPERTY
@given(config=configs, seed=seeds, pips=st.booleans(), finish=st.booleans())
def test_export_then_import_gives_the_same_record_and_summary(config, seed, pips, finish):
    game, players, options = config
    document = simulated_record(game, players, seed=seed, options=options, pips=pips,
                                finish=finish, max_rounds=40)
    text = json.dumps(document)
    match = replay(loads(text))
    assert export(match) == document
    assert summary(replay(loads(json.dumps(export(match))))) == summary(match)


def _stripped(document):
    """The record with every round's hands and pips taken out."""
    stripped = copy.deepcopy(document)
    for rnd in stripped["rounds"]:
        rnd.pop("hands", None)
        rnd.pop("pips", None)
    return stripped


@PROPERTY
@given(config=st.sampled_from([c for c in CONFIGS if c[0] is FIVES_AND_THREES]), seed=seeds,
       pips=st.booleans(), finish=st.booleans())
def test_fives_and_threes_without_its_counts_replays_to_the_same_summary(config, seed, pips,
                                                                          finish):
    game, players, options = config
    document = simulated_record(game, players, seed=seed, options=options, pips=pips,
                                finish=finish, max_rounds=40)
    stripped = _stripped(document)
    match = replay(stripped)
    assert summary(match) == summary(replay(document))
    assert export(match) == stripped


@PROPERTY
@given(config=configs, seed=seeds)
def test_scores_stay_exact(config, seed):
    game, players, options = config
    match = simulated_match(game, players, seed=seed, options=options, max_rounds=40)
    values = list(match.scores)
    for rnd in match.rounds:
        values += list(rnd.scores) + list(rnd.placements)
        if rnd.settlement:
            values += list(rnd.settlement.awards)
        values += [award.counted for award in rnd.awards if award is not None]
    assert all(_exact(value) for value in values), values
    for number in json.loads(json.dumps(summary(match)))["scores"]:
        assert isinstance(number, int) or (number * 2).is_integer()


def _mutate(document, rng):
    """Change one thing at a random event: a tile, a seat, a point, a claim, a drop."""
    rounds = [r for r in document["rounds"] if r["events"]]
    rnd = rng.choice(rounds)
    index = rng.randrange(len(rnd["events"]))
    event = rnd["events"][index]
    kind = rng.choice(["tile", "seat", "at", "claim", "drop", "swap", "junk", "hands", "dup"])
    if kind == "tile" and "play" in event:
        event["play"] = f"{rng.randrange(8)}-{rng.randrange(8)}"
    elif kind == "seat":
        event["seat"] = rng.choice([event["seat"] + 1, -1, 99, True, "0", None])
    elif kind == "at" and "play" in event:
        event["at"] = rng.choice(["0-0:0", "6-6:6", "1-2:3", "x", 5, None])
    elif kind == "claim":
        event["claim"] = rng.choice([event.get("claim", 0) or 0, 1, 2.5, -5, "7", [1], 3.3])
    elif kind == "drop":
        del rnd["events"][index]
    elif kind == "swap" and index + 1 < len(rnd["events"]):
        rnd["events"][index], rnd["events"][index + 1] = rnd["events"][index + 1], event
    elif kind == "junk":
        rnd["events"][index] = rng.choice([{}, [], 5, {"seat": 0}, {"seat": 0, "draw": 1.5},
                                          {"seat": 0, "pass": True, "play": "1-1"}])
    elif kind == "hands" and "hands" in rnd:
        hands = rnd["hands"]
        seat = rng.randrange(len(hands))
        hands[seat] = hands[seat][1:] + [rng.choice(["6-6", "0-0", "3-4", "9-9"])]
    elif kind == "dup":
        rnd["events"].insert(index, copy.deepcopy(event))
    else:
        event["seat"] = (event["seat"] + 1) if type(event["seat"]) is int else 0


@PROPERTY
@given(config=configs, seed=seeds, rng=st.randoms(use_true_random=False))
def test_a_mutated_record_is_refused_whole_or_replays(config, seed, rng):
    game, players, options = config
    document = simulated_record(game, players, seed=seed, options=options, max_rounds=30)
    original = copy.deepcopy(document)
    expected = summary(replay(document))
    mutated = copy.deepcopy(document)
    _mutate(mutated, rng)
    try:
        match = replay(mutated)
    except RecordInvalid as error:
        assert str(error)
        if error.round is not None:
            assert 1 <= error.round <= len(mutated["rounds"])
    else:
        # accepted: then it is a legal record in its own right and round-trips
        assert summary(roundtrip(match)) == summary(match)
    # replay is functional: the original is untouched and still gives the same result
    assert document == original
    assert summary(replay(document)) == expected


# any JSON value: what a hand-edited or foreign record may hold where a field should be
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats()
    | st.text(max_size=6) | st.sampled_from(["3-5", "3-5:5", "6-6", "5", "ends", "double-nine"]),
    lambda children: (st.lists(children, max_size=3)
                      | st.dictionaries(st.text(max_size=6), children, max_size=3)),
    max_leaves=4)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, (*path, key))
    elif isinstance(node, list):
        for index, child in enumerate(node):
            yield from _paths(child, (*path, index))


@settings(PROPERTY, max_examples=200)
@given(config=configs, seed=seeds, data=st.data())
def test_any_value_anywhere_is_refused_as_invalid_or_replays(config, seed, data):
    # Nothing but RecordInvalid may escape: a TypeError here would be a 500 on the import
    # page (and the compiled engine checks its arguments' types at every call).
    game, players, options = config
    # a copy: the record shares its options with CONFIGS
    document = copy.deepcopy(simulated_record(game, players, seed=seed, options=options,
                                              max_rounds=3))
    by_depth: dict[int, list[tuple[str | int, ...]]] = {}
    for path in list(_paths(document))[1:]:
        by_depth.setdefault(len(path), []).append(path)
    # each depth as likely as any other: the record's own fields are few, events many
    depth = data.draw(st.sampled_from(sorted(by_depth)))
    *parents, last = data.draw(st.sampled_from(by_depth[depth]))
    holder = document
    for key in parents:
        holder = holder[key]
    holder[last] = data.draw(JSON_VALUES)
    try:
        replay(document)
    except RecordInvalid as error:
        assert str(error)


def _called(match):
    """The simulated (tracked) ``match`` as a table calling its rounds would record it:
    each placement that scores (and in Fives and Threes the going-out one, which always
    has its bonus) with the ends it left, the round's result, and its pips."""
    rounds = []
    for rnd in match.rounds:
        layout, events = Layout(match.game.policy), []
        for event, award in zip(rnd.events, rnd.awards, strict=True):
            if not isinstance(event, Play):
                continue
            layout.put(event.tile, event.at)
            if award is not None and award.announced:
                events.append({"seat": event.seat,
                               "ends": [str(end) for end in layout.scoring_ends()]})
        doc: dict[str, Any] = {"mode": "ends", "events": events}
        if rnd.end is not None:
            doc["result"] = {"domino": rnd.finisher} if rnd.finisher is not None \
                else {"blocked": True}
        if rnd.pips is not None:
            doc["pips"] = list(rnd.pips)
        rounds.append(doc)
    return {"format": FORMAT, "game": match.game.slug, "players": list(match.names),
            "options": dict(match.options.given), "rounds": rounds}


# small hands and near targets: rounds often end, and matches are often won, by the
# last tile of a hand
CALLED_CONFIGS = [
    (ALL_FIVES, 2, {"hand_size": 3, "target": 30}), (ALL_FIVES, 3, {"hand_size": 2, "target": 20}),
    (ALL_FIVES, 4, {"hand_size": 2, "target": 25}), (FIVE_UP, 2, {"hand_size": 3, "target": 8}),
    (FIVES_AND_THREES, 2, {"hand_size": 3, "target": 9}),
    (FIVES_AND_THREES, 3, {"hand_size": 2, "target": 7, "immediate_end": False}),
]


@PROPERTY
@given(config=st.sampled_from(CALLED_CONFIGS), seed=seeds)
def test_a_called_round_whose_last_placement_empties_the_hand_has_that_seat_as_finisher(
        config, seed):
    game, players, options = config
    tracked = simulated_match(game, players, seed=seed, options=options, max_rounds=20)
    document = _called(tracked)

    match = replay(loads(json.dumps(document)))

    # the seat that placed each round's last tile, a winning one included, as tracked
    assert [rnd["finisher"] for rnd in summary(match)["rounds"]] == [
        rnd.finisher for rnd in tracked.rounds]
    assert summary(match) == summary(tracked)
    assert export(match) == document
    assert summary(roundtrip(match)) == summary(match)


# -- what is refused before a replay: nesting no record has, and NUL characters ----------


def _nested(depth: int) -> str:
    """A record whose deepest list sits ``depth`` levels down (the record is level 1)."""
    return '{"format": "domino-match/1", "x": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"


def test_a_record_nesting_as_deep_as_allowed_is_read_and_one_level_more_refused():
    assert loads(_nested(MAX_DEPTH))["format"] == "domino-match/1"
    with pytest.raises(RecordInvalid) as refused:
        loads(_nested(MAX_DEPTH + 1))
    assert refused.value.code == "record_too_deep"


@pytest.mark.parametrize("text", [
    '{"players": ["A\\u0000B"]}',  # in a list
    '{"rounds": [{"events": [{"seat": 0, "play": "5-\\u00005"}]}]}',  # deep in an object
    '{"na\\u0000me": 1}',  # in a key
    '{"a": {"b": "\\u0000"}}',
])
def test_a_nul_character_anywhere_in_a_record_is_refused(text):
    with pytest.raises(RecordInvalid) as refused:
        loads(text)
    assert refused.value.code == "record_nul"


@pytest.mark.parametrize("text", [
    '{"players": ["Bad\\ud800", "x"]}',  # a high half alone
    '{"players": ["x", "\\uDC00y"]}',  # a low half alone, in capitals
    '{"n\\udbffame": 1}',  # in a key
    '{"a": ["\\ude00\\ud83d"]}',  # both halves, the wrong way round
])
def test_half_a_character_anywhere_in_a_record_is_refused(text):
    """JSON reads an escape of one UTF-16 surrogate into a text no UTF-8 holds: stored or
    hashed, it would fail the whole batch it came in."""
    for written in (text, text.encode()):
        with pytest.raises(RecordInvalid) as refused:
            loads(written)
        assert refused.value.code == "record_surrogate"
        assert str(refused.value) == (
            "a text in the record holds half of a character (an escape from \\ud800 to "
            "\\udfff without its other half), which cannot be stored")


def test_a_character_escaped_as_its_two_halves_is_read():
    assert loads('{"players": ["\\ud83d\\ude00 Ann", "\\\\ud800"]}')["players"] == [
        "\U0001f600 Ann", "\\ud800"]


@pytest.mark.parametrize(("text", "code"), [('"\\u0000"', "record_nul"), ("7", None),
                                             ('"plain"', None)])
def test_any_json_read_as_a_record_is_refused_a_nul_at_the_top_too(text, code):
    if code is None:
        assert read_json(text) == json.loads(text)
        return
    with pytest.raises(RecordInvalid) as refused:
        read_json(text)
    assert refused.value.code == code
