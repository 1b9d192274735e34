"""Property: no input makes a 500, and what is refused changes nothing (issue 12, point 4).

Every POST endpoint of the scorer and the public forms gets, in each of its fields,
either a value the page would send or a hostile one: any text (NUL and non-ASCII digits
included), numbers of 30 or 4,301 digits, and for the import page JSON nested 100,000
deep, 5,000-digit integers and NUL in names. The test client raises a view's exception,
so a 500 fails with its traceback.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches import services
from matches.models import LineOutcome, Match, RecordImport, RecordImportLine
from tests.matches.helpers import play_short_round, snapshot, two_player_all_fives
from tests.matches.views.test_scorepad import join

pytestmark = pytest.mark.django_db
HOSTILE_SETTINGS = settings(max_examples=25, deadline=None,
                            suppress_health_check=[HealthCheck.function_scoped_fixture])

HUGE = "9" * 4301  # int() refuses over 4,300 digits
HOSTILE = st.one_of(
    st.text(max_size=30),  # any code point but surrogates: NUL, "²", "١٢"…
    st.sampled_from(["", "\x00", "A\x00B", "²", "١٢", "-1", "1e400", "0x10", " 7 ", "lots",
                     HUGE, "-" + HUGE, str(10**29), str(2**31), str(2**63), "domino:²",
                     "domino:" + HUGE, "domino:-1", "blocked\x00", "5-5:" + HUGE, HUGE + "-5"]),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
)


def field(valid: object) -> st.SearchStrategy[object]:
    """The value the page sends, or a hostile one (shrinks towards the page's)."""
    return st.one_of(st.just(valid), HOSTILE)


def tracked(match: Match) -> None:
    services.round_start(match=match, starter=0)


def called(match: Match) -> None:
    services.round_start(match=match, starter=0, mode="called")


def round_over(match: Match) -> None:
    play_short_round(match)


def settled(match: Match) -> None:
    play_short_round(match)
    services.round_settle(match=match, pips=(0, 3))


def abandoned(match: Match) -> None:
    services.match_abandon(match=match)


# endpoint: (the match's state, the fields the page sends beside version and key)
SCORER: dict[str, tuple[Callable[[Match], None], dict[str, object]]] = {
    "play": (tracked, {"seat": "0", "tile": "5-5", "at": "", "claim": "10"}),
    "draw": (tracked, {"seat": "0", "tiles": "1"}),
    "pass": (tracked, {"seat": "0"}),
    "call": (called, {"seat": "0", "end_0": "5", "double_0": "on", "end_1": "5",
                      "claim": "10", "goes_out": ""}),
    "settle": (round_over, {"entry": "pips", "pips_0": "0", "pips_1": "3", "result": "",
                            "hand_0": "", "hand_1": "1-2"}),
    "round": (settled, {"starter": "1", "mode": "tracked"}),
    "undo": (round_over, {}),
    "restore": (round_over, {"to_version": "2"}),
    "rename": (tracked, {"player_0": "Olga", "player_1": "Taras"}),
    "abandon": (round_over, {}),
    "resume": (abandoned, {}),
}


def refused(response: Any) -> bool:
    """A refusal: an error status, the form shown again, or an error message."""
    if response.status_code != 302:
        return True
    return any(m.level >= messages.ERROR for m in get_messages(response.wsgi_request))


@pytest.mark.parametrize("endpoint", sorted(SCORER))
def test_a_scorer_endpoint_never_fails_and_a_refusal_changes_nothing(endpoint):
    state, fields = SCORER[endpoint]

    @HOSTILE_SETTINGS
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        match = two_player_all_fives()
        state(match)
        client = Client()
        join(client, match)
        before = snapshot(match)
        sent = {"version": before["version"], "key": str(uuid.uuid4()), **fields}
        post = {name: data.draw(field(value), label=name) for name, value in sent.items()}
        url = reverse(f"matches:{endpoint}", kwargs={"public_id": match.public_id})
        response = client.post(url, post)
        assert response.status_code < 500
        if refused(response):
            assert snapshot(match) == before

    check()


NEW_MATCH = {"game": "all-fives", "player_0": "Olena", "player_1": "Taras", "player_2": "",
             "player_3": "", "target": "", "hand_size": "", "tile_set": "double-six",
             "deal": "full", "drawing": "", "advanced": "", "immediate_end": "on",
             "starter": "lots", "double_holder": "", "mode": "tracked"}


@HOSTILE_SETTINGS
@given(data=st.data(), game=st.sampled_from(["all-fives", "five-up", "fives-and-threes"]))
def test_the_new_match_form_never_fails_and_a_refusal_stores_nothing(data, game):
    post = {name: data.draw(field(value), label=name)
            for name, value in {**NEW_MATCH, "game": game}.items()}
    post["creation_key"] = str(uuid.uuid4())
    before = Match.objects.count()
    response = Client().post(reverse("matches:new"), post)
    assert response.status_code < 500
    if refused(response):
        assert Match.objects.count() == before


@HOSTILE_SETTINGS
@given(players=HOSTILE)
def test_the_new_match_page_takes_any_player_count(players):
    assert Client().get(reverse("matches:new"), {"players": players}).status_code == 200


RECORD = {"format": "domino-match/1", "game": "all-fives", "players": ["Olena", "Taras"],
          "options": {"hand_size": 2},
          "rounds": [{"starter": 0, "events": [{"seat": 0, "play": "5-5"}]}]}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
    | st.sampled_from([10**29, -(10**29), "\x00"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=10)


def _replaced(path: tuple[str, ...], value: object) -> dict[str, Any]:
    """The sample record with one value replaced (``path`` into it)."""
    record: Any = json.loads(json.dumps(RECORD))
    target = record
    for step in path[:-1]:
        target = target[int(step)] if isinstance(target, list) else target[step]
    if isinstance(target, list):
        target[int(path[-1])] = value
    else:
        target[path[-1]] = value
    return dict(record)


PATHS = [("format",), ("game",), ("players",), ("players", "0"), ("options",),
         ("options", "hand_size"), ("options", "target"), ("rounds",), ("rounds", "0"),
         ("rounds", "0", "starter"), ("rounds", "0", "events"), ("rounds", "0", "events", "0"),
         ("rounds", "0", "events", "0", "seat"), ("rounds", "0", "events", "0", "play")]
RECORD_TEXTS = st.one_of(
    st.sampled_from([
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        json.dumps(_replaced(("rounds", "0", "starter"), json.loads("[" * 900 + "]" * 900))),
        json.dumps(_replaced(("rounds", "0", "starter"), 0))[:-1] + ', "x": ' + "9" * 5000 + "}",
        json.dumps(_replaced(("players", "0"), "Ole\x00na")),
        json.dumps(_replaced(("options", "target"), 10**29)),
        json.dumps(RECORD).replace('"Olena"', '"Ole\\u0000na"'),
        "\x00", "\ufeff", "",
    ]),
    st.text(max_size=50),
    st.builds(lambda path, value: json.dumps(_replaced(path, value)),
              st.sampled_from(PATHS), JSON_VALUES | HOSTILE),
)


@pytest.fixture
def importer(db):
    user = User.objects.create_user("importer", password="secret")
    client = Client()
    client.force_login(user)
    return client


@HOSTILE_SETTINGS
@given(texts=st.lists(RECORD_TEXTS, min_size=1, max_size=3), lines=st.booleans())
def test_an_import_never_fails_and_stores_only_the_records_it_accepts(importer, texts, lines):
    if lines:  # one .jsonl file, one record a line
        uploads = [SimpleUploadedFile("records.jsonl",
                                      "\n".join(t.replace("\n", " ") for t in texts).encode())]
    else:
        uploads = [SimpleUploadedFile(f"record{n}.json", text.encode("utf-8", "surrogatepass"))
                   for n, text in enumerate(texts)]
    before = Match.objects.count()
    response = importer.post(reverse("matches:import"), {"files": uploads})
    assert response.status_code < 500
    stored = RecordImportLine.objects.filter(
        record_import=RecordImport.objects.order_by("-pk").first(), outcome=LineOutcome.STORED,
    ).count() if response.status_code == 302 else 0
    assert Match.objects.count() == before + stored
    if response.status_code == 302:  # the results shown
        assert importer.get(response["Location"]).status_code == 200
