"""The scorepad pages: start a match, score through htmx fragments, read-only watching."""

from __future__ import annotations

import datetime
import re
import uuid
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.clubs.services import club_create, club_update
from matches.leagues.models import FixtureStatus
from matches.leagues.services import fixture_correct
from matches.models import Event, Match, MatchStatus, Visibility
from matches.scoring.creation_keys import NOT_HERE as CREATION_KEY_NOT_HERE
from matches.scoring.selectors.play import match_engine, match_names
from matches.scoring.services.play import (
    OUT_OF_DATE,
    event_record,
    grant_revoke,
    match_create,
    round_settle,
    round_start,
)
from tests.support.helpers import (
    A,
    T,
    drawn_key,
    league_night_at,
    live,
    night,
    play_short_round,
    snapshot,
    two_player_all_fives,
    won_at_once,
)

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def scorer_url(match: Match, name: str = "scorepad") -> str:
    return reverse(f"matches:{name}", kwargs={"public_id": match.public_id})


def join(client: Client, match: Match) -> None:
    """This test client's browser scores ``match``: it takes a grant by the shared link."""
    response = client.post(match.get_join_url())
    assert response.status_code == 302 and response["Location"] == scorer_url(match)


def w(match: Match, *, turn: bool = False) -> dict[str, object]:
    """What the page's scoring forms send: its version, a fresh tap key (and the seat whose
    turn the page shows, for a tracked play, draw or pass)."""
    match.refresh_from_db()
    fields: dict[str, object] = {"version": match.version, "key": str(uuid.uuid4())}
    if turn:
        rnd = match_engine(match).current_round
        assert rnd is not None and rnd.turn is not None
        fields["seat"] = rnd.turn
    return fields


def scores(html: str) -> list[str]:
    return re.findall(r'data-score="\d+">([^<]+)<', html)


def error(html: str) -> str | None:
    found = re.search(r'id="scorepad-error">([^<]+)<', html)
    return found.group(1) if found else None


def notices(html: str) -> list[str]:
    """What the bar under the thumb says (messages), in order."""
    return [re.sub(r"\s+", " ", text).strip()
            for text in re.findall(r'<p class="message message-\w+"[^>]*>([^<]+)</p>', html)]


def choices(html: str, tile: str) -> list[tuple[str, str, str]]:
    """The ends the page offers for ``tile`` (it holds every playable tile's): each
    end's point, its name and what it would make."""
    found = re.search(rf'data-for="{tile}"[^>]*>(.*?)</div>', html, re.S)
    if found is None:
        return []
    return [(point, re.sub(r"<[^>]+>", "", label).strip(), made)
            for point, label, made in re.findall(
                r'data-point="([^"]+)"[^>]*><span class="choice-name">(.*?)</span>\s*'
                r'<small>([^<]+)</small>', found.group(1))]


# -- a new match ----------------------------------------------------------------------


def test_new_match_starts_the_first_round_and_lands_on_the_scorer_link(client):
    response = client.post(reverse("matches:new"), {"creation_key": drawn_key(client),
        "game": "all-fives", "player_0": "Olena", "player_1": "Taras", "player_2": "",
        "starter": "1", "mode": "tracked"})
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == scorer_url(match)
    engine = match_engine(match)
    assert engine.names == ("Olena", "Taras")
    assert engine.current_round is not None and engine.current_round.starter == 1
    assert match.target == 250


@pytest.mark.parametrize(("sent", "said"), [
    ({"game": "chess"}, "Select a valid choice. chess is not one of the available choices."),
    ({"mode": "x"}, "Select a valid choice. x is not one of the available choices."),
    ({"game": "fives-and-threes", "tile_set": "double-100", "double_holder": "0"},
     "Select a valid choice. double-100 is not one of the available choices."),
    ({"creation_key": ""}, "This field is required."),
])
def test_a_new_match_refused_for_a_field_the_page_shows_no_box_for_says_why(client, sent,
                                                                             said):
    """A stale or altered page's choice once came back with no word on the page."""
    response = client.post(reverse("matches:new"), {
        "creation_key": drawn_key(client), "game": "all-fives", "player_0": "Olena",
        "player_1": "Taras", "starter": "1", "mode": "tracked", **sent})
    assert response.status_code in (200, 400) and not Match.objects.exists()
    assert said in unescape(response.content.decode())


def test_new_match_by_a_draw_of_lots_says_who_starts(client):
    response = client.post(reverse("matches:new"), {"creation_key": drawn_key(client),
        "game": "five-up", "player_0": "Olena", "player_1": "Taras", "player_2": "Iryna",
        "starter": "lots", "mode": "tracked"}, follow=True)
    first = match_engine(Match.objects.get()).current_round
    assert first is not None and first.starter is not None
    starter = first.starter
    assert f"Drawn by lots: {['Olena', 'Taras', 'Iryna'][starter]} starts." in \
        response.content.decode()


def test_fives_and_threes_is_started_by_the_holder_of_the_highest_double(client):
    new = {"creation_key": drawn_key(client), "game": "fives-and-threes", "player_0": "A",
           "player_1": "B", "starter": "lots", "mode": "tracked"}
    html = client.get(reverse("matches:new")).content.decode()
    assert "Who holds the highest double? They start." in html
    # no draw of lots in Fives and Threes: the holder must be named
    response = client.post(reverse("matches:new"), new)
    assert response.status_code == 200 and not Match.objects.exists()
    assert ("In Fives and Threes the player holding the highest double starts: choose who "
            "it is.") in response.content.decode()
    client.post(reverse("matches:new"), {**new, "double_holder": "1"})
    first = match_engine(Match.objects.get()).current_round
    assert first is not None and first.starter == 1


def test_the_new_match_page_says_the_games_own_targets_and_offers_their_sets(client):
    html = unescape(client.get(reverse("matches:new")).content.decode())
    assert ("Leave empty for the game's own: All Fives 250 (two players) or 200, Five Up 61 "
            "display points, Fives and Threes 61.") in html
    sets = re.search(r'<select name="tile_set".*?</select>', html, re.S)
    assert sets is not None
    assert re.findall(r'<option value="([^"]+)"', sets[0]) == [
        "double-six", "double-nine", "double-twelve"]
    assert 'value="double-six" selected' in sets[0]
    uk = client.get(reverse("matches:new"), headers={"accept-language": "uk"})
    assert ("Залиште порожнім для цілі самої гри: П’ятірки — 250 (двоє гравців) або 200, "
            "Файв Ап — 61 (у відображуваних балах), П’ятірки й трійки — 61.") in uk.content.decode()


