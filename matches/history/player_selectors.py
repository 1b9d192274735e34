"""Reads for a club player's page: record by game, points, best placement, partners,
opponents, form and rating — from stored results, a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, F, Q, Sum
from django.db.models.functions import Coalesce

from matches.clubs.models import Player
from matches.history.models import Rating, RatingStep
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
    def points_per_round(self) -> Decimal:
        return (self.points / self.rounds).quantize(Decimal("0.1")) if self.rounds else \
            Decimal(0)


@dataclass
class Opponent:
    name: str
    met: int
    won: int

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.met)


@dataclass
class PlayerStats:
    player: Player
    games: list[GameRecord] = field(default_factory=list)
    best: Event | None = None
    best_step: int | None = None  # the placement's step in its round's replay
    partner: tuple[str, int] | None = None  # name, matches together
    toughest: Opponent | None = None
    form: str = ""  # the last five finished matches, oldest first: W or L
    ratings: list[tuple[Rating, list[float]]] = field(default_factory=list)


def player_stats(player: Player) -> PlayerStats:
    """Aggregated in the database: a club player can have played thousands of matches."""
    stats = PlayerStats(player)
    mine = Seat.objects.filter(player=player, match__status=MatchStatus.FINISHED)
    won = Q(side__index=F("match__winner_side"))
    records = {
        game: GameRecord(game, str(GameKind(game).label), played, wins)
        for game, played, wins in (mine.values_list("match__game")
                                   .annotate(played=Count("id"), won=Count("id", filter=won))
                                   .values_list("match__game", "played", "won"))}
    last = list(mine.order_by("-match__finished_at", "-match_id")
                .annotate(win=Q(side__index=F("match__winner_side")))
                .values_list("win", flat=True)[:5])
    stats.form = "".join("W" if win else "L" for win in reversed(last))
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
                        won=Count("match", distinct=True, filter=Q(
                            match__winner_side=F("match__seats__side__index")))))
    partners = [(row["met"], row["who"]) for row in others if row["partner"]]
    if partners:
        together, name = min(partners, key=lambda p: (-p[0], p[1]))  # most, then by name
        stats.partner = (name, together)
    rivals = [Opponent(row["who"], row["met"], row["won"]) for row in others
              if not row["partner"] and row["met"] >= TOUGH_AFTER]
    if rivals:
        stats.toughest = min(rivals, key=lambda o: (o.won / o.met, -o.met, o.name))
    ratings = list(Rating.objects.filter(player=player).order_by("game"))
    chart: dict[int, list[float]] = {rating.pk: [] for rating in ratings}
    for rating_id, ordinal in (RatingStep.objects.filter(rating__in=ratings)
                               .order_by("rating", "number").values_list("rating", "ordinal")):
        chart[rating_id].append(ordinal)  # plain values: a chart can have thousands
    stats.ratings = [(rating, chart[rating.pk]) for rating in ratings]
    return stats


def player_matches(player: Player, limit: int = 20) -> list[Match]:
    return list(Match.objects.filter(seats__player=player).order_by("-started_at", "-id")
                .prefetch_related("seats", "sides")[:limit])
