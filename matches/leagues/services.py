"""Writes for league seasons: set a season up, generate its fixtures, key in results,
and the sign-off: the home captain submits, the away captain confirms or disputes, a
league admin resolves disputes, adjusts points and locks the season.

Every change to a fixture after its submission is logged (:class:`FixtureChange`:
who, when, before and after). The points scheme and tie-breakers are checked by the
league rules (``matches.rules.league``), the same ones that compute the table.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.core.validators import MaxLengthValidator, ProhibitNullCharactersValidator
from django.db import models, transaction
from django.db.models import Count, Q
from django.dispatch import receiver
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from matches import rules
from matches.clubs.access import NOT_ALLOWED, RUNS_LEAGUE, require_role
from matches.clubs.models import Club, Membership, Player, Role
from matches.clubs.selectors import club_member_named, club_players_named
from matches.clubs.services import free_slug, player_named
from matches.clubs.signals import member_left
from matches.core import messages as rules_messages
from matches.core import resends
from matches.leagues import files as league_files
from matches.leagues import notices
from matches.leagues.models import (
    CORRECTION_REASON_LENGTH,
    DIVISION_DASH,
    DIVISION_NAME_DASH,
    FIXTURE_ONE_ENTRANT,
    OPEN_FOR_ENTRY,
    UNSETTLED,
    Adjustment,
    Division,
    Entrant,
    EntrantKind,
    Fixture,
    FixtureChange,
    FixtureChangeKind,
    FixtureCorrection,
    FixtureFormat,
    FixtureGame,
    FixtureNotice,
    FixtureStatus,
    Season,
    SeasonKind,
)
from matches.leagues.selectors import (
    CaptainsLink,
    captain_link_live,
    counted_paper_results,
    fixture_game_score,
    fixture_rights,
    link_key_digest,
)
from matches.leagues.signals import fixture_moved
from matches.rules import fixtures as fixture_rules
from matches.rules import league as league_rules
from matches.rules import signoff
from matches.scoring.models import Match, MatchStatus
from matches.scoring.selectors.play import match_clubs
from matches.scoring.services.lifecycle import match_abandon
from matches.scoring.services.play import (
    MatchStarted,
    match_for_club,
    match_start,
    starters_revoke,
)
from matches.scoring.signals import results_changed

LOCK_UNSETTLED = ngettext_lazy(
    "%(count)s result waits for the away captain or the league (sent or disputed): settle "
    "it before the season is locked, or it would wait for good.",
    "%(count)s results wait for the away captain or the league (sent or disputed): settle "
    "them before the season is locked, or they would wait for good.", "count")
MAX_WEEK = 52 * 20  # a fixture added by hand: within twenty years of the season's start
SEASON_NAME_TAKEN = _("The club has a season or cup called %(name)s already: give this one "
                      "a name of its own (its year, say).")
SEASON_LOCKED = _("The season is locked: its results can no longer change.")
NOT_CAPTAIN = _("Only %(entrant)s's captain or a league admin can do that.")
ONLY_CAPTAIN = _("Only %(entrant)s's captain can do that.")
OWN_FIXTURE = _("A captain cannot confirm or dispute their own side's result: the other "
                "captain does.")
WRONG_STATUS = _("This fixture is %(status)s: that cannot be done now.")
NO_GAMES = _("Enter the games' scores first.")
FIXTURES_EXIST = _("This division already has its fixtures: add the nights of an entrant "
                   "that came in since one by one, under Add a fixture.")
TOO_FEW = _("A division needs at least two entrants for fixtures.")
SQUAD_LACKS = _("Not in %(entrant)s's squad: %(names)s.")
PLAYER_OUTSIDE = _("%(name)s is not one of the club's players.")
ENTRANT_HAS_PLAYED = _("%(name)s has fixtures played, settled or begun, or points "
                       "adjusted: it stays in the table. If it has withdrawn, make its "
                       "remaining fixtures void.")
SINGLE_SQUAD = _("A single player's squad is that one player.")
PAIR_SQUAD = _("A pair's squad is its two players.")
IN_ANOTHER_SQUAD = _("Already in another squad of this division: %(names)s.")
PLAYERS_UNKNOWN = _("Not the club's players: %(names)s. Add them on the club page first.")
CAPTAIN_OUTSIDE = _("%(name)s is not a member of the club: invite them first, so that they "
                    "can open their fixtures.")
DISPUTE_NEEDS_WHY = _("Say what is wrong with the result.")
SCOREPAD_GAMES = _("Row %(line)s: %(home)s v %(away)s has games scored on the scorepad; "
                    "correct its result on the fixture's correction page, or leave the row "
                    "out.")
SCOREPAD_NIGHT_OPEN = _("Row %(line)s: %(home)s v %(away)s has games scored on the "
                        "scorepad and is not sent yet; finish and send the night on its "
                        "fixture's page, or leave the row out.")
CORRECT_LINK = _("Correct this fixture's result")
FIXTURE_LINK = _("Open the fixture")
AWAITING = _("Row %(line)s: %(home)s v %(away)s has a result awaiting confirmation on the "
             "site (%(status)s): settle or correct it on its fixture's page, or leave the "
             "row out, so that it does not count twice.")
CORRECTION_NEEDS_WHY = _("Say why the result is corrected: the fixture keeps it beside the "
                         "original.")
SCOREPAD_GAME_SCORE = _("Game %(n)s was played on the scorepad: give its score (as played, "
                        "or corrected).")
SCOREPAD_GAME_PLAYERS = _("Game %(n)s was played on the scorepad by the players seated "
                          "there: correct its score only.")
NOT_FROM_ROW = _("Row %(line)s: %(home)s v %(away)s is %(status)s on that date: a "
                 "spreadsheet row cannot make it %(to)s. Leave the row out.")
PAST_9999 = _("The fixtures would run past the year 9999: start the season earlier.")
# a keyed-in score that no game of the season can end with: the rules say why
SCORE_IMPOSSIBLE = _("Game %(n)s: %(why)s.")
CSV_ROW = _("Row %(line)s: %(why)s")
CORRECTION_CHANGES_NOTHING = _("The night already has these games, scores and players: "
                               "there is nothing to correct.")
CSV_NIGHT_UNFINISHED = _("Row %(line)s: %(won)s games won is not a finished night of this "
                         "season: give every game's winner.")
CSV_GAMES_WON = _("Row %(line)s: %(won)s games won, but a night of this season has at most "
                  "%(most)s games.")
LINK_REPLACED = _("This captain's link has been replaced: it no longer works. Ask the "
                  "league admin for the new one.")
CUP_NO_ROUND_ROBIN = _("A cup's ties are drawn on its page, not generated as a round "
                       "robin.")
CUP_NO_FIXTURE_ADDED = _("A cup's ties are drawn on its page, not added as fixtures.")
ENTRANT_OUTSIDE = _("Choose an entrant of %(division)s.")
CUP_CORRECTIONS_FINAL = _("A cup's corrections are final: its next round cannot wait for "
                          "them to be confirmed again.")
CUP_NO_CSV = _("A cup's ties are played on their fixtures' pages: a spreadsheet's rows "
               "cannot add to its bracket.")
CUP_ENTRANT_STAYS = _("A cup's entrants stay in its draw: %(name)s cannot be removed.")
LINK_TAKEN = _("This captain's link is already in use on another phone. If that phone is "
               "lost, ask the league admin to replace the link.")

# who writes a fixture: an account, or whoever holds a side's captain's link on its phone
type By = User | CaptainsLink

LINEUP_SIZE = _("Game %(n)s: a game is one player a side, or a pair a side.")
NOT_IN_SQUAD = _("Game %(n)s: %(name)s is not in %(entrant)s's squad.")
CHOSEN_TWICE = _("Game %(n)s: %(name)s is chosen twice; a pair is two different players.")
PLAYERS_NEEDED = _("Game %(n)s: choose who played it for each side.")


@transaction.atomic
def season_create(*, club: Club, by: User, name: str, starts_on: datetime.date,
                  game: str, options: dict[str, Any] | None = None,
                  scoring: dict[str, Any] | None = None, tiebreaks: Sequence[str] | None = None,
                  fixture_format: str = "single", singles: int = 0, pairs: int = 0,
                  race_to: int | None = None, count_submitted: bool = False,
                  corrections_confirmed_again: bool = False,
                  paper_players_optional: bool = False,
                  divisions: Sequence[str] = ("Division 1",),
                  ends_on: datetime.date | None = None,
                  nights_start: datetime.time | None = None) -> Season:
    """A season of the club's league, with its divisions; the rules check the scheme. Its
    name is not another season's or cup's of the club, in any case: the form sent twice
    (a double tap) makes one, and two of one name could not be told apart in the club's
    lists (the club's row is locked, so the second waits for the first)."""
    require_role(club=club, user=by, role=RUNS_LEAGUE)
    Club.objects.select_for_update().filter(pk=club.pk).first()
    if club.seasons.filter(name__iexact=" ".join(name.split())).exists():
        raise ValidationError({"name": ValidationError(SEASON_NAME_TAKEN, code="taken",
                                                       params={"name": " ".join(name.split())})})
    league = season_scheme_check(name=name, game=game, options=options, scoring=scoring,
                                 tiebreaks=tiebreaks)
    division_names = [" ".join(division.split()) for division in divisions]
    if any(DIVISION_DASH in f" {division}" for division in division_names):
        # "— North" too: "Summer — — North" would come back as "Summer —" and "North"
        raise ValidationError({"divisions": ValidationError(DIVISION_NAME_DASH, code="dash")})
    season = _season_row(
        club=club, name=name, game=game, options=dict(options or {}), starts_on=starts_on,
        scoring=dict(scoring or {}), tiebreaks=list(league.tiebreaks),
        ends_on=ends_on, fixture_format=fixture_format, singles=singles, pairs=pairs,
        race_to=race_to, count_submitted=count_submitted,
        corrections_confirmed_again=corrections_confirmed_again,
        paper_players_optional=paper_players_optional,
        **({"nights_start": nights_start} if nights_start is not None else {}))
    for order, division_name in enumerate(division_names):
        division = Division(season=season, name=division_name, order=order)
        division.full_clean()  # the database's own case folding decides "the same name"
        division.save()
    return season


def season_scheme_check(*, game: str, options: dict[str, Any] | None = None,
                        scoring: dict[str, Any] | None = None,
                        tiebreaks: Sequence[str] | None = None,
                        name: str = "season") -> league_rules.League:
    """A season's game, options, points scheme and tie-breakers, checked by the league
    rules as a ``domino-league/1`` document without entrants (the one check: the new
    season form asks it too, to say a refusal beside its fields). Refused: a
    :class:`ValidationError` keeping the rules' code, so that a form can say it beside
    its own field (``walkover_order``)."""
    document = league_files.league_document(name=name, game=game, options=options,
                                            scoring=scoring, tiebreaks=tiebreaks)
    try:
        return league_rules.read_league(document)
    except rules.RulesError as error:
        raise ValidationError(rules_messages.explain(error),
                              code=error.code or "league") from None


@transaction.atomic
def entrant_add(*, division: Division, by: User, name: str, kind: str = "team",
                players: Sequence[Player] = (), captain: User | None = None,
                player_names: Sequence[str] = (), captain_username: str = "") -> Entrant:
    """A team, pair or player in ``division``. Its squad and captain are given as rows
    (``players``, ``captain``) or as typed (``player_names``: the club's players, case
    aside; ``captain_username``: a member's username). A username that is not a
    member's is refused as such, whether or not the site has that account."""
    season = division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    if player_names:
        players = [*players, *_club_players_named(season, player_names)]
    if captain_username:
        captain = _captain_named(season, captain_username)
    elif captain is not None and not Membership.objects.filter(club=season.club,
                                                               user=captain).exists():
        raise ValidationError({"captain": ValidationError(
            CAPTAIN_OUTSIDE, code="captain", params={"name": captain.get_username()})})
    for player in players:
        if player.club_id != season.club_id:
            raise ValidationError({"players": ValidationError(
                PLAYER_OUTSIDE, code="player", params={"name": player.name})})
    players = list({player.pk: player for player in players}.values())  # each once
    _check_squad(division, kind, players)
    entrant = Entrant(division=division, name=" ".join(name.split()), kind=kind,
                      captain=captain)
    entrant.full_clean()
    entrant.save()
    entrant.players.set(players)
    return entrant


@receiver(member_left)
def captaincies_end(sender: object, *, club: Club, user: User, **kwargs: object) -> int:
    """A member who left the club, or was taken out, captains none of its sides in the
    seasons still running: the sign-off and the league's e-mails go by an entrant's
    captain. A locked season keeps who captained its sides. Returns how many ended."""
    return Entrant.objects.filter(division__season__club=club, division__season__locked=False,
                                  captain=user).update(captain=None)


@transaction.atomic
def entrant_rename(*, entrant: Entrant, by: User, name: str) -> Entrant:
    """A new name for an entrant (its fixtures and results follow it)."""
    entrant = Entrant.objects.select_for_update().select_related("division__season__club") \
        .get(pk=entrant.pk)
    season = entrant.division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    entrant.name = " ".join(name.split())
    entrant.full_clean()
    entrant.save(update_fields=["name"])
    return entrant


def _captain_named(season: Season, username: str) -> User:
    """The member of the season's club whose username this is, to captain a side; one
    who is not a member is refused as such, whether or not the site has that account."""
    member = club_member_named(club=season.club, username=username)
    if member is None:
        raise ValidationError({"captain": ValidationError(
            CAPTAIN_OUTSIDE, code="captain", params={"name": username})})
    return member.user


def _club_players_named(season: Season, names: Sequence[str]) -> list[Player]:
    """The club's players typed by name (case aside), or the refusal naming those that
    are not."""
    names = [" ".join(n.split()) for n in names if n.strip()]
    named = club_players_named(club=season.club, names=names)
    unknown = [n for n in names if n.casefold() not in named]
    if unknown:
        raise ValidationError({"players": ValidationError(
            PLAYERS_UNKNOWN, code="players", params={"names": ", ".join(unknown)})})
    return list({player.pk: player for player in (named[n.casefold()] for n in names)}.values())


@transaction.atomic
def entrant_captain_set(*, entrant: Entrant, by: User, captain_username: str) -> Entrant:
    """A new captain for an entrant, a member named by username; blank: none (the league
    admins act for the side meanwhile)."""
    entrant = Entrant.objects.select_for_update().select_related("division__season__club") \
        .get(pk=entrant.pk)
    season = entrant.division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    username = captain_username.strip()
    entrant.captain = _captain_named(season, username) if username else None
    entrant.full_clean()
    entrant.save(update_fields=["captain"])
    return entrant


@transaction.atomic
def entrant_squad_change(*, entrant: Entrant, by: User, add: Sequence[str] = (),
                         drop: Sequence[str] = ()) -> Entrant:
    """Players join an entrant's squad (a signing) or leave it, by name: the games they
    played for it stay theirs. The squad's limits are the ones it was made with."""
    entrant = Entrant.objects.select_for_update().select_related("division__season__club") \
        .get(pk=entrant.pk)
    season = entrant.division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    joining = _club_players_named(season, add)
    leaving = {player.pk: player for player in _club_players_named(season, drop)}
    squad = {player.pk: player for player in entrant.players.all()}
    not_in = [player.name for pk, player in leaving.items() if pk not in squad]
    if not_in:
        raise ValidationError({"players": ValidationError(
            SQUAD_LACKS, code="not_in_squad",
            params={"names": ", ".join(not_in), "entrant": entrant.name})})
    squad.update((player.pk, player) for player in joining)
    kept = [player for pk, player in squad.items() if pk not in leaving]
    _check_squad(entrant.division, entrant.kind, kept, entrant=entrant)
    entrant.players.set(kept)
    return entrant


@transaction.atomic
def entrant_remove(*, entrant: Entrant, by: User) -> int:
    """An entrant added by mistake (or withdrawn before it played) taken out of its
    division with its fixtures, none of which may have been played, settled or begun
    (no game keyed in or on the scorepad), and with no points adjusted: what counts in
    the table stays. Returns how many fixtures went with it. An entrant that has played
    stays; its remaining fixtures can be made void."""
    entrant = Entrant.objects.select_for_update().select_related("division__season__club") \
        .get(pk=entrant.pk)
    season = entrant.division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    if season.kind == SeasonKind.CUP:
        raise ValidationError(CUP_ENTRANT_STAYS, code="cup", params={"name": entrant.name})
    fixtures = Fixture.objects.filter(Q(home=entrant) | Q(away=entrant))
    if (fixtures.exclude(status__in=OPEN_FOR_ENTRY)
            .exists() or FixtureGame.objects.filter(fixture__in=fixtures).exists()
            or entrant.adjustments.exists()):
        raise ValidationError(ENTRANT_HAS_PLAYED, code="played",
                              params={"name": entrant.name})
    gone = fixtures.count()
    fixtures.delete()
    entrant.delete()
    return gone


def _check_squad(division: Division, kind: str, players: Sequence[Player],
                 entrant: Entrant | None = None) -> None:
    """A single player's squad is that player, a pair's its two; and a player plays for
    one entrant of a division (a night would otherwise set them against themselves):
    ``entrant``'s own squad aside, when it is the one changing. The division's row is
    locked first, so two admins putting one player in two squads at once are taken one
    after the other, and the second refused."""
    Division.objects.select_for_update().filter(pk=division.pk).first()
    most = {EntrantKind.SINGLE.value: 1, EntrantKind.PAIR.value: 2}.get(kind)
    if most is not None and len(players) > most:
        raise ValidationError({"players": ValidationError(
            SINGLE_SQUAD if most == 1 else PAIR_SQUAD, code="squad_size")})
    taken = Entrant.players.through.objects.filter(
        entrant__division=division, player__in=players).select_related("entrant", "player")
    if entrant is not None:
        taken = taken.exclude(entrant=entrant)
    if taken:
        raise ValidationError({"players": ValidationError(
            IN_ANOTHER_SQUAD, code="squad_taken", params={"names": ", ".join(
                f"{row.player.name} ({row.entrant.name})"
                for row in sorted(taken, key=lambda row: row.player.name))})})


@transaction.atomic
def fixtures_generate(*, division: Division, by: User, legs: int = 1,
                      start: datetime.date | None = None, every_days: int = 7) -> int:
    """A round robin (single or double) from the rules' generator; returns how many."""
    season = division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    if season.kind == SeasonKind.CUP:
        raise ValidationError(CUP_NO_ROUND_ROBIN, code="cup")
    if division.fixtures.exists():
        raise ValidationError(FIXTURES_EXIST, code="exists")
    entrants = {e.name: e for e in division.entrants.all()}
    if len(entrants) < 2:
        raise ValidationError(TOO_FEW, code="too_few")
    try:
        schedule = fixture_rules.round_robin(list(entrants), legs=legs,
                                             start=start or season.starts_on,
                                             every_days=every_days)
    except OverflowError:  # a date past 31 December 9999
        raise ValidationError(PAST_9999, code="past_9999") from None
    # new fixtures, scheduled (the model's default): a creation, not a sign-off step
    Fixture.objects.bulk_create([
        Fixture(division=division, week=f.week, date=f.date, home=entrants[f.home],
                away=entrants[f.away]) for f in schedule.fixtures])
    return len(schedule.fixtures)


@transaction.atomic
def fixture_redate(*, fixture: Fixture, by: By, date: datetime.date | None,
                   postponed: bool = False) -> Fixture:
    """Postpone a fixture (no date yet, or a new one) or put it back on a date, within
    its season (from its first night to its last, when it has one). A new date makes the
    schedule's e-mails about the fixture due again: each is sent once a date. Postponed
    with its date as it was, a night keeps it (the form shows it); with another date, it
    is re-dated: it is played then, and reminded of and listed as coming, which a
    postponed night is not."""
    if postponed and date is not None and date != fixture.date:
        postponed = False

    def redate(fixture: Fixture) -> None:
        season = fixture.division.season
        if date is None and not postponed:
            raise ValidationError({"date": ValidationError(
                _("Give the night's new date, or tick Postponed if it has none yet."),
                code="no_date")})
        if date is not None:
            _check_in_season(season, date)
        if date != fixture.date:  # a new night: its reminder and the rest are due again
            FixtureNotice.objects.filter(fixture=fixture).delete()
        fixture.date = date

    if postponed:
        return _transition(fixture, by=by, action=signoff.Action.POSTPONE,
                           kind=FixtureChangeKind.POSTPONED, change=redate)
    return _transition(fixture, by=by, action=signoff.Action.REDATE,
                       kind=FixtureChangeKind.REDATED, change=redate)


def _check_in_season(season: Season, date: datetime.date) -> None:
    """A fixture's night falls within its season: from its first night to its last,
    when it has one."""
    if date < season.starts_on or (season.ends_on is not None and date > season.ends_on):
        first = date_format(season.starts_on, "SHORT_DATE_FORMAT")
        within = (_("Give a date within the season: from %(first)s on.")
                  % {"first": first} if season.ends_on is None else
                  _("Give a date within the season: from %(first)s to %(last)s.")
                  % {"first": first, "last": date_format(season.ends_on, "SHORT_DATE_FORMAT")})
        raise ValidationError({"date": ValidationError(within, code="outside_season")})


@transaction.atomic
def fixture_add(*, division: Division, by: User, home: Entrant, away: Entrant,
                date: datetime.date) -> Fixture:
    """A fixture made by hand, scheduled on ``date``: the nights of an entrant that came
    in after the fixtures were generated, a night played again, one the list left out.
    Its week is the season's week of its date (the generator's weeks, from the first
    night, seven days each)."""
    season = division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    if season.kind == SeasonKind.CUP:
        raise ValidationError(CUP_NO_FIXTURE_ADDED, code="cup")
    for side, entrant in (("home", home), ("away", away)):
        if entrant.division_id != division.pk:
            raise ValidationError({side: ValidationError(
                ENTRANT_OUTSIDE, code="entrant", params={"division": division.name})})
    if home.pk == away.pk:
        raise ValidationError({"away": ValidationError(FIXTURE_ONE_ENTRANT, code="same")})
    _check_in_season(season, date)
    week = (date - season.starts_on).days // 7 + 1
    if week > MAX_WEEK:
        raise ValidationError({"date": ValidationError(
            _("Give a date within %(years)s years of the season's first night.")
            % {"years": MAX_WEEK // 52}, code="too_far")})
    if division.fixtures.filter(home=home, away=away, date=date).exists():  # sent twice
        raise ValidationError({"date": ValidationError(
            _("%(home)s v %(away)s is a fixture on that night already.")
            % {"home": home.name, "away": away.name}, code="twice")})
    fixture = Fixture(division=division, home=home, away=away, date=date, week=week)
    fixture.full_clean()
    fixture.save()
    return fixture


@dataclass(frozen=True)
class PaperGame:
    """A game kept on paper, as keyed in: its final score (home, away) and who played it
    for each side (one a side, or a pair; none at all where the season allows it)."""

    home_score: int
    away_score: int
    home_players: Sequence[Player] = ()
    away_players: Sequence[Player] = ()

    @property
    def score(self) -> tuple[int, int]:
        return self.home_score, self.away_score


@transaction.atomic
def fixture_games_enter(*, fixture: Fixture, by: By,
                        games: Sequence[PaperGame | None]) -> Fixture:
    """Key in the night's games kept on paper, by number (``games[0]`` is game 1): each
    one's final score and its players from the squads; ``None`` for a game with nothing
    keyed in (not played yet, or on the scorepad). The players' records and ratings
    follow (``results_changed``)."""
    fixture = _locked(fixture)
    _guard(fixture, by, signoff.Action.ENTER)
    _check_paper_games(fixture, games)
    _set_games(fixture, games)
    _results_changed(fixture.division.season)
    return fixture


@transaction.atomic
def fixture_game_start(*, fixture: Fixture, by: By, number: int,
                       home_players: Sequence[Player], away_players: Sequence[Player],
                       phone: str = "") -> MatchStarted:
    """Game ``number`` of the fixture night, played on the scorepad in the league's rules:
    a match with the chosen players (partners opposite: home in seats 1 and 3), linked
    to the game, so its final score flows to the fixture by itself."""
    fixture = _locked(fixture)
    _guard(fixture, by, signoff.Action.ENTER)
    _check_lineup(fixture, number, home_players, away_players)
    game = fixture.games.select_related("match").filter(number=number).first()
    # an abandoned game gave no result: it may be played again (its match stays, unlinked)
    if game is not None and (game.home_score is not None or (
            game.match is not None and game.match.status != MatchStatus.ABANDONED)):
        raise ValidationError(_("Game %(n)s already has its score.") % {"n": number})
    season = fixture.division.season
    seated = [p for pair in zip(home_players, away_players, strict=True) for p in pair]
    started = match_start(game=season.game, players=[p.name for p in seated],
                          options=dict(season.options),
                          created_by=by if isinstance(by, User) else None, phone=phone)
    match_for_club(match=started.match, club=season.club, season_id=season.pk, players=seated)
    game = game or FixtureGame(fixture=fixture, number=number)
    game.match = started.match
    game.full_clean()
    game.save()
    game.home_players.set(home_players)
    game.away_players.set(away_players)
    return started


def _check_lineup(fixture: Fixture, number: int, home_players: Sequence[Player],
                  away_players: Sequence[Player], *,
                  others: dict[int, bool] | None = None) -> None:
    """Game ``number`` of the night is one player a side or a pair a side, each from
    their side's squad, fitting the night's singles and pairs beside the line-ups of
    its ``others`` games (by number, True for a pairs game; by default, those stored).
    A refusal names the game, and the player it is about."""
    if number < 1:
        raise ValidationError(_("Choose a game of the night."), code="number")
    where = {"n": number}
    if len(home_players) != len(away_players) or len(home_players) not in (1, 2):
        raise ValidationError(LINEUP_SIZE, code="players", params=where)
    kept = fixture.games.filter(number=number).first()
    for side, entrant, players in (("home", fixture.home, home_players),
                                   ("away", fixture.away, away_players)):
        squad = set(entrant.players.values_list("pk", flat=True))
        if kept is not None:  # the line-up kept: one since out of the squad played it
            squad |= set(getattr(kept, f"{side}_players").values_list("pk", flat=True))
        seen: set[int] = set()
        for player in players:
            if player.pk not in squad:
                raise ValidationError(NOT_IN_SQUAD, code="players", params={
                    **where, "name": player.name, "entrant": entrant.name})
            if player.pk in seen:
                raise ValidationError(CHOSEN_TWICE, code="players",
                                      params={**where, "name": player.name})
            seen.add(player.pk)
    if others is None:
        # the other games' line-ups so far: a pairs game has two home players
        others = {n: count == 2 for n, count in fixture.games.exclude(number=number)
                  .annotate(count=Count("home_players")).filter(count__gt=0)
                  .values_list("number", "count")}
    try:
        fixture.division.season.night.check_lineup(number, pair=len(home_players) == 2,
                                                   others=others)
    except rules.FixtureNightError as error:
        raise _game_refused(error, number) from None


def _check_paper_games(fixture: Fixture, games: Sequence[PaperGame | None]) -> None:
    """Each paper game keyed in is one of the night, with its players (required unless
    the season says otherwise) in a line-up that fits the night beside the night's
    other games, and a final score the season's games can end with, for that many
    players. A spreadsheet's results are the league's record, and are not held to
    this: a season imported from a document has no format to hold them to."""
    season = fixture.division.season
    # the line-ups so far: the scorepad games' as stored, then each paper game's in turn
    # (the first that does not fit beside those before it is the one refused)
    lineups = {n: count == 2 for n, count in fixture.games.filter(match__isnull=False)
               .annotate(count=Count("home_players")).filter(count__gt=0)
               .values_list("number", "count")}
    for number, game in enumerate(games, start=1):
        if game is None:
            continue
        _check_number(fixture, number)
        if game.home_players or game.away_players:
            _check_lineup(fixture, number, game.home_players, game.away_players,
                          others=lineups)
            lineups[number] = len(game.home_players) == 2
        elif not season.paper_players_optional:
            raise ValidationError(PLAYERS_NEEDED, code="players", params={"n": number})
        _check_score(fixture, number, game.score,
                     players=(2 * len(game.home_players),) if game.home_players else None)


def _results_changed(season: Season) -> None:
    """The season's paper games feed their players' records and ratings: rebuilt from
    all results (``results_changed``, as a scorepad game's finishing sends)."""
    results_changed.send(sender=FixtureGame, clubs=[season.club], game=season.game)


@transaction.atomic
def fixture_submit(*, fixture: Fixture, by: By) -> Fixture:
    """The home captain sends the completed fixture to the away captain: every game of
    a set has its score, a race has its winner (the season's rules say which). A night
    cut short is the league's to settle: a walkover, void, or its admin's resolution."""
    def submit(fixture: Fixture) -> None:
        games = _night_games(fixture)
        in_play = sorted(game.number for game in games
                         if game.match is not None and game.home_score is None
                         and game.match.status not in (MatchStatus.FINISHED,
                                                       MatchStatus.ABANDONED))
        if in_play:
            raise ValidationError(
                _("Game %(n)s is still being played on the scorepad: send the night once it "
                  "is finished (or, if it will not be, abandon that match).")
                % {"n": in_play[0]}, code="in_play", params={"n": in_play[0]})
        scored = _scored(games)
        home, away = _games_won(scored)
        try:
            fixture.division.season.night.check_complete(scored)
        except rules.FixtureNightError as error:
            raise ValidationError(_("The night is not finished: %(why)s.")
                                  % {"why": rules_messages.explain(error)},
                                  code="unfinished", params=_game_param(error)) from None
        for game in games:
            if game.match is not None and (score := scored.get(game.number)) is not None:
                game.home_score, game.away_score = score  # the scorepad's final score, kept
                game.save(update_fields=["home_score", "away_score"])
        fixture.home_games, fixture.away_games = home, away
        fixture.submitted_at = timezone.now()

    return _transition(fixture, by=by, action=signoff.Action.SUBMIT,
                       kind=FixtureChangeKind.SUBMITTED, change=submit, lock_games=True)


@transaction.atomic
def fixture_confirm(*, fixture: Fixture, by: By) -> Fixture:
    """The away captain agrees: the result counts in the table."""
    return _transition(fixture, by=by, action=signoff.Action.CONFIRM,
                       kind=FixtureChangeKind.CONFIRMED)


@transaction.atomic
def fixture_dispute(*, fixture: Fixture, by: By, message: str) -> Fixture:
    """The away captain disagrees, saying why; a league admin resolves it."""
    def dispute(fixture: Fixture) -> None:
        if not message.strip():
            raise ValidationError({"message": ValidationError(DISPUTE_NEEDS_WHY, code="why")})
        fixture.dispute = message.strip()

    return _transition(fixture, by=by, action=signoff.Action.DISPUTE,
                       kind=FixtureChangeKind.DISPUTED, change=dispute)


@transaction.atomic
def fixture_resolve(*, fixture: Fixture, by: By,
                    games: Sequence[PaperGame | None] | None = None) -> Fixture:
    """A league admin settles a disputed (or any submitted) fixture, with corrected
    paper games (scores and players, as :func:`fixture_games_enter` takes them) if need
    be; the result is confirmed."""
    def resolve(fixture: Fixture) -> None:
        if games is not None:
            _check_paper_games(fixture, games)
            _set_games(fixture, games)
            fixture.home_games, fixture.away_games = _games_won(_scored(_night_games(fixture)))

    return _transition(fixture, by=by, action=signoff.Action.RESOLVE,
                       kind=FixtureChangeKind.RESOLVED, change=resolve)


@transaction.atomic
def fixture_correct(*, fixture: Fixture, by: User, scores: Sequence[tuple[int, int] | None],
                    home_players: Sequence[Sequence[Player]] = (),
                    away_players: Sequence[Sequence[Player]] = (),
                    reason: str) -> Fixture:
    """A league admin corrects a fixture's result (submitted, confirmed or disputed; a
    walkover too) with the night's games: each game's final score by number (``None``:
    no such game) and who played it (``home_players[i]``, ``away_players[i]`` for game
    ``i + 1``, from the squads; none given: no line-up kept). The correction supersedes,
    it does not overwrite: the games and result before it are kept beside it
    (:class:`FixtureCorrection`, with who, when and ``reason``) and the change is logged.
    A game played on the scorepad keeps its match, as played, and its players; a score
    other than its match's is the league's correction of it, which counts (its match's
    page says so, and the ratings are rebuilt from it). The season says whether the away
    captain confirms the corrected result again (it is submitted to them) or it is final
    by the league's authority (confirmed)."""
    season = Season.objects.get(pk=fixture.division.season_id)
    rescored: list[Match] = []

    def correct(fixture: Fixture) -> None:
        why = " ".join(reason.split())
        if not why:
            raise ValidationError({"reason": ValidationError(CORRECTION_NEEDS_WHY,
                                                             code="why")})
        if "\x00" in why:  # PostgreSQL keeps no NUL in a text: refused as a form would
            raise ValidationError({"reason": ValidationError(
                ProhibitNullCharactersValidator.message, code="null_characters_not_allowed")})
        try:  # refused as a form would, never cut short to fit
            MaxLengthValidator(CORRECTION_REASON_LENGTH)(why)
        except ValidationError as too_long:
            raise ValidationError({"reason": too_long}) from None
        before = _night_record(fixture)
        _check_numbers(fixture, scores)
        existing = {game.number: game for game in _night_games(fixture)}
        for number in range(1, max(len(scores), max(existing, default=0)) + 1):
            score = scores[number - 1] if number <= len(scores) else None
            home = list(home_players[number - 1]) if number <= len(home_players) else []
            away = list(away_players[number - 1]) if number <= len(away_players) else []
            game = existing.get(number)
            if game is not None and game.match is not None \
                    and game.match.status == MatchStatus.FINISHED:
                if _correct_scorepad_game(fixture, game, score, home, away):
                    rescored.append(game.match)
                continue
            if game is not None and game.match is not None and score is not None:
                # a scorepad game that gave no result (abandoned, or left unfinished) now
                # has the league's score: a paper game, its match kept unlinked
                game.match = None
                game.save(update_fields=["match"])
            if score is None:
                if game is not None and game.match is None:
                    game.delete()
                continue
            _check_score(fixture, number, score,
                         players=(2 * len(home),) if home else None)
            kept = _keep_score(fixture, number, game, score)
            if home or away:
                _check_lineup(fixture, number, home, away)
            kept.home_players.set(home)
            kept.away_players.set(away)
        scored = _scored(_night_games(fixture))
        fixture.home_games, fixture.away_games = _games_won(scored)
        try:
            season.night.check_complete(scored)
        except rules.FixtureNightError as error:
            raise ValidationError(_("The night is not finished: %(why)s.")
                                  % {"why": rules_messages.explain(error)},
                                  code="unfinished", params=_game_param(error)) from None
        fixture.walkover = ""
        after = _night_record(fixture)
        if after == before:  # sent twice, or nothing changed: no correction to keep
            raise ValidationError(CORRECTION_CHANGES_NOTHING, code="unchanged")
        if season.corrections_confirmed_again:
            fixture.submitted_at = timezone.now()  # the away captain's day starts again
        FixtureCorrection.objects.create(
            fixture=fixture, user=by, reason=why, before=before, after=after,
            confirmed_again=season.corrections_confirmed_again)

    corrected = _transition(
        fixture, by=by, kind=FixtureChangeKind.CORRECTED, change=correct, lock_games=True,
        action=signoff.correction(confirmed_again=season.corrections_confirmed_again))
    for match in rescored:  # the ratings are rebuilt from the results, never patched
        results_changed.send(sender=Match, clubs=match_clubs(match), game=match.game)
    return corrected


def _correct_scorepad_game(fixture: Fixture, game: FixtureGame, score: tuple[int, int] | None,
                           home: Sequence[Player], away: Sequence[Player]) -> bool:
    """A finished scorepad game's score in a correction: its match's as played, or the
    league's correction of it (its match stays as played). Its players are those seated.
    Whether the score that counts changed."""
    if score is None:
        raise ValidationError(SCOREPAD_GAME_SCORE % {"n": game.number}, code="game",
                              params={"n": game.number})
    seated = ({p.pk for p in game.home_players.all()}, {p.pk for p in game.away_players.all()})
    if (home or away) and ({p.pk for p in home}, {p.pk for p in away}) != seated:
        raise ValidationError(SCOREPAD_GAME_PLAYERS % {"n": game.number}, code="game",
                              params={"n": game.number})
    _check_score(fixture, game.number, score,
                 players=(2 * len(seated[0]),) if seated[0] else None)
    if league_rules.game_winner(score) is None:
        raise ValidationError(_("Game %(n)s: a game has a winner; %(h)s–%(a)s is level.")
                              % {"n": game.number, "h": score[0], "a": score[1]},
                              code="game", params={"n": game.number})
    was = fixture_game_score(game)
    game.score_corrected = False
    played = fixture_game_score(game)  # the match's own, as played
    game.score_corrected = score != played
    game.home_score, game.away_score = score
    game.save(update_fields=["home_score", "away_score", "score_corrected"])
    return was != score


def _night_record(fixture: Fixture) -> dict[str, Any]:
    """A fixture's result and games as a correction keeps them (before and after): each
    game's score, who played it by name, whether on the scorepad and corrected there."""
    games = fixture.games.select_related("match").prefetch_related(
        "match__sides", "home_players", "away_players").order_by("number")
    return {
        "result": [fixture.home_games, fixture.away_games]
        if fixture.home_games is not None else None,
        "walkover": fixture.walkover or None,
        "games": [{"number": game.number,
                   "score": list(score) if (score := fixture_game_score(game)) else None,
                   "home": [p.name for p in game.home_players.all()],
                   "away": [p.name for p in game.away_players.all()],
                   "scorepad": game.match_id is not None,
                   "corrected": game.score_corrected} for game in games]}


@transaction.atomic
def fixture_walkover(*, fixture: Fixture, by: By, side: str) -> Fixture:
    """A league admin records a walkover: ``side`` (home or away) turned up.

    A walkover has no game scores (league-record.md), also when the league awards one
    over a fixture that was played: its games are taken off the fixture. Their scores
    stay in the log's before; a game scored on the scorepad stays a match of the club,
    and one still being played is abandoned (:func:`_unfinished_stopped`)."""
    def walkover(fixture: Fixture) -> None:
        unfinished = list(Match.objects.filter(fixture_game__fixture=fixture,
                                               status=MatchStatus.IN_PROGRESS))
        fixture.games.all().delete()
        _unfinished_stopped(unfinished, by=by, fixture=fixture)
        fixture.home_games = fixture.away_games = None
        fixture.walkover = side

    return _transition(fixture, by=by, action=signoff.Action.WALKOVER,
                       kind=FixtureChangeKind.WALKOVER, change=walkover, lock_games=True)


def _unfinished_stopped(matches: Sequence[Match], *, by: By | None, fixture: Fixture) -> None:
    """Scorepad games taken off their fixture while still being played (a walkover) are
    abandoned for good, logged as their next version: their phones stop scoring a game
    that no fixture counts, and one finished later would count in the ratings as a club
    match. Its closure (:func:`~matches.leagues.selectors.scorepad_closure`) keeps it
    from being resumed."""
    for match in matches:
        match_abandon(match=match, user=by if isinstance(by, User) else None,
                      closed_by={"walkover": fixture.pk})


@transaction.atomic
def fixture_void(*, fixture: Fixture, by: By) -> Fixture:
    """A league admin makes the fixture void, whatever its status: its result, if it
    had one, no longer counts (its games stay, in the log too)."""
    def void(fixture: Fixture) -> None:
        fixture.home_games = fixture.away_games = None
        fixture.walkover = ""

    return _transition(fixture, by=by, action=signoff.Action.VOID,
                       kind=FixtureChangeKind.VOIDED, change=void, lock_games=True)


@transaction.atomic
def fixture_reinstate(*, fixture: Fixture, by: By) -> Fixture:
    """A league admin takes back a void made by mistake: the fixture is scheduled again,
    open for its games, with those the void kept (its scorepad games open again too);
    its captains send and confirm it, or the league settles it, as any night. One that
    was postponed, with no date, when it was made void is postponed again, so the
    league's lists say it waits for a date."""
    voided = fixture.changes.filter(kind=FixtureChangeKind.VOIDED).order_by("-at", "-pk") \
        .values_list("before", flat=True).first()
    reinstated = _transition(fixture, by=by, action=signoff.Action.REINSTATE,
                             kind=FixtureChangeKind.REINSTATED)
    if reinstated.date is None and (voided or {}).get("status") == FixtureStatus.POSTPONED:
        return _transition(reinstated, by=by, action=signoff.Action.POSTPONE,
                           kind=FixtureChangeKind.POSTPONED)
    return reinstated


@transaction.atomic
def adjustment_add(*, entrant: Entrant, by: User, points: int, reason: str) -> Adjustment:
    """League points added to (or taken from) ``entrant``, with the reason; the same one
    sent again at once (a double tap) is the first, not another (:mod:`matches.core.resends`)."""
    season = entrant.division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    Entrant.objects.select_for_update().filter(pk=entrant.pk).first()  # one send at a time
    sent = Adjustment.objects.filter(entrant=entrant, points=points, reason=reason.strip(),
                                     made_by=by, made_at__gte=resends.since()).first()
    if sent is not None:
        return sent
    adjustment = Adjustment(entrant=entrant, points=points, reason=reason.strip(), made_by=by)
    adjustment.full_clean()
    adjustment.save()
    return adjustment


@transaction.atomic
def adjustment_remove(*, adjustment: Adjustment, by: User) -> None:
    """A league admin takes back an adjustment made by mistake (one sent twice, a wrong
    entrant or number): the table is as if it had never been made."""
    season = adjustment.entrant.division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    adjustment.delete()


@transaction.atomic
def season_corrections_choose(*, season: Season, by: User, confirmed_again: bool) -> Season:
    """Whether a league admin's corrections of this season's results go back to the away
    captain to confirm again (else they are final); corrections made before keep the way
    they went."""
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    season = Season.objects.select_for_update().get(pk=season.pk)
    _not_locked(season)
    if season.kind == SeasonKind.CUP and confirmed_again:
        raise ValidationError(CUP_CORRECTIONS_FINAL, code="cup")
    season.corrections_confirmed_again = confirmed_again
    season.save(update_fields=["corrections_confirmed_again"])
    return season


@transaction.atomic
def season_nights_start_set(*, season: Season, by: User, nights_start: datetime.time) -> Season:
    """When the season's nights usually start (the site's time zone): the reminders and
    "no result yet" prompts not sent yet are timed from it."""
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    season.nights_start = nights_start.replace(second=0, microsecond=0)
    season.save(update_fields=["nights_start"])
    return season


@transaction.atomic
def season_lock(*, season: Season, by: User) -> Season:
    """The season's results can no longer change. A result still waiting for its
    sign-off (submitted, disputed) refuses it: locked, it would wait for good."""
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    season = Season.objects.select_for_update().get(pk=season.pk)
    waiting = Fixture.objects.filter(division__season=season, status__in=UNSETTLED).count()
    if waiting:
        raise ValidationError(LOCK_UNSETTLED, code="unsettled", params={"count": waiting})
    season.locked = True
    season.save(update_fields=["locked"])
    return season


@transaction.atomic
def captain_link_open(*, entrant: Entrant, generation: int, phone: str = "") -> str:
    """The phone opening generation ``generation`` of ``entrant``'s captain's link acts
    as that side's captain from now on: returns the key its session keeps (only its
    digest is stored). One phone holds a link: once opened, another phone opening it
    is refused, until the league admin replaces it (:func:`captain_link_replace`)."""
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.link_generation != generation:
        raise ValidationError(LINK_REPLACED, code="replaced")
    if entrant.link_phone_key:
        raise ValidationError(LINK_TAKEN, code="taken")
    key = secrets.token_urlsafe(24)
    entrant.link_phone_key, entrant.link_phone = link_key_digest(key), phone[:80]
    entrant.link_opened_at = timezone.now()
    entrant.full_clean()
    entrant.save(update_fields=["link_phone_key", "link_phone", "link_opened_at"])
    return key


@transaction.atomic
def captain_link_replace(*, entrant: Entrant, by: User) -> Entrant:
    """A league admin replaces ``entrant``'s captain's link: the old link, and the phone
    that opened it, act no more; the new one is to be handed over."""
    entrant = Entrant.objects.select_for_update().select_related("division__season__club") \
        .get(pk=entrant.pk)
    club = entrant.division.season.club
    require_role(club=club, user=by, role=RUNS_LEAGUE)
    entrant.link_generation += 1
    entrant.link_phone_key, entrant.link_phone, entrant.link_opened_at = "", "", None
    entrant.full_clean()
    entrant.save(update_fields=["link_generation", "link_phone_key", "link_phone",
                                "link_opened_at"])
    # the games the link's phone started (on the side's home nights, with no member's
    # account: a link acts with none) are scored, restored and deleted by it no more
    starters_revoke(matches=Match.objects.filter(fixture_game__fixture__home=entrant).filter(
        Q(created_by=None) | ~Q(created_by__in=club.memberships.values("user"))))
    return entrant


# -- internals -----------------------------------------------------------------------


def _locked(fixture: Fixture) -> Fixture:
    """The fixture's row, locked for this transaction, with its season and sides."""
    return (Fixture.objects.select_for_update()
            .select_related("division__season__club", "home", "away").get(pk=fixture.pk))


def _transition(fixture: Fixture, *, by: By | None, action: signoff.Action,
                kind: FixtureChangeKind, change: Callable[[Fixture], None] | None = None,
                lock_games: bool = False, ratings_follow: bool = True) -> Fixture:
    """One step of the sign-off, the only place a fixture's status changes once it
    exists: lock the fixture's row, ask the table whether ``by`` (``None``: the site
    itself) may take ``action`` now (:func:`_guard`), let ``change`` check and set what the
    step changes besides the status (a refusal from it stores nothing), set the next
    status, validate the row as a whole, save it and log the change as ``kind``.
    ``lock_games``: the fixture's scorepad games close with this step
    (:func:`_games_locked`). If the step changed which of its paper games count, or how
    (void, a walkover over a played night, a correction), the ratings are rebuilt
    (``results_changed``), unless ``ratings_follow`` is off: the caller rebuilds them
    once for many fixtures."""
    fixture = _locked(fixture)
    status = _guard(fixture, by, action)
    if lock_games:
        _games_locked(fixture)
    before = _state(fixture)
    counted = counted_paper_results(fixture) if ratings_follow else None
    if change is not None:
        change(fixture)
    fixture.status = FixtureStatus(status.value)
    if _state(fixture) == before and kind != FixtureChangeKind.CORRECTED and (
            counted is None or counted_paper_results(fixture) == counted):
        # a step that changes nothing (a form sent twice, postponed once more): nothing
        # to log, no one to tell (a correction that changes nothing is refused by its
        # service; one of who played alone is a change)
        return fixture
    fixture.full_clean()
    fixture.save()
    _log(fixture, by, kind, before)
    if counted is not None and counted_paper_results(fixture) != counted:
        _results_changed(fixture.division.season)
    # the concerns above (a cup's bracket) take the new result, or refuse it
    fixture_moved.send(sender=Fixture, fixture=fixture)
    return fixture


def _games_locked(fixture: Fixture) -> None:
    """Lock the rows of the fixture's scorepad games, which are closed to scoring once it
    is sent or voided (``scoring.services.play.write_begin`` asks after locking its match's
    row): a tap in flight commits first, and its score is the one read and kept here,
    or it waits, then finds its scorepad closed."""
    list(Match.objects.select_for_update(of=("self",))
         .filter(fixture_game__fixture=fixture).only("pk"))


def _not_locked(season: Season) -> None:
    if season.locked:
        raise ValidationError(SEASON_LOCKED, code="locked")


def _guard(fixture: Fixture, by: By | None, action: signoff.Action) -> signoff.Status:
    """The fixture's next status when ``by`` takes ``action`` (``None``: the site itself,
    never a person; a captain's link: its side's captain, while it is the live link on
    the phone that opened it), as the sign-off table says and the fixture's page offers
    it (:class:`~matches.leagues.selectors.FixtureRights`); else the table's refusal in
    the league's words: a locked season or a status that does not allow it is a
    ValidationError, someone whose it is not PermissionDenied."""
    season = fixture.division.season
    try:
        if by is None:
            return signoff.check(signoff.Status(fixture.status), action,
                                 {signoff.Actor.AUTOMATIC}, locked=season.locked)
        if isinstance(by, CaptainsLink):
            if not captain_link_live(by):  # replaced since the phone's page read it
                raise PermissionDenied(LINK_REPLACED)
            return fixture_rights(fixture=fixture, season=season, user=None,
                                  links={by.entrant.pk}).next_status(action)
        return fixture_rights(fixture=fixture, season=season, user=by).next_status(action)
    except rules.SignOffRefused as refused:
        raise _refused(fixture, refused) from None


def _refused(fixture: Fixture, refused: rules.SignOffRefused) -> Exception:
    """The table's refusal as the league services say it (the entrant's own name)."""
    if refused.code == "season_locked":
        return ValidationError(SEASON_LOCKED, code="locked")
    if refused.code == "fixture_status":
        return ValidationError(WRONG_STATUS % {"status": fixture.get_status_display().lower()},
                               code="wrong_status")
    if refused.code == "own_result":
        return PermissionDenied(OWN_FIXTURE)
    if refused.code == "not_league_admin":
        return PermissionDenied(NOT_ALLOWED % {"role": Role(RUNS_LEAGUE).label.lower()})
    if refused.code in ("not_captain", "only_captain"):
        side = fixture.home if refused.params.get("entrant") == "home" else fixture.away
        return PermissionDenied((NOT_CAPTAIN if refused.code == "not_captain" else ONLY_CAPTAIN)
                                % {"entrant": side.name})
    # the site's own action asked by a person ("by_itself"): the table's words
    return PermissionDenied(rules_messages.explain(refused))


def _set_games(fixture: Fixture, games: Sequence[PaperGame | None]) -> None:
    """Key in paper games by number (``None``: nothing keyed in for that game), each
    with its players. A game scored on the scorepad keeps its match, and its score and
    players come from there."""
    existing = {game.number: game for game in fixture.games.all()}
    for number, paper in enumerate(games, start=1):
        game = existing.get(number)
        if paper is None:
            if game is not None and game.match_id is None:
                game.delete()
            continue
        kept = _keep_score(fixture, number, game, paper.score)
        kept.home_players.set(paper.home_players)
        kept.away_players.set(paper.away_players)
    # keyed-in games beyond the new list are gone; scorepad games stay
    fixture.games.filter(number__gt=len(games), match__isnull=True).delete()


def _keep_score(fixture: Fixture, number: int, game: FixtureGame | None,
                score: tuple[int, int]) -> FixtureGame:
    """Game ``number``'s final score as keyed in (a game has a winner; a game scored on
    the scorepad takes its score from there)."""
    home, away = score
    if league_rules.game_winner(score) is None:
        raise ValidationError(_("Game %(n)s: a game has a winner; %(h)s–%(a)s is level.")
                              % {"n": number, "h": home, "a": away}, code="game",
                              params={"n": number})
    game = game or FixtureGame(fixture=fixture, number=number)
    if game.match_id is not None:
        raise ValidationError(_("Game %(n)s is scored on the scorepad: its score comes "
                              "from there.") % {"n": number}, code="game", params={"n": number})
    game.home_score, game.away_score = home, away
    game.full_clean(exclude=["fixture"], validate_constraints=False)
    game.save()
    return game


def _check_numbers(fixture: Fixture, scores: Sequence[tuple[int, int] | None]) -> None:
    """Each game keyed in (by its place in ``scores``, from 1) is one of the night."""
    for number, score in enumerate(scores, start=1):
        if score is not None:
            _check_number(fixture, number)


def _check_number(fixture: Fixture, number: int) -> None:
    """Game ``number`` is one of the night its season plays (a set of 3 has no game 4)."""
    try:
        fixture.division.season.night.check_number(number)
    except rules.FixtureNightError as error:
        raise _game_refused(error, number) from None


def _game_refused(error: rules.FixtureNightError, number: int) -> ValidationError:
    """The night's refusal of game ``number``, as a sentence; the page marks its row."""
    return ValidationError(capfirst(rules_messages.explain(error)) + ".", code="game",
                           params={"n": number})


def _check_score(fixture: Fixture, number: int, score: tuple[int, int], *,
                 players: Sequence[int] | None = None) -> None:
    """Game ``number``'s keyed-in final score is one that a game of the season's rules
    and options, with ``players`` at the table (else any the night allows), can end
    with: a typing slip is refused here rather than counted. A level score is left to
    :func:`_keep_score`, which says so in its own words."""
    if league_rules.game_winner(score) is None:
        return
    season = fixture.division.season
    try:
        league_rules.check_game_score(rules.game_for(season.game), season.options, score,
                                      players=players or season.night.players)
    except rules.ImpossibleScore as error:
        raise ValidationError(SCORE_IMPOSSIBLE % {"n": number,
                                                  "why": rules_messages.explain(error)},
                              code="score", params={"n": number}) from None


def _game_param(error: rules.FixtureNightError) -> dict[str, Any]:
    """The game a night's refusal is about, for the page to mark (``n``)."""
    number = error.params.get("number")
    return {"n": number} if isinstance(number, int) else {}


def _night_games(fixture: Fixture) -> list[FixtureGame]:
    """The fixture's games, each with its scorepad match and that match's sides."""
    return list(fixture.games.select_related("match").prefetch_related("match__sides"))


def _scored(games: Sequence[FixtureGame]) -> dict[int, tuple[int, int]]:
    """The night's games with a final score, by number: keyed in, or a finished
    scorepad game's."""
    return {game.number: score for game in games
            if (score := fixture_game_score(game)) is not None}


def _games_won(scored: dict[int, tuple[int, int]]) -> tuple[int, int]:
    if not scored:
        raise ValidationError(NO_GAMES, code="no_games")
    # the scores of finished scorepad games are kept on the fixture's games too
    return league_rules.games_won(list(scored.values()))


def _state(fixture: Fixture) -> dict[str, Any]:
    """A fixture as its log keeps it (a change's "before" and "after")."""
    return _logged(status=fixture.status, date=fixture.date,
                   result=(fixture.home_games, fixture.away_games)
                   if fixture.home_games is not None else None,
                   walkover=fixture.walkover, games=_games_by_number(fixture))


def _games_by_number(fixture: Fixture) -> list[tuple[int | None, int | None]]:
    """Each game's keyed-in score at its number's place (a number with no game yet, or
    a scorepad game, as (None, None)): game 3 alone is logged third, not first."""
    scores = {g.number: (g.home_score, g.away_score) for g in fixture.games.all()}
    return [scores.get(n, (None, None)) for n in range(1, max(scores, default=0) + 1)]


def _logged(*, status: str, date: datetime.date | None, result: Sequence[int | None] | None,
            walkover: str, games: Sequence[Sequence[int | None]]) -> dict[str, Any]:
    return {"status": status, "date": date.isoformat() if date else None,
            "result": list(result) if result else None, "walkover": walkover or None,
            "games": [list(score) for score in games]}


def _log(fixture: Fixture, by: By | None, kind: FixtureChangeKind,
         before: dict[str, Any]) -> None:
    # the kind, for each reader's language; the words as this writer reads them
    link = by.entrant if isinstance(by, CaptainsLink) else None
    change = FixtureChange.objects.create(
        fixture=fixture, user=by if isinstance(by, User) else None, by_link=link, kind=kind,
        what=str(kind.label), before=before, after=_state(fixture))
    notices.change_told(change)  # e-mailed once this write commits


@transaction.atomic
def league_import(*, club: Club, document: dict[str, Any], by: User | None = None) -> Season:
    """A ``domino-league/1`` document stored as a season of ``club`` with one division (a
    name "season — division", as the exports write it, names both): its entrants (a
    squad's player the club does not have yet is added as one of its players), fixtures
    (results confirmed), adjustments. The league rules read it first; a refused document
    stores nothing."""
    league = league_rules.read_league(document)
    if by is not None:
        require_role(club=club, user=by, role=RUNS_LEAGUE)
    dates = [f.date for f in league.fixtures if f.date is not None]
    # the exports name a division "season — division" (as the spec's example does): it
    # comes back as both, so a season exported and imported again keeps its names
    season_name, dash, division_name = (" ".join(league.name.split())).rpartition(DIVISION_DASH)
    if not (dash and season_name and division_name):
        season_name, division_name = league.name, str(_("Division"))
    season = _season_row(
        club=club, name=season_name, game=league.game.slug, options=dict(league.options),
        starts_on=min(dates) if dates else timezone.localdate(),
        scoring=dict(document.get("scoring") or {}),
        tiebreaks=list(league.tiebreaks))
    division = _clean(Division(season=season, name=division_name.strip()[:80], order=0),
                      where="division")
    entrants: dict[str, Entrant] = {}
    for number, entrant in enumerate(league.entrants, start=1):
        stored = _clean(Entrant(division=division, name=entrant.name),
                        where=f"entrant {number}")
        # a squad's name the club does not have yet joins its players
        squad = [player_named(club=club, name=name) for name in entrant.players]
        try:  # one squad a division, as the season page keeps it
            _check_squad(division, stored.kind, squad, entrant=stored)
        except ValidationError as refused:
            raise ValidationError([f"entrant {number}, players: {message}"
                                   for message in refused.messages]) from None
        stored.players.set(squad)
        entrants[entrant.name.casefold()] = stored
    weeks = {date: n for n, date in enumerate(sorted(set(dates)), start=1)}
    # every fixture is new, in a new season, made in the document's status: a creation,
    # not a sign-off step (no fixture of the club changes status here)
    for fixture in league.fixtures:
        row = Fixture(division=division, date=fixture.date,
                      week=weeks[fixture.date] if fixture.date else len(weeks) + fixture.number,
                      home=entrants[fixture.home.casefold()],
                      away=entrants[fixture.away.casefold()])
        if fixture.postponed:
            row.status = FixtureStatus.POSTPONED
        elif fixture.void:
            row.status = FixtureStatus.VOID
        elif fixture.walkover is not None:
            row.status, row.walkover = FixtureStatus.CONFIRMED, fixture.walkover.value
        elif fixture.result is not None:
            row.status = FixtureStatus.CONFIRMED
            row.home_games, row.away_games = fixture.result
        _clean(row, where=f"fixture {fixture.number}")
        if fixture.games:
            FixtureGame.objects.bulk_create([
                _clean(FixtureGame(fixture=row, number=n, home_score=h, away_score=a),
                       where=f"fixture {fixture.number}, game {n}", save=False)
                for n, (h, a) in enumerate(fixture.games, start=1)])
    for number, adjustment in enumerate(league.adjustments, start=1):
        _clean(Adjustment(entrant=entrants[adjustment.entrant.casefold()],
                          points=adjustment.points, reason=adjustment.reason, made_by=by),
               where=f"adjustment {number}")
    return season


def _clean[M: models.Model](row: M, *, where: str, save: bool = True) -> M:
    """``row`` checked by its fields (a document's number may be beyond what the database
    holds, a name longer than its column), then saved; a refusal names ``where`` in the
    document ("fixture 3") and the field."""
    try:
        row.full_clean()
    except ValidationError as error:
        raise ValidationError([
            f"{where}: {message}" if field == NON_FIELD_ERRORS else
            f"{where}, {field}: {message}"
            for field, messages in error.message_dict.items() for message in messages
        ]) from None
    if save:
        row.save()
    return row


def _season_row(*, club: Club, name: str, **fields: Any) -> Season:
    """A season row with a free address (the caller has checked the scheme)."""
    season = Season(club=club, name=" ".join(name.split())[:120],
                    slug=free_slug(name=name, taken=club.seasons.all(), fallback="season"),
                    **fields)
    season.full_clean()
    season.save()
    return season


@dataclass(frozen=True)
class CsvImported:
    """What a spreadsheet import stored: ``rows`` fixtures (a column it does not read
    is refused by the reader, so none is left out)."""

    rows: int
    unchanged: int = 0  # rows that matched a fixture holding that result already


@transaction.atomic
def fixtures_csv_import(*, division: Division, by: User, text: str) -> CsvImported:
    """Results kept in a spreadsheet, one fixture a row, as
    :func:`matches.leagues.files.read_fixtures_csv` reads them (columns, statuses, game
    scores and delimiters there). The rows become the fixtures of a ``domino-league/1``
    document that the league rules read first (a refusal names the row and stores
    nothing); each row then goes to its fixture (:func:`_csv_fixture`: the pairing's
    played or settled one of that date, else its earliest unplayed one, else a new one)
    unless that fixture holds the row's result already. A new fixture is made in the
    row's status; an existing one changes as the sign-off table lets the league change it
    (:func:`_transition`), or the import is refused naming the row."""
    season = division.season
    require_role(club=season.club, user=by, role=RUNS_LEAGUE)
    _not_locked(season)
    if season.kind == SeasonKind.CUP:
        raise ValidationError(CUP_NO_CSV, code="cup")
    rows = league_files.read_fixtures_csv(text).rows
    names = [e.name for e in division.entrants.all()]
    document = league_files.league_document(
        name=season.name, game=season.game, options=season.options, scoring=season.scoring,
        entrants=[{"name": name} for name in names], fixtures=[doc for _line, doc in rows])
    try:
        league = league_rules.read_league(document)
    except rules.RulesError as error:
        raise ValidationError(league_files.row_refused(error, rows, names),
                              code="csv") from None
    for (line, _doc), fixture in zip(rows, league.fixtures, strict=True):
        _check_csv_night(season, line, fixture)  # every row before any is stored
    entrants = {e.name.casefold(): e for e in division.entrants.all()}
    unchanged = 0
    for (line, _doc), fixture in zip(rows, league.fixtures, strict=True):
        home, away = entrants[fixture.home.casefold()], entrants[fixture.away.casefold()]
        row = _csv_fixture(division, home, away, fixture.date, line)
        status, walkover, result = FixtureStatus.CONFIRMED, "", fixture.result
        if fixture.postponed:
            status = FixtureStatus.POSTPONED
        elif fixture.void:
            status = FixtureStatus.VOID
        elif fixture.walkover is not None:
            walkover = fixture.walkover.value
        date = fixture.date or row.date
        before = _state(row) if row.pk else {}
        # a fixture made void keeps its games, as fixture_void leaves them (a void row
        # has no games column to give): the export of a void night read back is unchanged
        keeps_games = fixture.void and row.pk is not None
        if before == _logged(status=status, date=date, result=result, walkover=walkover,
                             games=before["games"] if keeps_games else fixture.games or ()):
            unchanged += 1  # the fixture already holds it (the export read back)
            continue
        if row.pk and row.games.filter(match__isnull=False).exclude(
                match__status=MatchStatus.ABANDONED).exists():
            # a scorepad game's score comes from its match: the row cannot replace it
            # the refusal links to the page that settles it: a sent night's correction
            which = {"line": line, "home": home.name, "away": away.name}
            if row.status in OPEN_FOR_ENTRY:
                raise ValidationError(SCOREPAD_NIGHT_OPEN, code="scorepad", params={
                    **which, "url": row.get_absolute_url(), "link": FIXTURE_LINK})
            raise ValidationError(SCOREPAD_GAMES, code="scorepad", params={
                **which, "url": row.get_correction_url(), "link": CORRECT_LINK})

        def settle(row: Fixture, date: datetime.date | None = date,
                   walkover: str = walkover,
                   result: Sequence[int] | None = result) -> None:
            row.date, row.walkover = date, walkover
            row.home_games, row.away_games = result if result else (None, None)

        def store(row: Fixture,
                  games: Sequence[tuple[int, int]] = tuple(fixture.games or ()),
                  keeps_games: bool = keeps_games) -> None:
            # the row is the fixture's result: games keyed in before it and not in it are
            # gone, or they would contradict it (their scores stay in the log's "before");
            # an abandoned scorepad game gave no result (its match stays, unlinked)
            if keeps_games:
                return
            row.games.filter(match__status=MatchStatus.ABANDONED).delete()
            _set_games(row, [PaperGame(home, away) for home, away in games])

        if row.pk is None:
            # a new fixture, made in the row's status: no status changes, nothing to guard
            row.status = status
            settle(row)
            row.full_clean()
            row.save()
            store(row)
            _log(row, by, FixtureChangeKind.IMPORTED, before)
            continue
        # an existing fixture's status changes only as the sign-off table lets the league
        # change it (a confirmed night is not postponed); a row it refuses stops the import
        action = (signoff.Action.POSTPONE if fixture.postponed else
                  signoff.Action.VOID if fixture.void else
                  signoff.Action.WALKOVER if fixture.walkover is not None else
                  signoff.Action.RECORD)

        def change(row: Fixture, settle: Callable[[Fixture], None] = settle,
                   store: Callable[[Fixture], None] = store) -> None:
            settle(row)
            store(row)

        try:
            _transition(row, by=by, action=action, kind=FixtureChangeKind.IMPORTED,
                        change=change, ratings_follow=False)  # rebuilt once, below
        except ValidationError as refused:
            if getattr(refused, "code", None) != "wrong_status":  # a list or dict has none
                raise
            raise ValidationError(
                NOT_FROM_ROW % {"line": line, "home": home.name, "away": away.name,
                                "status": row.get_status_display().lower(),
                                "to": FixtureStatus(status).label.lower()},
                code="wrong_status") from None
    if len(league.fixtures) > unchanged:  # a row may replace games that had players
        _results_changed(division.season)
    return CsvImported(rows=len(league.fixtures) - unchanged, unchanged=unchanged)


def _check_csv_night(season: Season, line: int, fixture: league_rules.Fixture) -> None:
    """A spreadsheet row's result is one a night of the season can end with, as the
    keying-in form and the sign-off hold it: the file's format knows no night (a set of
    three has no six games won, no game 4, no game 10-5 to 61). A walkover's games are
    the scoring's, not the night's. A season of one game a night (the format a season
    imported from a document takes, nights of several games and all) has its games'
    scores checked, not their number."""
    if fixture.result is None or fixture.walkover is not None:
        return
    night = season.night
    counts_games = season.fixture_format != FixtureFormat.SINGLE
    if counts_games and fixture.games:
        try:
            night.check_complete(dict(enumerate(fixture.games, start=1)))
        except rules.FixtureNightError as error:
            raise ValidationError(CSV_ROW % {"line": line, "why": rules_messages.explain(
                error) + "."}, code="csv") from None
    elif counts_games:
        won = "–".join(map(str, fixture.result))
        if sum(fixture.result) > night.most_games:
            raise ValidationError(CSV_GAMES_WON % {"line": line, "won": won,
                                                   "most": night.most_games}, code="csv")
        if not night.ends_with(fixture.result):
            raise ValidationError(CSV_NIGHT_UNFINISHED % {"line": line, "won": won},
                                  code="csv")
    for number, score in enumerate(fixture.games or (), start=1):
        try:
            league_rules.check_game_score(rules.game_for(season.game), season.options, score,
                                          players=night.players)
        except rules.ImpossibleScore as error:
            raise ValidationError(CSV_ROW % {"line": line, "why": SCORE_IMPOSSIBLE % {
                "n": number, "why": rules_messages.explain(error)}}, code="csv") from None


def _csv_fixture(division: Division, home: Entrant, away: Entrant,
                 date: datetime.date | None, line: int) -> Fixture:
    """The fixture a spreadsheet row is about: the one of that pairing played or settled
    on its date (the fixtures export read back, or a result corrected); else the
    earliest unplayed one; else a new one. A pairing whose result waits for the away
    captain (submitted, disputed) is refused: once settled it would count twice."""
    pairing = division.fixtures.filter(home=home, away=away).order_by("week", "date", "id")
    waiting = UNSETTLED
    row = pairing.exclude(status__in=OPEN_FOR_ENTRY).filter(date=date).first()
    if row is None:
        row = pairing.filter(status__in=OPEN_FOR_ENTRY).first()
    if row is None:
        row = pairing.filter(status__in=waiting).first()
    if row is not None and row.status in waiting:
        raise ValidationError(AWAITING, code="awaiting", params={
            "line": line, "home": home.name, "away": away.name,
            "status": row.get_status_display().lower(), "url": row.get_correction_url(),
            "link": CORRECT_LINK})
    if row is None:
        last = division.fixtures.order_by("-week").values_list("week", flat=True).first()
        row = Fixture(division=division, home=home, away=away, week=(last or 0) + 1)
    return row


@transaction.atomic
def fixtures_confirm_due(*, now: datetime.datetime | None = None) -> int:
    """In seasons that count submitted results, a result the away captain left alone for
    a day is confirmed by the site itself (logged), as the sign-off table lets it.
    Returns how many. Run it from a scheduler: ``manage.py confirm_due_fixtures``."""
    now = now or timezone.now()
    wait = datetime.timedelta(hours=signoff.AUTO_CONFIRM_AFTER_HOURS)
    due = (Fixture.objects.filter(
        status__in=[status.value for status in
                    signoff.TABLE[signoff.Action.AUTO_CONFIRM].from_states],
        division__season__count_submitted=True, division__season__locked=False,
        submitted_at__lte=now - wait).order_by("pk"))
    count = 0
    for fixture in due:
        try:
            _transition(fixture, by=None, action=signoff.Action.AUTO_CONFIRM,
                        kind=FixtureChangeKind.AUTO_CONFIRMED)
        except ValidationError as refused:
            # settled (or its season locked) since the query read it: the guard, holding
            # its row, says so before anything is written; the others still go
            if getattr(refused, "code", None) not in ("wrong_status", "locked"):
                raise
            continue
        count += 1
    return count
