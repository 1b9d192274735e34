"""The correction rule: a winner changes while the next tie is unplayed; once it is
played, only after a club admin resets the ties after it, saying why (logged)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from matches.cups import services as cups
from matches.cups.models import CupLog, CupLogKind
from matches.leagues.services import (
    fixture_correct,
    fixture_reinstate,
    fixture_walkover,
)
from matches.models import Fixture, FixtureStatus
from tests.support.cups import AWAY_WIN, FOUR, HOME_WIN, a_cup, played_to_the_final

pytestmark = pytest.mark.django_db



def flip(folk, fixture: Fixture, reason: str = "the sheet was misread"):  # noqa: ANN001, ANN201
    return fixture_correct(fixture=fixture, by=folk.admin, scores=[AWAY_WIN],
                           reason=reason)


def test_a_correction_changes_a_winner_while_the_next_tie_is_unplayed():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    first, second = folk.fixture(1, 1), folk.fixture(1, 2)
    folk.play(first, HOME_WIN)
    folk.play(second, HOME_WIN)
    old_final = folk.fixture(2, 1)
    assert old_final.home == first.home
    flip(folk, first)
    new_final = folk.fixture(2, 1)
    assert new_final.home == first.away and new_final.away == second.home
    assert not Fixture.objects.filter(pk=old_final.pk).exists()  # unplayed: made anew


def test_once_the_next_tie_is_played_a_correction_of_the_winner_is_refused():
    folk, first, _final = played_to_the_final()
    with pytest.raises(ValidationError) as refused:
        flip(folk, first)
    assert refused.value.messages == [
        "Tie 1 of round 1: its winner can change only while tie 1 of round 2 is unplayed, "
        "or by an admin who resets the ties after it."]
    first.refresh_from_db()
    assert (first.home_games, first.away_games) == (1, 0)
    assert not first.corrections.exists()
    fixture_correct(fixture=first, by=folk.admin, scores=[(60, 55)], reason="typo")  # same winner


def test_an_admin_resets_the_ties_after_one_on_purpose_and_the_log_keeps_why():
    folk, first, played_final = played_to_the_final()
    with pytest.raises(ValidationError) as no_reason:
        cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1, reason=" ")
    assert no_reason.value.message_dict["reason"] == [str(cups.RESET_NEEDS_WHY)]
    captain = folk.captain(first.home)
    with pytest.raises(PermissionDenied):
        cups.cup_ties_reset(cup=folk.cup, by=captain, round=1, position=1, reason="x")
    reset = cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1,
                                reason="Ann's result was keyed in the wrong way round")
    assert [str(key) for key in reset] == ["tie 1 of round 2"]
    played_final.refresh_from_db()
    assert played_final.status == FixtureStatus.VOID  # kept, with its games and log
    log = CupLog.objects.get(kind=CupLogKind.RESET)
    assert log.user == folk.admin
    assert log.details == "Ann's result was keyed in the wrong way round (tie 1 of round 2)"
    flip(folk, first)
    final = folk.fixture(2, 1)
    assert final.pk != played_final.pk and final.home == first.away
    # the night taken back is no tie now: it stays void, whatever the league would do
    for step in (lambda: fixture_reinstate(fixture=played_final, by=folk.admin),
                 lambda: fixture_walkover(fixture=played_final, by=folk.admin, side="home")):
        with pytest.raises(ValidationError) as refused:
            step()
        assert refused.value.messages == [str(cups.NOT_A_TIE_NOW)]
    played_final.refresh_from_db()
    assert played_final.status == FixtureStatus.VOID and played_final.games.exists()


def test_a_reset_with_nothing_after_the_tie_is_refused():
    folk = a_cup(FOUR)
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    with pytest.raises(ValidationError, match="Nothing follows tie 1 of round 1"):
        cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=1, reason="x")
    assert not CupLog.objects.filter(kind=CupLogKind.RESET).exists()


def test_a_reset_after_a_bye_is_refused_and_voids_nothing():
    # a bye has no result to correct, nor a fixture to correct it on
    folk = a_cup(["Ann", "Bob", "Cy"])
    cups.cup_draw(cup=folk.cup, by=folk.admin)
    ties = {tie.position: tie for tie in folk.cup.ties.filter(round=1, plate=False)}
    [bye] = [position for position, tie in ties.items() if tie.fixture is None]
    [played] = [position for position in ties if position != bye]
    folk.play(folk.fixture(1, played), HOME_WIN)
    final = folk.play(folk.fixture(2, 1), HOME_WIN)

    with pytest.raises(ValidationError, match=f"Tie {bye} of round 1 is a bye: .* goes "
                                              "through without playing"):
        cups.cup_ties_reset(cup=folk.cup, by=folk.admin, round=1, position=bye,
                            reason="wrong tie chosen")

    final.refresh_from_db()
    assert final.status == FixtureStatus.CONFIRMED
    assert not CupLog.objects.filter(kind=CupLogKind.RESET).exists()


def test_an_admin_takes_back_the_plates_draw_for_a_correction_that_changes_who_goes_in():
    """Anchor had a bye and lost its first tie played (round 2) to Crown: it went into
    the plate. Correcting that tie for Anchor takes it out of the plate, so the plate is
    drawn again: its played tie is made void and kept, and the correction goes through."""
    folk = a_cup(["Anchor", "Bell", "Crown", "Dragon", "Eagle"], plate=True,
                 draw_method="by_hand")
    e = folk.entrant
    cups.cup_draw(cup=folk.cup, by=folk.admin, pairs=[
        [e("Anchor"), None], [e("Bell"), e("Crown")], [e("Dragon"), None], [e("Eagle"), None]])
    folk.play(folk.fixture(1, 2), AWAY_WIN)  # Crown
    semi = folk.play(folk.fixture(2, 1), AWAY_WIN)  # Crown again: Anchor is out
    folk.play(folk.fixture(2, 2), HOME_WIN)  # Dragon
    cups.cup_plate_draw(cup=folk.cup, by=folk.admin)  # Bell, Anchor, Eagle
    plate_ties = [tie for tie in folk.refreshed().ties.filter(plate=True)
                  if tie.fixture is not None]
    assert len(plate_ties) == 1
    played_plate = folk.play(plate_ties[0].fixture, HOME_WIN)  # type: ignore[arg-type]
    with pytest.raises(ValidationError) as refused:
        fixture_correct(fixture=semi, by=folk.admin, scores=[HOME_WIN], reason="swapped")
    assert refused.value.messages == [
        'Tie 1 of round 2: "Anchor" had a bye and went into the plate\'s draw as its loser; '
        'for "Anchor" to have won it, the plate is drawn again.']
    with pytest.raises(ValidationError) as no_reason:
        cups.cup_plate_undraw(cup=folk.cup, by=folk.admin, reason="  ")
    assert no_reason.value.message_dict["reason"] == [str(cups.RESET_NEEDS_WHY)]
    with pytest.raises(PermissionDenied):
        cups.cup_plate_undraw(cup=folk.cup, by=folk.captain(e("Bell")), reason="x")

    cups.cup_plate_undraw(cup=folk.cup, by=folk.admin, reason="Anchor won the semi-final")
    cup = folk.refreshed()
    assert cup.plate_drawn is None and not cup.ties.filter(plate=True).exists()
    played_plate.refresh_from_db()
    assert played_plate.status == FixtureStatus.VOID  # kept, with its games and log
    assert CupLog.objects.filter(kind=CupLogKind.PLATE_UNDRAWN,
                                 details="Anchor won the semi-final").exists()
    with pytest.raises(ValidationError, match="The plate is not drawn yet"):
        cups.cup_plate_undraw(cup=cup, by=folk.admin, reason="again")

    fixture_correct(fixture=semi, by=folk.admin, scores=[HOME_WIN], reason="swapped")
    assert folk.fixture(3, 1).home == e("Anchor")
    cups.cup_plate_draw(cup=folk.refreshed(), by=folk.admin)  # Bell and Eagle now
    plate = folk.fixture(1, 1, plate=True)
    assert {plate.home, plate.away} == {e("Bell"), e("Eagle")}
