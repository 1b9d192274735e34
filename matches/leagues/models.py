"""League seasons: divisions, entrants, fixtures and their games, sign-off and points.

A season fixes one game and its rule options for every match played in it, and how
points are won (``scoring`` and ``tiebreaks``, exactly as ``domino-league/1`` writes
them). Standings are never stored: ``matches.rules.league`` computes them from the
fixtures, the same way for the page, the exports and ``league_table``.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import PAGE_SLUGS, Club, Player
from matches.rules import signoff
from matches.rules.league import DEFAULT_TIEBREAKS, Night
from matches.scoring.models import GameKind, Match

MAX_FIXTURE_GAMES = 40  # games a fixture night can have
MAX_RACE_TO = (MAX_FIXTURE_GAMES + 1) // 2  # its longest night is 2 × race_to − 1 games


class FixtureFormat(models.TextChoices):
    GAMES = "games", _("A set of singles and pairs games")
    RACE = "race", _("A race to a number of games")
    SINGLE = "single", _("One game")


class SeasonKind(models.TextChoices):
    """A league season, or the season a knockout cup keeps its ties in (``cups``): its
    game, options, what a tie is and the sign-off settings; its fixtures are the ties."""

    LEAGUE = "league", _("League")
    CUP = "cup", _("Cup")


class EntrantKind(models.TextChoices):
    TEAM = "team", _("Team")
    PAIR = "pair", _("Pair")
    SINGLE = "single", _("Single player")


class FixtureStatus(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    POSTPONED = "postponed", _("Postponed")
    VOID = "void", _("Void")
    SUBMITTED = "submitted", _("Submitted, awaiting the away captain")
    CONFIRMED = "confirmed", _("Confirmed")
    DISPUTED = "disputed", _("Disputed")


class FixtureChangeKind(models.TextChoices):
    """What a change did to a fixture; the labels are what its log says."""

    POSTPONED = "postponed", _("postponed")
    REDATED = "redated", _("re-dated")
    SUBMITTED = "submitted", _("submitted")
    CONFIRMED = "confirmed", _("confirmed")
    DISPUTED = "disputed", _("disputed")
    RESOLVED = "resolved", _("resolved by the league")
    WALKOVER = "walkover", _("walkover")
    VOIDED = "voided", _("made void")
    REINSTATED = "reinstated", _("no longer void: open for its games again")
    IMPORTED = "imported", _("imported from a spreadsheet")
    AUTO_CONFIRMED = "auto_confirmed", _("confirmed by itself after 24 hours")
    CORRECTED = "corrected", _("corrected by the league")


class Side(models.TextChoices):
    HOME = "home", _("Home")
    AWAY = "away", _("Away")


ENDS_BEFORE_START = _("The last night comes after the first.")
GAMES_NEEDED = _("A fixture of games has at least one singles or pairs game.")
RACE_NEEDS_TARGET = _("Say how many games the race is to.")
NIGHT_TOO_LONG = _("A fixture night has at most %(most)s games.")
DECIDER_ONLY_IN_CUPS = _("Only a cup's night of games has a deciding game: a league's may end "
                         "level, and a race cannot.")
RACE_TOO_LONG = _("A race is to at most %(most)s games (it may take twice as many, less one).")
FIXTURE_ONE_ENTRANT = _("A fixture is between two different entrants.")
RESULT_IFF_PLAYED = _("A fixture played has its result (games won, not 0-0, or a walkover) "
                      "and one not played has none.")
GAME_LEVEL = _("A game has a winner: its two scores differ.")
# the season's files name a division "season — division" and read the last " — " back:
# a new division's name holds none (an old one keeps it: a backup restores it as it was)
DIVISION_DASH = " — "
DIVISION_NAME_DASH = _("A division's name cannot hold \" — \": the season's files name a "
                       "division \"season — division\", and it would come back split.")

# statuses that carry a result (games won by each side, or a walkover)
WITH_RESULT = [FixtureStatus.SUBMITTED, FixtureStatus.CONFIRMED, FixtureStatus.DISPUTED]
# statuses of a fixture whose games are still being entered; any other holds (or voided)
# a result, the league's to settle: as the sign-off table says (for the queries)
OPEN_FOR_ENTRY = tuple(FixtureStatus(status.value) for status in signoff.Status
                       if status in signoff.OPEN_FOR_ENTRY)
# a result sent and not yet settled (the away captain's or the league's to settle)
UNSETTLED = tuple(FixtureStatus(status.value) for status in signoff.Status
                  if status in signoff.UNSETTLED)


def default_tiebreaks() -> list[str]:
    """The order ``domino-league/1`` uses when a document names none."""
    return list(DEFAULT_TIEBREAKS)


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    kind = models.CharField(_("kind"), max_length=8, choices=SeasonKind.choices,
                            default=SeasonKind.LEAGUE)
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=80)
    starts_on = models.DateField(_("starts"))
    ends_on = models.DateField(_("ends"), null=True, blank=True)
    game = models.CharField(_("game"), max_length=20, choices=GameKind.choices)
    options = models.JSONField(_("rule options"), default=dict, blank=True)
    scoring = models.JSONField(_("points scheme"), default=dict, blank=True,
                               help_text=_("As domino-league/1 writes it."))
    # always the order in force, written out: [] is "none" (level entrants share a rank),
    # not "the format's default", which is what [] meant before 0011
    tiebreaks = models.JSONField(_("tie-breakers"), default=default_tiebreaks, blank=True)
    fixture_format = models.CharField(_("a fixture is"), max_length=8,
                                      choices=FixtureFormat.choices,
                                      default=FixtureFormat.SINGLE)
    singles = models.PositiveSmallIntegerField(_("singles games"), default=0)
    pairs = models.PositiveSmallIntegerField(_("pairs games"), default=0)
    race_to = models.PositiveSmallIntegerField(_("race to"), null=True, blank=True)
    # results count once the away captain confirms; with this, submitted ones count too
    # (marked) and are confirmed by themselves a day after submission
    count_submitted = models.BooleanField(_("count submitted results"), default=False)
    # a league admin's correction of a result goes to the away captain to confirm again;
    # without this it is final by the league's authority
    corrections_confirmed_again = models.BooleanField(
        _("corrections are confirmed again by the away captain"), default=False)
    # when its fixture nights usually start, in the site's time zone (TIME_ZONE): the
    # reminders and "no result yet" prompts are timed from it
    nights_start = models.TimeField(_("nights start at"), default=datetime.time(19, 30))
    # a game kept on paper names who played it (from the squads), unless the season
    # lets its captains leave them out: without players a game feeds no player's record
    paper_players_optional = models.BooleanField(
        _("players of paper games optional"), default=False)
    # a cup's night of games that can end level goes on to a deciding game (numbered
    # after the night's games); whether it is needed is the cup's rule
    decider = models.BooleanField(_("a level night goes on to a deciding game"),
                                  default=False)
    locked = models.BooleanField(_("locked"), default=False)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["club", "-starts_on", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_per_club"),
            models.CheckConstraint(condition=~Q(name=""), name="season_name_not_blank"),
            models.CheckConstraint(condition=Q(kind__in=SeasonKind.values),
                                   name="season_kind_valid"),
            models.CheckConstraint(condition=~Q(slug=""), name="season_slug_not_blank"),
            models.CheckConstraint(condition=~Q(slug__in=PAGE_SLUGS),
                                   name="season_slug_not_a_page",
                                   violation_error_message=_("That address is a page's.")),
            models.CheckConstraint(condition=Q(game__in=GameKind.values),
                                   name="season_game_valid"),
            models.CheckConstraint(condition=Q(fixture_format__in=FixtureFormat.values),
                                   name="season_format_valid"),
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=F("starts_on")),
                name="season_ends_after_start"),
            models.CheckConstraint(
                condition=~Q(fixture_format=FixtureFormat.GAMES)
                | Q(singles__gt=0) | Q(pairs__gt=0),
                name="season_games_format_has_games"),
            models.CheckConstraint(
                condition=~Q(fixture_format=FixtureFormat.RACE)
                | Q(race_to__isnull=False, race_to__gte=1),
                name="season_race_has_target"),
            # every game of a night can be stored (FixtureGame's number)
            models.CheckConstraint(
                condition=Q(singles__lte=MAX_FIXTURE_GAMES - F("pairs")),
                name="season_night_fits"),
            models.CheckConstraint(
                condition=Q(race_to__isnull=True) | Q(race_to__lte=MAX_RACE_TO),
                name="season_race_fits"),
            # only a cup's night of games is decided: a league's may end level, a race
            # cannot
            models.CheckConstraint(
                condition=Q(decider=False) | Q(kind=SeasonKind.CUP,
                                               fixture_format=FixtureFormat.GAMES),
                name="season_decider_in_cup_games"),
            models.CheckConstraint(
                condition=Q(decider=False) | Q(singles__lte=MAX_FIXTURE_GAMES - 1 - F("pairs")),
                name="season_decider_fits"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        # a cup's season is its bracket's page (the cup's address is its season's)
        return reverse("matches:cup" if self.is_cup else "matches:season",
                       kwargs={"slug": self.club.slug, "season": self.slug})

    @property
    def is_cup(self) -> bool:
        return self.kind == SeasonKind.CUP

    @property
    def night(self) -> Night:
        """How a fixture night of this season is played (the rules check its games)."""
        if self.fixture_format == FixtureFormat.GAMES:
            return Night(games=self.singles + self.pairs, pairs=self.pairs,
                         decider=self.decider)
        if self.fixture_format == FixtureFormat.RACE and self.race_to:
            return Night(race_to=self.race_to)
        return Night()

    def clean(self) -> None:
        errors: dict[str, ValidationError] = {}
        if self.ends_on is not None and self.starts_on and self.ends_on < self.starts_on:
            errors["ends_on"] = ValidationError(ENDS_BEFORE_START, code="ends_before_start")
        if self.fixture_format == FixtureFormat.GAMES and not (self.singles or self.pairs):
            errors["singles"] = ValidationError(GAMES_NEEDED, code="games_needed")
        if self.fixture_format == FixtureFormat.RACE and not self.race_to:
            errors["race_to"] = ValidationError(RACE_NEEDS_TARGET, code="race_to")
        if self.decider and not (self.kind == SeasonKind.CUP
                                 and self.fixture_format == FixtureFormat.GAMES):
            errors["decider"] = ValidationError(DECIDER_ONLY_IN_CUPS, code="decider")
        # a deciding game is a game of the night too
        most = MAX_FIXTURE_GAMES - 1 if self.decider else MAX_FIXTURE_GAMES
        if (self.singles or 0) + (self.pairs or 0) > most:
            errors["pairs"] = ValidationError(NIGHT_TOO_LONG, code="night_too_long",
                                              params={"most": most})
        if self.race_to is not None and self.race_to > MAX_RACE_TO:
            errors["race_to"] = ValidationError(RACE_TOO_LONG, code="race_too_long",
                                                params={"most": MAX_RACE_TO})
        if errors:
            raise ValidationError(errors)


class Division(models.Model):
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(_("name"), max_length=80)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["season", "order", "id"]
        constraints = [
            models.UniqueConstraint(F("season"), Lower("name"), name="division_name_per_season"),
            models.CheckConstraint(condition=~Q(name=""), name="division_name_not_blank"),
        ]

    def __str__(self) -> str:
        return f"{self.season}{DIVISION_DASH}{self.name}"


class Entrant(models.Model):
    """A team with its squad, a pair, or a single player, in one division."""

    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("kind"), max_length=8, choices=EntrantKind.choices,
                            default=EntrantKind.TEAM)
    players = models.ManyToManyField(Player, related_name="entries", blank=True)
    captain = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                null=True, blank=True, related_name="captaincies")
    # the captain's link, for a captain without an account: its generation is signed into
    # the link, so replacing it (the next generation) ends the old one; the one phone that
    # opened it keeps a key in its session whose digest is kept here, and only it acts
    link_generation = models.PositiveIntegerField(_("captain's link generation"), default=1)
    link_phone_key = models.CharField(max_length=64, blank=True, default="", editable=False)
    link_phone = models.CharField(_("phone holding the captain's link"), max_length=80,
                                  blank=True, default="")
    link_opened_at = models.DateTimeField(_("captain's link opened"), null=True, blank=True)

    class Meta:
        ordering = ["division", "name"]
        constraints = [
            models.UniqueConstraint(
                F("division"), Lower("name"), name="entrant_name_per_division",
                violation_error_message=_("This division already has an entrant of that "
                                          "name (in any case).")),
            models.CheckConstraint(condition=Q(kind__in=EntrantKind.values),
                                   name="entrant_kind_valid"),
            models.CheckConstraint(condition=~Q(name=""), name="entrant_name_not_blank"),
            # a phone holds the captain's link exactly when it was opened
            models.CheckConstraint(
                condition=Q(link_phone_key="", link_opened_at__isnull=True)
                | (~Q(link_phone_key="") & Q(link_opened_at__isnull=False)),
                name="entrant_link_opened_with_key"),
            models.CheckConstraint(condition=Q(link_generation__gte=1),
                                   name="entrant_link_generation_from_one"),
        ]

    def __str__(self) -> str:
        return self.name


class Fixture(models.Model):
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="fixtures")
    week = models.PositiveSmallIntegerField(_("week"))
    date = models.DateField(_("date"), null=True, blank=True)
    home = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="home_fixtures")
    away = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="away_fixtures")
    status = models.CharField(_("status"), max_length=10, choices=FixtureStatus.choices,
                              default=FixtureStatus.SCHEDULED)
    home_games = models.PositiveSmallIntegerField(_("games won at home"), null=True,
                                                  blank=True)
    away_games = models.PositiveSmallIntegerField(_("games won away"), null=True, blank=True)
    walkover = models.CharField(_("walkover: the side that turned up"), max_length=4,
                                choices=Side.choices, blank=True)
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    dispute = models.TextField(_("why the away captain disputes it"), blank=True)

    class Meta:
        ordering = ["division", "week", "date", "id"]
        indexes = [models.Index(fields=["division", "week"], name="fixture_division_week")]
        constraints = [
            models.CheckConstraint(condition=~Q(home=F("away")), name="fixture_two_entrants",
                                   violation_error_message=FIXTURE_ONE_ENTRANT),
            models.CheckConstraint(condition=Q(status__in=FixtureStatus.values),
                                   name="fixture_status_valid"),
            models.CheckConstraint(condition=Q(week__gte=1), name="fixture_week_from_one"),
            # a result (games, or a walkover) exactly when the fixture has one
            models.CheckConstraint(
                condition=(Q(status__in=WITH_RESULT)
                           & ((Q(home_games__isnull=False, away_games__isnull=False)
                               & ~Q(home_games=0, away_games=0) & Q(walkover=""))
                              | (Q(home_games__isnull=True, away_games__isnull=True)
                                 & ~Q(walkover=""))))
                | (~Q(status__in=WITH_RESULT) & Q(home_games__isnull=True,
                                                  away_games__isnull=True, walkover="")),
                name="fixture_result_iff_played",
                violation_error_message=RESULT_IFF_PLAYED),
            models.CheckConstraint(condition=Q(walkover__in=["", *Side.values]),
                                   name="fixture_walkover_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.home} v {self.away} (week {self.week})"

    def get_absolute_url(self) -> str:
        season = self.division.season
        return reverse("matches:fixture", kwargs={"slug": season.club.slug,
                                                  "season": season.slug, "pk": self.pk})

    def get_correction_url(self) -> str:
        """Where a league admin corrects the fixture's result."""
        season = self.division.season
        return reverse("matches:fixture_correct", kwargs={
            "slug": season.club.slug, "season": season.slug, "pk": self.pk})

    @property
    def turned_up(self) -> Entrant | None:
        """The entrant a walkover was awarded to (the side that turned up), if any."""
        return {Side.HOME.value: self.home, Side.AWAY.value: self.away}.get(self.walkover)


