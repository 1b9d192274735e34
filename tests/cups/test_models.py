"""The cups' invariants held by the database (each named constraint refuses a row that
breaks it) and said in words by ``clean()``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from matches.cups.models import WALKOVER_SCORES, Cup, CupLog, CupRound, CupTie
from matches.cups.services import cup_draw
from tests.support.cups import Cupfolk, a_cup

pytestmark = pytest.mark.django_db


@pytest.fixture
def folk() -> Cupfolk:
    folk = a_cup(["Ann", "Bob"])
    cup_draw(cup=folk.cup, by=folk.admin)
    return folk


def _cup(folk: Cupfolk, **fields: Any) -> None:
    Cup.objects.filter(pk=folk.cup.pk).update(**fields)


CASES: dict[str, Callable[[Cupfolk], object]] = {
    "cup_draw_method_valid": lambda x: _cup(x, draw_method="lots"),
    "cup_draw_timing_valid": lambda x: _cup(x, draw_timing="whenever"),
    "cup_level_tie_valid": lambda x: _cup(x, level_tie="coin"),
    "cup_walkover_winner_more": lambda x: _cup(x, walkover_winner=0, walkover_loser=0),
    "cup_draw_seed_range": lambda x: _cup(x, draw_seed=-1),
    "cup_plate_drawn_has_plate": lambda x: _cup(x, plate_drawn={"size": 2}),
    "cup_log_kind_known": lambda x: CupLog.objects.create(cup=x.cup, kind="sneezed"),
    "cup_log_reset_has_reason": lambda x: CupLog.objects.create(cup=x.cup, kind="reset"),
    "cup_round_once": lambda x: CupRound.objects.bulk_create(
        [CupRound(cup=x.cup, number=1), CupRound(cup=x.cup, number=1)]),
    "cup_round_from_one": lambda x: CupRound.objects.create(cup=x.cup, number=0),
    "cup_tie_once": lambda x: CupTie.objects.create(cup=x.cup, round=1, position=1),
    "cup_tie_round_from_one": lambda x: CupTie.objects.create(cup=x.cup, round=0, position=9),
    "cup_tie_position_from_one": lambda x: CupTie.objects.create(cup=x.cup, round=9,
                                                                 position=0),
    "cup_tie_result_has_fixture": lambda x: CupTie.objects.create(
        cup=x.cup, round=9, position=9, result={"games": [[60, 40]]}),
}


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES))
def test_the_database_refuses_a_row_that_breaks_the_constraint(folk, name):
    with pytest.raises(IntegrityError), transaction.atomic():
        CASES[name](folk)


def test_the_drawn_cup_satisfies_every_constraint(folk):
    for model in (Cup, CupLog, CupRound, CupTie):
        for row in model.objects.all():
            row.validate_constraints()


def test_a_walkover_scoring_less_for_the_side_there_is_refused_in_words(folk):
    cup = Cup.objects.get()
    cup.walkover_winner, cup.walkover_loser = 1, 2
    with pytest.raises(ValidationError) as refused:
        cup.full_clean()
    assert refused.value.message_dict["walkover_winner"] == [str(WALKOVER_SCORES)]



def test_a_ties_fixture_is_not_deleted_from_under_it(folk):
    """A tie holds on to its fixture (RESTRICT): the cups' services unlink it first."""
    from matches.models import Fixture

    fixture = folk.fixture(1, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        fixture.delete()
    assert Fixture.objects.filter(pk=fixture.pk).exists()


@pytest.mark.parametrize(("lang", "dated", "finals", "imported"), [
    ("en", "round 2: — → 14 Jan 2027", "14 Jan 2027, Red Lion", "imported from a cup file"),
    ("uk", "раунд 2: — → 14.01.2027", "14.01.2027, Red Lion", "імпортовано з файлу кубка"),
    ("ru", "раунд 2: — → 14.01.2027", "14.01.2027, Red Lion", "импортирована из файла кубка")])
def test_the_logs_dates_and_words_are_shown_in_the_readers_language(
        lang, dated, finals, imported, catalogues_compiled):
    # the log keeps them as the services wrote them: dates YYYY-MM-DD, words in English
    with translation.override(lang):
        assert CupLog(kind="round_dated", details="round 2: — → 2027-01-14").details_shown \
            == dated
        assert CupLog(kind="finals", details="2027-01-14, Red Lion").details_shown == finals
        assert CupLog(kind="drawn", details="imported").details_shown == imported
        assert CupLog(kind="seeds", details="Ann 2027-01-14").details_shown == \
            "Ann 2027-01-14"  # names as written
