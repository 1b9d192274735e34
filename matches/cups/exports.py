"""A cup's files: its ``domino-cup/1`` document (read back by ``cup_import``) and its
ties as CSV, one row per tie, for a club's spreadsheet (not read back)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from matches.core.cells import BYTE_ORDER_MARK, line_writer, text_cell
from matches.cups import stored
from matches.cups.models import Cup, CupRound
from matches.cups.selectors import cup_division_entrants, cup_results, cup_shown, rules_cup
from matches.rules import cup as cup_rules
from matches.rules.cup_record import FORMAT

CSV_COLUMNS = ("round", "tie", "bracket", "home", "away", "date", "result", "winner")


def cup_document(cup: Cup) -> dict[str, Any]:
    """The cup as a ``domino-cup/1`` document: entrants by name, each tie's counted
    result."""
    season = cup.season
    entrants = cup_division_entrants(cup)
    names = {str(entrant.pk): entrant.name for entrant in entrants}
    drawn = rules_cup(cup)

    def named(draw: dict[str, Any] | None, *, plate: bool) -> dict[str, Any] | None:
        if draw is None:
            return None
        return {"size": draw["size"],
                "first_round": [[entry if plate or entry is None else names[entry]
                                 for entry in pair] for pair in draw["first_round"]],
                "later_rounds": draw["later_rounds"]}

    results = cup_results(cup)
    return {
        "format": FORMAT,
        "name": season.name,
        "starts_on": season.starts_on.isoformat(),
        "game": season.game,
        "options": dict(season.options or {}),
        "tie": {"format": season.fixture_format, "singles": season.singles,
                "pairs": season.pairs, "race_to": season.race_to,
                "count_submitted": season.count_submitted,
                "paper_players_optional": season.paper_players_optional},
        "draw": {"method": cup.draw_method, "timing": cup.draw_timing, "seed": cup.draw_seed,
                 "seeds": [names[str(pk)] for pk in cup.seeds if str(pk) in names]},
        "plate": cup.plate,
        "level_tie": cup.level_tie,
        "walkover": [cup.walkover_winner, cup.walkover_loser],
        "entrants": [{"name": entrant.name, "kind": entrant.kind,
                      "players": sorted(player.name for player in entrant.players.all())}
                     for entrant in entrants],
        "drawn": named(stored.draw_json(drawn.main), plate=False) if drawn else None,
        "plate_drawn": named(stored.draw_json(drawn.plate), plate=True)
        if drawn and drawn.plate else None,
        "rounds": [{"number": row.number, "plate": row.plate,
                    "date": row.date.isoformat() if row.date else None}
                   for row in CupRound.objects.filter(cup=cup).order_by("plate", "number")],
        "finals": {"date": cup.finals_on.isoformat(), "venue": cup.finals_venue}
        if cup.finals_on else None,
        "ties": [{"round": key.round, "position": key.position, "plate": key.plate,
                  "result": _result(result)}
                 for key, result in sorted(results.items(), key=lambda item: item[0].order)],
    }


def _result(result: cup_rules.TieResult) -> dict[str, Any]:
    written = stored.result_json(result)
    return {name: value for name, value in written.items()
            if value is not None and not (name == "games" and result.walkover)}


def ties_csv(cup: Cup) -> Iterator[str]:
    """One row per tie drawn (the cup's, then the plate's), the byte-order mark first:
    its round's name, its number, ``cup`` or ``plate``, its sides (``bye``), its date, its
    result (games won, home first; ``walkover home``/``walkover away``) and its winner."""
    writer = line_writer()
    yield BYTE_ORDER_MARK + writer.writerow(CSV_COLUMNS)
    shown = cup_shown(cup)
    for round in [*shown.rounds, *shown.plate_rounds]:
        for tie in round.ties:
            fixture = tie.fixture
            date = fixture.date if fixture is not None and fixture.date else round.date
            result = ""
            if tie.score is not None:
                result = (f"walkover {'home' if tie.home_won else 'away'}" if tie.walkover
                          else f"{tie.score[0]}-{tie.score[1]}")
            yield writer.writerow([
                str(round.name), tie.key.position, "plate" if tie.key.plate else "cup",
                text_cell(tie.home.name) if tie.home else "",
                "bye" if tie.bye else (text_cell(tie.away.name) if tie.away else ""),
                date.isoformat() if date else "",
                result, text_cell(tie.winner.name) if tie.winner else ""])
