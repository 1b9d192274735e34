"""Reads for a club player's page: record by game, points, best placement, partners,
opponents, form, rating and league statistics — from stored results (finished matches,
and league games kept on paper with their players), a fixed number of queries."""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import models
from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from matches.clubs.models import Club, Player
from matches.history.models import Rating, RatingStep
from matches.leagues.models import FixtureGame, FixtureStatus, Season
from matches.leagues.selectors import (
    counted_paper_games,
    counted_results,
    counted_win,
    fixture_game_score,
)
from matches.scoring.models import Event, EventKind, GameKind, Match, MatchStatus, RoundSide, Seat

TOUGH_AFTER = 3  # meetings before an opponent can be the toughest


@dataclass
class GameRecord:
    game: str
    label: str
    played: int = 0
    won: int = 0
    points: Decimal = Decimal(0)
    rounds: int = 0

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0

    @property
    def points_per_round(self) -> Decimal | None:
        """None when no round was scored: games kept on paper have no rounds, which is
        not the same as scoring nothing in them."""
        return (self.points / self.rounds).quantize(Decimal("0.1")) if self.rounds else None


@dataclass
class Opponent:
    name: str
    met: int
    won: int

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.met)


@dataclass
class LeagueRecord:
    """A player's games in one league season: played, won, and points for and
    against (their side's final scores and the other side's)."""

    season: Season
    played: int = 0
    won: int = 0
    points_for: int = 0
    points_against: int = 0


@dataclass(frozen=True)
class PaperLineup:
    """A league game kept on paper as one result: the home and the away players (by
    primary key) and whether the home side won."""

    home: list[int]
    away: list[int]
    home_won: bool


@dataclass
class PlayerStats:
    player: Player
    games: list[GameRecord] = field(default_factory=list)
    best: Event | None = None
    best_step: int | None = None  # the placement's step in its round's replay
    partner: tuple[str, int] | None = None  # name, matches together
    toughest: Opponent | None = None
    form: str = ""  # the last five results (matches, paper games), oldest first: W or L
    ratings: list[tuple[Rating, list[float]]] = field(default_factory=list)
    league: list[LeagueRecord] = field(default_factory=list)


def player_stats(player: Player) -> PlayerStats:
    """Aggregated in the database: a club player can have played thousands of matches."""
    stats = PlayerStats(player)
    mine = Seat.objects.filter(player=player, match__status=MatchStatus.FINISHED)
    # won as the result counts: a league game by the league's correction, if any
    won = counted_win(side="side__index", match="match")
    records = {
        game: GameRecord(game, str(GameKind(game).label), played, wins)
        for game, played, wins in (mine.values_list("match__game")
                                   .annotate(played=Count("id"), won=Count("id", filter=won))
                                   .values_list("match__game", "played", "won"))}
    dated = _paper_games_of(player)
    paper = [(lineup, game) for _date, lineup, game in dated]
    for lineup, game in paper:
        record = records.setdefault(game, GameRecord(game, str(GameKind(game).label)))
        record.played += 1
        record.won += lineup.home_won == (player.pk in lineup.home)
    # the last five results, a match by the day it finished and a paper game by its
    # night's (one with no date is older than any dated one)
    last = [(timezone.localdate(at), 1, (at.timestamp(), pk), bool(win)) for at, pk, win in
            mine.order_by("-match__finished_at", "-match_id").annotate(win=won)
            .values_list("match__finished_at", "match_id", "win")[:5] if at is not None]
    last += [(date or datetime.date.min, 0, (float(number), 0),
              lineup.home_won == (player.pk in lineup.home))
             for number, (date, lineup, _game) in enumerate(dated)]
    stats.form = "".join("W" if win else "L" for *_when, win in sorted(last)[-5:])
    # points the player's side made a round, round by round (placements and settlement)
    for game, points, rounds in (
            RoundSide.objects.filter(side__seats__player=player, round__undone_by=None,
                                     side__match__status=MatchStatus.FINISHED)
            .values_list("side__match__game")
            .annotate(points=Sum(F("placements") + F("settlement")), rounds=Count("id"))
            .values_list("side__match__game", "points", "rounds")):
        records[game].points, records[game].rounds = points or Decimal(0), rounds
    stats.games = sorted(records.values(), key=lambda r: -r.played)
    # the best single placement: the player's own live event that scored most
    best = (Event.objects.filter(undone_by=None, points__isnull=False,
                                 match__status=MatchStatus.FINISHED,
                                 match__seats__player=player,
                                 match__seats__position=F("seat"))
            .select_related("match", "round").order_by("-points", "recorded_at", "id").first())
    if best is not None and best.points:
        stats.best = best
        if best.kind == EventKind.PLAY:  # the replay steps through placements only
            stats.best_step = best.round.events.filter(
                undone_by=None, kind=EventKind.PLAY, number__lte=best.number).count()
    # everyone else at the player's finished matches, in one pass: partners sat on the
    # player's side, opponents on another (counted once a match, won from the player's)
    others = (Seat.objects.filter(match__seats__player=player,
                                  match__status=MatchStatus.FINISHED)
              .exclude(player=player)
              .annotate(who=Coalesce("player__name", "name"),
                        partner=Q(side=F("match__seats__side")))
              .values("who", "partner")
              .annotate(met=Count("match", distinct=True),
                        won=Count("match", distinct=True, filter=counted_win(
                            side="match__seats__side__index", match="match"))))
    met = {(row["who"], row["partner"]): (row["met"], row["won"]) for row in others}
    names = dict(Player.objects.filter(pk__in={pk for lineup, _game in paper
                                               for pk in lineup.home + lineup.away})
                 .values_list("pk", "name"))
    for lineup, _game in paper:  # a paper game is one meeting, as a match is
        mine_home = player.pk in lineup.home
        won_it = lineup.home_won == mine_home
        for pk in lineup.home + lineup.away:
            if pk == player.pk:
                continue
            key = (names[pk], (pk in lineup.home) == mine_home)
            times, wins = met.get(key, (0, 0))
            met[key] = (times + 1, wins + won_it)
    partners = [(times, who) for (who, partner), (times, _wins) in met.items() if partner]
    if partners:
        together, name = min(partners, key=lambda p: (-p[0], p[1]))  # most, then by name
        stats.partner = (name, together)
    rivals = [Opponent(who, times, wins) for (who, partner), (times, wins) in met.items()
              if not partner and times >= TOUGH_AFTER]
    if rivals:
        stats.toughest = min(rivals, key=lambda o: (o.won / o.met, -o.met, o.name))
    ratings = list(Rating.objects.filter(player=player).order_by("game"))
    chart: dict[int, list[float]] = {rating.pk: [] for rating in ratings}
    for rating_id, ordinal in (RatingStep.objects.filter(rating__in=ratings)
                               .order_by("rating", "number").values_list("rating", "ordinal")):
        chart[rating_id].append(ordinal)  # plain values: a chart can have thousands
    stats.ratings = [(rating, chart[rating.pk]) for rating in ratings]
    stats.league = player_league_records(player)
    return stats


