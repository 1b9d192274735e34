"""Reads for leagues: a division as a ``domino-league/1`` document, and its table.

One standings service: the league page, the exports and ``league_table`` all read the
table that ``matches.rules.league`` computes from such a document. A fixed number of
queries whatever the number of fixtures.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.db.models import Count, F, Max, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Mod
from django.db.models.lookups import Exact
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.clubs.access import RUNS_LEAGUE, ClubRights, roles_at_least
from matches.clubs.models import Club, Membership, Player
from matches.clubs.selectors import Viewer
from matches.leagues import files as league_files
from matches.leagues.models import (
    DIVISION_DASH,
    Adjustment,
    Division,
    Entrant,
    EntrantKind,
    Fixture,
    FixtureChange,
    FixtureCorrection,
    FixtureGame,
    FixtureStatus,
    Season,
    SeasonKind,
)
from matches.rules import league as league_rules
from matches.rules import signoff
from matches.scoring.models import Change, ChangeKind, Match, MatchStatus, Side
from matches.scoring.selectors.outcome import results_counter
from matches.scoring.selectors.place import place_reader
from matches.scoring.services.closure import closure_check


def season_divisions(season: Season) -> QuerySet[Division]:
    """The season's divisions with everything their tables and fixture lists read."""
    return season.divisions.prefetch_related(
        Prefetch("entrants", queryset=Entrant.objects.prefetch_related(
            "players", Prefetch("adjustments", queryset=Adjustment.objects.order_by("made_at")))
            .select_related("captain")),
        Prefetch("fixtures", queryset=Fixture.objects.select_related("home", "away")
                 .order_by("week", "date", "id")),
    ).order_by("order", "id")


def season_division_list(*, season: Season) -> list[Division]:
    """The season's divisions in their order, without what their pages read."""
    return list(season.divisions.order_by("order", "id"))


def division_shown(*, season: Season, pk: int) -> Division:
    """The season's division ``pk`` with everything its table and fixture list read
    (:func:`season_divisions`)."""
    return season_divisions(season).get(pk=pk)


def season_division(*, season: Season, pk: int) -> Division:
    """The season's division ``pk``; another season's is a 404."""
    return get_object_or_404(season.divisions, pk=pk)


def entrant_division(*, season: Season, entrant_pk: int) -> Division | None:
    """The division of the season that entrant ``entrant_pk`` plays in, if any."""
    return season.divisions.filter(entrants__pk=entrant_pk).first()


def division_entrant(*, division: Division, pk: int) -> Entrant | None:
    return division.entrants.filter(pk=pk).first()


def season_adjustment(*, season: Season, pk: int) -> Adjustment:
    """The season's points adjustment ``pk`` with its entrant; another season's is a 404."""
    return get_object_or_404(Adjustment.objects.select_related("entrant"), pk=pk,
                             entrant__division__season=season)


def season_entrant(*, season: Season, pk: int) -> Entrant:
    """The season's entrant ``pk`` with its division; another season's is a 404."""
    return get_object_or_404(Entrant.objects.select_related("division"), pk=pk,
                             division__season=season)


@dataclass(frozen=True)
class CalendarFixture:
    """A fixture for the calendar feed, with how often and when it last changed (its
    event's SEQUENCE and LAST-MODIFIED)."""

    fixture: Fixture
    changes: int
    last_change: datetime.datetime | None


def calendar_fixtures(*, division: Division | None = None,
                      entrant: Entrant | None = None) -> list[CalendarFixture]:
    """The dated fixtures of ``division``, or those ``entrant`` plays in; one query."""
    fixtures = Fixture.objects.filter(date__isnull=False)
    if division is not None:
        fixtures = fixtures.filter(division=division)
    if entrant is not None:
        fixtures = fixtures.filter(Q(home=entrant) | Q(away=entrant))
    fixtures = (fixtures.select_related("home", "away", "division__season__club")
                .annotate(change_count=Count("changes"), last_change=Max("changes__at"))
                .order_by("date", "week", "id"))
    return [CalendarFixture(fixture=f, changes=f.change_count, last_change=f.last_change)
            for f in fixtures]


