"""A round's date and its postponement (logged, its fixtures re-dated), and the
finals night at its venue."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from matches.cups import services as cups
from matches.cups.models import CupLog, CupLogKind, CupRound
from matches.models import Fixture
from tests.support.cups import HOME_WIN, STARTS, a_cup

pytestmark = pytest.mark.django_db

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def test_the_first_round_is_on_the_cups_first_night_from_the_draw():
    """The night given when the cup was made: its ties' fixtures are dated, so they are
    in the calendar, reminded of and, once past, said to have no result."""
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    assert CupRound.objects.get(plate=False, number=1).date == STARTS
    assert set(Fixture.objects.values_list("date", flat=True)) == {STARTS}


def test_a_round_is_dated_and_postponed_its_fixtures_following_and_the_log_saying_so():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    day, later = STARTS + datetime.timedelta(days=7), STARTS + datetime.timedelta(days=14)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=1, date=day)
    cups.cup_round_date(cup=folk.cup, by=folk.admin, number=1, date=later)
    assert set(Fixture.objects.values_list("date", flat=True)) == {later}
    assert CupRound.objects.get(number=1).date == later
    assert list(CupLog.objects.filter(kind=CupLogKind.ROUND_DATED)
                .values_list("details", flat=True)) == [
        f"round 1: {STARTS.isoformat()} → {day.isoformat()}",
        f"round 1: {day.isoformat()} → {later.isoformat()}"]
    with pytest.raises(ValidationError) as refused:
        cups.cup_round_date(cup=folk.cup, by=folk.admin, number=3, date=later)
    assert refused.value.message_dict["number"] == ["The cup has no round 3."]


def test_the_finals_night_dates_the_final_at_its_venue():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=STARTS, venue="  ")
    assert refused.value.message_dict["venue"] == [str(cups.FINALS_VENUE_NEEDED)]
    finals = STARTS + datetime.timedelta(days=28)
    cups.cup_finals_set(cup=folk.cup, by=folk.admin, date=finals, venue="The Royal Oak")
    cup = folk.refreshed()
    assert (cup.finals_on, cup.finals_venue) == (finals, "The Royal Oak")
    assert CupRound.objects.get(number=2).date == finals
    folk.play(folk.fixture(1, 1), HOME_WIN)
    folk.play(folk.fixture(1, 2), HOME_WIN)
    assert folk.fixture(2, 1).date == finals


def test_a_round_is_not_dated_before_the_cup_starts():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError) as refused:
        cups.cup_round_date(cup=folk.cup, by=folk.admin, number=2,
                            date=STARTS - datetime.timedelta(days=1))
    assert refused.value.message_dict["date"] == [
        "The cup starts on 5 Oct 2026: give a date from then on."]
    assert not CupRound.objects.filter(number=2).exists() and not CupLog.objects.filter(
        kind=CupLogKind.ROUND_DATED).exists()
