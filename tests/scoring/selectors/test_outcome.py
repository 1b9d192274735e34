"""matches.scoring.selectors.outcome: what the pages that manage a match show of it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from matches import rules
from matches.scoring.selectors.outcome import match_overview, match_seats
from matches.scoring.services.play import event_record, round_start
from tests.support.helpers import T, two_player_all_fives

pytestmark = pytest.mark.django_db


def test_match_overview_and_seats():
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    overview = match_overview(match=match)
    assert overview.names == ["Olena", "Taras"]
    assert overview.sides == [("Olena", Decimal(10)), ("Taras", Decimal(0))]
    assert overview.rounds == 1
    assert [seat.name for seat in match_seats(match=match)] == ["Olena", "Taras"]