class FixtureGame(models.Model):
    """One game of a fixture: scored on the scorepad (``match``) or keyed in from paper."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    home_players = models.ManyToManyField(Player, related_name="home_games", blank=True)
    away_players = models.ManyToManyField(Player, related_name="away_games", blank=True)
    match = models.OneToOneField(Match, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="fixture_game")
    home_score = models.PositiveIntegerField(_("home score"), null=True, blank=True)
    away_score = models.PositiveIntegerField(_("away score"), null=True, blank=True)
    # the score kept is the league's correction of its scorepad match's (which stays as
    # it was played): this one counts, in the fixture's result and in the ratings
    score_corrected = models.BooleanField(_("score corrected by the league"), default=False)

    class Meta:
        ordering = ["fixture", "number"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "number"], name="fixture_game_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="fixture_game_from_one"),
            models.CheckConstraint(condition=Q(number__lte=MAX_FIXTURE_GAMES),
                                   name="fixture_game_number_at_most"),
            models.CheckConstraint(
                condition=Q(home_score__isnull=True, away_score__isnull=True)
                | (Q(home_score__isnull=False, away_score__isnull=False)
                   & ~Q(home_score=F("away_score"))),
                name="fixture_game_has_a_winner", violation_error_message=GAME_LEVEL),
            models.CheckConstraint(
                condition=Q(score_corrected=False) | Q(home_score__isnull=False),
                name="fixture_game_corrected_has_score"),
        ]

    def __str__(self) -> str:
        return f"game {self.number} of {self.fixture}"


class FixtureChange(models.Model):
    """Every change to a fixture after it was submitted: who, when, before and after.

    ``what`` keeps the words as they were written, in the writer's language; ``kind``
    lets each reader be told in theirs. It is blank only on changes logged before
    kinds were kept (and restored from backups made then): those are shown as written.
    """

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="fixture_changes")
    # made through the captain's link of this entrant (by no account)
    by_link = models.ForeignKey(Entrant, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="link_changes",
                                verbose_name=_("by the captain's link of"))
    at = models.DateTimeField(_("when"), default=timezone.now)
    kind = models.CharField(_("kind"), max_length=16, choices=FixtureChangeKind.choices,
                            blank=True, default="")
    what = models.CharField(_("what"), max_length=200)
    # {} when there was no before: a fixture a spreadsheet import added
    before = models.JSONField(_("before"), default=dict, blank=True)
    after = models.JSONField(_("after"), default=dict, blank=True)

    class Meta:
        ordering = ["fixture", "at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=["", *FixtureChangeKind.values]),
                                   name="fixture_change_kind_known"),
            # made by an account, or through a captain's link: never both
            models.CheckConstraint(condition=Q(user__isnull=True) | Q(by_link__isnull=True),
                                   name="fixture_change_one_author"),
        ]

    def __str__(self) -> str:
        return f"{self.words} ({self.fixture})"

    @property
    def words(self) -> str:
        """What the change did, in the reader's language (as written, if no kind)."""
        return str(self.get_kind_display()) if self.kind else self.what


