"""Stored matches: players, seats and sides, rounds and their events.

Events are append-only and numbered per match; the scores derived from them are
cached per side and per round (for fast lists and league tables) and are always
written in the same transaction as the event that changed them, by
``matches.services``. Every invariant the database can hold is a named constraint.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.scoring.record_checks import SEAT_NAME_MAX_LENGTH

MAX_SEATS = 12  # Fives and Threes with double-twelve

SEAT_OUTSIDE_TABLE = _("Seat %(position)s is not at this table of %(count)s players.")
SIDE_OUTSIDE_MATCH = _("The side belongs to another match.")
FINISHED_WITHOUT_WINNER = _("A finished match names its winner and when it finished.")
ABANDONED_WITH_WINNER = _("An abandoned match has no winner, and says when it was abandoned.")
WINNER_SIDE_OUTSIDE = _("The winning side must be one of this match's sides.")
PLAYERS_FOR_GAME = _("%(game)s is for %(low)s to %(high)s players, not %(count)s.")
HANDS_AND_PIPS = _("Give the remaining hands or the pip totals, not both.")


class GameKind(models.TextChoices):
    ALL_FIVES = "all-fives", _("All Fives")
    FIVE_UP = "five-up", _("Five Up")
    FIVES_AND_THREES = "fives-and-threes", _("Fives and Threes")


class MatchStatus(models.TextChoices):
    IN_PROGRESS = "in-progress", _("In progress")
    FINISHED = "finished", _("Finished")
    ABANDONED = "abandoned", _("Abandoned")


class RoundMode(models.TextChoices):
    TRACKED = "tracked", _("Tracked (every tile)")
    CALLED = "ends", _("Called (scoring ends only)")


class RoundEnd(models.TextChoices):
    NONE = "", _("In play")
    DOMINO = "domino", _("Domino")
    BLOCKED = "blocked", _("Blocked")


class ChangeKind(models.TextChoices):
    START = "start", _("Round started")
    PLAY = "play", _("Tile placed")
    DRAW = "draw", _("Drew")
    PASS = "pass", _("Passed")
    CALL = "call", _("Called placement")
    SETTLE = "settle", _("Round settled")
    UNDO = "undo", _("Undo")
    RESTORE = "restore", _("Restored")
    IMPORT = "import", _("Imported")
    RENAME = "rename", _("Players renamed")
    ABANDON = "abandon", _("Abandoned")


class EventKind(models.TextChoices):
    PLAY = "play", _("Play")
    DRAW = "draw", _("Draw")
    PASS = "pass", _("Pass")
    CALL = "call", _("Called ends")


def new_scorer_token() -> str:
    """The secret of a shared scorer's link (URL-safe ASCII)."""
    return secrets.token_urlsafe(24)


_scorer_token = new_scorer_token  # the name migration 0001 refers to


