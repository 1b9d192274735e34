"""Ratings: rebuilt with ``openskill`` from a club's finished matches, in the order played.

A match is rated for a club when every seat is one of the club's players (league games
scored on the scorepad are). Partnerships are teams; three or more sides are ranked
by their final scores, the winner first, ties sharing a place. Rebuilding the whole
club and game (rather than adding one match) is what makes a past match imported,
corrected or undone count exactly where it was played.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from matches.models import Club, Match, MatchStatus, Rating, RatingStep


def rated_matches(*, club: Club, game: str) -> list[Match]:
    """The club's finished matches of ``game`` whose every seat is a club player,
    in the order they were played."""
    matches = (Match.objects.filter(game=game, status=MatchStatus.FINISHED,
                                    seats__player__club=club)
               .distinct().prefetch_related("seats", "sides").order_by("finished_at", "id"))
    club_players = set(club.players.values_list("pk", flat=True))
    return [match for match in matches
            if all(seat.player_id in club_players for seat in match.seats.all())]


def side_ranks(match: Match) -> list[int]:
    """Each side's place (1 is best): the winner first, then by final score; equal
    scores share a place."""
    scores = {side.index: side.score for side in match.sides.all()}
    key = {index: (index == match.winner_side, score) for index, score in scores.items()}
    return [1 + sum(1 for other in key.values() if other > key[index])
            for index in sorted(scores)]


@transaction.atomic
def ratings_recompute(*, club: Club, game: str) -> int:
    """Rebuild the club's ratings at ``game``; returns how many matches were rated."""
    model = PlackettLuce()
    skills: dict[int, Any] = {}
    counts: dict[int, int] = defaultdict(int)
    steps: list[tuple[int, int, int, float]] = []  # player, match, number, ordinal
    matches = rated_matches(club=club, game=game)
    for match in matches:
        teams: dict[int, list[int]] = defaultdict(list)
        for seat in match.seats.all():
            assert seat.player_id is not None  # rated_matches keeps club players only
            teams[seat.side_id].append(seat.player_id)
        by_index = {side.pk: side.index for side in match.sides.all()}
        ordered = [teams[pk] for pk in sorted(teams, key=lambda pk: by_index[pk])]
        rated = model.rate([[skills.setdefault(p, model.rating()) for p in team]
                            for team in ordered],
                           ranks=[float(rank) for rank in side_ranks(match)])
        for team, new in zip(ordered, rated, strict=True):
            for player, skill in zip(team, new, strict=True):
                skills[player] = skill
                counts[player] += 1
                steps.append((player, match.pk, counts[player], skill.ordinal()))
    Rating.objects.filter(club=club, game=game).delete()
    ratings = Rating.objects.bulk_create([
        Rating(club=club, game=game, player_id=player, mu=skill.mu, sigma=skill.sigma,
               ordinal=skill.ordinal(), matches=counts[player])
        for player, skill in skills.items()])
    by_player = {rating.player_id: rating for rating in ratings}
    RatingStep.objects.bulk_create([
        RatingStep(rating=by_player[player], match_id=match, number=number, ordinal=ordinal)
        for player, match, number, ordinal in steps], batch_size=2000)
    return len(matches)


def ratings_follow(match: Match) -> None:
    """After ``match`` was finished, reopened or changed: rebuild its club's ratings at
    its game, if its seats are a club's players."""
    club_ids = set(match.seats.filter(player__isnull=False)
                   .values_list("player__club", flat=True))
    for club in Club.objects.filter(pk__in=club_ids):
        ratings_recompute(club=club, game=match.game)


@transaction.atomic
def match_delete(*, match: Match) -> None:
    """Delete a match for good (the admin's delete); the ratings it fed are rebuilt
    without it."""
    clubs = list(Club.objects.filter(players__seats__match=match).distinct())
    game = match.game
    match.delete()
    for club in clubs:
        ratings_recompute(club=club, game=game)
