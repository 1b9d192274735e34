"""manage.py export_match: the record of a stored match; importing it gives it back."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from matches import rules
from matches.models import Event
from matches.rules.simulate import simulated_record
from matches.scoring.selectors.play import match_record, match_summary
from matches.scoring.services.play import match_import

pytestmark = pytest.mark.django_db

EVENT_FIELDS = ["number", "seat", "kind", "tile", "at", "tiles_drawn", "ends", "goes_out",
                "claim", "end_sum", "points", "refused", "round__number"]


def export(key) -> str:
    out = StringIO()
    call_command("export_match", str(key), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("document", [
    simulated_record(rules.ALL_FIVES, 4, seed=3),
    simulated_record(rules.FIVES_AND_THREES, 3, seed=5, options={"set": "double-nine"},
                     pips=True),
], ids=["all-fives-4", "fives-and-threes-pips"])
def test_export_then_import_gives_identical_events_and_summary(document):
    original = match_import(document=document)

    text = export(original.pk)
    copy = match_import(document=json.loads(text))

    assert json.loads(text) == match_record(original)
    assert list(Event.objects.filter(match=copy).values_list(*EVENT_FIELDS)) == \
        list(Event.objects.filter(match=original).values_list(*EVENT_FIELDS))
    assert match_summary(copy) == match_summary(original)


def test_export_prints_indented_json():
    match = match_import(document=simulated_record(rules.ALL_FIVES, 2, seed=1))

    text = export(match.pk)

    assert text.startswith('{\n "format": "domino-match/1",\n "game": "all-fives",\n')


def test_export_accepts_the_public_id():
    match = match_import(document=simulated_record(rules.ALL_FIVES, 2, seed=1))

    assert export(match.public_id) == export(match.pk)


@pytest.mark.parametrize("key", ["999", "9" * 30, "0b9f7f5e-6c1d-4c39-9d8e-2f4a0b1c7d3e", "latest"])
def test_export_of_an_unknown_match_is_a_clear_error(key):
    with pytest.raises(CommandError, match=f"^There is no match with id {key}.$"):
        export(key)
