"""Knockout cups: a cup owns a season of kind cup (its game, options, what a tie is,
the sign-off settings) with one division holding its entrants; each tie, once both its
sides are known, is a fixture of that division, played through the fixture page.

What is stored is what the rules read (``matches.rules.cup``): the draw (``drawn``, the
plate's ``plate_drawn``) and each tie's counted result (``CupTie.result``, taken from
its fixture when the result counts). Who is in which tie and who went through is worked
out from them by :func:`matches.rules.cup.bracket`, never stored.
"""

from __future__ import annotations

import datetime
import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from matches.core import messages as rules_messages
from matches.leagues.models import Fixture, Season


class DrawMethod(models.TextChoices):
    RANDOM = "random", _("At random, from the seed shown on the cup's page")
    SEEDED = "seeded", _("Seeded: the seeds kept apart, the top seeds get the byes")
    BY_HAND = "by_hand", _("By hand: the first round's ties entered")


class DrawTiming(models.TextChoices):
    ALL_AT_ONCE = "all_at_once", _("All at once")
    ROUND_BY_ROUND = "round_by_round", _("Round by round")


class LevelTie(models.TextChoices):
    TOTAL_POINTS = "total_points", _("Most points over the tie's games")
    DECIDING_GAME = "deciding_game", _("A deciding game")


class CupLogKind(models.TextChoices):
    """What was done to a cup; the labels are what its log says."""

    CREATED = "created", _("cup made")
    SEEDS = "seeds", _("seeds set")
    DRAWN = "drawn", _("drawn")
    ROUND_DRAWN = "round_drawn", _("next round drawn")
    PLATE_DRAWN = "plate_drawn", _("plate drawn")
    ROUND_DATED = "round_dated", _("round dated")
    FINALS = "finals", _("finals night set")
    RESET = "reset", _("ties reset by an admin")
    ENTRANTS_ADDED = "entrants_added", _("a season's entrants entered")
    ENTRANT_RENAMED = "entrant_renamed", _("entrant renamed")
    ENTRANT_REMOVED = "entrant_removed", _("entrant taken out")
    PLATE_UNDRAWN = "plate_undrawn", _("plate's draw taken back by an admin")


WALKOVER_SCORES = _("A walkover gives more games to the side that turned up than to the "
                    "other.")

MAX_SEED = 2**53 - 1  # a draw's seed: any whole number a spreadsheet or a browser keeps exactly


class Cup(models.Model):
    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="cup")
    draw_method = models.CharField(_("the draw"), max_length=8, choices=DrawMethod.choices,
                                   default=DrawMethod.RANDOM)
    draw_timing = models.CharField(_("rounds drawn"), max_length=16,
                                   choices=DrawTiming.choices,
                                   default=DrawTiming.ALL_AT_ONCE)
    plate = models.BooleanField(_("a plate for the losers of their first tie"),
                                default=False)
    level_tie = models.CharField(_("a level tie is decided by"), max_length=16,
                                 choices=LevelTie.choices, default=LevelTie.TOTAL_POINTS)
    walkover_winner = models.PositiveSmallIntegerField(
        _("a walkover's games for the side that turned up"), default=1)
    walkover_loser = models.PositiveSmallIntegerField(
        _("a walkover's games for the other side"), default=0)
    # chosen with `secrets` when the cup is made and shown on its page: the random draw
    # (and each later round drawn, and the plate's) follow from it, so anyone can check it
    draw_seed = models.BigIntegerField(_("the draw's seed"))
    # entrant ids, seed 1 first (a seeded draw)
    seeds = models.JSONField(_("seeds"), default=list, blank=True)
    # the rules' draw (``stored.draw_json``); null until drawn
    drawn = models.JSONField(_("the draw"), null=True, blank=True)
    plate_drawn = models.JSONField(_("the plate's draw"), null=True, blank=True)
    finals_on = models.DateField(_("finals night"), null=True, blank=True)
    finals_venue = models.CharField(_("finals venue"), max_length=120, blank=True, default="")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(draw_method__in=DrawMethod.values),
                                   name="cup_draw_method_valid"),
            models.CheckConstraint(condition=Q(draw_timing__in=DrawTiming.values),
                                   name="cup_draw_timing_valid"),
            models.CheckConstraint(condition=Q(level_tie__in=LevelTie.values),
                                   name="cup_level_tie_valid"),
            models.CheckConstraint(condition=Q(walkover_winner__gt=F("walkover_loser")),
                                   name="cup_walkover_winner_more",
                                   violation_error_message=WALKOVER_SCORES),
            models.CheckConstraint(condition=Q(draw_seed__gte=0, draw_seed__lte=MAX_SEED),
                                   name="cup_draw_seed_range"),
            models.CheckConstraint(condition=Q(plate_drawn__isnull=True) | Q(plate=True),
                                   name="cup_plate_drawn_has_plate"),
        ]

    def __str__(self) -> str:
        return self.season.name

    def get_absolute_url(self) -> str:
        return reverse("matches:cup", kwargs={"slug": self.season.club.slug,
                                              "season": self.season.slug})

    def clean(self) -> None:
        if (self.walkover_winner is not None and self.walkover_loser is not None
                and self.walkover_winner <= self.walkover_loser):
            raise ValidationError({"walkover_winner": ValidationError(
                WALKOVER_SCORES, code="walkover")})