class Match(models.Model):
    public_id = models.UUIDField(_("public id"), default=uuid.uuid4, unique=True, editable=False)
    # whoever holds this token may score; everyone else with the public link only watches
    scorer_token = models.CharField(max_length=40, default=new_scorer_token, editable=False)
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    options = models.JSONField(_("options"), default=dict, blank=True,
                               help_text=_("As given in the match record; defaults omitted."))
    player_count = models.PositiveSmallIntegerField(_("players"))
    target = models.PositiveIntegerField(_("target"))
    status = models.CharField(_("status"), max_length=12, choices=MatchStatus.choices,
                              default=MatchStatus.IN_PROGRESS)
    winner_side = models.PositiveSmallIntegerField(_("winning side"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="matches")
    # goes up by one with every write, undo and restore included; a page names the version
    # it showed, so a write made on an older page is refused instead of applied blindly
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)
    # the new-match form's own key: submitting the same form twice makes one match
    creation_key = models.UUIDField(_("creation key"), null=True, blank=True, unique=True,
                                    editable=False)
    # who may see a match follows its club. A league game has its club and season (set
    # when it is started from a fixture night); a rematch of one keeps the club but not
    # the season (match_rematch); any other match has neither
    club = models.ForeignKey("Club", on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="matches")
    season = models.ForeignKey("Season", on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="matches")
    # sha256 of the canonical JSON of the record it was imported from: the
    # same record uploaded again by the same account is reported, not stored twice. NULL
    # (not "") for a match not imported from a record, so the unique constraint skips it.
    record_hash = models.CharField(_("record hash"), max_length=64, null=True,  # noqa: DJ001
                                   blank=True, editable=False)

    class Meta:
        ordering = ["-started_at", "-id"]
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["created_by", "record_hash"],
                                    condition=Q(record_hash__isnull=False),
                                    name="match_record_hash_unique_per_user"),
            models.CheckConstraint(condition=Q(game__in=GameKind.values), name="match_game_valid"),
            models.CheckConstraint(condition=Q(status__in=MatchStatus.values),
                                   name="match_status_valid"),
            models.CheckConstraint(condition=Q(player_count__gte=2, player_count__lte=MAX_SEATS),
                                   name="match_player_count_range"),
            models.CheckConstraint(
                condition=Q(game=GameKind.FIVES_AND_THREES) | Q(player_count__lte=4),
                name="match_player_count_for_game"),
            # finished_at is when play stopped: won, or abandoned without a winner
            models.CheckConstraint(
                condition=(Q(status=MatchStatus.FINISHED, winner_side__isnull=False,
                             finished_at__isnull=False)
                           | Q(status=MatchStatus.IN_PROGRESS, winner_side__isnull=True,
                               finished_at__isnull=True)
                           | Q(status=MatchStatus.ABANDONED, winner_side__isnull=True,
                               finished_at__isnull=False)),
                name="match_winner_iff_finished"),
            # a side's index: there are never more sides than players
            models.CheckConstraint(
                condition=Q(winner_side__isnull=True) | Q(winner_side__lt=F("player_count")),
                name="match_winner_side_at_table"),
            models.CheckConstraint(condition=Q(target__gte=1), name="match_target_positive"),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True) | Q(finished_at__gte=F("started_at")),
                name="match_finishes_after_start"),
        ]
        indexes = [models.Index(fields=["status", "-started_at"], name="match_status_started"),
                   models.Index(fields=["-started_at", "-id"], name="match_history_order"),
                   models.Index(fields=["club", "-started_at", "-id"],
                                name="match_club_history")]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("matches:detail", kwargs={"public_id": self.public_id})

    def get_scorer_url(self) -> str:
        """The scorepad, for a browser that holds a scorer grant for this match."""
        return reverse("matches:scorepad", kwargs={"public_id": self.public_id})

    def get_join_url(self) -> str:
        """The shared scorer's link: whoever opens it may take a grant on their phone."""
        return reverse("matches:join", kwargs={"public_id": self.public_id,
                                               "token": self.scorer_token})

    @property
    def rules_game(self) -> rules.Game:
        return rules.game_for(self.game)

    def clean(self) -> None:
        errors: dict[str, list[ValidationError]] = {}
        if self.game in GameKind.values and self.player_count:
            game = rules.game_for(self.game)
            low, high = game.players
            if not low <= self.player_count <= high:
                errors.setdefault("player_count", []).append(ValidationError(
                    PLAYERS_FOR_GAME, code="player_count",
                    params={"game": self.get_game_display(), "low": low, "high": high,
                            "count": self.player_count}))
        finished = self.status == MatchStatus.FINISHED
        if self.status == MatchStatus.ABANDONED:
            if self.winner_side is not None or not self.finished_at:
                errors.setdefault("winner_side", []).append(
                    ValidationError(ABANDONED_WITH_WINNER, code="abandoned_without_winner"))
        elif finished != (self.winner_side is not None) or finished != bool(self.finished_at):
            errors.setdefault("winner_side", []).append(
                ValidationError(FINISHED_WITHOUT_WINNER, code="winner_iff_finished"))
        if self.winner_side is not None and self.player_count and (
                self.winner_side >= self.player_count):
            errors.setdefault("winner_side", []).append(
                ValidationError(WINNER_SIDE_OUTSIDE, code="winner_side"))
        if errors:
            raise ValidationError(errors)


