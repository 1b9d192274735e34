"""Plain helpers for the Django-side tests: matches are made through the services."""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from matches import rules
from matches.clubs.services import club_create, player_add
from matches.leagues.services import (
    PaperGame,
    entrant_add,
    fixture_confirm,
    fixture_dispute,
    fixture_game_start,
    fixture_redate,
    fixture_submit,
    fixture_void,
    season_create,
)
from matches.models import Club, Event, Fixture, FixtureStatus, Match, Membership, ScorerGrant
from matches.scoring.creation_keys import creation_key_draw
from matches.scoring.selectors.play import match_engine, match_record
from matches.scoring.services.play import event_record, event_undo, match_create, round_start

T = rules.Tile.parse
A = rules.AttachmentPoint.parse

# small matches of every game for property tests: (game, players, options)
SHAPES = [
    (rules.ALL_FIVES, 2, {"target": 60, "hand_size": 4}),
    (rules.ALL_FIVES, 3, {"target": 60, "hand_size": 3}),
    (rules.FIVE_UP, 4, {"target": 8, "hand_size": 3}),
    (rules.FIVES_AND_THREES, 3, {"target": 15, "drawing": True, "hand_size": 4}),
]


def site_admin() -> User:
    """A staff account, who may restore or delete any match (``can_restore``):
    for tests of what a restore or a deletion does, not of who may do it."""
    return (User.objects.filter(username="site-admin").first()
            or User.objects.create_user("site-admin", is_staff=True))


def two_player_all_fives(**options: Any) -> Match:
    """Olena and Taras, All Fives, two tiles each so a round ends in three plays."""
    return match_create(game="all-fives", players=["Olena", "Taras"],
                                 options={"hand_size": 2, **options})


def night(day: int, hours: int = 0) -> datetime.datetime:
    """An evening of September 2026, ``hours`` after 20:00 on ``day``."""
    return timezone.make_aware(datetime.datetime(2026, 9, day, 20)) + \
        datetime.timedelta(hours=hours)


def won_at_once(names: list[str], *, opener: int, played_at: datetime.datetime,
                club: Club | None = None, players_of: Club | None = None) -> Match:
    """An All Fives match to 10 that ``opener`` wins at once: 5-5 makes 10. Played at
    ``played_at``; a game of ``club``'s league if given; its seats are ``players_of``'s
    players of those names if given (so it is rated and on their pages)."""
    match = match_create(game="all-fives", players=names,
                                  options={"target": 10, "hand_size": 2})
    if players_of is not None:
        players = {p.name: p for p in players_of.players.all()}
        for seat in match.seats.all():
            seat.player = players[seat.name]
            seat.save(update_fields=["player"])
    round_start(match=match, starter=opener)
    event_record(match=match, action=rules.Play(opener, T("5-5")))
    match.refresh_from_db()
    assert match.status == "finished" and match.winner_side == opener % 2
    Match.objects.filter(pk=match.pk).update(started_at=played_at, finished_at=played_at,
                                             club=club)
    match.refresh_from_db()
    return match


@dataclass
class LeagueNight:
    fixture: Fixture
    admin: User  # the club's admin: runs its league
    home_captain: User
    away_captain: User
    match: Match  # a game of the night on the scorepad
    grant: ScorerGrant  # the phone that started it


def league_night(*, target: int = 61) -> LeagueNight:
    """Royal Oak A (Ann) v Bowes Dragons (Bob) in the Monday League, a night of one game,
    All Fives with two tiles each, to ``target``: the game on the scorepad, Ann in seat 0,
    its first round not started (the draw of lots taken back)."""
    admin, home_captain, away_captain = (User.objects.create_user(name)
                                         for name in ("league-admin", "oak", "bowes"))
    club = club_create(name="Teesdale", by=admin)
    for captain in (home_captain, away_captain):
        Membership.objects.create(club=club, user=captain, role="captain")
    season = season_create(club=club, by=admin, name="Monday League",
                                    game="all-fives", starts_on=datetime.date(2026, 9, 7),
                                    options={"hand_size": 2, "target": target},
                                    divisions=["Only"])
    division = season.divisions.get()
    home, away = (entrant_add(
        division=division, by=admin, name=name, captain=captain,
        players=[player_add(club=club, name=player, by=admin)])
        for name, captain, player in (("Royal Oak A", home_captain, "Ann"),
                                      ("Bowes Dragons", away_captain, "Bob")))
    fixture = division.fixtures.create(week=1, home=home, away=away)
    started = fixture_game_start(fixture=fixture, by=home_captain, number=1,
                                          home_players=list(home.players.all()),
                                          away_players=list(away.players.all()))
    event_undo(match=started.match)  # the starter is chosen, not drawn
    started.match.refresh_from_db()
    return LeagueNight(fixture=fixture, admin=admin, home_captain=home_captain,
                       away_captain=away_captain, match=started.match, grant=started.grant)