def fixture_for_viewer(*, season: Season, pk: int) -> Fixture:
    """The season's fixture ``pk`` (the season already one the reader may read), with
    its entrants' captains and its division; another season's is a 404."""
    return get_object_or_404(
        Fixture.objects.select_related("home__captain", "away__captain", "division"),
        pk=pk, division__season=season)


def fixture_games(*, fixture: Fixture) -> list[FixtureGame]:
    """The fixture's games, each with its scorepad match's sides and who played."""
    return list(fixture.games.select_related("match").prefetch_related(
        "match__sides", "home_players", "away_players"))


def fixture_changes(*, fixture: Fixture) -> QuerySet[FixtureChange]:
    return fixture.changes.select_related("user", "by_link")


_LINK_SALT = "matches.leagues.captain-link"


@dataclass(frozen=True)
class CaptainsLink:
    """Someone acting through the captain's link of ``entrant``, on the one phone that
    opened it, with no account: the league services take it as ``by`` beside an
    account, and the sign-off table takes it as that side's captain. ``generation``
    and ``phone_key`` (the digest kept on the entrant) are the link's as this phone
    read them: replaced since, it acts no more."""

    entrant: Entrant
    generation: int
    phone_key: str


def captain_link_token(entrant: Entrant) -> str:
    """The secret of ``entrant``'s captain's link: its id and the link's generation,
    signed with the site's key (URL-safe; replacing the link changes it)."""
    return signing.Signer(salt=_LINK_SALT).sign(f"{entrant.pk}-{entrant.link_generation}")


def captain_link_entrant(*, token: str) -> Entrant | None:
    """The entrant whose live captain's link ``token`` is (with its season and club);
    None for a forged, mistyped or replaced link."""
    try:
        value = signing.Signer(salt=_LINK_SALT).unsign(token)
    except signing.BadSignature:
        return None
    pk, _dash, generation = value.partition("-")
    if not (pk.isdigit() and generation.isdigit()):
        return None
    return (Entrant.objects.select_related("division__season__club")
            .filter(pk=int(pk), link_generation=int(generation)).first())


def link_key_digest(key: str) -> str:
    """What is kept of the key a phone holding a captain's link keeps in its session."""
    return hashlib.sha256(key.encode()).hexdigest()


def captain_links_held(*, keys: Mapping[str, str]) -> list[CaptainsLink]:
    """The live captain's links among those a phone's session keeps (entrant id: key),
    each with its entrant's division, season and club; one query. A link replaced since
    (or opened by another phone after it was replaced) is not held any more."""
    digests = {int(pk): link_key_digest(str(key)) for pk, key in keys.items()
               if str(pk).isdigit()}
    if not digests:
        return []
    entrants = (Entrant.objects.select_related("division__season__club")
                .filter(pk__in=digests).exclude(link_phone_key="").order_by("pk"))
    return [CaptainsLink(entrant=e, generation=e.link_generation, phone_key=e.link_phone_key)
            for e in entrants
            if secrets.compare_digest(e.link_phone_key, digests[e.pk])]


def captain_link_live(link: CaptainsLink) -> bool:
    """Whether ``link`` is still the one its entrant's captain's link is, on that phone."""
    return Entrant.objects.filter(pk=link.entrant.pk, link_generation=link.generation,
                                  link_phone_key=link.phone_key).exclude(
        link_phone_key="").exists()


def captain_link_fixtures(*, entrant: Entrant) -> QuerySet[Fixture]:
    """The fixtures ``entrant`` plays, home and away, in the order of its season."""
    return (Fixture.objects.filter(Q(home=entrant) | Q(away=entrant))
            .select_related("home", "away", "division__season__club")
            .order_by("week", "date", "id"))


def fixture_corrections(*, fixture: Fixture) -> QuerySet[FixtureCorrection]:
    """The league's corrections of the fixture's result, oldest first, each with what it
    superseded."""
    return fixture.corrections.select_related("user").order_by("at", "id")


def entrant_squad(*, entrant: Entrant) -> QuerySet[Player]:
    return entrant.players.all()