class Side(models.Model):
    """A player, or a partnership of two with four in All Fives and Five Up."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    index = models.PositiveSmallIntegerField(_("side"))
    score = models.DecimalField(_("score"), max_digits=9, decimal_places=1, default=0)

    class Meta:
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="side_one_per_index"),
            models.CheckConstraint(condition=Q(index__lt=MAX_SEATS), name="side_index_range"),
        ]

    def __str__(self) -> str:
        return f"side {self.index + 1} of {self.match}"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))
    # the name as the table gave it; a casual match's names stay with the match
    name = models.CharField(_("name"), max_length=SEAT_NAME_MAX_LENGTH)
    # a club's player, when the seat is one (casual matches name nobody site-wide)
    player = models.ForeignKey("Player", on_delete=models.PROTECT, related_name="seats",
                               null=True, blank=True)
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="seats")

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_one_per_position"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_one_per_player"),
            models.UniqueConstraint(F("match"), Lower("name"), name="seat_name_unique_ci"),
            models.CheckConstraint(condition=~Q(name=""), name="seat_name_not_blank"),
            models.CheckConstraint(condition=Q(position__lt=MAX_SEATS), name="seat_position_range"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.position})"

    def clean(self) -> None:
        errors = {}
        match = getattr(self, "match", None)
        if match is not None and self.position is not None and (
                self.position >= match.player_count):
            errors["position"] = ValidationError(
                SEAT_OUTSIDE_TABLE, code="position",
                params={"position": self.position, "count": match.player_count})
        side = getattr(self, "side", None)
        if side is not None and match is not None and side.match_id != match.pk:
            errors["side"] = ValidationError(SIDE_OUTSIDE_MATCH, code="side")
        if errors:
            raise ValidationError(errors)


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    mode = models.CharField(_("mode"), max_length=8, choices=RoundMode.choices,
                            default=RoundMode.TRACKED)
    starter = models.PositiveSmallIntegerField(_("starter"), null=True, blank=True)
    end = models.CharField(_("ended by"), max_length=8, choices=RoundEnd.choices, blank=True,
                           default=RoundEnd.NONE)
    finisher = models.PositiveSmallIntegerField(_("went out"), null=True, blank=True)
    settled = models.BooleanField(_("settled"), default=False)
    hands = models.JSONField(_("remaining hands"), null=True, blank=True)
    pips = models.JSONField(_("remaining pips"), null=True, blank=True)
    # a called round whose result was given on its own (its count, if any, came after):
    # two settle actions in the change log where one tap gives one, and the rows must
    # give back the log's actions one for one (undo, restore and backups compare them)
    result_apart = models.BooleanField(_("result given before its count"), default=False)
    # the change that started the round, and the one that took its start back, if any
    change = models.ForeignKey("Change", on_delete=models.RESTRICT, null=True, blank=True,
                               related_name="rounds")
    undone_by = models.ForeignKey("Change", on_delete=models.RESTRICT, null=True, blank=True,
                                  related_name="undone_rounds")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"],
                                    condition=Q(undone_by__isnull=True),
                                    name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
            models.CheckConstraint(condition=Q(mode__in=RoundMode.values),
                                   name="round_mode_valid"),
            models.CheckConstraint(condition=Q(end__in=RoundEnd.values), name="round_end_valid"),
            models.CheckConstraint(condition=Q(hands__isnull=True) | Q(pips__isnull=True),
                                   name="round_hands_or_pips"),
            models.CheckConstraint(condition=Q(finisher__isnull=True) | Q(end=RoundEnd.DOMINO),
                                   name="round_finisher_only_on_domino"),
            # seats; clean() holds them to the match's own table
            models.CheckConstraint(condition=Q(starter__isnull=True)
                                   | Q(starter__lt=MAX_SEATS), name="round_starter_range"),
            models.CheckConstraint(condition=Q(finisher__isnull=True)
                                   | Q(finisher__lt=MAX_SEATS), name="round_finisher_range"),
            models.CheckConstraint(
                condition=Q(settled=False) | ~Q(end=RoundEnd.NONE),
                name="round_settled_after_end"),
            # no count is asked where remaining tiles score nothing (Fives and Threes):
            # whether a settled round needs hands or pips is the rules engine's call
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.match}"

    def clean(self) -> None:
        errors: dict[str, ValidationError] = {}
        if self.hands is not None and self.pips is not None:
            errors["pips"] = ValidationError(HANDS_AND_PIPS, code="hands_or_pips")
        match = getattr(self, "match", None)
        for name in ("starter", "finisher"):
            seat = getattr(self, name)
            if seat is not None and match is not None and seat >= match.player_count:
                errors[name] = ValidationError(
                    SEAT_OUTSIDE_TABLE, code="seat",
                    params={"position": seat, "count": match.player_count})
        if errors:
            raise ValidationError(errors)


class RoundSide(models.Model):
    """A side's cached totals for one round: placements, settlement, running score."""

    # indexed by the unique constraint that starts with it (main's migration 0023)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="side_totals",
                              db_index=False)
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="round_totals")
    placements = models.DecimalField(max_digits=9, decimal_places=1, default=0)
    settlement = models.DecimalField(max_digits=9, decimal_places=1, default=0)
    score = models.DecimalField(max_digits=9, decimal_places=1, default=0)

    class Meta:
        ordering = ["round", "side__index"]
        constraints = [
            models.UniqueConstraint(fields=["round", "side"], name="round_side_unique"),
        ]

    def __str__(self) -> str:
        return f"side {self.side.index + 1} in {self.round}"


