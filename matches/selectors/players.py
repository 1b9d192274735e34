"""Reads for a club player's page: record by game, points, best placement, partners,
opponents, form and rating — from stored results, a fixed number of queries."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import F

from matches.models import Event, Match, MatchStatus, Player, Rating, RoundSide, Seat

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
    stats = PlayerStats(player)
    seats = list(Seat.objects.filter(player=player, match__status=MatchStatus.FINISHED)
                 .select_related("match", "side").order_by("match__finished_at", "match_id"))
    matches = [seat.match for seat in seats]
    records: dict[str, GameRecord] = {}
    won_by_match: dict[int, bool] = {}
    for seat in seats:
        match = seat.match
        record = records.setdefault(match.game, GameRecord(match.game,
                                                           match.get_game_display()))
        record.played += 1
        won = seat.side.index == match.winner_side
        won_by_match[match.pk] = won
        record.won += won
    stats.form = "".join("W" if won_by_match[m.pk] else "L" for m in matches[-5:])
    # points the player's side made a round, round by round (placements and settlement)
    for game, placements, settlement in (
            RoundSide.objects.filter(side__in=[seat.side_id for seat in seats],
                                     round__undone_by=None)
            .values_list("round__match__game", "placements", "settlement")):
        records[game].points += placements + settlement
        records[game].rounds += 1
    stats.games = sorted(records.values(), key=lambda r: -r.played)
    # the best single placement: the player's own live event that scored most
    best = (Event.objects.filter(undone_by=None, points__isnull=False,
                                 match__status=MatchStatus.FINISHED,
                                 match__seats__player=player,
                                 match__seats__position=F("seat"))
            .select_related("match", "round").order_by("-points", "recorded_at", "id").first())
    if best is not None and best.points:
        stats.best = best
        stats.best_step = best.round.events.filter(undone_by=None,
                                                   number__lte=best.number).count()
    # partners and opponents, from everyone who sat at the player's matches
    partners: Counter[str] = Counter()
    met: dict[str, list[bool]] = defaultdict(list)
    by_match = {seat.match_id: seat for seat in seats}
    for other in (Seat.objects.filter(match__in=list(by_match))
                  .exclude(player=player).select_related("player")):
        mine = by_match[other.match_id]
        name = other.player.name if other.player else other.name
        if other.side_id == mine.side_id:
            partners[name] += 1
        else:
            met[name].append(won_by_match[other.match_id])
    if partners:
        stats.partner = partners.most_common(1)[0]
    rivals = [Opponent(name, len(results), sum(results)) for name, results in met.items()
              if len(results) >= TOUGH_AFTER]
    if rivals:
        stats.toughest = min(rivals, key=lambda o: (o.won / o.met, -o.met, o.name))
    for rating in Rating.objects.filter(player=player).prefetch_related("steps"):
        stats.ratings.append((rating, [step.ordinal for step in rating.steps.all()]))
    return stats


def player_matches(player: Player, limit: int = 20) -> list[Match]:
    return list(Match.objects.filter(seats__player=player).order_by("-started_at", "-id")
                .prefetch_related("seats", "sides")[:limit])