class CupRound(models.Model):
    """A round's date (of the cup, or of its plate): its ties' fixtures take it; a new
    date (a postponement) is logged."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="rounds")
    plate = models.BooleanField(_("plate"), default=False)
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"), null=True, blank=True)

    class Meta:
        ordering = ["cup", "plate", "number"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "plate", "number"], name="cup_round_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="cup_round_from_one"),
        ]

    def __str__(self) -> str:
        return f"{'plate ' if self.plate else ''}round {self.number} of {self.cup}"


class CupTie(models.Model):
    """A tie of the draw: its fixture once both sides are known, and the result the cup
    counts for it (``matches.rules.cup.TieResult`` as ``stored.result_json`` writes it),
    taken from the fixture whenever its result comes to count, changes or goes."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="ties")
    plate = models.BooleanField(_("plate"), default=False)
    round = models.PositiveSmallIntegerField(_("round"))
    position = models.PositiveSmallIntegerField(_("tie"))
    fixture = models.OneToOneField(Fixture, on_delete=models.RESTRICT, null=True, blank=True,
                                   related_name="cup_tie")
    result = models.JSONField(_("counted result"), null=True, blank=True)

    class Meta:
        ordering = ["cup", "plate", "round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["cup", "plate", "round", "position"],
                                    name="cup_tie_once"),
            models.CheckConstraint(condition=Q(round__gte=1), name="cup_tie_round_from_one"),
            models.CheckConstraint(condition=Q(position__gte=1),
                                   name="cup_tie_position_from_one"),
            # a result is counted from the tie's fixture
            models.CheckConstraint(condition=Q(result__isnull=True) | Q(fixture__isnull=False),
                                   name="cup_tie_result_has_fixture"),
        ]

    def __str__(self) -> str:
        return f"{'plate ' if self.plate else ''}tie {self.position} of round {self.round}"


class CupLog(models.Model):
    """Who did what to a cup, and when (a reset says why)."""

    cup = models.ForeignKey(Cup, on_delete=models.CASCADE, related_name="log")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="cup_changes")
    at = models.DateTimeField(_("when"), default=timezone.now)
    kind = models.CharField(_("kind"), max_length=16, choices=CupLogKind.choices)
    details = models.CharField(_("details"), max_length=400, blank=True, default="")

    class Meta:
        ordering = ["cup", "at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=CupLogKind.values),
                                   name="cup_log_kind_known"),
            # an admin's undoing says why
            models.CheckConstraint(
                condition=~Q(kind__in=[CupLogKind.RESET, CupLogKind.PLATE_UNDRAWN])
                | ~Q(details=""), name="cup_log_reset_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.cup})"

    @property
    def details_shown(self) -> str:
        """The details in the reader's language: the rounds and ties the services name in
        English ("round 2", "tie 1 of round 2"); names, dates, venues and a reset's
        reason as written."""
        if self.kind == CupLogKind.RESET:  # the reason as typed, then the ties reset
            return rules_messages.tie_words(self.details)
        if self.kind == CupLogKind.DRAWN and self.details == "imported":
            return str(_("imported from a cup file"))
        if self.kind in (CupLogKind.ROUND_DRAWN, CupLogKind.ROUND_DATED):
            return _dates_shown(rules_messages.cup_round_words(self.details))
        if self.kind == CupLogKind.FINALS:  # its date, then the venue as written
            date, comma, venue = self.details.partition(", ")
            return _dates_shown(date) + comma + venue
        return self.details


_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _dates_shown(text: str) -> str:
    """The log's dates (written YYYY-MM-DD) as the reader's language writes a date."""
    def shown(found: re.Match[str]) -> str:
        try:
            return date_format(datetime.date.fromisoformat(found[0]), "SHORT_DATE_FORMAT")
        except ValueError:  # not a date after all: as written
            return found[0]
    return _ISO_DATE.sub(shown, text)