def paper_games(fixture: Fixture, scores: Sequence[tuple[int, int] | None],
                with_players: bool = True) -> list[PaperGame | None]:
    """The night's games kept on paper with these scores, each with a line-up the
    night allows from the squads' first players (by id): singles, save a set's last
    ``pairs`` games (and a night played only in pairs), a pair a side.
    ``with_players=False``: scores alone (a season where players are optional)."""
    season = fixture.division.season
    home = list(fixture.home.players.order_by("pk"))
    away = list(fixture.away.players.order_by("pk"))
    games: list[PaperGame | None] = []
    for n, score in enumerate(scores, start=1):
        if score is None:
            games.append(None)
            continue
        pair = season.night.players == (4,) or (
            season.fixture_format == "games" and n > season.singles)
        size = 2 if pair else 1
        games.append(PaperGame(*score, home_players=home[:size] if with_players else [],
                               away_players=away[:size] if with_players else []))
    return games


@dataclass
class PaperLeague:
    """Oak (Ann, Bob) and Bowes (Cat, Dan) in a Fives and Threes season of two singles
    and a pairs game a night, its games kept on paper; their captain ``captain``."""

    club: Club
    captain: User
    season: Any
    home: list[Any]
    away: list[Any]

    def fixture(self, week: int, *, reverse: bool = False) -> Fixture:
        division = self.season.divisions.get()
        oak, bowes = (division.entrants.get(name=name) for name in ("Oak", "Bowes"))
        home, away = (bowes, oak) if reverse else (oak, bowes)
        return division.fixtures.create(week=week, home=home, away=away,
                                        date=self.season.starts_on
                                        + datetime.timedelta(weeks=week - 1))


def paper_league(club: Club, captain: User, *, name: str = "Paper League",
                 starts_on: datetime.date = datetime.date(2026, 9, 7),
                 optional: bool = False, squads: dict[str, list[Any]] | None = None
                 ) -> PaperLeague:
    """A season of ``club`` run by ``captain`` (a league admin, who captains both sides),
    with Oak and Bowes: their squads ``squads``, else new players Ann, Bob and Cat, Dan."""
    season = season_create(club=club, by=captain, name=name, starts_on=starts_on,
                           game="fives-and-threes", fixture_format="games", singles=2,
                           pairs=1, paper_players_optional=optional)
    division = season.divisions.get()
    squads = squads or {entrant: [player_add(club=club, name=player, by=captain)
                                  for player in players]
                        for entrant, players in (("Oak", ["Ann", "Bob"]),
                                                 ("Bowes", ["Cat", "Dan"]))}
    for entrant, players in squads.items():
        entrant_add(division=division, by=captain, name=entrant, players=players,
                    captain=captain)
    return PaperLeague(club, captain, season, squads["Oak"], squads["Bowes"])


def play_short_round(match: Match) -> None:
    """Round 1: 5-5 (10), 0-5 (10), 5-6 (0): Olena goes out; Taras is left with 1-2."""
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5"), 10))
    event_record(match=match, action=rules.Play(0, T("5-6"), A("5-5:5")))


def live(rows: Any) -> Any:
    """The rows of a match's rounds or events that no undo or restore took back."""
    return rows.filter(undone_by=None)


