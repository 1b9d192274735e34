"""The ``domino-cup/1`` reader: a whole document read into the rules' cup and results;
each malformed field refused with a message naming it."""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest

from matches.rules import CupError
from matches.rules import cup as cup_rules
from matches.rules.cup_record import FORMAT, loads, read_cup


def document() -> dict[str, Any]:
    """A seeded cup of five with a plate: round 1 played (a walkover), the plate drawn."""
    return {
        "format": FORMAT, "name": "Teesdale Cup", "starts_on": "2026-10-05",
        "game": "all-fives", "options": {"target": 60},
        "tie": {"format": "single", "singles": 0, "pairs": 0, "race_to": None,
                "count_submitted": False, "paper_players_optional": False},
        "draw": {"method": "seeded", "timing": "all_at_once", "seed": 7,
                 "seeds": ["Ann", "Bob"]},
        "plate": True, "level_tie": "total_points", "walkover": [1, 0],
        "entrants": [{"name": name, "kind": "single", "players": [name]}
                     for name in ("Ann", "Bob", "Cy", "Dee", "Eve")],
        "drawn": {"size": 8, "first_round": [["Ann", None], ["Eve", "Cy"], ["Bob", None],
                                             ["Dee", None]],
                  "later_rounds": [[[1, 2], [3, 4]], [[1, 2]]]},
        "plate_drawn": None,
        "rounds": [{"number": 1, "plate": False, "date": "2026-10-05"},
                   {"number": 2, "plate": False, "date": None}],
        "finals": {"date": "2026-11-02", "venue": "The Oak"},
        "ties": [{"round": 1, "position": 2, "plate": False,
                  "result": {"walkover": "away"}},
                 {"round": 2, "position": 1, "plate": False,
                  "result": {"games": [[61, 40]]}}],
    }


def test_a_document_is_read_into_the_rules_cup_and_results():
    record = read_cup(document())
    assert record.name == "Teesdale Cup" and record.seed == 7
    assert record.seeds == ("Ann", "Bob")
    assert record.format == cup_rules.CupFormat(
        method=cup_rules.DrawMethod.SEEDED, plate=True,
        level_tie=cup_rules.LevelTie.TOTAL_POINTS)
    assert record.cup is not None
    assert record.cup.main.first_round == (("Ann", None), ("Eve", "Cy"), ("Bob", None),
                                           ("Dee", None))
    assert record.results[cup_rules.TieKey(1, 2)].walkover is cup_rules.Side.AWAY
    after = cup_rules.bracket(record.cup, record.results)
    assert after.tie(cup_rules.TieKey(2, 1)).winner == "Ann"
    assert record.rounds[0].date == datetime.date(2026, 10, 5) and record.rounds[1].date is None
    assert (record.finals_on, record.finals_venue) == (datetime.date(2026, 11, 2), "The Oak")
    assert record.entrants[0].players == ("Ann",) and record.entrants[0].kind == "single"


def test_an_entrant_named_in_the_draw_with_its_spaces_untidied_is_that_entrant():
    """Entrants' names are read with their spaces tidied; so are the draw's and the
    seeds' names of them, or an entrant named "Bob  Hart" would not be in its own draw."""
    untidy = document()
    untidy["entrants"][1] = {"name": "Bob  Hart", "kind": "single", "players": ["Bob"]}
    untidy["draw"]["seeds"] = ["Ann", " Bob\tHart"]
    untidy["drawn"]["first_round"][2] = ["Bob \n Hart", None]
    record = read_cup(untidy)
    assert record.seeds == ("Ann", "Bob Hart")
    assert record.cup is not None and record.cup.main.first_round[2] == ("Bob Hart", None)


def test_a_plate_drawn_is_read_by_the_cup_ties_whose_losers_take_its_places():
    doc = document()
    doc["ties"].append({"round": 2, "position": 2, "result": {"games": [[40, 61]]}})
    doc["plate_drawn"] = {"size": 2, "first_round": [[{"round": 1, "position": 2},
                                                       {"round": 2, "position": 2}]],
                          "later_rounds": []}
    doc["ties"].append({"round": 1, "position": 1, "plate": True,
                        "result": {"games": [[61, 12]]}})
    record = read_cup(doc)
    assert record.cup is not None and record.cup.plate is not None
    plate = cup_rules.bracket(record.cup, record.results)
    # Eve lost her first tie (a walkover), Bob his (after a bye): Eve wins the plate
    assert plate.plate_winner == "Eve"


def test_an_undrawn_cup_has_no_draw_and_no_results():
    doc = document()
    doc.update(drawn=None, rounds=[], ties=[], finals=None)
    record = read_cup(doc)
    assert record.cup is None and not record.results and record.finals_on is None


def changed(path: str, value: Any) -> dict[str, Any]:
    """The document with one field (a dotted path, list places from 0) set or dropped."""
    doc = copy.deepcopy(document())
    *parents, last = path.split(".")
    here: Any = doc
    for part in parents:
        here = here[int(part)] if isinstance(here, list) else here[part]
    key: Any = int(last) if isinstance(here, list) else last
    if value is DROP:
        del here[key]
    else:
        here[key] = value
    return doc