def fixture_side_choices(*, fixture: Fixture, side: str) -> QuerySet[Player]:
    """The players a game of ``fixture`` may be keyed in with for ``side`` (home or
    away): its entrant's squad, and whoever a game of the night kept for that side has
    since left it (the line-up as played stays as it was)."""
    entrant = fixture.home if side == "home" else fixture.away
    kept = Player.objects.filter(**{f"{side}_games__fixture": fixture})
    return (entrant.players.all() | kept).distinct()


def lineup_sizes(*, season: Season, home: Entrant, away: Entrant) -> tuple[int, ...]:
    """How many players a side a game of the fixture can have: one (singles), two (a
    pair a side), or either, as the season's night and the entrants allow (a single
    player's entrant plays singles only)."""
    if EntrantKind.SINGLE in (home.kind, away.kind):
        return (1,)
    return tuple(players // 2 for players in season.night.players)


def players_chosen(*, club_id: int, pks: list[int]) -> list[Player] | None:
    """The club's players ``pks`` in that order: a fixture game's line-up as chosen (the
    service refuses anyone outside the entrant's squad), or None if one is no player of
    the club, whose name the refusal must not read out to the club's outsiders."""
    by_pk = {player.pk: player for player in Player.objects.filter(pk__in=pks,
                                                                   club_id=club_id)}
    if any(pk not in by_pk for pk in pks):
        return None
    return [by_pk[pk] for pk in pks]


class FixtureRights:
    """What ``user`` may do on ``fixture`` of ``season``, as the sign-off table says
    (:mod:`matches.rules.signoff`): who they are to the fixture (its home or away side's
    captain, by their account or by holding the captain's link of the entrants whose
    ids are ``links``; a league admin), and each action's flag for the fixture's page.
    The services' guards ask the same table, through :meth:`refusal`."""

    def __init__(self, fixture: Fixture, season: Season, user: Viewer,
                 links: Collection[int] = ()) -> None:
        self.fixture, self.season = fixture, season
        user_pk = user.pk if user is not None and user.is_authenticated else None
        self.home_captain = ((user_pk is not None and fixture.home.captain_id == user_pk)
                             or fixture.home_id in links)
        self.away_captain = ((user_pk is not None and fixture.away.captain_id == user_pk)
                             or fixture.away_id in links)
        self.club = ClubRights(season.club, user)

    @cached_property
    def admin(self) -> bool:  # asked only when a captain's right does not answer
        return self.club.runs_league

    @property
    def captains(self) -> frozenset[signoff.Actor]:
        """The sides this reader captains, as the table's actors."""
        return frozenset(actor for actor, captains in (
            (signoff.Actor.HOME_CAPTAIN, self.home_captain),
            (signoff.Actor.AWAY_CAPTAIN, self.away_captain)) if captains)

    def next_status(self, action: signoff.Action) -> signoff.Status:
        """The fixture's next status when this reader takes ``action`` now; else the
        table's :class:`~matches.rules.SignOffRefused` (the services' guard)."""
        return self._check(signoff.Status(self.fixture.status), action,
                           locked=self.season.locked)

    def refusal(self, action: signoff.Action) -> rules.SignOffRefused | None:
        """Why this reader may not take ``action`` on the fixture now (None: they may)."""
        try:
            self.next_status(action)
        except rules.SignOffRefused as refused:
            return refused
        return None

    def may(self, action: signoff.Action) -> bool:
        return self.refusal(action) is None

    def _who_may(self, action: signoff.Action) -> bool:
        """Whether this reader is one who takes ``action`` (from a status it is taken
        from, in a season open to it)."""
        status = next(status for status in signoff.Status
                      if status in signoff.TABLE[action].from_states)
        try:
            self._check(status, action, locked=False)
        except rules.SignOffRefused:
            return False
        return True

    def _check(self, status: signoff.Status, action: signoff.Action, *,
               locked: bool) -> signoff.Status:
        """The table's answer for this reader. A captain's own right costs no query;
        being a league admin only adds rights, so the membership is read only when a
        refusal is about who they are. A person is never the site itself
        (:attr:`~matches.rules.signoff.Actor.AUTOMATIC`): its actions are never theirs."""
        try:
            return signoff.check(status, action, self.captains, locked=locked)
        except rules.SignOffRefused as refused:
            if refused.code not in signoff.WHO_REFUSALS or not self.admin:
                raise
        return signoff.check(status, action, self.captains | {signoff.Actor.LEAGUE_ADMIN},
                             locked=locked)

    @property
    def enters(self) -> bool:
        return self._who_may(signoff.Action.ENTER)

    @property
    def signs(self) -> bool:
        return self._who_may(signoff.Action.CONFIRM)

    @property
    def can_enter(self) -> bool:
        return self.may(signoff.Action.ENTER)

    @property
    def can_redate(self) -> bool:
        return self.may(signoff.Action.REDATE) or self.may(signoff.Action.POSTPONE)

    @property
    def can_submit(self) -> bool:
        return self.may(signoff.Action.SUBMIT)

    @property
    def can_sign(self) -> bool:
        return self.may(signoff.Action.CONFIRM) and self.may(signoff.Action.DISPUTE)

    @property
    def both_captains(self) -> bool:
        """A captain of both sides, of a fixture the away captain would sign now: the
        page says why they may not."""
        return (self.home_captain and self.away_captain
                and signoff.Status(self.fixture.status)
                in signoff.TABLE[signoff.Action.CONFIRM].from_states)

    @property
    def can_resolve(self) -> bool:
        return self.may(signoff.Action.RESOLVE)

    @property
    def can_correct(self) -> bool:
        """A league admin's correction of the result, as the season takes them."""
        return self.may(signoff.correction(
            confirmed_again=self.season.corrections_confirmed_again))

    @property
    def can_walkover(self) -> bool:
        return self.may(signoff.Action.WALKOVER)

    @property
    def can_void(self) -> bool:
        return self.may(signoff.Action.VOID)

    @property
    def can_reinstate(self) -> bool:
        return self.may(signoff.Action.REINSTATE)


def fixture_rights(*, fixture: Fixture, season: Season, user: Viewer,
                   links: Collection[int] = ()) -> FixtureRights:
    return FixtureRights(fixture, season, user, links)


def game_scores(division: Division) -> dict[int, list[list[int]]]:
    """Each fixture's keyed or kept game scores, ``[home, away]`` in game order: one
    query of plain values (a division can hold thousands of games)."""
    scores: dict[int, list[list[int]]] = {}
    for fixture_id, home, away in (
            FixtureGame.objects.filter(fixture__division=division, home_score__isnull=False,
                                       away_score__isnull=False)
            .order_by("fixture_id", "number")
            .values_list("fixture_id", "home_score", "away_score")):
        if home is not None and away is not None:  # (the filter says so; for the types)
            scores.setdefault(fixture_id, []).append([home, away])
    return scores


def counted_paper_games() -> QuerySet[FixtureGame]:
    """The league games kept on paper whose results count in the players' records by
    game and their ratings: every one scored. A void fixture's too: its games were
    played, as its games on the scorepad were, and only the league's table and records
    leave the fixture out (:func:`player_league_records`)."""
    return FixtureGame.objects.filter(match__isnull=True, home_score__isnull=False)


def counted_paper_results(fixture: Fixture) -> set[tuple[Any, ...]]:
    """What the ratings read of ``fixture``'s counted paper games: each one's number,
    scores and players (one query). Compared before and after a step of the sign-off,
    it says whether the ratings must be rebuilt."""
    return set(counted_paper_games().filter(fixture=fixture).values_list(
        "number", "home_score", "away_score", "home_players", "away_players"))


def fixture_game_score(game: FixtureGame) -> tuple[int, int] | None:
    """A fixture game's final score, home first: keyed in, or its scorepad match's once
    that is finished (an abandoned one has none: it is no result), as the league rules
    count a match's sides (:func:`~matches.rules.league.game_score`); or the league's
    correction of that score, which counts instead (``score_corrected``)."""
    if game.score_corrected and game.home_score is not None and game.away_score is not None:
        return game.home_score, game.away_score
    if game.match is not None:
        if game.match.status != MatchStatus.FINISHED:
            return None
        # home in the even seats (fixture_game_start): the sides in seat order
        sides = sorted((side.index, int(side.score)) for side in game.match.sides.all())
        return league_rules.game_score([score for _, score in sides])
    if game.home_score is None or game.away_score is None:
        return None
    return game.home_score, game.away_score


def counted_win(*, side: str, match: str) -> Q:
    """Whether a side won its finished match as the result counts, for a query: the
    league's correction of a league game's score where it has one (a home side, in the
    even seats, won if the home score is the higher; an away side if not), else the
    match's own ``winner_side``. ``side`` is the path to the side's index, ``match`` to
    its match (``"match"``). Every page and the ratings that say who won ask this: the
    fixture and the match never disagree about it."""
    game = f"{match}__fixture_game"
    # (most matches have no fixture game: its flag is NULL, and NOT NULL is not true)
    corrected = Q(Exact(Coalesce(F(f"{game}__score_corrected"), False), True))
    home_won = Q(**{f"{game}__home_score__gt": F(f"{game}__away_score")})
    home = Q(Exact(Mod(F(side), 2), 0))
    return ((corrected & (home_won & home | ~home_won & ~home))
            | ~corrected & Q(**{side: F(f"{match}__winner_side")}))


@results_counter
def counted_results(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` with who won each as it counts (:func:`counted_win`): each one's sides
    marked ``won``, and the match ``corrected`` if the league corrected its result. Every
    list of matches reads this, scoring's through its registry (``results_counter``)."""
    sides = Side.objects.annotate(won=counted_win(side="index", match="match"))
    return (matches.annotate(corrected=Coalesce("fixture_game__score_corrected", False))
            .prefetch_related("seats", Prefetch("sides", queryset=sides)))


SCOREPAD_CLOSED = _("This game counts in the result of %(home)s v %(away)s (%(status)s): "
                    "its scorepad is closed. A league admin resolves the fixture if its "
                    "score is wrong.")
SCOREPAD_CLOSED_VOID = _("This game belongs to %(home)s v %(away)s, which a league admin "
                         "made void: its scorepad is closed, and only a league admin can "
                         "settle the fixture now.")
GAME_CORRECTED = _("The league corrected this game's result on its fixture: %(winner)s won "
                   "it, %(home)s %(h)s–%(a)s %(away)s. That result counts in the league "
                   "and in the ratings, not the score played here. Why: %(why)s")
SCOREPAD_CLOSED_WALKOVER = _("A league admin awarded %(home)s v %(away)s as a walkover: this "
                             "game was taken off the night and stopped for good.")
SCOREPAD_CLOSED_LOCKED = _("The season %(season)s is locked: this game's scorepad is closed, "
                           "and its result can no longer change.")


@dataclass(frozen=True, slots=True)
class Closure:
    """Why a league game's scorepad takes no more writes: its season is locked, or its
    fixture was sent (submitted, disputed, confirmed) or voided, and its result, with
    this game's score kept in it, is the league's to settle now."""

    season: str  # the season's name
    season_locked: bool
    fixture: Fixture | None  # the game's fixture (its home and away loaded), if it has one
    # the league's correction of this game's score (home, away) and why, if it has one
    corrected: tuple[int, int] | None = None
    corrected_why: str = ""
    walkover: bool = False  # taken off ``fixture`` by its walkover, and stopped for good

    @property
    def note(self) -> str | None:
        """The league's correction of this game's result, which counts instead of the
        score played here: who won it in the league, and why."""
        if self.corrected is None or self.fixture is None:
            return None
        home, away = self.corrected
        return GAME_CORRECTED % {
            "winner": (self.fixture.home if home > away else self.fixture.away).name,
            "home": self.fixture.home.name, "away": self.fixture.away.name,
            "h": home, "a": away, "why": self.corrected_why}

    @property
    def reason(self) -> str:
        """Why the scorepad is closed, and what to do, in the reader's language (the
        refusal's words, and what the closed pages say)."""
        fixture = self.fixture
        if self.season_locked or fixture is None:
            return SCOREPAD_CLOSED_LOCKED % {"season": self.season}
        names = {"home": fixture.home.name, "away": fixture.away.name}
        if self.walkover:
            return SCOREPAD_CLOSED_WALKOVER % names
        if fixture.status == FixtureStatus.VOID:
            return SCOREPAD_CLOSED_VOID % names
        return SCOREPAD_CLOSED % {**names, "status": fixture.get_status_display().lower()}

    @property
    def url(self) -> str | None:
        """The fixture's page, where a league admin settles it."""
        return self.fixture.get_absolute_url() if self.fixture is not None else None


@closure_check
def scorepad_closure(match: Match) -> Closure | None:
    """Whether ``match``, a league game, is closed to scoring (None: open). A casual
    match (no season) costs no query: every tap asks (``scoring.services.play.write_begin``);
    a league game's tap one, and a closed game's page one more, for the fixture's names.
    """
    if match.season_id is None:
        return None
    # (no ordering: the models' own would join the clubs and seasons to sort one row)
    status = Fixture.objects.filter(games__match=match.pk).order_by().values("status")[:1]
    row = Season.objects.filter(pk=match.season_id).order_by().values_list(
        "name", "locked", Subquery(status))[:1]
    if not row:  # the season was deleted since the match row was read
        return None
    name, locked, fixture_status = row[0]
    if not locked and fixture_status is None and match.status == MatchStatus.ABANDONED:
        return _walkover_closure(match, season=name)
    if not locked and (fixture_status is None
                       or signoff.Status(fixture_status) in signoff.OPEN_FOR_ENTRY):
        return None
    fixture = (Fixture.objects.filter(games__match=match.pk).order_by()
               .select_related("home", "away").first())
    corrected = FixtureGame.objects.filter(match=match.pk, score_corrected=True).order_by() \
        .values_list("home_score", "away_score").first()
    if fixture is None or corrected is None:
        return Closure(season=name, season_locked=locked, fixture=fixture)
    home, away = corrected
    if home is None or away is None:  # (a corrected score has both: for the types)
        return Closure(season=name, season_locked=locked, fixture=fixture)
    why = (FixtureCorrection.objects.filter(fixture=fixture).order_by("-at", "-id")
           .values_list("reason", flat=True).first())
    return Closure(season=name, season_locked=locked, fixture=fixture,
                   corrected=(home, away), corrected_why=why or "")


def _walkover_closure(match: Match, *, season: str) -> Closure | None:
    """A league game no fixture holds, abandoned: closed if a walkover took it off its
    night and stopped it (its abandon says which fixture); one query, only for such a
    match."""
    action = (Change.objects.filter(match=match.pk, kind=ChangeKind.ABANDON)
              .order_by("-version").values_list("action", flat=True).first())
    fixture_pk = (action or {}).get("closed_by", {}).get("walkover")
    if fixture_pk is None:
        return None
    fixture = Fixture.objects.filter(pk=fixture_pk).select_related("home", "away").first()
    return Closure(season=season, season_locked=False, fixture=fixture, walkover=True) \
        if fixture is not None else None


@dataclass(frozen=True, slots=True)
class FixturePlace:
    """A league game's place: its number in ``fixture``'s night (the fixture's sides,
    division, season and club loaded), for the scorepad and the match's page."""

    game: int
    fixture_row: Fixture

    @property
    def fixture(self) -> str:
        return _("%(home)s v %(away)s") % {"home": self.fixture_row.home.name,
                                           "away": self.fixture_row.away.name}

    @property
    def fixture_url(self) -> str:
        return self.fixture_row.get_absolute_url()

    @property
    def season(self) -> str:
        return self.fixture_row.division.season.name

    @property
    def season_url(self) -> str:
        return self.fixture_row.division.season.get_absolute_url()

    @property
    def club(self) -> str:
        return self.fixture_row.division.season.club.name

    @property
    def club_url(self) -> str:
        return self.fixture_row.division.season.club.get_absolute_url()


@place_reader
def fixture_place(match: Match) -> FixturePlace | None:
    """The fixture ``match`` is a game of, with its season and club: one query."""
    game = (FixtureGame.objects.filter(match=match.pk).order_by()
            .select_related("fixture__home", "fixture__away",
                            "fixture__division__season__club").first())
    return FixturePlace(game.number, game.fixture) if game is not None else None


def counted(fixture: Fixture, season: Season) -> bool:
    """Whether the fixture's result counts in the table: confirmed ones always;
    submitted ones too when the season says so (shown as not yet confirmed)."""
    if fixture.status == FixtureStatus.CONFIRMED:
        return True
    return season.count_submitted and fixture.status == FixtureStatus.SUBMITTED


def division_document(division: Division, season: Season) -> dict[str, Any]:
    """The division as ``domino-league/1`` (written by :mod:`matches.leagues.files`):
    entrants, scheme, and the fixtures that have a counted result, a postponement or a
    voiding (unplayed ones have none to give)."""
    scores = game_scores(division)
    fixtures: list[dict[str, Any]] = []
    for fixture in division.fixtures.all():
        postponed = fixture.status == FixtureStatus.POSTPONED
        void = fixture.status == FixtureStatus.VOID
        if not (postponed or void or counted(fixture, season)):
            continue
        fixtures.append(league_files.fixture_entry(
            home=fixture.home.name, away=fixture.away.name, date=fixture.date,
            postponed=postponed, void=void, walkover=fixture.walkover,
            result=(fixture.home_games, fixture.away_games),
            games=scores.get(fixture.pk, [])))
    entrants = division.entrants.all()
    return league_files.league_document(
        name=f"{season.name}{DIVISION_DASH}{division.name}", game=season.game,
        options=season.options,
        entrants=[league_files.entrant_entry(e.name, [p.name for p in e.players.all()])
                  for e in entrants],
        fixtures=fixtures,
        adjustments=[{"entrant": e.name, "points": a.points, "reason": a.reason}
                     for e in entrants for a in e.adjustments.all()],
        scoring=season.scoring,
        tiebreaks=list(season.tiebreaks))  # [] too: none, not the default


def division_fixture_lines(division: Division) -> list[league_files.FixtureLine]:
    """The division's fixtures as its fixtures CSV writes them, in the fixture list's
    order, each with its keyed or kept game scores."""
    scores = game_scores(division)
    return [league_files.FixtureLine(
        week=fixture.week, date=fixture.date, home=fixture.home.name,
        away=fixture.away.name, status=fixture.status, home_games=fixture.home_games,
        away_games=fixture.away_games, walkover=fixture.walkover,
        games=scores.get(fixture.pk, [])) for fixture in division.fixtures.all()]


def division_league(division: Division, season: Season) -> league_rules.League:
    """The division as the league rules read it (:func:`division_document`)."""
    return league_rules.read_league(division_document(division, season))


def division_table(division: Division, season: Season) -> league_rules.Table:
    """The division's standings, by the league rules."""
    return league_rules.standings(division_league(division, season))


def division_table_and_form(division: Division, season: Season
                            ) -> tuple[league_rules.Table, dict[str, str]]:
    """The division's standings and each entrant's last five counted results by name,
    oldest first (``"WWDLW"``; a walkover counts as the league's scoring says), from one
    read of the division."""
    league = division_league(division, season)
    return league_rules.standings(league), league_rules.form_guide(league)


def club_season(*, club: Club, slug: str) -> Season:
    """The club's season ``slug``; else 404. (Whether the reader may read the club is
    :mod:`matches.leagues.access`' to say, first.)"""
    return get_object_or_404(club.seasons, slug=slug)  # its .club is this one: no query


def season_matches(*, season: Season) -> QuerySet[Match]:
    """The matches played as the season's league games, in the order they started."""
    return (Match.objects.filter(fixture_game__fixture__division__season=season)
            .order_by("started_at", "id"))


def club_seasons(club: Club) -> QuerySet[Season]:
    """The club's league seasons (a cup's season is listed with the cups)."""
    return club.seasons.filter(kind=SeasonKind.LEAGUE).order_by("-starts_on", "id")


@dataclass(frozen=True)
class NeedsYou:
    """What waits for a signed-in user in the leagues of the clubs they belong to."""

    to_confirm: list[Fixture]  # results sent to them, as the away captain
    disputes: list[Fixture]  # their sides' disputed results, and those of leagues they run
    tonight: list[Fixture]  # their sides' fixtures today
    this_week: list[Fixture]  # and in the six days after
    # their home fixtures past their date with no result sent: the home side sends it
    to_send: list[Fixture] = field(default_factory=list)
    # in the leagues they run, results sent where one account captains both sides: no
    # captain may confirm their own side's, so the league settles them
    to_settle: list[Fixture] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.to_confirm or self.disputes or self.tonight or self.this_week
                    or self.to_send or self.to_settle)


def needs_you(*, user: Viewer, today: datetime.date) -> NeedsYou:
    """For the home page: the fixtures waiting for ``user`` on ``today`` (the site's
    date), in unlocked seasons of the clubs they are a member of; nothing for others."""
    if not isinstance(user, User):
        return NeedsYou([], [], [], [])
    clubs = Membership.objects.filter(user=user).values("club")
    runs = Membership.objects.filter(user=user, role__in=roles_at_least(RUNS_LEAGUE)) \
        .values("club")
    captain = Q(home__captain=user) | Q(away__captain=user)
    theirs = (Fixture.objects
              .filter(division__season__club__in=clubs, division__season__locked=False)
              .select_related("division__season__club", "home", "away")
              .order_by("date", "division__season", "division__order", "pk"))
    one_captain = Q(home__captain=F("away__captain"))
    return NeedsYou(
        # a side they captain both of is not theirs to confirm (the sign-off's own_result)
        to_confirm=list(theirs.filter(status=FixtureStatus.SUBMITTED, away__captain=user)
                        .exclude(home__captain=user)),
        disputes=list(theirs.filter(Q(status=FixtureStatus.DISPUTED)
                                    & (captain | Q(division__season__club__in=runs)))),
        tonight=list(theirs.filter(captain, status=FixtureStatus.SCHEDULED, date=today)),
        this_week=list(theirs.filter(captain, status=FixtureStatus.SCHEDULED,
                                     date__gt=today,
                                     date__lte=today + datetime.timedelta(days=6))),
        to_send=list(theirs.filter(home__captain=user, status=FixtureStatus.SCHEDULED,
                                   date__lt=today)),
        to_settle=list(theirs.filter(one_captain, status=FixtureStatus.SUBMITTED,
                                     division__season__club__in=runs)))


@dataclass(frozen=True)
class Attention:
    """A season's fixtures its league admins should see to."""

    disputed: list[Fixture]
    overdue: list[Fixture]  # still scheduled after their date: no result sent
    unconfirmed: list[Fixture]  # submitted, not confirmed a day after
    # postponed with no new date, or one now past: a night to find
    postponed: list[Fixture] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.disputed or self.overdue or self.unconfirmed or self.postponed)


def season_attention(*, season: Season, now: datetime.datetime) -> Attention:
    """The season's disputed fixtures, those past their date without a result (in the
    site's time zone), results awaiting confirmation for longer than the sign-off waits
    before a season that counts them confirms them by itself, and postponed fixtures
    with no new date (or one gone by)."""
    fixtures = (Fixture.objects.filter(division__season=season)
                .select_related("division__season", "home", "away")
                .order_by("date", "division__order", "week", "pk"))
    waited = now - datetime.timedelta(hours=signoff.AUTO_CONFIRM_AFTER_HOURS)
    today = timezone.localdate(now)
    return Attention(
        disputed=list(fixtures.filter(status=FixtureStatus.DISPUTED)),
        overdue=list(fixtures.filter(status=FixtureStatus.SCHEDULED,
                                     date__lt=today)),
        unconfirmed=list(fixtures.filter(status=FixtureStatus.SUBMITTED,
                                         submitted_at__lte=waited)),
        postponed=list(fixtures.filter(Q(date__isnull=True) | Q(date__lt=today),
                                       status=FixtureStatus.POSTPONED)))
