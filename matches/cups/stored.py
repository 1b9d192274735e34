"""The rules' cup (``matches.rules.cup``) as the database keeps it, and back: the draw
as JSON (entrants by their ids, as strings, so that a renamed entrant stays drawn), a
tie's result as JSON, and the format from the cup's own fields."""

from __future__ import annotations

from typing import Any

from matches.rules import cup as cup_rules
from matches.rules.league import Side


def draw_json(drawn: cup_rules.Draw) -> dict[str, Any]:
    return {"size": drawn.size,
            "first_round": [[_entry_json(home), _entry_json(away)]
                            for home, away in drawn.first_round],
            "later_rounds": [[list(pair) for pair in feeders]
                             for feeders in drawn.later_rounds]}


def draw_from(data: dict[str, Any]) -> cup_rules.Draw:
    return cup_rules.Draw(
        size=int(data["size"]),
        first_round=tuple((_entry_from(home), _entry_from(away))
                          for home, away in data["first_round"]),
        later_rounds=tuple(tuple((int(a), int(b)) for a, b in feeders)
                           for feeders in data["later_rounds"]))


def _entry_json(entry: cup_rules.Entry | None) -> Any:
    if isinstance(entry, cup_rules.TieKey):
        return {"round": entry.round, "position": entry.position}
    return entry


def _entry_from(data: Any) -> Any:
    if isinstance(data, dict):
        return cup_rules.TieKey(int(data["round"]), int(data["position"]))
    return data


def result_json(result: cup_rules.TieResult) -> dict[str, Any]:
    return {"games": [list(score) for score in result.games],
            "decider": list(result.decider) if result.decider else None,
            "walkover": result.walkover.value if result.walkover else None}


def result_from(data: dict[str, Any]) -> cup_rules.TieResult:
    return cup_rules.TieResult(
        games=tuple((int(h), int(a)) for h, a in data.get("games") or ()),
        decider=(int(data["decider"][0]), int(data["decider"][1])) if data.get("decider")
        else None,
        walkover=Side(data["walkover"]) if data.get("walkover") else None)


def rules_cup(*, format: cup_rules.CupFormat, drawn: dict[str, Any],
              plate_drawn: dict[str, Any] | None) -> cup_rules.Cup:
    """The rules' cup from what a cup row keeps (drawn: its ``entrants`` and ``main``)."""
    return cup_rules.Cup(format=format, entrants=tuple(drawn["entrants"]),
                         main=draw_from(drawn["main"]),
                         plate=draw_from(plate_drawn) if plate_drawn else None)


def cup_json(cup: cup_rules.Cup) -> dict[str, Any]:
    return {"entrants": list(cup.entrants), "main": draw_json(cup.main)}