DROP = object()

REFUSED = [
    ("format", "domino-cup/2", 'format: "domino-cup/1", not "domino-cup/2"'),
    ("colour", "red", "colour: not a field of domino-cup/1"),
    ("name", DROP, "name: a text, not null"),
    ("name", "  ", "name: a name, not blank"),
    ("starts_on", "5/10/2026", 'starts_on: a date as YYYY-MM-DD, not "5/10/2026"'),
    ("options", [], "options: an object, not []"),
    ("tie.format", "relay", "tie.format: one of single, race, games, not \"relay\""),
    ("tie.singles", -1, "tie.singles: a whole number from 0, not -1"),
    ("tie.count_submitted", "yes", 'tie.count_submitted: true or false, not "yes"'),
    ("draw.method", "coin", 'draw.method: one of random, seeded, by_hand, not "coin"'),
    ("draw.timing", "weekly", "draw.timing: one of all_at_once, round_by_round"),
    ("draw.seed", -3, "draw.seed: a whole number from 0 to 9007199254740991, not -3"),
    ("draw.seed", 2**53, "draw.seed: a whole number from 0 to 9007199254740991"),
    ("draw.seed", True, "draw.seed: a whole number from 0"),
    ("draw.seeds.1", "Zed", 'draw.seeds[2]: seed 2 "Zed" is not an entrant'),
    ("draw.seeds.1", "Ann", 'draw.seeds[2]: seed 2 "Ann" is already seed 1'),
    ("draw.seeds.1", ["Bob"], 'draw.seeds[2]: seed 2 ["Bob"] is not an entrant'),
    ("plate", "yes", 'plate: true or false, not "yes"'),
    ("level_tie", "coin", 'level_tie: one of deciding_game, total_points, not "coin"'),
    ("walkover", [0, 1], "walkover: a walkover scores two whole numbers from 0, more for "
                         "the side that turned up, not [0, 1]"),
    ("walkover", [1], "walkover: [games for the side that turned up, for the other], "
                      "not [1]"),
    ("entrants", {}, "entrants: a list of entrants, not {}"),
    ("entrants.1", "Bob", 'entrants[2]: an object, not "Bob"'),
    ("entrants.1.name", "", "entrants[2].name: a name, not blank"),
    ("entrants.1.name", 7, "entrants[2].name: a text, not 7"),
    ("entrants.1.name", "ann", 'entrants[2].name: "ann" is entrant 1 already'),
    ("entrants.1.kind", "club", 'entrants[2].kind: one of team, pair, single, not "club"'),
    ("entrants.1.players", "Bob", 'entrants[2].players: a list of names, not "Bob"'),
    ("entrants.1.players.0", "", "entrants[2].players[1]: a name, not blank"),
    ("entrants.1.captain", "x", "entrants[2].captain: not a field of domino-cup/1"),
    ("drawn.first_round.1", ["Eve"], 'drawn.first_round[2]: [home, away] (away null for a '
                                     'bye), not ["Eve"]'),
    ("drawn.first_round.1.1", "Ann", 'drawn.first_round: pair 2: "Ann" is already drawn '
                                     "in pair 1"),
    ("drawn.first_round.1.1", "Zed", "drawn.first_round: pair 2"),
    ("drawn.first_round.3", DROP, "drawn.first_round:"),
    ("drawn.size", 16, "drawn.size: 8 for 5 entrants, not 16"),
    ("drawn.later_rounds.0.0", [1, 1], "drawn.later_rounds[1][1]: two ties of the round "
                                       "before (1 to 4), each once, not [1, 1]"),
    ("drawn.later_rounds.0.1", [2, 5], "drawn.later_rounds[1][2]: two ties"),
    ("drawn.later_rounds.0.1", [2, 4], "drawn.later_rounds[1][2]: two ties"),
    ("drawn.later_rounds.1", DROP, "drawn.later_rounds: a cup drawn all at once follows "
                                   "its bracket"),
    ("drawn.later_rounds.0", [[3, 4], [1, 2]], "drawn.later_rounds: a cup drawn all at once"),
    ("drawn.later_rounds", [[[1, 2], [3, 4]], [[1, 2]], [[1, 2]]],
     "drawn.later_rounds[3]: the bracket has no round after its final"),
    ("plate_drawn", {"size": 2, "first_round": [[{"round": 9, "position": 1}, None]]},
     "plate_drawn.first_round[1][1]: the cup has no tie 1 of round 9"),
    ("plate_drawn", {"size": 2, "first_round": [["Ann", None]]},
     'plate_drawn.first_round[1][1]: a cup\'s tie as {"round": R, "position": P}, '
     'not "Ann"'),
    ("plate_drawn", {"size": 2, "first_round": [[{"round": 1, "position": 2},
                                                 {"round": 1, "position": 2}]]},
     "plate_drawn.first_round[1][2]: the loser of tie 2 of round 1 has a place already"),
    ("plate_drawn", {"first_round": [[{"round": 1, "position": 2}, None],
                                     [{"round": 2, "position": 1}, None],
                                     [{"round": 2, "position": 2}, None]]},
     "plate_drawn.size: twice the first round's pairs, a power of two"),
    ("rounds.0.number", 4, "rounds[1].number: a round of the cup (1 to 3), not 4"),
    ("rounds.1.number", 1, "rounds[2].number: round 1 is dated already"),
    ("rounds.0.date", "soon", 'rounds[1].date: a date as YYYY-MM-DD, not "soon"'),
    ("rounds.0.plate", True, "rounds[1].number: a round of the plate (1 to 0), not 1"),
    ("finals.venue", 3, "finals.venue: a text, not 3"),
    ("finals.date", "2026-13-01", "finals.date: a date as YYYY-MM-DD"),
    ("ties.0.round", "1", 'ties[1]: a round and a position, not'),
    ("ties.0.position", 9, "ties[1]: the draw has no tie 9 of round 1"),
    ("ties.1.round", 4, "ties[2]: the draw has no tie 1 of round 4"),
    ("ties.1.round", 1, 'ties: tie 1 of round 1 is a bye: "Ann" goes through without '
                        "playing"),
    ("ties.1.round", 3, "ties: tie 1 of round 3:"),
    ("ties.1.result", {"games": [[61, 40]], "walkover": "home"},
     "ties[2].result: a tie's result has games or a walkover, not both"),
    ("ties.1.result", {"games": []}, "ties[2].result:"),
    ("ties.1.result", {"games": [[61, 61]]}, "ties[2].result: games[1] is level at 61-61"),
    ("ties.1.result", {"games": "61-40"}, 'ties[2].result.games: a list of scores'),
    ("ties.1.result", {"walkover": "both"}, 'ties[2].result.walkover: "home" or "away", '
                                            'not "both"'),
    ("ties.1.result", {"games": [[61, 40]], "who": "x"},
     "ties[2].result.who: not a field of domino-cup/1"),
]