def test_new_match_keeps_fives_and_threes_options(client):
    client.post(reverse("matches:new"), {"creation_key": drawn_key(client),
        "game": "fives-and-threes", "player_0": "A", "player_1": "B", "player_2": "C",
        "tile_set": "double-nine", "deal": "short", "drawing": "on", "advanced": "on",
        "double_holder": "2", "mode": "tracked", "target": "101"})
    match = Match.objects.get()
    first = match_engine(match).current_round
    assert first is not None and first.starter == 2
    assert match.options == {"target": 101, "set": "double-nine", "deal": "short",
                             "drawing": True, "divisors": [3, 5, 7, 11, 13],
                             "immediate_end": False}
    assert match_engine(match).options.hand_size == 10


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"player_0": "Olena"}, "player_1", "at least two"),  # at the first empty seat
    ({"player_0": "Olena", "player_1": "olena"}, "player_1", "different name"),
    ({"player_0": "A", "player_1": "B", "player_2": "C", "player_3": "D", "player_4": "E"},
     "player_4", "All Fives is for 2 to 4 players, not 5"),
    ({"player_0": "A", "player_1": "B", "hand_size": "20"}, "hand_size",
     "At most 14 tiles each at this table: the set has 28."),
    ({"player_0": "A", "player_1": "B", "starter": "5"}, "starter", "one of the players"),
    ({"game": "fives-and-threes", "player_0": "A", "player_1": "B"}, "double_holder",
     "highest double"),
])
def test_new_match_refuses_bad_input_and_keeps_what_was_typed(client, data, field, message):
    response = client.post(reverse("matches:new"), {
        "game": "all-fives", "mode": "tracked", "immediate_end": "on",
        "creation_key": drawn_key(client), **data})
    assert response.status_code == 200
    assert Match.objects.count() == 0
    form = response.context["form"]
    assert message in " ".join(form.errors[field])
    html = response.content.decode()
    assert f'value="{data["player_0"]}"' in html
    # the refused field opens with the focus, marked and pointing at its reason
    assert html.count("autofocus") == 1
    control = re.search(rf'<(?:input|select)[^>]*name="{field}"[^>]*>', html)
    assert control is not None and "autofocus" in control[0]
    assert 'aria-invalid="true"' in control[0]
    assert re.search(rf'aria-describedby="[^"]*\bid_{field}_error\b', control[0])


def test_new_match_opens_on_the_first_refusal_as_the_page_shows_them(client):
    response = client.post(reverse("matches:new"), {
        "game": "all-fives", "mode": "tracked", "creation_key": "not a key",
        "player_0": "Olena", "player_1": "olena", "hand_size": "20"})

    # the players' error comes before the hand size's on the page; a hidden field never
    assert response.context["form"].focus_field == "player_1"
    assert response.content.decode().count("autofocus") == 1


def refused_seats(html: str) -> dict[str, str]:
    """Each seat's input marked refused, by name: the id of what it points at."""
    return {control[1]: control[2] for control in re.finditer(
        r'<input type="text" name="(player_\d+)"[^>]*aria-invalid="true" '
        r'aria-describedby="([^"]+)"', html)}


def test_a_repeated_name_is_refused_at_the_seat_that_repeats_it(client):
    response = client.post(reverse("matches:new"), {
        "game": "fives-and-threes", "mode": "tracked", "creation_key": drawn_key(client),
        "double_holder": "0", "player_0": "Ann", "player_1": "ann", "player_2": "Bo",
        "player_3": "Cy", "player_4": " BO "})

    assert Match.objects.count() == 0
    form = response.context["form"]
    assert {field: list(errors) for field, errors in form.errors.items()} == {
        "player_1": ["Each player needs a different name."],
        "player_4": ["Each player needs a different name."]}
    html = response.content.decode()
    assert refused_seats(html) == {"player_1": "id_player_1_error",
                                   "player_4": "id_player_4_error"}
    for seat in (1, 4):
        assert (f'<ul class="errorlist" id="id_player_{seat}_error"><li>Each player needs '
                "a different name.</li></ul>") in html
    # the fifth seat is among "More players": shown open, with the focus on the first
    assert '<details class="more-players" open>' in html
    assert re.search(r'<input [^>]*name="player_1"[^>]* autofocus', html)


@pytest.mark.parametrize(("data", "seat", "message"), [
    # the fifth name, in the sixth seat (the fifth was left empty)
    ({"game": "all-fives", "starter": "lots", "player_0": "A", "player_1": "B",
      "player_2": "C", "player_3": "D", "player_5": "E"}, 5,
     "All Fives is for 2 to 4 players, not 5"),
    ({"game": "fives-and-threes", "double_holder": "0", "tile_set": "double-six",
      **{f"player_{seat}": f"P{seat}" for seat in range(7)}}, 5,
     "Fives and Threes with double-six is for 2 to 5 players, not 7"),
])
def test_too_many_players_are_refused_at_the_first_seat_past_the_most(client, data, seat,
                                                                     message):
    response = client.post(reverse("matches:new"), {
        "mode": "tracked", "creation_key": drawn_key(client), **data})

    assert Match.objects.count() == 0
    assert {field: list(errors) for field, errors in
            response.context["form"].errors.items()} == {f"player_{seat}": [message]}
    html = response.content.decode()
    assert refused_seats(html) == {f"player_{seat}": f"id_player_{seat}_error"}
    assert f'<ul class="errorlist" id="id_player_{seat}_error"><li>{message}' in html
    assert '<details class="more-players" open>' in html
    assert re.search(rf'<input [^>]*name="player_{seat}"[^>]* autofocus', html)
    assert html.count("autofocus") == 1


def test_the_same_new_match_form_submitted_twice_makes_one_match(client):
    form = {"creation_key": drawn_key(client), "game": "all-fives", "player_0": "Olena",
            "player_1": "Taras", "starter": "lots", "mode": "tracked"}
    first = client.post(reverse("matches:new"), form)
    second = client.post(reverse("matches:new"), form)
    match = Match.objects.get()
    assert first["Location"] == second["Location"] == match.get_scorer_url()
    assert match.rounds.count() == 1 and match.version == 1
    assert client.get(match.get_scorer_url()).status_code == 200


def drawn_form(client: Client) -> dict[str, str]:
    """The new-match form as ``client``'s browser draws it, filled in: its key is the
    one on the page."""
    page = client.get(reverse("matches:new")).content.decode()
    key = re.search(r'name="creation_key" value="([0-9a-f-]{36})"', page)
    assert key is not None
    return {"creation_key": key[1], "game": "all-fives", "player_0": "Olena",
            "player_1": "Taras", "starter": "0", "mode": "tracked"}


def test_the_form_drawn_here_starts_the_match_once_however_often_it_is_sent(client):
    form = drawn_form(client)

    first = client.post(reverse("matches:new"), form)
    again = client.post(reverse("matches:new"), form)

    match = Match.objects.get()
    assert first["Location"] == again["Location"] == match.get_scorer_url()


def test_a_form_drawn_after_the_password_changed_elsewhere_starts_its_match(client):
    # reading the user flushes such a session: a key drawn before that read went with it
    olena = User.objects.create_user("olena", password="a-long-pass-4410")
    client.force_login(olena)
    olena.set_password("changed-elsewhere-5521")
    olena.save()
    form = drawn_form(client)

    response = client.post(reverse("matches:new"), form)

    assert response.status_code == 302
    assert response["Location"] == Match.objects.get().get_scorer_url()


