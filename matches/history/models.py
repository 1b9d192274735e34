"""Ratings: each club player's skill at each game, from the club's finished matches.

Computed by ``openskill`` (Plackett–Luce), never by hand, and never mixed into league
points. A rating is a cache: ``history.services.ratings_recompute`` rebuilds a club's ratings
for a game from its matches in the order they were played, so a match imported,
corrected or undone later changes the ratings as if it had always been there.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import Club, Player
from matches.leagues.models import FixtureGame
from matches.scoring.models import GameKind, Match

PROVISIONAL_BELOW = 10  # matches before a rating is more than a first guess


class Rating(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField(_("skill"))
    sigma = models.FloatField(_("uncertainty"))
    # what the table sorts by: mu - 3 sigma, a skill the player is very likely above
    ordinal = models.FloatField(_("rating"))
    matches = models.PositiveIntegerField(_("matches rated"))
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        ordering = ["club", "game", "-ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["club", "game", "player"],
                                    name="rating_once_per_player_and_game"),
            models.CheckConstraint(condition=Q(game__in=GameKind.values),
                                   name="rating_game_valid"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.get_game_display()}: {self.ordinal:.1f}"

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_BELOW


class RatingStep(models.Model):
    """A player's rating after one rated match, or one league game kept on paper (its
    fixture game): the points of the rating chart."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="steps")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="rating_steps")
    fixture_game = models.ForeignKey(FixtureGame, on_delete=models.CASCADE, null=True,
                                     blank=True, related_name="rating_steps")
    number = models.PositiveIntegerField(_("match number"))
    ordinal = models.FloatField(_("rating"))

    class Meta:
        ordering = ["rating", "number"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "number"], name="rating_step_once"),
            models.CheckConstraint(
                condition=Q(match__isnull=False, fixture_game__isnull=True)
                | Q(match__isnull=True, fixture_game__isnull=False),
                name="rating_step_one_result"),
        ]

    def __str__(self) -> str:
        return f"{self.rating.player} after match {self.number}: {self.ordinal:.1f}"
