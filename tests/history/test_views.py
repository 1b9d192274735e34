"""Match history: filters and keyset pages on hand-made data, privacy, CSV, queries."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from matches import rules
from matches.clubs.services import club_create
from matches.leagues.services import fixture_correct
from matches.models import FixtureStatus, Match, Membership, Player, Visibility
from matches.scoring.services.play import match_create
from tests.support.helpers import league_night_at, night, won_at_once

pytestmark = pytest.mark.django_db
URL = reverse("matches:history_list")


def finished(players: list[str], *, day: int, club=None) -> Match:  # noqa: ANN001
    return won_at_once(players, opener=0, played_at=night(day), club=club)


@pytest.fixture
def clubs(django_user_model):
    owner = django_user_model.objects.create_user("owner")
    public = club_create(name="Oak", by=owner)
    private = club_create(name="Hidden", by=owner, visibility=Visibility.MEMBERS)
    return {"owner": owner, "public": public, "private": private}


def csv_text(client: Client, query: dict[str, str]) -> str:
    response = client.get(reverse("matches:history_csv"), query)
    text = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    assert text.startswith("\ufeffdate,")  # so Excel reads it as UTF-8
    return text.removeprefix("\ufeff")


def test_the_csv_tells_the_app_server_the_worker_is_alive_as_it_goes(clubs, monkeypatch):
    from scorekeeper import heartbeat

    for day in (1, 2):
        finished(["Ann", "Bob"], day=day, club=clubs["public"])
    told: list[str] = []
    monkeypatch.setattr(heartbeat, "EVERY_SECONDS", 0)
    monkeypatch.setattr(heartbeat, "_beat", lambda: told.append("alive"))

    lines = csv_text(Client(), {}).splitlines()

    assert len(lines) == 3 and len(told) == 3  # the header and each match's line


def rows(client: Client, **query) -> list[str]:
    html = client.get(URL, query).content.decode()
    return [chunk.split('"')[0] for chunk in html.split('data-match="')[1:]]


def test_club_matches_follow_the_club_and_casual_ones_their_phones(clubs, django_user_model):
    oak = finished(["Ann", "Bob"], day=1, club=clubs["public"])
    hidden = finished(["Cat", "Dan"], day=2, club=clubs["private"])
    casual = finished(["Eve", "Fay"], day=3)
    stranger = Client()
    assert rows(stranger) == [str(oak.public_id)]
    stranger.get(casual.get_absolute_url())  # watched on this phone: now its own
    assert rows(stranger) == [str(casual.public_id), str(oak.public_id)]
    member = django_user_model.objects.create_user("member")
    Membership.objects.create(club=clubs["private"], user=member)
    client = Client()
    client.force_login(member)
    assert rows(client) == [str(hidden.public_id), str(oak.public_id)]
    # the private club's match is in no outsider's CSV either, nor its club in the filters
    text = csv_text(Client(), {})
    assert "Cat" not in text and "Ann, Bob" in text
    assert "Hidden" not in Client().get(URL).content.decode()


def test_filters_are_links_and_combine(clubs):
    a = finished(["Ann", "Bob"], day=1, club=clubs["public"])
    b = finished(["Ann", "Cat"], day=5, club=clubs["public"])
    c = finished(["Dan", "Bob"], day=9, club=clubs["public"])
    in_play = match_create(game="five-up", players=["Ann", "Eve"])
    Match.objects.filter(pk=in_play.pk).update(started_at=night(7), club=clubs["public"])
    client = Client()
    assert rows(client, player="ann") == [str(in_play.public_id), str(b.public_id),
                                          str(a.public_id)]
    assert rows(client, player="ann", status="finished") == [str(b.public_id),
                                                             str(a.public_id)]
    assert rows(client, game="five-up") == [str(in_play.public_id)]
    assert rows(client, since="2026-09-02", until="2026-09-08", order="oldest") == [
        str(b.public_id), str(in_play.public_id)]
    assert rows(client, club="oak", player="bob") == [str(c.public_id), str(a.public_id)]
    # malformed filters are ignored, never a 500
    for bad in ({"season": "²"}, {"since": "tomorrow"}, {"game": "chess"},
                {"after": "garbage_x"}, {"after": "2026-13-01T00:00:00+00:00_1"}):
        assert client.get(URL, bad).status_code == 200
    # ... and each says so beside its field, so a typo does not pass for "no filter"
    for name, value in (("season", "²"), ("since", "2026-13-01"), ("player", "x" * 61)):
        html = client.get(URL, {name: value}).content.decode()
        assert f'id="id_{name}_error"' in html
        control = re.search(rf'<(?:input|select)[^>]*name="{name}"[^>]*>', html)
        assert control is not None and 'aria-invalid="true"' in control[0]


def test_pages_are_cut_by_key_and_cover_every_match_once(clubs, django_assert_max_num_queries):
    made = [finished([f"P{n}", f"Q{n}"], day=1 + n % 20, club=clubs["public"])
            for n in range(60)]
    client = Client()
    seen: list[str] = []
    query: dict[str, str] = {}
    while True:
        with django_assert_max_num_queries(10):
            response = client.get(URL, query)
        html = response.content.decode()
        seen += [chunk.split('"')[0] for chunk in html.split('data-match="')[1:]]
        if 'id="next-page"' not in html:
            break
        query = {"after": response.context["page"].next_cursor}
    assert len(seen) == len(set(seen)) == 60
    expected = sorted(made, key=lambda m: (m.started_at, m.pk), reverse=True)
    assert seen == [str(m.public_id) for m in expected]


def test_the_next_page_says_which_way_it_goes_and_its_first_row_takes_the_focus(clubs):
    for n in range(30):
        finished([f"P{n}", f"Q{n}"], day=1 + n % 20, club=clubs["public"])
    client = Client()
    newest = client.get(URL)
    assert "Older matches" in newest.content.decode()
    assert "Later matches" in client.get(URL, {"order": "oldest"}).content.decode()

    more = client.get(URL, {"after": newest.context["page"].next_cursor},
                      HTTP_HX_REQUEST="true").content.decode()

    # htmx focuses [autofocus] in what it swaps in: the button that had it is gone
    first_row = more.split('class="match-row"')[1].split("</li>")[0]
    assert more.count(" autofocus") == 1 and " autofocus>" in first_row
    assert " autofocus" not in newest.content.decode()


def test_htmx_swaps_only_the_results_and_csv_follows_the_filters(clubs):
    finished(["Ann", "Bob"], day=1, club=clubs["public"])
    finished(["Cat", "Dan"], day=2, club=clubs["public"])
    fragment = Client().get(URL, {"player": "cat"}, HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('\n  <div id="results"') or '<div id="results"' in \
        fragment[:80]
    assert "<html" not in fragment
    text = csv_text(Client(), {"player": "cat"})
    table = list(csv.reader(io.StringIO(text)))
    assert table[0][:5] == ["date", "game", "players", "scores", "winner"]
    assert [row[2] for row in table[1:]] == ["Cat, Dan"]
    assert table[1][3] == "10 – 0" and table[1][4] == "Cat"
    finished(["=HYPERLINK(\"x\")", "Eve"], day=3, club=clubs["public"])
    row = list(csv.reader(io.StringIO(csv_text(Client(), {"player": "eve"}))))[1]
    assert row[2] == "'=HYPERLINK(\"x\"), Eve" and row[4] == "'=HYPERLINK(\"x\")"


def test_the_csv_dates_a_match_by_the_sites_day_as_the_page_and_its_filters_do(
        clubs, settings):
    settings.TIME_ZONE = "Europe/London"
    # 23:30 UTC on 4 July is half past midnight on the 5th in London (BST)
    late = datetime.datetime(2026, 7, 4, 23, 30, tzinfo=datetime.UTC)
    won_at_once(["Ann", "Bob"], opener=0, played_at=late, club=clubs["public"])
    rows = list(csv.reader(io.StringIO(csv_text(Client(), {"since": "2026-07-05",
                                                          "until": "2026-07-05"}))))
    assert [row[0] for row in rows[1:]] == ["2026-07-05"]


@pytest.mark.parametrize("after", ["9999-12-31T23:59:59-01:00_5",
                                   "0001-01-01T00:00:00+01:00_5", "2026-09-01T20:00:00_5"])
def test_a_page_key_no_page_can_have_starts_from_the_beginning(clubs, after):
    finished(["Ann", "Bob"], day=1, club=clubs["public"])
    response = Client().get(URL, {"after": after})
    assert response.status_code == 200 and "Ann" in response.content.decode()


def test_a_clubs_matches_download_as_jsonl_and_a_private_clubs_only_for_members(clubs):
    oak = finished(["Ann", "Bob"], day=1, club=clubs["public"])
    for seat in oak.seats.all():
        seat.player = Player.objects.create(club=clubs["public"], name=seat.name)
        seat.save(update_fields=["player"])
    hidden = finished(["Cat", "Dan"], day=2, club=clubs["private"])
    for seat in hidden.seats.all():
        seat.player = Player.objects.create(club=clubs["private"], name=seat.name)
        seat.save(update_fields=["player"])
    response = Client().get(reverse("matches:club_matches_jsonl", kwargs={"slug": "oak"}))
    body = response.streaming_content  # type: ignore[attr-defined]
    lines = b"".join(body).decode().splitlines()
    assert [json.loads(line)["players"] for line in lines] == [["Ann", "Bob"]]
    assert rules.replay(json.loads(lines[0])).winner == 0
    assert Client().get(reverse("matches:club_matches_jsonl",
                           kwargs={"slug": clubs["private"].slug})).status_code == 404


def test_a_clubs_download_holds_every_match_its_history_lists(clubs):
    # a match of the club whose seats name no club player: a rematch of a league game
    own = finished(["Eve", "Fay"], day=3, club=clubs["public"])
    listed = rows(Client(), club="oak")

    response = Client().get(reverse("matches:club_matches_jsonl", kwargs={"slug": "oak"}))

    lines = b"".join(response.streaming_content).decode().splitlines()  # type: ignore[attr-defined]
    assert listed == [str(own.public_id)]
    assert [json.loads(line)["players"] for line in lines] == [["Eve", "Fay"]]


def test_a_private_clubs_matches_never_reach_outsiders(clubs, django_user_model,
                                                        django_assert_max_num_queries):
    hidden = finished(["Cat", "Dan"], day=2, club=clubs["private"])
    cat = Player.objects.create(club=clubs["private"], name="Cat")
    hidden.seats.filter(name="Cat").update(player=cat)
    outsider = Client()
    assert rows(outsider, player="cat") == []  # search
    assert rows(outsider, club=clubs["private"].slug) == []
    assert "Cat" not in csv_text(outsider, {"player": "cat"})
    player_url = reverse("matches:club_player", kwargs={"slug": clubs["private"].slug,
                                                        "pk": cat.pk})
    assert outsider.get(player_url).status_code == 404
    assert outsider.get(hidden.get_absolute_url()).status_code == 404
    member = django_user_model.objects.create_user("member")
    Membership.objects.create(club=clubs["private"], user=member)
    insider = Client()
    insider.force_login(member)
    assert rows(insider, player="cat") == [str(hidden.public_id)]
    assert insider.get(player_url).status_code == 200
    # a worker that has not kept the match replays it from the rows and reads its version
    # again, to keep the engine (engine_cache); then the page reads no row of the play
    with django_assert_max_num_queries(13):
        assert insider.get(hidden.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(9):
        assert insider.get(hidden.get_absolute_url()).status_code == 200


def test_a_row_of_a_league_game_the_league_corrected_names_who_won_as_corrected():
    # Ann (home) wins the night's game on the scorepad; the league corrects it for Bob
    night_of = league_night_at(FixtureStatus.CONFIRMED)
    casual = finished(["Ann", "Bob"], day=1, club=night_of.fixture.division.season.club)
    client = Client()
    client.force_login(night_of.admin)

    def said() -> dict[str, str]:
        html = client.get(URL).content.decode()
        return {public_id: " ".join(re.sub(r"<[^>]+>", "", row).split()) for public_id, row
                in re.findall(r'data-match="([^"]+)">(.*?)</li>', html, re.S)}

    assert "won by Ann ·" in said()[str(night_of.match.public_id)]
    fixture_correct(fixture=night_of.fixture, by=night_of.admin, scores=[(0, 10)],
                    reason="the scoresheet says Bob won")

    rows_said = said()
    assert "10 – 0 · won by Bob · corrected by the league ·" in \
        rows_said[str(night_of.match.public_id)]  # the scores as played, the winner as counted
    assert "won by Ann · Teesdale" in rows_said[str(casual.public_id)]  # as played
    table = list(csv.DictReader(io.StringIO(csv_text(client, {}))))
    assert [(row["players"], row["winner"], row["note"]) for row in table] == [
        ("Ann, Bob", "Bob", "corrected by the league"), ("Ann, Bob", "Ann", "")]
    for language, words in (("uk", "виправлено лігою"), ("ru", "исправлено лигой")):
        client.cookies["django_language"] = language
        assert words in client.get(URL).content.decode()


def test_the_history_and_its_csv_replay_no_match(client, clubs):
    from matches.scoring import engine_cache
    from tests.support.helpers import counted_replays

    for day in (1, 2, 3):
        finished(["Olena", "Taras"], day=day, club=clubs["public"])
    engine_cache.forget_engines()

    with counted_replays() as replays:
        assert len(csv_text(client, {}).splitlines()) == 4  # the header and three rows
        assert len(rows(client)) == 3

    assert replays.call_count == 0  # the stored rows say it all


def test_a_cups_games_are_filtered_by_the_cup_beside_the_league_seasons():
    """A cup keeps its ties in a season of its own: the filter offers it among the cups,
    apart from the league seasons, and keeps to its games."""
    from tests.support.cups import a_cup

    folk = a_cup(["Ann", "Bob", "Cy", "Dee"])
    night_of = league_night_at(FixtureStatus.CONFIRMED)
    cup_game = finished(["Ann", "Bob"], day=2, club=folk.club)
    Match.objects.filter(pk=cup_game.pk).update(season=folk.cup.season)  # a tie's game
    finished(["Cy", "Dee"], day=3, club=folk.club)
    league = night_of.fixture.division.season
    Membership.objects.create(club=league.club, user=folk.admin, role="member")
    client = Client()
    client.force_login(folk.admin)

    html = client.get(URL).content.decode()
    groups = dict(re.findall(r'<optgroup label="([^"]+)">(.*?)</optgroup>', html, re.S))

    assert folk.cup.season.name in groups["Cups"]
    assert league.name in groups["League seasons"]
    assert folk.cup.season.name not in groups["League seasons"]
    assert league.name not in groups["Cups"]
    assert rows(client, season=str(folk.cup.season.pk)) == [str(cup_game.public_id)]