def test_a_creation_key_sent_from_another_browser_leads_to_no_match_and_no_grant(client):
    form = drawn_form(client)
    client.post(reverse("matches:new"), form)
    match = Match.objects.get()
    stranger = Client()

    response = stranger.post(reverse("matches:new"), form)

    assert response.status_code == 400
    assert str(CREATION_KEY_NOT_HERE) in unescape(response.content.decode())
    assert Match.objects.get() == match and match.grants.count() == 1
    assert stranger.get(match.get_scorer_url()).status_code == 403
    assert stranger.get(reverse("matches:home")).content.decode().count(
        str(match.public_id)) == 0


def test_a_creation_key_from_another_browser_is_refused_before_its_match_exists_too(client):
    form = drawn_form(client)

    refused = Client().post(reverse("matches:new"), form)
    started = client.post(reverse("matches:new"), form)

    assert refused.status_code == 400 and started.status_code == 302
    assert started["Location"] == Match.objects.get().get_scorer_url()


def test_a_refused_form_comes_back_filled_in_with_a_key_of_this_browser(client):
    form = drawn_form(Client())

    refused = client.post(reverse("matches:new"), form).content.decode()

    assert 'value="Olena"' in refused and 'value="Taras"' in refused
    key = re.search(r'name="creation_key" value="([0-9a-f-]{36})"', refused)
    assert key is not None and key[1] != form["creation_key"]
    # sent again as it came back, it starts the match in this browser
    response = client.post(reverse("matches:new"), {**form, "creation_key": key[1]})
    assert response["Location"] == Match.objects.get().get_scorer_url()
    assert client.get(response["Location"]).status_code == 200


def test_a_seats_name_is_kept_as_one_line(client):
    # a newline or a bidi override in a name broke the lines and rows it was shown in
    response = client.post(reverse("matches:new"), {
        "game": "all-fives", "mode": "tracked", "creation_key": drawn_key(client),
        "starter": "0", "player_0": "Ann\r\nDale", "player_1": "\u202eBo\t"})

    assert response.status_code == 302
    assert match_names(Match.objects.get()) == ["Ann Dale", "Bo"]


def test_names_that_differ_only_by_case_are_one_name_however_the_database_folds(client):
    response = client.post(reverse("matches:new"), {
        "creation_key": drawn_key(client), "game": "all-fives", "player_0": "İvan",
        "player_1": "ivan", "starter": "0", "mode": "tracked"})
    # Python's casefold tells "İvan" from "ivan"; where the database folds them to one
    # name (PostgreSQL), the form says so instead of a 500, and nothing is stored
    assert response.status_code in (200, 302)
    assert Match.objects.count() == (1 if response.status_code == 302 else 0)
    if response.status_code == 200:
        assert "Each player needs a different name" in response.content.decode()


# -- scoring --------------------------------------------------------------------------


def test_tapping_a_tile_offers_only_its_legal_ends_with_what_they_make(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("1-4")))
    event_record(match=match, action=rules.Play(1, T("1-1"), A("1-4:1")))
    join(client, match)
    # one page holds every playable tile's ends: choosing a tile asks the server nothing
    html = client.get(scorer_url(match)).content.decode()
    assert choices(html, "4-4") == [("1-4:4", "On the 4 of 1-4", "sum 10 → 10")]
    # 1-1 is the spinner: a flank is not offered until both its line sides are filled
    assert choices(html, "1-5") == [("1-1:1", "On the double 1", "sum 9 → 0")]
    assert choices(html, "2-3") == []  # it fits no open end, and its name says so
    assert 'data-tile="2-3" aria-label="2-3, fits no open end"' in html
    assert 'data-tile="4-4" aria-label="4-4"' in html
    assert 'aria-label="1-4, on the table"' in html


def test_a_phone_is_named_in_each_readers_language(client):
    match = two_player_all_fives()
    client.post(match.get_join_url(), headers={
        "Accept-Language": "uk", "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8)"})
    assert match.grants.get().label == "Android phone"  # kept in English

    scorers = reverse("matches:scorers", kwargs={"public_id": match.public_id})
    for language, name in (("uk", "Android-телефон"), ("ru", "Android-телефон"),
                           ("en", "Android phone")):
        page = client.get(scorers, headers={"Accept-Language": language}).content.decode()
        assert f"<strong>{name}</strong> (" in page, language


