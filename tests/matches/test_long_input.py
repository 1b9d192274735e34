"""No redirect or error path sends raw input back in an address or a header.

nginx refuses an upstream header past its buffer (4 KB: a 502), so a value of any
length must be answered without one: a scoring form's value longer than its field
takes is refused on the page (400, the page drawn with the rest of what was sent), and
a sign-in-only page opened at a very long address sends to the sign-in page without
carrying it as ``next``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Match
from matches.scoring.forms.play import LONGEST_VALUE, NAME_LENGTH
from matches.scoring.services.lifecycle import match_abandon
from tests.matches.test_hostile_input import called, settled, tracked
from tests.scoring.views.test_play import join
from tests.support.helpers import play_short_round, snapshot, two_player_all_fives

pytestmark = pytest.mark.django_db

LONG = "x" * 10_000
HEADER_LIMIT = 2048  # far below nginx's 4 KB, far above any header the app means to send
TOO_LONG = "This form sent a value longer than %s characters: nothing was changed."


# the scorepad's forms (the writes that answer with the scorepad): the match's state,
# and the fields the page sends beside version and key, each of which is tried too long
SCORING: dict[str, tuple[Callable[[Match], None], dict[str, str]]] = {
    "play": (tracked, {"seat": "0", "tile": "5-5", "at": "", "claim": "10"}),
    "draw": (tracked, {"seat": "0", "tiles": "1"}),
    "pass": (tracked, {"seat": "0"}),
    "call": (called, {"seat": "0", "end_0": "5", "double_0": "on", "end_1": "5",
                      "claim": "10", "goes_out": "on"}),
    "settle": (play_short_round, {"entry": "tiles", "pips_0": "0", "pips_1": "3",
                                  "result": "blocked", "hand_0": "", "hand_1": "1-2"}),
    "round": (settled, {"starter": "1", "mode": "tracked"}),
    "undo": (play_short_round, {}),
}
LIMITS = {"tile": 7, "at": 10, "result": 12, "starter": 4}  # their fields' max_length
CASES = [(endpoint, name) for endpoint, (_state, fields) in SCORING.items()
         for name in ("version", "key", *fields)]


def headers(response: Any) -> list[str]:
    """Every header line of an answer, its cookies included."""
    lines = [f"{name}: {value}" for name, value in response.items()]
    return lines + [morsel.OutputString() for morsel in response.cookies.values()]


def no_long_header(response: Any) -> None:
    for line in headers(response):
        assert len(line) <= HEADER_LIMIT, line[:200]


def a_scorer(endpoint: str) -> tuple[Client, Match, dict[str, str]]:
    state, fields = SCORING[endpoint]
    match = two_player_all_fives()
    state(match)
    client = Client()
    join(client, match)
    match.refresh_from_db()
    return client, match, {"version": str(match.version), "key": str(uuid.uuid4()), **fields}


@pytest.mark.parametrize(("endpoint", "name"), CASES)
def test_a_value_too_long_for_its_field_is_refused_on_the_page(endpoint, name):
    client, match, sent = a_scorer(endpoint)
    before = snapshot(match)
    url = reverse(f"matches:{endpoint}", kwargs={"public_id": match.public_id})

    response = client.post(url, {**sent, name: LONG})

    assert response.status_code == 400
    assert "Location" not in response
    no_long_header(response)
    html = response.content.decode()
    assert TOO_LONG % LIMITS.get(name, LONGEST_VALUE) in html
    assert 'id="scorepad-error"' in html and "<html" in html  # the whole page
    assert LONG not in html
    assert snapshot(match) == before


@pytest.mark.parametrize(("endpoint", "name"), CASES)
def test_a_value_too_long_for_its_field_is_refused_in_the_fragment_too(endpoint, name):
    client, match, sent = a_scorer(endpoint)
    before = snapshot(match)
    url = reverse(f"matches:{endpoint}", kwargs={"public_id": match.public_id})

    response = client.post(url, {**sent, name: LONG}, headers={"HX-Request": "true"})

    assert response.status_code == 200  # htmx swaps it in, as any refusal
    no_long_header(response)
    html = response.content.decode()
    assert TOO_LONG % LIMITS.get(name, LONGEST_VALUE) in html
    assert LONG not in html
    assert snapshot(match) == before


def test_a_count_refused_for_one_long_value_keeps_the_rest_of_the_count():
    client, match, sent = a_scorer("settle")
    url = reverse("matches:settle", kwargs={"public_id": match.public_id})

    response = client.post(url, {**sent, "entry": "pips", "pips_0": "0", "pips_1": "7",
                                 "result": LONG})

    assert response.status_code == 400
    html = response.content.decode()
    assert 'name="pips_1" min="0" inputmode="numeric" value="7"' in html


def test_a_value_at_its_fields_limit_is_still_refused_by_a_redirect_without_javascript():
    """The short refusal is as it was: the message after a redirect naming the tile."""
    client, match, sent = a_scorer("play")
    url = reverse("matches:play", kwargs={"public_id": match.public_id})

    response = client.post(url, {**sent, "tile": "9-9-9-9"})

    assert response.status_code == 302
    assert response["Location"] == match.get_scorer_url() + "?tile=9-9-9-9"


def test_the_way_back_after_a_refused_count_names_only_a_count_the_page_shows():
    client, match, sent = a_scorer("settle")
    url = reverse("matches:settle", kwargs={"public_id": match.public_id})

    tiles = client.post(url, {**sent, "hand_1": "9-9"})
    unknown = client.post(url, {**sent, "entry": "y" * LONGEST_VALUE})

    assert tiles.status_code == unknown.status_code == 302
    assert tiles["Location"] == match.get_scorer_url() + "?entry=tiles"
    assert unknown["Location"] == match.get_scorer_url()


def test_the_refusal_is_said_in_the_readers_language():
    client, match, sent = a_scorer("play")
    url = reverse("matches:play", kwargs={"public_id": match.public_id})

    response = client.post(url, {**sent, "tile": LONG}, HTTP_ACCEPT_LANGUAGE="uk")

    assert "Форма надіслала значення, довше за 7 символів: нічого не змінено." in \
        response.content.decode()


# -- addresses sent back: sign-in's next, the language switch, a slash added ---------

LOGIN_URL = "/accounts/login/"
PASSWORD = "domino-table-42"
SIGN_IN_ONLY = {  # each page that needs an account, opened with a long query or path
    "import?": "/import/?q=" + LONG,
    "import progress?": f"/import/{uuid.uuid4()}/?q=" + LONG,
    "club_new?": "/clubs/new/?q=" + LONG,
    "club_join?": "/clubs/royal-oak/join/token/?q=" + LONG,
    "club_join token": "/clubs/royal-oak/join/" + LONG + "/",
    "club_join slug": "/clubs/" + "a" * 10_000 + "/join/token/",
    "password_change?": "/accounts/password_change/?q=" + LONG,
    "password_change_done?": "/accounts/password_change/done/?q=" + LONG,
    "admin?": "/admin/?q=" + LONG,
}


@pytest.fixture
def olena(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("olena", password=PASSWORD)


@pytest.mark.parametrize("page", sorted(SIGN_IN_ONLY))
def test_a_sign_in_only_page_at_a_long_address_sends_to_sign_in_without_it(client, page):
    response = client.get(SIGN_IN_ONLY[page])

    assert response.status_code == 302
    assert response["Location"] in (LOGIN_URL, "/admin/login/")
    no_long_header(response)


def test_a_post_to_a_sign_in_only_address_that_is_long_sends_to_sign_in_without_it(client):
    response = client.post("/clubs/royal-oak/players/1/claim/?q=" + LONG)

    assert response.status_code == 302 and response["Location"] == LOGIN_URL


def test_a_sign_in_only_page_at_a_usual_address_is_still_carried_as_next(client):
    response = client.get("/import/", {"q": "x" * 1000})

    assert response["Location"] == f"{LOGIN_URL}?next=/import/%3Fq%3D{'x' * 1000}"


# Django refuses a next over 2,048 characters; these are fewer, but each Cyrillic letter
# is sent as six ("%D0%B4"): 9,000 characters in a Location
CYRILLIC = "д" * 1500
LONG_NEXTS = {"long": "/new/?q=" + LONG, "encoded long": "/new/?q=" + CYRILLIC}


@pytest.mark.parametrize("sent", sorted(LONG_NEXTS))
def test_a_long_next_is_not_followed_after_signing_in(client, olena, sent):
    signed_in = client.post(LOGIN_URL, {"username": "olena", "password": PASSWORD,
                                        "next": LONG_NEXTS[sent]})

    assert signed_in.status_code == 302 and signed_in["Location"] == "/"


def test_a_next_at_the_limit_is_still_followed_after_signing_in(client, olena):
    page = "/new/?q=" + "д" * 332  # 2,000 characters sent

    signed_in = client.post(LOGIN_URL, {"username": "olena", "password": PASSWORD,
                                        "next": page})

    assert len(signed_in["Location"]) == 2000


@pytest.mark.parametrize("sent", sorted(LONG_NEXTS))
def test_a_long_next_is_not_followed_after_signing_out(client, olena, sent):
    client.force_login(olena)

    response = client.post("/accounts/logout/", {"next": LONG_NEXTS[sent]})

    assert response.status_code == 302 and response["Location"] == "/"


@pytest.mark.parametrize("sent", sorted(LONG_NEXTS))
def test_a_long_next_is_not_followed_after_signing_up(client, sent):
    response = client.post("/accounts/signup/", {
        "username": "taras", "email": "", "password1": PASSWORD, "password2": PASSWORD,
        "next": LONG_NEXTS[sent]})

    assert response.status_code == 302 and response["Location"] == reverse("matches:home")


@pytest.mark.parametrize("sent", sorted(LONG_NEXTS))
def test_the_language_switch_at_a_long_address_goes_home_in_the_language_chosen(client,
                                                                               sent):
    response = client.post("/i18n/setlang/", {"language": "uk", "next": LONG_NEXTS[sent]},
                           HTTP_REFERER="http://testserver" + LONG_NEXTS[sent])

    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies["django_language"].value == "uk"
    no_long_header(response)


def test_the_language_switch_still_goes_back_to_a_usual_page(client):
    response = client.post("/i18n/setlang/", {"language": "uk", "next": "/new/?players=3"})

    assert response["Location"] == "/new/?players=3"


def test_a_long_address_without_its_slash_is_not_found_rather_than_sent_back(client):
    response = client.get("/clubs/new?q=" + LONG)
    usual = client.get("/clubs/new?q=1")

    assert response.status_code == 404 and "Location" not in response
    no_long_header(response)
    assert usual.status_code == 301 and usual["Location"] == "/clubs/new/?q=1"


@pytest.mark.parametrize("name", ["player_0", "player_1", "version", "key"])
def test_a_name_too_long_for_its_field_is_refused_on_the_names_page(name):
    match = two_player_all_fives()
    client = Client()
    join(client, match)
    before = snapshot(match)

    response = client.post(reverse("matches:rename", kwargs={"public_id": match.public_id}),
                           {"version": str(match.version), "key": str(uuid.uuid4()),
                            "player_0": "Olha", "player_1": "Taras", name: LONG})

    assert response.status_code == 400 and "Location" not in response
    no_long_header(response)
    html = response.content.decode()
    limit = NAME_LENGTH if name.startswith("player_") else LONGEST_VALUE
    assert TOO_LONG % limit in html
    assert snapshot(match) == before


def abandoned(match: Match) -> None:
    match_abandon(match=match)


# the other writes of a match's scorers, each from its own page: the state, the fields
MANAGING: dict[str, tuple[Callable[[Match], None], dict[str, str]]] = {
    "restore": (play_short_round, {"to_version": "2"}),
    "abandon": (play_short_round, {}),
    "resume": (abandoned, {}),
}


@pytest.mark.parametrize(("endpoint", "name"), [
    (endpoint, name) for endpoint, (_state, fields) in MANAGING.items()
    for name in ("version", "key", *fields)])
def test_a_value_too_long_is_refused_on_the_history_or_abandon_page(endpoint, name):
    state, fields = MANAGING[endpoint]
    match = two_player_all_fives()
    state(match)
    client = Client()
    join(client, match)
    before = snapshot(match)

    response = client.post(reverse(f"matches:{endpoint}", kwargs={
        "public_id": match.public_id}), {"version": str(before["version"]),
                                         "key": str(uuid.uuid4()), **fields, name: LONG})

    assert response.status_code == 400 and "Location" not in response
    no_long_header(response)
    html = response.content.decode()
    assert TOO_LONG % LONGEST_VALUE in html
    assert ('id="changes-title"' if endpoint == "restore" else 'id="abandon-page"') in html
    assert snapshot(match) == before