def snapshot(match: Match) -> dict[str, Any]:
    """Everything a failed write must leave exactly as it was."""
    match.refresh_from_db()
    return {
        "record": match_record(match),
        "version": match.version,
        "changes": match.changes.count(),
        "events": Event.objects.filter(match=match).count(),
        "live_events": Event.objects.filter(match=match, undone_by=None).count(),
        "side_scores": list(match.sides.order_by("index").values_list("score", flat=True)),
        "round_sides": list(
            match.rounds.filter(undone_by=None).values_list(
                "number", "side_totals__side__index", "side_totals__placements",
                "side_totals__settlement", "side_totals__score")
            .order_by("number", "side_totals__side__index")),
        "rounds": list(match.rounds.filter(undone_by=None).values_list(
            "number", "end", "finisher", "settled", "hands", "pips").order_by("number")),
        "status": (match.status, match.winner_side, match.finished_at),
    }


def assert_cache_equals_replay(match: Match) -> None:
    """Side scores, RoundSide rows and status equal a fresh replay's summary."""
    match.refresh_from_db()
    summary = rules.summary(match_engine(match))
    assert list(match.sides.order_by("index").values_list("score", flat=True)) == \
        summary["scores"]
    rounds = list(match.rounds.filter(undone_by=None).order_by("number"))
    assert len(rounds) == len(summary["rounds"])
    for round_, expected in zip(rounds, summary["rounds"], strict=True):
        rows = list(round_.side_totals.order_by("side__index"))
        assert [row.side.index for row in rows] == list(range(len(summary["sides"])))
        assert [row.placements for row in rows] == expected["placements"]
        assert [row.settlement for row in rows] == expected["settlement"]
        assert [row.score for row in rows] == expected["scores"]
        assert round_.finisher == expected["finisher"]
        assert (round_.end == "blocked") == expected["blocked"]
    assert match.status == summary["status"]
    assert match.winner_side == summary["winner"]
    assert (match.finished_at is not None) == (summary["status"] == "finished")


def league_night_at(status: str) -> LeagueNight:
    """:func:`league_night` (to 10) brought to ``status`` the way a club gets there: a
    scheduled night's game not begun, a postponed or void one, or Ann's 5-5 winning the
    game 10–0 and the night submitted, then confirmed or disputed by the away captain."""
    night = league_night(target=10)
    fixture = night.fixture
    if status == FixtureStatus.POSTPONED:
        fixture_redate(fixture=fixture, by=night.home_captain, date=None,
                                postponed=True)
    elif status == FixtureStatus.VOID:
        fixture_void(fixture=fixture, by=night.admin)
    elif status != FixtureStatus.SCHEDULED:
        round_start(match=night.match, starter=0)
        event_record(match=night.match, action=rules.Play(0, T("5-5")))
        fixture_submit(fixture=fixture, by=night.home_captain)
        if status == FixtureStatus.CONFIRMED:
            fixture_confirm(fixture=fixture, by=night.away_captain)
        elif status == FixtureStatus.DISPUTED:
            fixture_dispute(fixture=fixture, by=night.away_captain,
                                     message="Bob had 5-5, not Ann")
    fixture.refresh_from_db()
    assert fixture.status == status
    return night


def fixture_state(fixture: Fixture) -> tuple[Any, ...]:
    """What a refused write on a fixture leaves as it was: its status, result, dispute,
    log and games."""
    fixture.refresh_from_db()
    return (fixture.status, fixture.home_games, fixture.away_games, fixture.walkover,
            fixture.dispute, fixture.changes.count(),
            sorted(fixture.games.values_list("number", "home_score", "away_score", "match")))
def drawn_key(client: Client) -> str:
    """A creation key as the new-match form or a rematch button draws it: held by
    ``client``'s session, as only the browser that drew a form may send its key
    (matches/scoring/creation_keys.py)."""
    session = client.session
    key = creation_key_draw(session)
    session.save()
    return str(key)


@contextmanager
def counted_replays() -> Iterator[mock.MagicMock]:
    """Every replay of a match from its actions (``rules.Match.replay``, what a page pays
    when the process kept no engine) while the block runs: ``.call_count``."""
    with mock.patch.object(rules.Match, "replay", wraps=rules.Match.replay) as replays:
        yield replays