def test_a_doubles_end_says_how_many_more_tiles_it_takes_for_the_page_offline(client):
    """All Fives: 5-5 opens and spins (two line sides, then two flanks); 6-6, the
    second double, does not (one side left besides its link)."""
    match = two_player_all_fives(hand_size=7)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("5-6"), A("5-5:5")))
    join(client, match)

    html = client.get(scorer_url(match)).content.decode()
    assert 'id="place-form" data-spinners="first-double" data-doubles="1"' in html
    assert '<button type="submit" name="at" value="5-5:5" class="btn choice" ' \
        'data-point="5-5:5" data-free="3" data-spinner><span class="choice-name">On the ' \
        'double 5</span> <small>' in html
    # no double: no count; the tile's name never breaks across lines
    assert 'data-point="5-6:6"><span class="choice-name">On the 6 of ' \
        '<span class="tile-name">5-6</span></span> <small>' in html
    event_record(match=match, action=rules.Play(0, T("6-6"), A("5-6:6")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
    html = client.get(scorer_url(match)).content.decode()
    assert 'data-doubles="2"' in html
    assert 'data-point="6-6:6" data-free="1"><span class="choice-name">On the double 6' in html
    assert 'data-point="5-5:5" data-free="2" data-spinner><span class="choice-name">On the ' \
        'side of the double 5</span>' in html


def test_the_passes_in_a_row_are_given_to_the_page_offline_and_a_placement_clears_them(client):
    """Two seats: the second pass in a row blocks the round; the page offline counts on
    from the server's count (static/js/offline.js)."""
    match = two_player_all_fives(hand_size=7)  # the boneyard holds 14 tiles
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Draw(1, 14))
    join(client, match)
    assert 'data-doubles="1" data-passes="0"' in client.get(scorer_url(match)).content.decode()

    event_record(match=match, action=rules.Pass(1))
    assert 'data-passes="1"' in client.get(scorer_url(match)).content.decode()
    event_record(match=match, action=rules.Play(0, T("5-6"), A("5-5:5")))
    assert 'data-passes="0"' in client.get(scorer_url(match)).content.decode()


PIXEL = {"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8)"}


def grant_rows(html: str) -> list[str]:
    """The scorers' list: each phone's name, as shown."""
    return re.findall(r'<li class="grant[^"]*" data-grant="\d+">\s*<strong>([^<]+)</strong>', html)


def test_two_phones_of_one_kind_are_told_apart_by_the_names_their_scorers_give(client):
    match = two_player_all_fives()
    client.post(match.get_join_url(), {"name": "  Ann’s   phone "}, headers=PIXEL)
    other = Client()
    other.post(match.get_join_url(), {"name": ""}, headers=PIXEL)  # the name is optional
    assert [(g.label, g.name) for g in match.grants.all()] == [
        ("Android phone", "Ann’s phone"), ("Android phone", "")]

    scorers = reverse("matches:scorers", kwargs={"public_id": match.public_id})
    assert grant_rows(other.get(scorers).content.decode()) == [
        "Ann’s phone (Android phone)", "Android phone"]
    assert grant_rows(other.get(scorers, headers={"Accept-Language": "uk"}).content.decode()) \
        == ["Ann’s phone (Android-телефон)", "Android-телефон"]
    # the history names the phone that made each change the same way
    round_start(match=match, starter=0, grant=match.grants.first())
    history = client.get(scorer_url(match, "history")).content.decode()
    assert "Ann’s phone (Android phone) ·" in history


def test_two_phones_of_one_kind_joined_in_one_minute_have_revoke_buttons_of_their_own(client):
    client.post(reverse("matches:new"), {"creation_key": drawn_key(client),
        "game": "all-fives", "player_0": "Olena", "player_1": "Taras", "player_2": "",
        "starter": "1", "mode": "tracked"})
    match = Match.objects.get()
    for second in (5, 40):
        Client().post(match.get_join_url(), {"name": ""}, headers=PIXEL)
        joined = match.grants.order_by("-pk")[0]
        match.grants.filter(pk=joined.pk).update(
            created_at=datetime.datetime(2026, 9, 7, 20, 15, second, tzinfo=datetime.UTC))
    page = client.get(reverse("matches:scorers", kwargs={"public_id": match.public_id}))
    names = re.findall(r'Revoke<span class="visually-hidden">: ([^<]+)</span>',
                       page.content.decode())
    phones = [name for name in names if "Android phone" in name]  # this phone's too
    assert len(phones) == 2 and len(set(phones)) == 2, names  # one name each


def test_the_join_page_asks_for_a_name_and_a_refused_one_takes_no_grant(client):
    match = two_player_all_fives()
    page = client.get(match.get_join_url()).content.decode()
    assert '<label for="id_name">Name this phone (optional)</label>' in page
    assert 'aria-describedby="id_name_helptext"' in page
    for refused in ("x" * 41, "Ann\x00"):
        response = client.post(match.get_join_url(), {"name": refused})
        assert response.status_code == 400
        assert response.context["form"].errors["name"]
        assert not match.grants.exists()  # no grant, and the typed name shown again
    assert 'value="' + "x" * 41 + '"' in client.post(
        match.get_join_url(), {"name": "x" * 41}).content.decode()
    assert "Ensure this value has at most 40 characters (it has 41)." in client.post(
        match.get_join_url(), {"name": "x" * 41}).content.decode()
    assert client.post(match.get_join_url(), {"name": "x" * 40}).status_code == 302
    assert match.grants.get().name == "x" * 40


def test_a_phone_renames_itself_on_the_scorers_page(client):
    match = two_player_all_fives()
    client.post(match.get_join_url(), headers=PIXEL)
    other = Client()
    join(other, match)
    scorers = reverse("matches:scorers", kwargs={"public_id": match.public_id})
    name_url = reverse("matches:scorers_name", kwargs={"public_id": match.public_id})

    answer = client.post(name_url, {"name": "Table 3"}, follow=True)
    assert '<li class="message message-success">This phone is now called Table 3 (Android ' \
        'phone).</li>' in answer.content.decode()
    assert grant_rows(other.get(scorers).content.decode())[0] == "Table 3 (Android phone)"
    assert 'value="Table 3"' in client.get(scorers).content.decode()  # offered to change

    refused = client.post(name_url, {"name": "y" * 41})
    assert refused.status_code == 400 and refused.context["name_form"].errors["name"]
    assert match.grants.get(name="Table 3")  # kept as it was
    client.post(name_url, {"name": "   "})  # no name: its kind again
    assert grant_rows(other.get(scorers).content.decode())[0] == "Android phone"
    # a phone that does not score this match names nothing
    assert Client().post(name_url, {"name": "Mine"}).status_code == 403
    assert not match.grants.filter(name="Mine").exists()


def test_the_creator_names_the_phone_it_claims_scoring_on(client, django_user_model):
    user = django_user_model.objects.create_user("olena")
    client.force_login(user)
    match = match_create(game="all-fives", players=["Olena", "Taras"],
                                  created_by=user)
    offer = client.get(scorer_url(match)).content.decode()
    assert '<label for="id_name">Name this phone (optional)</label>' in offer
    claim = reverse("matches:claim", args=[match.public_id])
    refused = client.post(claim, {"name": "z" * 41})
    assert refused.status_code == 403 and refused.context["form"].errors["name"]
    assert not match.grants.exists()
    assert client.post(claim, {"name": "Olena’s tablet"}).status_code == 302
    assert match.grants.get().name == "Olena’s tablet"


def test_an_end_offers_what_would_count_its_last_tiles_bonus_in_and_an_overshoot_out(
        client):
    """Fives and Threes to 5, two tiles each: Olena (2) holds her last tile."""
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"],
                                  options={"target": 5, "hand_size": 2})
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("3-3")))  # 6 makes 2
    event_record(match=match, action=rules.Play(1, T("0-3"), A("3-3:3")))  # 0 + 6
    join(client, match)

    html = client.get(scorer_url(match)).content.decode()

    # 0 + 6 makes 2, + 1 for going out: 5, the target exactly
    assert choices(html, "0-0") == [("0-3:0", "On the 0 of 0-3", "sum 6 → 3")]
    # 6 + 6 makes 4, + 1: 7 would pass 5, so nothing counts (RULES.md §4.3)
    assert choices(html, "0-6") == [("0-3:0", "On the 0 of 0-3", "sum 12 → 0, past the target")]
    html = client.post(scorer_url(match, "play"), {
        **w(match, turn=True), "tile": "0-6", "at": "0-3:0"}, **HTMX).content.decode()
    assert scores(html)[:2] == ["2", "2"]