@pytest.mark.parametrize(("path", "value", "message"), REFUSED,
                         ids=[f"{path}={'(dropped)' if value is DROP else repr(value)}"[:60]
                              for path, value, _ in REFUSED])
def test_a_malformed_field_is_refused_by_name(path: str, value: Any, message: str) -> None:
    with pytest.raises(CupError) as refused:
        read_cup(changed(path, value))
    assert str(refused.value).startswith(message)


def test_a_duplicate_result_and_a_result_before_the_draw_are_refused():
    doc = document()
    doc["ties"].append(copy.deepcopy(doc["ties"][0]))
    with pytest.raises(CupError, match=r"^ties\[3\]: tie 2 of round 1 has a result already"):
        read_cup(doc)
    doc = document()
    doc["drawn"] = None
    doc["rounds"] = []
    with pytest.raises(CupError, match=r"^ties: a cup's ties have results once it is drawn"):
        read_cup(doc)
    doc = document()
    doc["drawn"] = None
    with pytest.raises(CupError, match=r"^rounds: a cup's rounds are dated once it is drawn"):
        read_cup(doc)


def test_a_plate_is_refused_without_a_draw_or_a_plate():
    doc = document()
    doc["drawn"] = None
    doc["plate_drawn"] = {"size": 2, "first_round": []}
    with pytest.raises(CupError, match=r"^plate_drawn: a plate is drawn only after the cup"):
        read_cup(doc)
    doc = document()
    doc["plate"] = False
    doc["plate_drawn"] = {"size": 2, "first_round": [[{"round": 1, "position": 2}, None]]}
    with pytest.raises(CupError, match=r"^plate_drawn: the cup has no plate"):
        read_cup(doc)


def test_seeds_belong_to_a_seeded_draw():
    doc = document()
    doc["draw"]["method"] = "random"
    with pytest.raises(CupError, match=r"^draw\.seeds: only a seeded draw has seeds"):
        read_cup(doc)


def test_the_text_is_json_of_an_object():
    assert loads(b'{"format": "domino-cup/1"}') == {"format": FORMAT}
    with pytest.raises(CupError, match="not JSON"):
        loads(b"{")
    with pytest.raises(CupError, match="a domino-cup/1 document is a JSON object"):
        loads(b"[]")
    with pytest.raises(CupError, match="a domino-cup/1 document is a JSON object"):
        read_cup([])  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "reason"), [
    (b"[" * 100 + b"]" * 100, "it nests deeper than 32 levels"),
    (b'{"seed": ' + b"9" * 5000 + b"}", "a number in it has thousands of digits"),
    (b'{"name": "Ann\\u0000"}', "a text in it holds a NUL character (\\u0000)"),
    (b"\xff", "not JSON ("),
])
def test_the_text_is_read_with_the_record_readers_guards(text, reason):
    with pytest.raises(CupError) as refused:
        loads(text)
    assert str(refused.value).startswith(reason)


def test_the_readmes_example_is_read():
    import json
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    found = re.search(r'```json\n(  \{"format": "domino-cup/1".*?)```', readme, re.S)
    assert found is not None
    record = read_cup(json.loads(found.group(1)))
    assert record.cup is not None
    assert cup_rules.bracket(record.cup, record.results).tie(cup_rules.TieKey(2, 1)).home == "Ann"