def _paper_games_of(player: Player) -> list[tuple[datetime.date | None, PaperLineup, str]]:
    """The league games kept on paper that ``player`` played, each with its night's date
    and its game, by date (undated last)."""
    pks = counted_paper_games().filter(Q(home_players=player) | Q(away_players=player))
    lineups = _lineups(FixtureGame.objects.filter(pk__in=pks))
    return [(date, lineup, game) for _pk, date, lineup, game in lineups]


def paper_game_lineups(*, club: Club, game: str
                       ) -> list[tuple[int, datetime.date | None, PaperLineup]]:
    """The club's league games at ``game`` kept on paper with their players named
    (primary key, the fixture's date, the line-up), by date (undated last), then
    fixture and number: what the ratings count besides the matches (two queries)."""
    named = counted_paper_games().filter(
        fixture__division__season__club=club, fixture__division__season__game=game,
        home_players__isnull=False)
    return [(pk, date, lineup) for pk, date, lineup, _game in
            _lineups(FixtureGame.objects.filter(pk__in=named))]


def _lineups(games: models.QuerySet[FixtureGame]
             ) -> list[tuple[int, datetime.date | None, PaperLineup, str]]:
    rows = list(games.order_by(F("fixture__date").asc(nulls_last=True), "fixture", "number")
                .values_list("pk", "fixture__date", "home_score", "away_score",
                             "fixture__division__season__game"))
    sides: dict[int, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    ids = [row[0] for row in rows]
    for through, home in ((FixtureGame.home_players.through, True),
                          (FixtureGame.away_players.through, False)):
        for game, player in (through.objects.filter(fixturegame__in=ids)
                             .order_by("pk").values_list("fixturegame", "player")):
            sides[game][0 if home else 1].append(player)
    # a paper game's scores are both kept (FixtureGame's constraint), and its line-up
    # has both sides (the fixture services' check)
    return [(pk, date, PaperLineup(sides[pk][0], sides[pk][1], (home or 0) > (away or 0)),
             game) for pk, date, home, away, game in rows]


def player_league_records(player: Player) -> list[LeagueRecord]:
    """The player's league games by season, newest season first: games played and won,
    points for and against; scored on the scorepad (once finished) or kept on paper,
    in fixtures that are not void."""
    games = (FixtureGame.objects.filter(Q(home_players=player) | Q(away_players=player))
             .exclude(fixture__status=FixtureStatus.VOID).distinct()
             .select_related("fixture__division__season__club", "match")
             .prefetch_related("match__sides", "home_players"))
    seasons: dict[int, LeagueRecord] = {}
    for game in games:
        score = fixture_game_score(game)
        if score is None:
            continue
        season = game.fixture.division.season
        record = seasons.setdefault(season.pk, LeagueRecord(season))
        home = any(p.pk == player.pk for p in game.home_players.all())
        mine, theirs = score if home else score[::-1]
        record.played += 1
        record.won += mine > theirs
        record.points_for += mine
        record.points_against += theirs
    return sorted(seasons.values(), key=lambda r: (r.season.starts_on, r.season.pk),
                  reverse=True)


def player_matches(player: Player, limit: int = 20) -> list[Match]:
    return list(counted_results(Match.objects.filter(seats__player=player))
                .order_by("-started_at", "-id")[:limit])