def test_a_play_through_htmx_answers_with_the_scorepad_fragment(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    response = client.post(scorer_url(match, "play"),
                           {**w(match, turn=True), "tile": "5-5", "at": "", "claim": "10"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    # what a tap changes, not the page: the table, and the rounds table out of band
    assert "<html" not in html and 'id="scorepad"' not in html
    assert html.lstrip().startswith('<div id="live"')
    assert '<section class="history" id="history" hx-swap-oob="true">' in html
    assert scores(html) == ["10", "0"]
    assert Event.objects.get().points == 10


def test_a_wrong_call_keeps_the_tile_scores_the_rules_points_and_notes_the_call(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    join(client, match)
    html = client.post(scorer_url(match, "play"), {
        **w(match, turn=True), "tile": "0-5", "at": "5-5:5", "claim": "15"},
        **HTMX).content.decode()
    assert error(html) is None
    assert notices(html)[-1] == ("Recorded with the rules&#x27; points: claim 15 differs "
                                 "from the 10 the rules give (end sum 10).")
    assert scores(html) == ["10", "10"]
    event = Event.objects.get(tile="0-5")
    assert (event.points, event.miscall) == (10, 15)
    # the round's log keeps the wrong call
    assert "Taras called 15 for 0-5; the rules give 10, which counted" in html


def test_a_pass_while_the_boneyard_holds_tiles_is_refused_with_the_reason(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    join(client, match)
    html = client.post(scorer_url(match, "pass"), w(match, turn=True), **HTMX).content.decode()
    assert error(html) == "Taras cannot pass while the boneyard holds 24 tiles"


def test_a_tile_not_in_the_set_is_refused_as_such_not_as_having_no_open_end(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    html = client.post(scorer_url(match, "play"), {**w(match, turn=True), "tile": "7-7"},
                       **HTMX).content.decode()
    assert error(html) == "tile 7-7 is not in the double-six set"
    assert "7-7 has no open end to join" not in html
    # nor when it comes back as the tile chosen in the address
    page = client.get(scorer_url(match) + "?tile=7-7").content.decode()
    assert "7-7 has no open end to join" not in page


def test_a_repeated_tap_after_a_dropped_connection_is_not_applied_twice(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    join(client, match)
    tap = {**w(match, turn=True), "tiles": "2"}
    client.post(scorer_url(match, "draw"), tap, **HTMX)
    html = client.post(scorer_url(match, "draw"), tap, **HTMX).content.decode()
    assert "Already recorded: Taras drew 2." in html
    assert Event.objects.filter(kind="draw").count() == 1
    # the same page's other tap, made on the version it showed, is refused as stale
    stale = {**tap, "key": str(uuid.uuid4())}
    html = client.post(scorer_url(match, "draw"), stale, **HTMX).content.decode()
    assert str(OUT_OF_DATE) in html.replace("&#x27;", "'")
    assert Event.objects.filter(kind="draw").count() == 1
    rnd = match_engine(match).current_round
    assert rnd is not None and rnd.boneyard == 22


def shown_versions(html: str) -> list[int]:
    """The match version each table in an answer shows (#live's data-version): the page
    keeps an answer older than the table it shows out (static/js/scorekeeper.js)."""
    return [int(v) for v in re.findall(r'<div id="live"[^>]*\sdata-version="(\d+)"', html)]


def test_every_answer_that_draws_the_scorers_table_says_its_version(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    table = {**HTMX, "HTTP_HX_TARGET": "live"}  # a tap, or the count's switch, in #live
    reread = {**HTMX, "HTTP_HX_TARGET": "scorepad"}  # the page read again

    def version() -> int:
        match.refresh_from_db()
        return match.version

    def says_its_version(response) -> str:  # noqa: ANN001
        html = response.content.decode()
        assert response.status_code == 200
        assert shown_versions(html) == [version()]
        return html

    says_its_version(client.get(scorer_url(match)))  # the page
    says_its_version(client.get(scorer_url(match), **reread))
    opening = {**w(match, turn=True), "tile": "5-5", "at": ""}
    says_its_version(client.post(scorer_url(match, "play"), opening, **table))
    assert version() == 2
    says_its_version(client.get(f"{scorer_url(match)}?sync={opening['key']}", **reread))
    again = says_its_version(client.post(scorer_url(match, "play"), opening, **table))
    assert "Already recorded" in again
    refused = says_its_version(client.post(scorer_url(match, "pass"), w(match, turn=True),
                                           **table))
    assert error(refused) == "Taras cannot pass while the boneyard holds 24 tiles"
    stale = says_its_version(client.post(scorer_url(match, "draw"), {
        **w(match, turn=True), "tiles": "1", "version": 1}, **table))
    assert str(OUT_OF_DATE) in unescape(stale)
    says_its_version(client.post(scorer_url(match, "draw"), {
        **w(match, turn=True), "tiles": "1"}, **table))
    assert version() == 3
    says_its_version(client.post(scorer_url(match, "undo"), w(match), **table))
    says_its_version(client.get(f"{scorer_url(match)}?entry=tiles", **table))
    assert version() == 4


def test_every_answer_that_draws_a_watchers_table_says_its_version(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    for headers in ({}, HTMX, {**HTMX, "HTTP_HX_TARGET": "scorepad"}):
        html = client.get(match.get_absolute_url(), **headers).content.decode()
        assert shown_versions(html) == [2]


def news(html: str) -> list[str]:
    """What the bar says the tap just did ([data-news]), tags taken out."""
    return [" ".join(re.sub(r"<[^>]+>", " ", text).split())
            for text in re.findall(r'<p class="[^"]*"[^>]* data-news>(.*?)</p>', html, re.S)]


def test_the_bar_says_what_each_tap_did_a_placement_a_draw_a_settlement_a_win(client):
    match = two_player_all_fives(target=20)
    round_start(match=match, starter=0)
    join(client, match)
    html = client.post(scorer_url(match, "play"), {**w(match, turn=True), "tile": "5-5",
                                                   "at": ""}, **HTMX).content.decode()
    assert news(html) == ["Olena: 5-5 to open — sum 10 → 10"]
    html = client.post(scorer_url(match, "draw"), {**w(match, turn=True), "tiles": "2"},
                       **HTMX).content.decode()
    assert news(html) == ["Taras drew 2"]  # and not the placement before it again
    short = two_player_all_fives()
    play_short_round(short)
    join(client, short)
    html = client.post(scorer_url(short, "settle"), {
        **w(short), "entry": "pips", "pips_0": "0", "pips_1": "9"}, **HTMX).content.decode()
    assert news(html) == ["Round 1 settled: Olena: 0 pips; Taras: 9 pips; Olena went out "
                          "and wins the round; opponents&#x27; pips: 9; 9 rounds up to 10 "
                          "(remainder 4); Olena scores 10"]
    won = two_player_all_fives(target=10)
    round_start(match=won, starter=0)
    join(client, won)
    html = client.post(scorer_url(won, "play"), {**w(won, turn=True), "tile": "5-5",
                                                 "at": ""}, **HTMX).content.decode()
    assert news(html) == ["Olena: 5-5 to open — sum 10 → 10", "Olena won"]
    refused = client.post(scorer_url(won, "play"), {**w(won), "tile": "5-6", "at": ""},
                          **HTMX).content.decode()
    assert news(refused) == []  # nothing was done: the refusal speaks instead
    last = two_player_all_fives()
    round_start(match=last, starter=0)
    event_record(match=last, action=rules.Play(0, T("5-5")))
    event_record(match=last, action=rules.Play(1, T("0-5"), A("5-5:5")))
    join(client, last)
    html = client.post(scorer_url(last, "play"), {**w(last, turn=True), "tile": "5-6",
                                                  "at": "5-5:5"}, **HTMX).content.decode()
    assert news(html) == ["Olena: 5-6 on the double 5 — sum 6 → 0",  # her last tile
                          "Round 1 is over — count the hands"]


def heading_of_the_count(html: str) -> str:
    found = re.search(r"<h2>([^<]*count the hands)</h2>", html)
    assert found is not None, "no count asked"
    return found.group(1)


def test_a_round_every_seat_passed_is_said_to_be_blocked_not_just_over(client):
    match = two_player_all_fives(hand_size=14)  # the whole set dealt: passing is allowed
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("6-6")))
    event_record(match=match, action=rules.Pass(1))
    join(client, match)

    html = client.post(scorer_url(match, "pass"), w(match, turn=True), **HTMX).content.decode()

    assert news(html) == ["Olena passed", "Round 1 is blocked — count the hands"]
    assert heading_of_the_count(html) == "Round 1 is blocked — count the hands"
    # a round someone went out of is over, as before
    short = two_player_all_fives()
    play_short_round(short)
    join(client, short)
    assert heading_of_the_count(client.get(scorer_url(short)).content.decode()) == \
        "Round 1 is over — count the hands"


def test_a_called_round_said_blocked_is_announced_blocked_and_waits_for_its_count(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0, mode="ends")
    join(client, match)

    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "none", "result": "blocked"}, **HTMX).content.decode()

    assert error(html) is None
    assert news(html) == ["Round 1 is blocked — count the hands"]
    assert heading_of_the_count(html) == "Round 1 is blocked — count the hands"


def test_a_blocked_round_that_settles_itself_says_it_was_blocked(client):
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"],
                                  options={"hand_size": 14})
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("6-6")))
    event_record(match=match, action=rules.Pass(1))
    join(client, match)

    html = client.post(scorer_url(match, "pass"), w(match, turn=True), **HTMX).content.decode()

    assert news(html) == ["Olena passed",
                          "Round 1 blocked and settled: remaining tiles score nothing"]


def test_settling_by_tiles_shows_the_settlement_steps(client):
    match = two_player_all_fives()
    play_short_round(match)  # Olena goes out, Taras holds one tile
    join(client, match)
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "tiles", "hand_1": ["3-6"]}, **HTMX).content.decode()
    assert error(html) is None
    assert "Round 1 settled" in html
    assert "9 rounds up to 10 (remainder 4)" in html
    assert scores(html) == ["20", "10"]


