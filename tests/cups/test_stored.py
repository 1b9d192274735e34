"""The rules' cup as the database keeps it, and back: a drawn cup with a plate and a
round drawn later, and a tie's result, read back equal (no test database needed)."""

from __future__ import annotations

from matches.cups import stored
from matches.rules import cup as cup_rules
from matches.rules.league import Side


def test_a_drawn_cup_with_its_plate_reads_back_equal():
    form = cup_rules.CupFormat(timing=cup_rules.DrawTiming.ROUND_BY_ROUND, plate=True)
    cup = cup_rules.draw(["1", "2", "3", "4", "5"], form, seed=11)
    away = cup_rules.TieResult(games=((40, 60),))
    results = {tie.key: away for tie in cup_rules.bracket(cup, {}).rounds[0] if not tie.bye}
    cup = cup_rules.draw_next_round(cup, results, seed=3)
    results.update({tie.key: away for tie in cup_rules.bracket(cup, results).rounds[1]
                    if tie.home and tie.away})
    cup = cup_rules.draw_plate(cup, results, seed=4)
    assert cup.plate is not None
    back = stored.rules_cup(format=form, drawn=stored.cup_json(cup),
                            plate_drawn=stored.draw_json(cup.plate))
    assert back == cup


def test_a_ties_result_reads_back_equal():
    for result in (cup_rules.TieResult(games=((60, 40), (35, 60))),
                   cup_rules.TieResult(games=((60, 40), (35, 60)), decider=(60, 55)),
                   cup_rules.TieResult(walkover=Side.AWAY)):
        assert stored.result_from(stored.result_json(result)) == result
