"""Ratings: rebuilt with ``openskill`` from a club's finished matches, in the order played.

A match is rated for a club when every seat is one of the club's players (league games
scored on the scorepad are); so is a league game kept on paper with its players named:
one result between the home players and the away players. Partnerships are teams;
three or more sides are ranked by their final scores, the winner first, ties sharing
a place. Rebuilding the whole club and game (rather than adding one match) is what
makes a past match imported, corrected or undone count exactly where it was played.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models.functions import Coalesce
from django.dispatch import receiver
from django.utils import timezone
from openskill.models import PlackettLuce

from matches.clubs.models import Club
from matches.history.models import Rating, RatingStep
from matches.history.player_selectors import paper_game_lineups
from matches.leagues.selectors import counted_win
from matches.scoring.models import Match, MatchStatus, Seat, Side
from matches.scoring.signals import results_changed

_NEVER = datetime.datetime.max.replace(tzinfo=datetime.UTC)  # an undated game: last


@dataclass(frozen=True)
class _Rated:
    """What a rating needs of one result (a match, or a paper game: ``fixture_game``):
    its teams of players and their places."""

    match: int | None
    teams: list[list[int]]  # players by side, sides in order
    ranks: list[int]
    fixture_game: int | None = None


def _rated(club: Club, game: str) -> list[_Rated]:
    """The rated results in the order played: the club's matches by when they
    finished, and its league's paper games on their fixture's date (after that day's
    matches; undated, last), by game number."""
    when = [(at, 0, rated) for at, rated in _rated_matches(club, game)]
    when += [(at, 1, rated) for at, rated in _paper_games_rated(club=club, game=game)]
    return [rated for _at, _kind, rated in sorted(when, key=lambda row: row[:2])]


def _rated_matches(club: Club, game: str) -> list[tuple[datetime.datetime, _Rated]]:
    """The rated matches as plain values, with when each finished (three queries, no
    model instances: a club can hold tens of thousands of matches)."""
    order = list(Match.objects.filter(game=game, status=MatchStatus.FINISHED,
                                      seats__player__club=club).distinct()
                 .order_by("finished_at", "id")
                 .values_list("pk", Coalesce("fixture_game__score_corrected", False),
                              "finished_at"))
    ids = [pk for pk, _corrected, _at in order]
    seats: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for match, side, player in (Seat.objects.filter(match__in=ids)
                                .values_list("match", "side", "player")):
        seats[match].append((side, player))
    # who won as the result counts: a league game the league corrected, as corrected
    sides: dict[int, list[tuple[int, int, bool, Decimal]]] = defaultdict(list)
    for pk, match, index, won, score in (
            Side.objects.filter(match__in=ids)
            .annotate(won=counted_win(side="index", match="match"))
            .values_list("pk", "match", "index", "won", "score")):
        sides[match].append((pk, index, won, score))
    club_players = set(club.players.values_list("pk", flat=True))
    rated = []
    for pk, corrected, at in order:
        if not all(player in club_players for _side, player in seats[pk]):
            continue
        ordered = sorted(sides[pk], key=lambda side: side[1])
        teams = [[player for side, player in seats[pk] if side == side_pk and player]
                 for side_pk, _index, _won, _score in ordered]
        if corrected:  # home beat away or lost, as the league says: the pad's scores rank none
            ranks = [1 if won else 2 for _pk, _index, won, _score in ordered]
        else:
            ranks = _side_ranks([(won, score) for _pk, _index, won, score in ordered])
        rated.append((at or _NEVER, _Rated(pk, teams, ranks)))
    return rated


def _paper_games_rated(*, club: Club, game: str) -> list[tuple[datetime.datetime, _Rated]]:
    """The club's league games at ``game`` kept on paper with their players named, each
    one result of the home players against the away players, at the end of its
    fixture's day (two queries)."""
    rated = []
    for pk, at, lineup in paper_game_lineups(club=club, game=game):
        day = (timezone.make_aware(datetime.datetime.combine(at, datetime.time.max))
               if at is not None else _NEVER)
        rated.append((day, _Rated(None, [lineup.home, lineup.away],
                                  [1, 2] if lineup.home_won else [2, 1], fixture_game=pk)))
    return rated


def _side_ranks(keys: list[tuple[bool, Decimal]]) -> list[int]:
    return [1 + sum(1 for other in keys if other > key) for key in keys]


@transaction.atomic
def ratings_recompute(*, club: Club, game: str) -> int:
    """Rebuild the club's ratings at ``game``; returns how many matches were rated."""
    model = PlackettLuce()
    skills: dict[int, Any] = {}
    counts: dict[int, int] = defaultdict(int)
    # player, match, fixture game, number, ordinal
    steps: list[tuple[int, int | None, int | None, int, float]] = []
    rated = _rated(club, game)
    for match in rated:
        new = model.rate([[skills.setdefault(p, model.rating()) for p in team]
                          for team in match.teams],
                         ranks=[float(rank) for rank in match.ranks])
        for team, skilled in zip(match.teams, new, strict=True):
            for player, skill in zip(team, skilled, strict=True):
                skills[player] = skill
                counts[player] += 1
                steps.append((player, match.match, match.fixture_game, counts[player],
                              skill.ordinal()))
    Rating.objects.filter(club=club, game=game).delete()
    ratings = Rating.objects.bulk_create([
        Rating(club=club, game=game, player_id=player, mu=skill.mu, sigma=skill.sigma,
               ordinal=skill.ordinal(), matches=counts[player])
        for player, skill in skills.items()])
    by_player = {rating.player_id: rating.pk for rating in ratings}
    RatingStep.objects.bulk_create([
        RatingStep(rating_id=by_player[player], match_id=match, fixture_game_id=paper,
                   number=number, ordinal=ordinal)
        for player, match, paper, number, ordinal in steps], batch_size=5000)
    return len(rated)


@receiver(results_changed)
def ratings_follow(*, clubs: Iterable[Club], game: str, **_signal: object) -> None:
    """After a match's result came, changed or went: rebuild the ratings of the clubs
    whose players sat at it, at its game (``results_changed``)."""
    for club in clubs:
        ratings_recompute(club=club, game=game)