def test_a_count_by_tiles_notes_a_pass_the_hands_prove_was_against_the_rules(client):
    match = two_player_all_fives(hand_size=14)
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("6-6")))
    event_record(match=match, action=rules.Pass(1))  # only a 6 could join
    event_record(match=match, action=rules.Pass(0))
    join(client, match)
    no_sixes = [f"{low}-{high}" for high in range(6) for low in range(high + 1)]
    bo = no_sixes[13:] + ["4-6", "0-6", "1-6", "2-6", "3-6", "5-6"]

    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "tiles", "hand_0": no_sixes[:13], "hand_1": bo},
        **HTMX).content.decode()

    note = ("note: Taras passed holding 4-6, 0-6, 1-6, 2-6, 3-6, 5-6, which fitted an open "
            "end (a pass is for a player who cannot play)")
    assert error(html) is None and match.rounds.get().settled  # noted, not refused
    assert news(html)[0].endswith("; Olena scores 110; " + note)
    page = client.get(reverse("matches:detail", kwargs={"public_id": match.public_id}))
    assert note in page.content.decode()  # the match page replays it from the stored count


def test_settling_with_impossible_pips_is_refused(client):
    match = two_player_all_fives()
    play_short_round(match)
    join(client, match)
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "pips", "pips_0": "0", "pips_1": "13"},
        **HTMX).content.decode()
    assert error(html) == "pips: no unseen tile adds up to 13 (Taras)"
    assert not match.rounds.get().settled
    # what was entered stays, to be corrected rather than typed again
    assert 'name="pips_0" min="0" inputmode="numeric" value="0" required' in html
    assert 'name="pips_1" min="0" inputmode="numeric" value="13" required aria-invalid="true" ' \
        'aria-describedby="scorepad-error"' in html  # the refusal names Taras: his field
    assert html.count("aria-invalid") == 1


def test_a_pip_count_its_field_refuses_is_said_once(client):
    match = two_player_all_fives()
    play_short_round(match)
    join(client, match)
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "pips", "pips_0": "0", "pips_1": "-3"},
        **HTMX).content.decode()
    said = error(html) or ""
    assert "greater than or equal to 0" in said
    assert "Enter the pips left in this hand" not in said  # its own reason, not two
    assert not match.rounds.get().settled


def test_a_refused_count_by_tiles_keeps_the_tiles_tapped(client):
    match = two_player_all_fives()
    play_short_round(match)  # Olena went out: her hand is empty
    join(client, match)

    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "tiles", "hand_1": ["2-2", "3-6"]},  # Taras holds one
        **HTMX).content.decode()

    assert error(html) is not None and not match.rounds.get().settled
    checked = re.findall(r'name="(hand_\d)" value="([^"]+)" checked', html)
    assert checked == [("hand_1", "2-2"), ("hand_1", "3-6")]
    # Olena went out: no tiles are offered her
    assert 'name="hand_0"' not in html and "Went out: no tiles to count." in html
    fresh = client.get(scorer_url(match) + "?entry=tiles").content.decode()
    assert " checked" not in fresh.split('id="settle-form"')[1].split("</form>")[0]


def test_undo_steps_back_into_the_previous_round(client):
    match = two_player_all_fives()
    play_short_round(match)
    round_settle(match=match, pips=(0, 9))
    round_start(match=match, starter=0)
    join(client, match)
    for expected, what in ((["20", "10"], "the start of the round"),
                           (["10", "10"], "the round&#x27;s settlement"),
                           (["10", "10"], "Olena played 5-6 on the double 5")):
        # the round start, then the settlement, then the last tile of round 1
        html = client.post(scorer_url(match, "undo"), w(match),
                           **HTMX).content.decode()
        assert scores(html) == expected
        assert f"Took back {what}." in html
    assert live(match.rounds).count() == 1 and not live(match.rounds).get().settled