CORRECTION_REASON_LENGTH = 300


class FixtureCorrection(models.Model):
    """A league admin's correction of a fixture's result, kept beside the original: the
    night's games and result before and after (each game's score, its players by name,
    whether it was on the scorepad), who, when and why. The fixture holds the corrected
    result; this keeps what it superseded readable."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="corrections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="fixture_corrections")
    at = models.DateTimeField(_("when"), default=timezone.now)
    reason = models.CharField(_("why"), max_length=CORRECTION_REASON_LENGTH)
    before = models.JSONField(_("before"), default=dict)
    after = models.JSONField(_("after"), default=dict)
    # the away captain confirms it again (the season's choice when it was made)
    confirmed_again = models.BooleanField(_("to be confirmed again"), default=False)

    class Meta:
        ordering = ["fixture", "at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="fixture_correction_has_reason"),
        ]

    def __str__(self) -> str:
        return f"correction of {self.fixture}: {self.reason}"


class NoticeKind(models.TextChoices):
    """The e-mails the schedule sends once per fixture (``leagues.notices``)."""

    REMINDER = "reminder", _("reminder the day before")
    NO_RESULT = "no_result", _("no result yet, to the home captain")
    MISSING = "missing", _("result missing, to the league admins")


class FixtureNotice(models.Model):
    """An e-mail of the schedule sent about a fixture: at most one of each kind, so that
    a schedule run twice (or two workers) sends nothing twice."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(_("kind"), max_length=10, choices=NoticeKind.choices)
    sent_at = models.DateTimeField(_("sent"), default=timezone.now)

    class Meta:
        ordering = ["fixture", "sent_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "kind"], name="fixture_notice_once"),
            models.CheckConstraint(condition=Q(kind__in=NoticeKind.values),
                                   name="fixture_notice_kind_known"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.fixture})"


class Adjustment(models.Model):
    """League points added (negative: deducted) to an entrant, with the reason."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="adjustments")
    points = models.IntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=200)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                null=True, blank=True, related_name="adjustments_made")
    made_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["entrant", "made_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(points=0), name="adjustment_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.points:+d} for {self.entrant}: {self.reason}"

    def clean(self) -> None:
        # said beside the field: the constraint's own message would only name it
        if self.points == 0:
            raise ValidationError({"points": ValidationError(
                _("An adjustment adds or deducts points: give a number other than 0."),
                code="zero")})