class Event(models.Model):
    """One play, draw, pass or called placement; append-only, numbered per match.

    Numbers only go up: an event taken back keeps its row and number (``undone_by``)."""

    # indexed by the unique constraint that starts with it (main's migration 0023)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="events",
                              db_index=False)
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField(_("event"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    kind = models.CharField(_("kind"), max_length=4, choices=EventKind.choices)
    tile = models.CharField(_("tile"), max_length=5, blank=True)
    at = models.CharField(_("attachment point"), max_length=8, blank=True)
    tiles_drawn = models.PositiveSmallIntegerField(_("tiles drawn"), null=True, blank=True)
    ends = models.JSONField(_("scoring ends"), null=True, blank=True)
    goes_out = models.BooleanField(_("went out"), default=False)
    claim = models.DecimalField(_("claim"), max_digits=6, decimal_places=1, null=True,
                                blank=True)
    # what the table called when it was not what the rules give: the placement is
    # recorded with the rules' points and the wrong call kept for the round's log
    miscall = models.DecimalField(_("miscalled as"), max_digits=6, decimal_places=1,
                                  null=True, blank=True)
    # derived by the rules engine when the event was recorded
    end_sum = models.PositiveSmallIntegerField(_("end sum"), null=True, blank=True)
    points = models.DecimalField(_("points counted"), max_digits=6, decimal_places=1,
                                 null=True, blank=True)
    refused = models.CharField(_("award refused"), max_length=200, blank=True)
    recorded_at = models.DateTimeField(_("recorded"), default=timezone.now)
    # the change that recorded the event, and the one that took it back, if any;
    # events are never deleted
    change = models.ForeignKey("Change", on_delete=models.RESTRICT, null=True, blank=True,
                               related_name="events")
    undone_by = models.ForeignKey("Change", on_delete=models.RESTRICT, null=True, blank=True,
                                  related_name="undone_events")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="event_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="event_number_from_one"),
            models.CheckConstraint(condition=Q(kind__in=EventKind.values),
                                   name="event_kind_valid"),
            models.CheckConstraint(condition=Q(seat__lt=MAX_SEATS), name="event_seat_range"),
            models.CheckConstraint(
                condition=~Q(kind=EventKind.PLAY) | ~Q(tile=""), name="event_play_has_tile"),
            models.CheckConstraint(
                condition=~Q(kind=EventKind.DRAW) | Q(tiles_drawn__isnull=False,
                                                      tiles_drawn__gte=1),
                name="event_draw_has_count"),
            models.CheckConstraint(
                condition=~Q(kind=EventKind.CALL) | Q(ends__isnull=False),
                name="event_call_has_ends"),
            models.CheckConstraint(
                condition=Q(kind__in=[EventKind.PLAY, EventKind.CALL]) | Q(
                    tile="", at="", claim__isnull=True, ends__isnull=True,
                    miscall__isnull=True),
                name="event_fields_match_kind"),
            models.CheckConstraint(condition=Q(claim__isnull=True) | Q(miscall__isnull=True),
                                   name="event_claim_or_miscall"),
        ]

    def __str__(self) -> str:
        return f"event {self.number} of {self.match}"

    def clean(self) -> None:
        if self.seat is not None and getattr(self, "match", None) is not None and (
                self.seat >= self.match.player_count):
            raise ValidationError({"seat": ValidationError(
                SEAT_OUTSIDE_TABLE, code="seat",
                params={"position": self.seat, "count": self.match.player_count})})


PHONE_NAME_LENGTH = 40


class ScorerGrant(models.Model):
    """One browser's right to score a match, held in that browser's session.

    The shared scorer's link is exchanged for a grant on first visit, so the secret
    leaves the address bar; a grant can be revoked without touching the others."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="grants")
    label = models.CharField(_("phone"), max_length=80)  # what its browser says it is
    # what its scorer called it, so that two phones of one kind can be told apart
    name = models.CharField(_("name"), max_length=PHONE_NAME_LENGTH, blank=True)
    created_at = models.DateTimeField(_("since"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    # the phone that started the match: it may restore earlier versions
    is_creator = models.BooleanField(_("started the match"), default=False)

    class Meta:
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match"], condition=Q(is_creator=True),
                                    name="grant_one_creator_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.phone} scoring {self.match}"

    @property
    def phone(self) -> str:
        """The phone as kept in English (the admin's lists, a deleted match's record):
        its name beside its kind, or its kind (presenters.phone_name says it in the
        reader's language)."""
        return f"{self.name} ({self.label})" if self.name else self.label

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class Change(models.Model):
    """One write to a match, as it was made: who, when, what, and the version it made.

    The change log is the match's history: undo and restore add to it and delete
    nothing. ``key`` is the idempotency key of the tap that asked for the change, so
    a resent tap finds its first answer here instead of being applied again.
    ``action`` holds the engine action in :mod:`matches.scoring.changelog`'s JSON; an import or
    a restore holds the whole list of actions it set (``{"actions": [...]}``).
    """

    # indexed by the unique constraint that starts with it (main's migration 0023)
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes",
                              db_index=False)
    version = models.PositiveIntegerField(_("version"))
    kind = models.CharField(_("kind"), max_length=8, choices=ChangeKind.choices)
    key = models.UUIDField(_("tap key"), null=True, blank=True)
    action = models.JSONField(_("action"))
    description = models.CharField(_("what"), max_length=300)
    restored_to = models.PositiveIntegerField(_("restored to version"), null=True, blank=True)
    grant = models.ForeignKey(ScorerGrant, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="match_changes")
    made_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="change_version_unique"),
            models.UniqueConstraint(fields=["match", "key"], condition=Q(key__isnull=False),
                                    name="change_key_unique"),
            models.CheckConstraint(condition=Q(version__gte=1), name="change_version_from_one"),
            models.CheckConstraint(condition=Q(kind__in=ChangeKind.values),
                                   name="change_kind_valid"),
            models.CheckConstraint(
                condition=Q(kind=ChangeKind.RESTORE, restored_to__isnull=False)
                | (~Q(kind=ChangeKind.RESTORE) & Q(restored_to__isnull=True)),
                name="change_restored_to_iff_restore"),
            models.CheckConstraint(
                condition=Q(restored_to__isnull=True) | Q(restored_to__lt=F("version")),
                name="change_restores_earlier_version"),
        ]

    # not stored: the services set them on the change they return, for the page
    replayed: bool = False  # a resent tap: this change was made by its first sending
    lots_drawn: bool = False  # a round start whose starter was drawn by lots
    miscall: str = ""  # a placement recorded with the rules' points: what was called wrong

    def __str__(self) -> str:
        return f"version {self.version} of {self.match}"


class DeletedMatch(models.Model):
    """A match a scorer deleted: gone from every page, kept here as its match record.

    Deleting is recorded, not silent: who and when, and the whole record, which the
    record import takes back if the deletion was a mistake."""

    public_id = models.UUIDField(_("public id"))
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    names = models.CharField(_("players"), max_length=800)
    record = models.JSONField(_("match record"))
    deleted_at = models.DateTimeField(_("deleted"), default=timezone.now)
    grant_label = models.CharField(_("phone"), max_length=80, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="deleted_matches")

    class Meta:
        ordering = ["-deleted_at", "-id"]
        verbose_name_plural = _("deleted matches")
        constraints = [
            models.CheckConstraint(condition=Q(game__in=GameKind.values),
                                   name="deleted_match_game_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} {self.names} (deleted)"