def test_without_javascript_a_write_redirects_and_an_error_is_a_message(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    response = client.post(scorer_url(match, "play"), {**w(match, turn=True), "tile": "5-5"})
    assert response.status_code == 302 and response["Location"] == scorer_url(match)
    response = client.post(scorer_url(match, "pass"), w(match, turn=True), follow=True)
    assert "cannot pass while the boneyard holds" in response.content.decode()


def test_a_match_in_play_is_named_by_its_players_in_the_pages_title(client):
    # two tabs (or phones) on two All Fives matches are told apart; a finished match's
    # page already named them
    match = two_player_all_fives()
    join(client, match)
    for url in (scorer_url(match), match.get_absolute_url()):
        html = client.get(url).content.decode()
        assert "<title>All Fives: Olena, Taras · Scorekeeper</title>" in html, url


def test_the_scorer_url_holds_no_secret_and_the_join_link_does():
    match = two_player_all_fives()
    assert match.get_scorer_url() == scorer_url(match) == f"/matches/{match.public_id}/score/"
    assert match.get_join_url() == f"/matches/{match.public_id}/join/{match.scorer_token}/"


def test_a_refused_tap_redirects_back_with_the_tile_it_named_quoted(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    response = client.post(scorer_url(match, "play"), {**w(match, turn=True), "tile": "5-5&x=1"})
    assert response.status_code == 302
    assert response["Location"] == scorer_url(match) + "?tile=5-5%26x%3D1"


def test_a_called_round_records_the_ends_and_checks_the_sum(client):
    match = two_player_all_fives()
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    html = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "1", "end_0": "6", "double_0": "on", "end_1": "3",
        "claim": "15"}, **HTMX).content.decode()
    assert error(html) is None
    assert scores(html) == ["0", "15"]
    html = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "0", "end_0": "4", "end_1": "2", "claim": "5"},
        **HTMX).content.decode()
    assert notices(html) == ["Recorded with the rules&#x27; points: claim 5 differs from "
                             "the 0 the rules give (end sum 6)."]
    assert scores(html) == ["0", "15"]


def test_a_refused_call_keeps_who_placed_it_and_what_was_entered(client):
    match = match_create(game="all-fives", players=["Ann", "Bob", "Cat"])
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    html = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "2", "end_0": "6", "double_0": "on", "end_1": "6",
        "double_1": "on", "claim": "20"}, **HTMX).content.decode()

    assert "6-6 is listed twice" in (error(html) or "")
    # Cat stays chosen (the next seat by default would be credited with her points)
    assert re.search(r'<input type="radio" name="seat" value="2" checked>', html)
    assert len(re.findall(r'<input type="radio" name="seat" value="\d" checked>', html)) == 1
    assert 'name="end_0" min="0" max="6" inputmode="numeric" value="6">' in html
    assert 'name="double_1" checked aria-label="End 2 is a double">' in html
    assert 'value="20">' in html
    assert match.rounds.get().events.count() == 0
    for seat in ("9" * 5000, "²", "-1", "7"):  # refused, and read back as no seat at all
        html = client.post(scorer_url(match, "call"), {
            **w(match), "seat": seat, "end_0": "5"}, **HTMX).content.decode()
        assert error(html) is not None and 'value="0" checked>' in html


def test_a_call_with_more_ends_than_the_game_has_is_refused_not_cut_short(client):
    # the page offers four: a fifth sent all the same is the rules' to refuse, by name
    match = two_player_all_fives()
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    html = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "1", "end_0": "5", "end_1": "5", "end_2": "5", "end_3": "5",
        "end_4": "5", "claim": "25"}, **HTMX).content.decode()
    assert error(html) == "All Fives has at most 4 scoring ends, not 5"
    assert match.rounds.get().events.count() == 0


@pytest.mark.parametrize("name", ["end_²", "end_٣", "end_-1", "end_1000"])
def test_an_end_field_of_no_ends_number_is_no_end(client, name):
    """Its name once went to int() as it was: "²" passes isdigit() and answered 500, and
    "٣" (an Arabic-Indic 3) was read as a fourth end."""
    match = two_player_all_fives()
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    response = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "1", "end_0": "5", name: "5", "claim": "5"}, **HTMX)
    assert response.status_code == 200
    assert error(response.content.decode()) is None
    assert scores(response.content.decode()) == ["0", "5"]


def test_a_called_five_up_placement_counts_every_spinners_flanks(client):
    # every double is a spinner in Five Up: three doubles with both flanks started make
    # eight ends, and the page once read only six of them (2+4+5+3+4+3 = 21 → 0)
    match = match_create(game="five-up", players=["Ann", "Bob"])
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    page = client.get(scorer_url(match)).content.decode()
    assert 'data-max-ends="16"' in page and 'name="end_15"' in page  # 2 + 2 a double
    ends = [2, 4, 5, 3, 4, 3, 4, 5]
    html = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "0", "claim": "6",
        **{f"end_{i}": str(v) for i, v in enumerate(ends)}}, **HTMX).content.decode()
    assert error(html) is None and notices(html) == []
    assert scores(html) == ["6", "0"]  # 30 → 6 (Five Up counts in fives)


def test_scoring_needs_a_grant_and_the_join_link_its_secret(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    before = snapshot(match)
    assert client.get(scorer_url(match)).status_code == 403
    assert client.post(scorer_url(match, "undo"), w(match)).status_code == 403
    for guess in ("guess", "ünïcødé", match.scorer_token[:-1]):
        url = reverse("matches:join", kwargs={"public_id": match.public_id, "token": guess})
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
    assert client.get(scorer_url(match)).status_code == 403
    assert snapshot(match) == before


def test_the_public_link_is_read_only_and_refreshes_itself(client):
    match = two_player_all_fives()
    play_short_round(match)
    html = client.get(match.get_absolute_url()).content.decode()
    assert scores(html) == ["10", "10"]
    assert "undo-button" not in html and 'class="picker"' not in html
    assert 'hx-trigger="every 5s"' in html
    # and without JavaScript, a link that does what the refresh does
    assert (f'<noscript><p><a href="{match.get_absolute_url()}">Show the latest scores</a>'
            "</p></noscript>") in html
    assert match.scorer_token not in html
    join(client, match)
    assert "<noscript>" not in client.get(scorer_url(match)).content.decode()


def test_a_finished_match_shows_the_winner(client):
    match = two_player_all_fives(target=20)
    play_short_round(match)
    round_settle(match=match, pips=(0, 9))  # Taras's 9 rounds up: Olena has 20
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    join(client, match)
    html = client.get(scorer_url(match)).content.decode()
    assert '<h2 id="match-end-heading">Olena won</h2>' in html
    # a finished match is not abandoned nor renamed any more; it may be played again
    assert "Abandon match" not in html and "Players&#x27; names" not in html
    assert 'id="rematch-button"' in html


def test_home_lists_this_phones_matches_only(client):
    playing = two_player_all_fives()
    done = two_player_all_fives(target=20)
    play_short_round(done)
    round_settle(match=done, pips=(0, 9))
    watched = two_player_all_fives()
    stranger = two_player_all_fives()
    join(client, playing)
    join(client, done)
    client.get(watched.get_absolute_url())
    html = client.get(reverse("matches:home")).content.decode()
    assert html.index(playing.get_scorer_url()) < html.index("Finished here") < \
        html.index(done.get_absolute_url()) < html.index("Watched on this phone") < \
        html.index(watched.get_absolute_url())
    assert str(stranger.public_id) not in html


def test_home_names_who_won_a_league_game_as_the_league_corrected_it(client):
    # Ann (home) won the night's game on the scorepad, 10–0; the league corrects it to
    # 0–10: the home page of the captain who scored it says who won as the result counts
    night_of = league_night_at(FixtureStatus.CONFIRMED)
    client.force_login(night_of.home_captain)

    def row() -> str:
        html = client.get(reverse("matches:home")).content.decode()
        finished = html.split('id="finished-here"')[1].split("</ul>")[0]
        return " ".join(unescape(re.sub(r"<[^>]+>", "", finished)).split())

    assert "won by Ann ·" in row() and "corrected" not in row()
    fixture_correct(fixture=night_of.fixture, by=night_of.admin, scores=[(0, 10)],
                    reason="the scoresheet says Bob won")
    assert "won by Bob · corrected by the league ·" in row()


def test_home_drops_what_this_phone_may_no_longer_see_or_score(client, django_user_model):
    owner = django_user_model.objects.create_user("owner")
    club = club_create(name="Teesdale", by=owner)
    watched = won_at_once(["Cat", "Dan"], opener=0, played_at=night(1), club=club)
    revoked = two_player_all_fives()
    client.get(watched.get_absolute_url())
    join(client, revoked)
    assert str(watched.public_id) in client.get("/").content.decode()

    club_update(club=club, by=owner, name=club.name,
                         visibility=Visibility.MEMBERS)
    phone = revoked.grants.get()
    grant_revoke(grant=phone, by=phone)
    html = client.get("/").content.decode()

    assert str(watched.public_id) not in html  # its page is a 404 here now
    assert revoked.get_scorer_url() not in html  # this phone scores it no more


def test_the_next_round_after_a_domino_is_started_by_the_finisher(client):
    match = two_player_all_fives()
    play_short_round(match)
    round_settle(match=match, pips=(0, 9))
    join(client, match)
    html = client.get(scorer_url(match)).content.decode()
    assert "<strong>Olena</strong> placed the last tile and starts." in html
    html = client.post(scorer_url(match, "round"), {**w(match), "mode": "tracked"},
                       **HTMX).content.decode()
    assert "Turn: <strong>Olena</strong>" in html and "Drawn by lots" not in html


def test_a_fives_and_threes_round_draws_no_lots_when_no_starter_is_sent(client):
    """The page makes the starter required; a request without one is still refused
    (RULES.md §4.3: the highest double's holder starts, there is no draw)."""
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"],
                                  options={"hand_size": 2})
    join(client, match)

    html = client.post(scorer_url(match, "round"), {**w(match), "mode": "tracked"},
                       **HTMX).content.decode()

    assert error(html) == "whoever holds the highest double starts the round: say who"
    assert not match.rounds.exists()
    assert "<h2>First round</h2>" in html and "Who holds the highest double? They start." \
        in html
    html = client.post(scorer_url(match, "round"), {**w(match), "mode": "ends"},
                       **HTMX).content.decode()  # a called round may leave it unsaid
    assert error(html) is None and match.rounds.get().starter is None


