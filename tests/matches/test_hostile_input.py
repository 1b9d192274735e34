"""Property: no input makes a 500, and what is refused changes nothing.

Every POST endpoint of the scorer and the public forms gets, in each of its fields,
either a value the page would send or a hostile one: any text (NUL and non-ASCII digits
included), numbers of 30 or 4,301 digits, and for the import page JSON nested 100,000
deep, 5,000-digit integers and NUL in names. The test client raises a view's exception,
so a 500 fails with its traceback.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import json
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import pytest
from django.contrib import messages
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.clubs import services as clubs_services
from matches.leagues.services import entrant_add, fixture_games_enter, fixture_submit, season_create
from matches.models import (
    Adjustment,
    Club,
    Division,
    Entrant,
    Fixture,
    FixtureChange,
    FixtureGame,
    LineOutcome,
    Match,
    Membership,
    Player,
    RecordImport,
    RecordImportLine,
    Role,
    Season,
)
from matches.scoring.services.lifecycle import match_abandon
from matches.scoring.services.play import round_settle, round_start
from tests.scoring.views.test_play import join
from tests.support.helpers import (
    drawn_key,
    paper_games,
    play_short_round,
    snapshot,
    two_player_all_fives,
)

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
    round_start(match=match, starter=0)


def called(match: Match) -> None:
    round_start(match=match, starter=0, mode="called")


def round_over(match: Match) -> None:
    play_short_round(match)


def settled(match: Match) -> None:
    play_short_round(match)
    round_settle(match=match, pips=(0, 3))


def abandoned(match: Match) -> None:
    match_abandon(match=match)


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


@HOSTILE_SETTINGS
@given(name=HOSTILE)
def test_a_phones_name_never_fails_and_a_refused_one_changes_no_grant(name):
    match = two_player_all_fives()
    client = Client()
    joined = client.post(match.get_join_url(), {"name": name})
    assert joined.status_code < 500
    if joined.status_code != 302:
        assert not match.grants.exists()
        join(client, match)
    grants = list(match.grants.values_list("pk", "name", "label"))
    renamed = client.post(reverse("matches:scorers_name", args=[match.public_id]),
                          {"name": name})
    assert renamed.status_code < 500
    if refused(renamed):
        assert list(match.grants.values_list("pk", "name", "label")) == grants


NEW_MATCH = {"game": "all-fives", "player_0": "Olena", "player_1": "Taras", "player_2": "",
             "player_3": "", "target": "", "hand_size": "", "tile_set": "double-six",
             "deal": "full", "drawing": "", "advanced": "", "immediate_end": "on",
             "starter": "lots", "double_holder": "", "mode": "tracked"}


@HOSTILE_SETTINGS
@given(data=st.data(), game=st.sampled_from(["all-fives", "five-up", "fives-and-threes"]))
def test_the_new_match_form_never_fails_and_a_refusal_stores_nothing(data, game):
    post = {name: data.draw(field(value), label=name)
            for name, value in {**NEW_MATCH, "game": game}.items()}
    client = Client()
    post["creation_key"] = drawn_key(client)
    before = Match.objects.count()
    response = client.post(reverse("matches:new"), post)
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


# -- clubs and leagues ---------------------------------------------------------------
# A fresh club each example, its season with three entrants (two with a captain and a
# squad); the owner (an admin) or a captain posts. A value written as a function of the
# example's ``League`` is a primary key or a token, known only once it is set up.

CLUB_SETTINGS = settings(HOSTILE_SETTINGS, max_examples=20)
DATES = st.sampled_from(["2026-09-07", "9999-12-31", "0001-01-01", "2026-02-30", "10000-01-01",
                         "2026-9-7", "²⁰²⁶-09-07", "07/09/2026", "2026-09-07\x00"])
STARTS = st.just(datetime.date(2026, 9, 7)) | st.sampled_from(
    [datetime.date(9999, 12, 25), datetime.date.max, datetime.date.min])  # a season's first night
URL_PKS = st.sampled_from(["0", "1", str(2**31), str(2**63), str(10**29), "9" * 400])


@dataclasses.dataclass
class League:
    club: Club
    season: Season
    division: Division
    fixture: Fixture | None
    member: Membership
    guest: Player
    squads: dict[str, list[Player]]

    def entrant(self, name: str) -> Entrant:
        return self.division.entrants.get(name=name)


@pytest.fixture
def people(db) -> dict[str, User]:
    return {name: User.objects.create_user(name)
            for name in ("owner", "home", "away", "member", "joiner")}


CLUB_NUMBERS = itertools.count(1)


def a_league(people: dict[str, User], fixture: str | None,
             starts_on: datetime.date = datetime.date(2026, 9, 7)) -> League:
    """A club and its season; ``fixture`` is None (no fixtures yet), ``scheduled``,
    ``entered`` (its games' scores in) or ``submitted``."""
    owner = people["owner"]
    # a club of its own each time: the same name by the same owner at once is one club
    # sent twice (matches/core/resends.py)
    club = clubs_services.club_create(name=f"Royal Oak {next(CLUB_NUMBERS)}", by=owner)
    for name in ("home", "away"):
        Membership.objects.create(club=club, user=people[name], role=Role.CAPTAIN)
    member = Membership.objects.create(club=club, user=people["member"], role=Role.MEMBER)
    squads = {side: [clubs_services.player_add(club=club, name=name, by=owner) for name in names]
              for side, names in (("home", ["Ann", "Bob"]), ("away", ["Cat", "Dan"]))}
    guest = clubs_services.player_add(club=club, name="Eve", by=owner)
    season = season_create(
        club=club, by=owner, name="Winter", starts_on=starts_on,
        game="fives-and-threes", fixture_format="games", singles=1, pairs=1,
        divisions=["Only"])
    division = season.divisions.get()
    for name in ("home", "away"):
        entrant_add(division=division, by=owner, name=name.title(),
                             captain=people[name], players=squads[name])
    entrant_add(division=division, by=owner, name="Third")
    meeting = None
    if fixture is not None:
        meeting = Fixture.objects.create(division=division, week=1,
                                         date=datetime.date(2026, 9, 7),
                                         home=division.entrants.get(name="Home"),
                                         away=division.entrants.get(name="Away"))
        if fixture in ("entered", "submitted"):
            fixture_games_enter(fixture=meeting, by=owner,
                                games=paper_games(meeting, [(61, 40), (35, 61)]))
        if fixture == "submitted":
            fixture_submit(fixture=meeting, by=owner)
    return League(club, season, division, meeting, member, guest, squads)


def league_rows() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the club and league tables (and the matches), in a stable order."""
    models: dict[str, Any] = {
        "clubs": Club, "memberships": Membership, "players": Player, "seasons": Season,
        "divisions": Division, "entrants": Entrant, "squads": Entrant.players.through,
        "fixtures": Fixture, "games": FixtureGame, "changes": FixtureChange,
        "adjustments": Adjustment, "matches": Match}
    return {name: list(model.objects.order_by("pk").values_list())
            for name, model in models.items()}


def _season(league: League, name: str) -> str:
    return reverse(f"matches:{name}", kwargs={"slug": league.club.slug,
                                              "season": league.season.slug})


def _fixture(action: str) -> Callable[[League, object], str]:
    def url(league: League, pk: object) -> str:
        assert league.fixture is not None
        return (f"/clubs/{league.club.slug}/seasons/{league.season.slug}/fixtures/"
                f"{pk if pk is not None else league.fixture.pk}/{action}/")
    return url


# who played the night's games, as the games table sends them: game 1 singles, game 2
# a pair a side
PAPER_PLAYERS = {
    "home_1_player_1": lambda lg: lg.squads["home"][0].pk,
    "away_1_player_1": lambda lg: lg.squads["away"][0].pk,
    "home_2_player_1": lambda lg: lg.squads["home"][0].pk,
    "home_2_player_2": lambda lg: lg.squads["home"][1].pk,
    "away_2_player_1": lambda lg: lg.squads["away"][0].pk,
    "away_2_player_2": lambda lg: lg.squads["away"][1].pk,
}

CSV_ROWS = "date,home,away,home_games,away_games,games,status\n"
CSV_VALID = CSV_ROWS + "2026-09-07,Home,Away,1,0,61-40,\n2026-09-14,Away,Third,,,,postponed\n"
CSV_FILES = st.one_of(
    st.sampled_from([
        CSV_VALID.encode(), b"", b"\x00", CSV_VALID.replace("Home", "Ho\x00me").encode(),
        CSV_VALID.replace(",1,0,", f",{HUGE},0,").encode(),
        CSV_VALID.replace(",1,0,", f",{10**29},0,").encode(),
        CSV_VALID.replace("61-40", f"61-{HUGE}").encode(),
        CSV_VALID.replace("61-40", "61-40 " * 2000).encode(),
        CSV_VALID.replace("2026-09-07", "9999-12-31").encode(),
        CSV_VALID.encode("utf-16"), b"\xff\xfe\xfd" + CSV_VALID.encode(), "\ufeff".encode()
        + CSV_VALID.encode(), (CSV_ROWS.strip() + ",x" * 10_000 + "\n").encode(),
        (CSV_ROWS + "2026-09-07,Home,Away,1,0," + "9" * 200_000 + ",\n").encode(),
        (CSV_ROWS + '"2026-09-07,Home,Away,1,0,61-40,\n').encode(),  # an open quote
        (CSV_ROWS + "2026-09-07,Home,Away,1,0\n" * 5000).encode(),
    ]),
    st.binary(max_size=40),
    st.builds(lambda cells: (CSV_ROWS + ",".join(str(c).replace("\n", " ") for c in cells)
                             + "\n").encode(),
              st.tuples(field("2026-09-07") | DATES, field("Home"), field("Away"), field("1"),
                        field("0"), field("61-40"), field(""))),
)
SEASON: dict[str, object] = {
    "name": "Spring", "starts_on": "2027-03-01", "ends_on": "", "game": "five-up",
    "fixture_format": "race", "singles": "", "pairs": "", "race_to": "3", "win": "2",
    "draw": "1", "loss": "0", "per_game": "0", "close_loss_margin": "1",
    "close_loss_points": "1", "heavy_win_margin": "", "heavy_win_points": "",
    "walkover_won": "1", "walkover_lost": "0", "target": "", "tile_set": "", "deal": "",
    "count_submitted": "on", "divisions": "Upper\nLower", "tiebreak_1": "wins",
    "tiebreak_2": "head_to_head", "tiebreak_3": ""}
LeagueValue = object  # a value, or a function of the League giving it
# endpoint: (the fixture's state, who posts, its address, the fields the page sends); an
# address is a function of the League and a drawn primary key (None: the page's own)
CLUB_ENDPOINTS: dict[str, tuple[str | None, str, Callable[[League, object], str],
                                dict[str, LeagueValue]]] = {
    "club_new": (None, "joiner", lambda lg, pk: reverse("matches:club_new"),
                 {"name": "Bowes Dragons", "visibility": "members"}),
    "club_settings": (None, "owner", lambda lg, pk: reverse(
        "matches:club_settings", kwargs={"slug": lg.club.slug}),
        {"name": "Royal Oak A", "visibility": "members"}),
    "club_invite": (None, "owner", lambda lg, pk: reverse(
        "matches:club_invite", kwargs={"slug": lg.club.slug}), {"role": "captain"}),
    "club_member_role": (None, "owner", lambda lg, pk: (
        f"/clubs/{lg.club.slug}/members/{pk or lg.member.pk}/role/"), {"role": "scorer"}),
    "club_player_add": (None, "home", lambda lg, pk: reverse(
        "matches:club_player_add", kwargs={"slug": lg.club.slug}), {"name": "Fay"}),
    "club_player_claim": (None, "member", lambda lg, pk: (
        f"/clubs/{lg.club.slug}/players/{pk or lg.guest.pk}/claim/"), {}),
    "season_new": (None, "owner", lambda lg, pk: reverse(
        "matches:season_new", kwargs={"slug": lg.club.slug}), SEASON),
    "season_entrant_add": (None, "owner", lambda lg, pk: _season(lg, "season_entrant_add"),
                           {"division": lambda lg: lg.division.pk, "name": "Fourth",
                            "kind": "pair", "captain": "member", "players": "Eve"}),
    "season_entrant_change": (None, "owner", lambda lg, pk: _season(
        lg, "season_entrant_change"), {"division": lambda lg: lg.division.pk,
                                       "entrant": lambda lg: lg.entrant("Third").pk,
                                       "name": "Fourth", "do": "rename"}),
    "season_generate": (None, "owner", lambda lg, pk: _season(lg, "season_generate"),
                        {"division": lambda lg: lg.division.pk, "legs": "2"}),
    "season_adjust": (None, "owner", lambda lg, pk: _season(lg, "season_adjust"),
                      {"entrant": lambda lg: lg.entrant("Away").pk, "points": "-3",
                       "reason": "result sent late"}),
    "season_lock": (None, "owner", lambda lg, pk: _season(lg, "season_lock"),
                    {"confirm": "on"}),
    "fixture:play-paper": ("scheduled", "home", _fixture("play"), {
        "how": "paper", "number": "2", "home_player": lambda lg: [
            p.pk for p in lg.squads["home"]],
        "away_player": lambda lg: [p.pk for p in lg.squads["away"]], "home_score": "61",
        "away_score": "58"}),
    "fixture:play": ("scheduled", "home", _fixture("play"), {
        "how": "scorepad", "number": "1", "home_player": lambda lg: lg.squads["home"][0].pk,
        "away_player": lambda lg: lg.squads["away"][1].pk}),
    "fixture:games": ("scheduled", "home", _fixture("games"), {
        "home_1": "61", "away_1": "40", "home_2": "58", "away_2": "61", "home_40": "",
        "away_41": "3", **PAPER_PLAYERS}),
    "fixture:submit": ("entered", "home", _fixture("submit"), {}),
    "fixture:confirm": ("submitted", "away", _fixture("confirm"), {}),
    "fixture:dispute": ("submitted", "away", _fixture("dispute"),
                        {"message": "game 1 was 61-58 to us"}),
    "fixture:resolve": ("submitted", "owner", _fixture("resolve"), {
        "home_1": "61", "away_1": "58", "home_2": "40", "away_2": "61", **PAPER_PLAYERS}),
    "fixture:walkover-home": ("scheduled", "owner", _fixture("walkover-home"), {}),
    "fixture:walkover-away": ("entered", "owner", _fixture("walkover-away"), {}),
    "fixture:void": ("scheduled", "owner", _fixture("void"), {}),
    "fixture:redate": ("scheduled", "home", _fixture("redate"),
                       {"date": "2026-10-05", "postponed": "on"}),
    "fixture:unknown": ("scheduled", "owner", _fixture("sing-a-song"), {"x": "1"}),
}
DATE_FIELDS = {"starts_on", "ends_on", "date"}
PK_URLS = {"club_member_role", "club_player_claim"} | {
    name for name in CLUB_ENDPOINTS if name.startswith("fixture:")}


@pytest.mark.parametrize("endpoint", sorted(CLUB_ENDPOINTS))
def test_a_club_or_league_endpoint_never_fails_and_a_refusal_changes_nothing(endpoint,
                                                                             people):
    state, who, address, fields = CLUB_ENDPOINTS[endpoint]

    @CLUB_SETTINGS
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        league = a_league(people, state, data.draw(STARTS, label="starts_on"))
        client = Client()
        client.force_login(people[who])
        sent = {name: value(league) if callable(value) else value
                for name, value in fields.items()}
        post = {name: data.draw(field(value) | DATES if name in DATE_FIELDS
                                else field(value), label=name)
                for name, value in sent.items()}
        pk = data.draw(st.none() | URL_PKS, label="pk") if endpoint in PK_URLS else None
        before = league_rows()
        response = client.post(address(league, pk), post)
        assert response.status_code < 500
        if refused(response):
            assert league_rows() == before

    check()


@CLUB_SETTINGS
@given(data=st.data(), contents=CSV_FILES)
def test_a_spreadsheet_upload_never_fails_and_a_refusal_changes_nothing(people, data,
                                                                        contents):
    league = a_league(people, "scheduled")
    client = Client()
    client.force_login(people["owner"])
    before = league_rows()
    response = client.post(_season(league, "season_import_csv"), {
        "division": data.draw(field(league.division.pk), label="division"),
        "file": SimpleUploadedFile("results.csv", contents, "text/csv")})
    assert response.status_code < 500
    if refused(response):
        assert league_rows() == before


@CLUB_SETTINGS
@given(data=st.data(), method=st.sampled_from(["get", "post"]))
def test_an_invite_link_never_fails_and_a_bad_one_changes_nothing(people, data, method):
    league = a_league(people, None)
    token = clubs_services.club_invite(club=league.club, by=people["owner"], role="captain")
    sent = data.draw(field(token) | st.just(token[:-1] + ("A" if token[-1] != "A" else "B")),
                     label="token")
    client = Client()
    client.force_login(people["joiner"])
    before = league_rows()
    response = getattr(client, method)(
        f"/clubs/{league.club.slug}/join/{quote(str(sent), safe='')}/")
    assert response.status_code < 500
    if sent != token or method == "get":
        assert league_rows() == before


def _read(response: Any) -> bytes:
    """The whole body, a streamed one included (its rows are made as it is read)."""
    return b"".join(response.streaming_content) if response.streaming else response.content


HISTORY = {"player": "Ann", "game": "five-up", "club": "royal-oak", "season": "1",
           "status": "finished", "since": "2026-01-01", "until": "2026-12-31",
           "order": "oldest", "after": "2026-09-07T19:00:00+00:00_1", "division": "1"}


@CLUB_SETTINGS
@given(data=st.data(), page=st.sampled_from(["history_list", "history_csv", "season",
                                             "season_export", "club_ratings",
                                             "club_matches_jsonl", "season_matches_jsonl",
                                             "club_player", "fixture", "club"]))
def test_a_page_read_never_fails_whatever_its_address_asks(people, data, page):
    league = a_league(people, "entered")
    assert league.fixture is not None
    kwargs = {"slug": league.club.slug, "season": league.season.slug}
    if page.startswith("history"):
        url = reverse(f"matches:{page}")
    elif page == "season_export":
        what = data.draw(field("fixtures.csv") | st.sampled_from(["table.csv", "league.json"]),
                         label="what")
        url = f"/clubs/{league.club.slug}/seasons/{league.season.slug}/export/" + quote(
            str(what), safe="")
    elif page == "club_ratings":
        game = data.draw(field("five-up"), label="game")
        url = f"/clubs/{league.club.slug}/ratings/{quote(str(game), safe='')}/"
    elif page in ("club_matches_jsonl", "club"):
        url = reverse(f"matches:{page}", kwargs={"slug": league.club.slug})
    elif page == "club_player":
        url = f"/clubs/{league.club.slug}/players/{data.draw(URL_PKS, label='pk')}/"
    elif page == "fixture":
        url = reverse("matches:fixture", kwargs={**kwargs, "pk": league.fixture.pk})
    else:
        url = reverse(f"matches:{page}", kwargs=kwargs)
    query = {name: data.draw(field(value) | DATES if name in ("since", "until")
                             else field(value), label=name) for name, value in HISTORY.items()}
    client = Client()
    client.force_login(people[data.draw(st.sampled_from(["owner", "joiner"]), label="who")])
    response = client.get(url, query)
    assert response.status_code < 500
    _read(response)


@pytest.mark.parametrize("endpoint", sorted(set(CLUB_ENDPOINTS) - {"fixture:unknown"}))
def test_the_values_a_club_or_league_page_sends_are_accepted(endpoint, people):
    """What the property above starts from: each endpoint takes its page's values."""
    state, who, address, fields = CLUB_ENDPOINTS[endpoint]
    league = a_league(people, state)
    client = Client()
    client.force_login(people[who])
    before = league_rows()
    response = client.post(address(league, None), {
        name: value(league) if callable(value) else value for name, value in fields.items()})
    assert not refused(response) or endpoint == "club_invite"  # the link is shown
    assert response.status_code in (200, 302)
    assert (league_rows() != before) is (endpoint != "club_invite")


# -- what the properties found -------------------------------------------------------


def test_fixtures_that_would_run_past_the_year_9999_are_refused(people):
    """A season may start on 25 December 9999 (the form takes any date); its second
    week would be in the year 10000, which Python's dates do not hold: a 500."""
    league = a_league(people, None)
    league.season.starts_on = datetime.date(9999, 12, 25)
    league.season.save()
    client = Client()
    client.force_login(people["owner"])
    before = league_rows()
    response = client.post(_season(league, "season_generate"),
                           {"division": league.division.pk, "legs": "2"})
    assert response.status_code == 400
    assert ('<p class="error" role="alert" id="generate-error" tabindex="-1" autofocus>The '
            'fixtures would run past the year 9999: start the season earlier.</p>'
            ) in response.content.decode()
    assert league_rows() == before