def test_the_phone_that_started_a_match_finds_its_scorer_link_on_the_home_page(client):
    client.post(reverse("matches:new"), {"creation_key": drawn_key(client),
        "game": "all-fives", "player_0": "Olena", "player_1": "Taras", "starter": "0",
        "mode": "tracked"})
    match = Match.objects.get()
    assert scorer_url(match) in client.get(reverse("matches:home")).content.decode()
    # another phone sees nothing of it: strangers' matches are not listed
    other = Client().get(reverse("matches:home")).content.decode()
    assert str(match.public_id) not in other and match.scorer_token not in other


def test_a_called_fives_and_threes_round_ends_with_the_going_out_call(client):
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"])
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    html = client.get(scorer_url(match)).content.decode()
    # going out is marked on the last call; the round-end buttons offer only a block
    assert "Olena went out" not in html and 'value="blocked"' in html
    html = client.post(scorer_url(match, "call"), {
        **w(match), "seat": "0", "end_0": "4", "end_1": "5", "goes_out": "on",
        "claim": "4"}, **HTMX).content.decode()
    assert error(html) is None
    # the placement's points and the bonus apart: "3 + 1 = 4", never "4 (+1)"
    assert ("sum 9 → <strong>3</strong> + 1 for going out = <strong>4</strong>"
            in html)
    # remaining tiles score nothing here: no count is asked, the next round is offered
    assert "count the hands" not in html and 'id="round-form"' in html
    # and the bar says the round is over, as a settlement does (it settled itself)
    assert news(html)[-1].startswith("Round 1 settled: "), news(html)
    assert "Who holds the highest double? They start." in html
    assert 'value="lots"' not in html
    assert scores(html) == ["4", "0"]
    assert match.rounds.get().finisher == 0


def test_a_blocked_called_fives_and_threes_round_is_settled_without_a_count(client):
    match = match_create(game="fives-and-threes", players=["Olena", "Taras"])
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "none", "result": "blocked"}, **HTMX).content.decode()
    assert error(html) is None and 'id="round-form"' in html
    assert (match.rounds.get().settled, match.rounds.get().pips) == (True, None)


def test_how_a_called_round_ended_has_no_default_and_must_be_said(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0, mode="ends")
    join(client, match)
    html = client.get(scorer_url(match)).content.decode()
    # one button per way it can end, none of them chosen for the scorer
    assert re.findall(r'name="result" value="([^"]+)"', html) == [
        "domino:0", "domino:1", "blocked"]
    before = snapshot(match)
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "none", "result": ""}, **HTMX).content.decode()
    assert error(html) == "Say who went out, or that the round was blocked."
    assert snapshot(match) == before
    # the result first, then the count, as in a tracked round
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "none", "result": "domino:1"}, **HTMX).content.decode()
    assert error(html) is None and "count the hands" in html
    assert match.rounds.get().finisher == 1 and not match.rounds.get().settled
    # Taras went out: his count is 0 already, as in a tracked round
    assert 'name="pips_1" min="0" inputmode="numeric" value="0" required' in html
    assert 'name="pips_0" min="0" inputmode="numeric" required' in html
    html = client.post(scorer_url(match, "settle"), {
        **w(match), "entry": "pips", "pips_0": "12", "pips_1": "0"}, **HTMX).content.decode()
    assert error(html) is None and scores(html) == ["0", "10"]


def test_home_rows_name_the_winner_and_when(client):
    done = two_player_all_fives(target=20)
    play_short_round(done)
    round_settle(match=done, pips=(0, 9))
    join(client, done)
    html = client.get(reverse("matches:home")).content.decode()
    assert "won by <strong>Olena</strong>" in html and "<time datetime=" in html


def test_a_five_up_call_says_it_is_made_in_fives(client):
    # a Five Up placement is scored (and called) in fives: 15 is 3; a call of 15 was
    # noted as a wrong call, nothing on the page saying why
    five_up = match_create(game="five-up", players=["Ann", "Bo"])
    round_start(match=five_up, starter=0)
    join(client, five_up)
    page = client.get(scorer_url(five_up)).content.decode()
    assert '<small class="claim-unit" id="claim-unit">in fives: 15 is 3</small>' in page
    assert 'aria-describedby="claim-help claim-unit"' in page
    all_fives = two_player_all_fives()
    round_start(match=all_fives, starter=0)
    join(client, all_fives)
    assert "claim-unit" not in client.get(scorer_url(all_fives)).content.decode()

