"""Writes for knockout cups: make a cup (with its season and division), add its
entrants, set its seeds, draw it (all at once, or round by round), draw its plate,
date its rounds and its finals night, and reset ties on an admin's word.

A tie is a fixture of the cup's division: played, sent, confirmed, disputed, resolved,
walked over or corrected on the fixture's page by the leagues' services. Whenever one of
those steps moves a tie's fixture, :func:`tie_fixture_moved` (registered with the
leagues' ``fixture_moved``) takes its counted result to the bracket: the winner goes
through, the fixtures of the ties whose two sides are now known are made, and a result
the rules refuse (a level tie the cup cannot decide, a correction that would change a
winner who has played on) is refused, so that the fixture's step stores nothing.
Every rule is the rules' (``matches.rules.cup``); these functions store and ask.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.dispatch import receiver
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import Club
from matches.clubs.services import player_named
from matches.core import messages as rules_messages
from matches.cups import stored
from matches.cups.access import require_cup_admin
from matches.cups.models import (
    MAX_SEED,
    Cup,
    CupLog,
    CupLogKind,
    CupRound,
    CupTie,
    DrawMethod,
    DrawTiming,
    LevelTie,
)
from matches.cups.selectors import (
    cup_division_entrants,
    cup_format,
    cup_results,
    cup_status_open,
    fixture_counted_result,
    fixture_tie_result,
    rules_cup,
    tie_games,
    tie_key,
)
from matches.leagues import services as leagues_services
from matches.leagues.models import (
    Entrant,
    Fixture,
    FixtureGame,
    FixtureStatus,
    Season,
    SeasonKind,
)
from matches.leagues.signals import fixture_moved
from matches.rules import CupError, cup_record
from matches.rules import cup as cup_rules
from matches.rules.league import games_won

ALREADY_DRAWN = _("The cup is drawn already: its entrants and seeds stay as drawn.")
NOT_DRAWN = _("The cup is not drawn yet.")
NOT_SEEDED = _("Only a seeded draw has seeds.")
TIE_SIDES_PLAYED = _("%(tie)s has games entered or a result between %(home)s and "
                     "%(away)s: its sides cannot change. A club admin resets it first.")
RESULT_GOES_PLAYED = _("%(tie)s: its result can stop counting only while %(next)s is "
                       "unplayed, or once a club admin has reset the ties after it.")
RESET_NEEDS_WHY = _("Say why the ties are reset: the cup's log keeps it.")
NOTHING_TO_RESET = _("Nothing follows %(tie)s yet: correct its result on its fixture's "
                     "page.")
NOT_A_TIE_NOW = _("This night is no longer one of the cup's ties (the ties after a corrected "
                  "result were drawn again): it stays void, with its games and log.")
NO_SUCH_ROUND = _("The cup has no round %(number)s.")
FINALS_VENUE_NEEDED = _("Say where the finals night is played.")
DATE_NEEDED = _("Give the round's date.")
BEFORE_START = _("The cup starts on %(first)s: give a date from then on.")
CUP_DIVISION = "Entrants"


def _refused(error: CupError, names: dict[str, str], field: str | None = None
             ) -> ValidationError:
    """The rules' refusal in the reader's words, entrants by name (the draw keeps ids)."""
    text = rules_messages.explain(error)
    for key, name in names.items():
        text = text.replace(f'"{key}"', f'"{name}"').replace(f"'{key}'", f'"{name}"')
    text = text[:1].upper() + text[1:]
    if not text.endswith("."):
        text += "."
    return ValidationError({field: ValidationError(text, code=error.code or "cup")}
                           if field else ValidationError(text, code=error.code or "cup"))


def _names(cup: Cup) -> dict[str, str]:
    return {str(entrant.pk): entrant.name for entrant in cup_division_entrants(cup)}


def _log(cup: Cup, by: User | None, kind: CupLogKind, details: str = "") -> None:
    log = CupLog(cup=cup, user=by, kind=kind, details=details[:400])
    log.full_clean()
    log.save()


def _locked(cup: Cup) -> Cup:
    return Cup.objects.select_for_update().select_related("season__club").get(pk=cup.pk)


def _run_by(cup: Cup, by: User) -> Cup:
    """The cup, locked for a write by ``by``, who must run its club's cups; a cup whose
    season is locked takes no more (its draws, dates and ties stay as they are)."""
    cup = _locked(cup)
    require_cup_admin(club=cup.season.club, user=by)
    if cup.season.locked:
        raise ValidationError(leagues_services.SEASON_LOCKED, code="locked")
    return cup


def _not_drawn_yet(cup: Cup) -> None:
    """Entrants and seeds change only until the draw."""
    if cup.drawn is not None:
        raise ValidationError(ALREADY_DRAWN, code="drawn")


@transaction.atomic
def cup_create(*, club: Club, by: User, name: str, starts_on: datetime.date, game: str,
               options: dict[str, Any] | None = None, fixture_format: str = "single",
               singles: int = 0, pairs: int = 0, race_to: int | None = None,
               count_submitted: bool = False, paper_players_optional: bool = False,
               draw_method: str = DrawMethod.RANDOM,
               draw_timing: str = DrawTiming.ALL_AT_ONCE, plate: bool = False,
               level_tie: str = LevelTie.TOTAL_POINTS, walkover: tuple[int, int] = (1, 0),
               nights_start: datetime.time | None = None) -> Cup:
    """A knockout cup of ``club``: its season (kind cup: the game, options, what a tie
    is and the sign-off settings; a correction is final by the league's authority, as a
    cup's next round cannot wait for it) with one division for its entrants, and how it
    is drawn and decided: a night that can end level has room for a deciding game. Its
    draw's seed is chosen here, once, and shown on its page."""
    require_cup_admin(club=club, user=by)
    try:
        cup_rules.CupFormat(method=cup_rules.DrawMethod(draw_method),
                            timing=cup_rules.DrawTiming(draw_timing), plate=plate,
                            level_tie=cup_rules.LevelTie(level_tie), walkover=walkover)
    except CupError as error:
        raise _refused(error, {}, "walkover_winner") from None
    except ValueError:
        raise ValidationError(_("Choose how the cup is drawn and decided.")) from None
    season = leagues_services.season_create(
        club=club, by=by, name=name, starts_on=starts_on, game=game, options=options,
        fixture_format=fixture_format, singles=singles, pairs=pairs, race_to=race_to,
        count_submitted=count_submitted, corrections_confirmed_again=False,
        paper_players_optional=paper_players_optional, divisions=(CUP_DIVISION,),
        nights_start=nights_start)
    season.kind = SeasonKind.CUP
    season.decider = cup_rules.can_end_level(season.night)
    season.full_clean()
    season.save(update_fields=["kind", "decider"])
    cup = Cup(season=season, draw_method=draw_method, draw_timing=draw_timing, plate=plate,
              level_tie=level_tie, walkover_winner=walkover[0], walkover_loser=walkover[1],
              draw_seed=secrets.randbelow(MAX_SEED + 1))
    cup.full_clean()
    cup.save()
    _log(cup, by, CupLogKind.CREATED)
    return cup


@transaction.atomic
def cup_entrant_add(*, cup: Cup, by: User, name: str, kind: str = "team",
                    player_names: Sequence[str] = (), captain_username: str = "") -> Entrant:
    """An entrant of the cup (a team with its squad, a pair or a single player, with its
    captain), as the leagues add one to a division: until the cup is drawn."""
    cup = _run_by(cup, by)
    _not_drawn_yet(cup)
    return leagues_services.entrant_add(
        division=cup.season.divisions.get(), by=by, name=name, kind=kind,
        player_names=player_names, captain_username=captain_username)


NOT_AN_ENTRANT = _("%(name)s is not an entrant of the cup.")


def _cup_entrant(cup: Cup, entrant: Entrant) -> Entrant:
    """``entrant``, locked, once it is known to be the cup's."""
    row = Entrant.objects.select_for_update().filter(pk=entrant.pk,
                                                     division__season=cup.season).first()
    if row is None:
        raise ValidationError({"entrant": ValidationError(
            NOT_AN_ENTRANT, code="entrant", params={"name": entrant.name})})
    return row


@transaction.atomic
def cup_entrant_rename(*, cup: Cup, by: User, entrant: Entrant, name: str) -> Entrant:
    """A new name for one of the cup's entrants, drawn or not: the draw and the ties
    keep it by its id, so the bracket follows."""
    cup = _run_by(cup, by)
    old = _cup_entrant(cup, entrant).name
    renamed = leagues_services.entrant_rename(entrant=entrant, by=by, name=name)
    _log(cup, by, CupLogKind.ENTRANT_RENAMED, f"{old} → {renamed.name}")
    return renamed


@transaction.atomic
def cup_entrant_remove(*, cup: Cup, by: User, entrant: Entrant) -> None:
    """One of the cup's entrants taken out (added by mistake, or withdrawn) until the
    cup is drawn, and from its seeds; once drawn, a withdrawn side gives a walkover."""
    cup = _run_by(cup, by)
    _not_drawn_yet(cup)
    row = _cup_entrant(cup, entrant)
    if row.pk in cup.seeds:
        cup.seeds = [pk for pk in cup.seeds if pk != row.pk]
        cup.save(update_fields=["seeds"])
    _log(cup, by, CupLogKind.ENTRANT_REMOVED, row.name)
    row.delete()


ALL_ENTERED = _("Every entrant of %(season)s is in the cup already.")
NOT_THE_CLUBS = _("Choose one of the club's seasons.")


@transaction.atomic
def cup_entrants_from_season(*, cup: Cup, by: User, season: Season) -> list[Entrant]:
    """Each entrant of ``season`` (another season or cup of the cup's club, all its
    divisions) entered in the cup as it is there (its name, kind, squad and captain),
    but for those whose name the cup has already: until the cup is drawn. The entrants
    added, in the season's order (by division, then name)."""
    cup = _run_by(cup, by)
    _not_drawn_yet(cup)
    if season.club_id != cup.season.club_id or season.pk == cup.season.pk:
        raise ValidationError({"season": ValidationError(NOT_THE_CLUBS, code="season")})
    division = cup.season.divisions.get()
    taken = {entrant.name.casefold() for entrant in cup_division_entrants(cup)}
    # a captain who has left the club since captains no more
    members = set(season.club.memberships.values_list("user_id", flat=True))
    added = []
    for entrant in (Entrant.objects.filter(division__season=season)
                    .select_related("captain").prefetch_related("players")
                    .order_by("division__order", "division__name", "name")):
        if entrant.name.casefold() in taken:
            continue
        taken.add(entrant.name.casefold())
        added.append(leagues_services.entrant_add(
            division=division, by=by, name=entrant.name, kind=entrant.kind,
            players=list(entrant.players.all()),
            captain=entrant.captain if entrant.captain_id in members else None))
    if not added:
        raise ValidationError({"season": ValidationError(
            ALL_ENTERED, code="entered", params={"season": season.name})})
    _log(cup, by, CupLogKind.ENTRANTS_ADDED,
         f"{season.name}: {', '.join(entrant.name for entrant in added)}")
    return added


@transaction.atomic
def cup_seeds_set(*, cup: Cup, by: User, seeds: Sequence[Entrant]) -> Cup:
    """A seeded cup's seeds, seed 1 first: checked by the rules as the draw will take
    them (each an entrant, each once)."""
    cup = _run_by(cup, by)
    _not_drawn_yet(cup)
    if cup.draw_method != DrawMethod.SEEDED:
        raise ValidationError(NOT_SEEDED, code="not_seeded")
    names = _names(cup)
    ids = [str(entrant.pk) for entrant in seeds]
    try:
        cup_rules.checked_seeds(ids, list(names))  # the draw's own check of the seeds
    except CupError as error:
        raise _refused(error, names, "seeds") from None
    cup.seeds = [int(key) for key in ids]
    cup.save(update_fields=["seeds"])
    _log(cup, by, CupLogKind.SEEDS, ", ".join(names[key] for key in ids))
    return cup


@transaction.atomic
def cup_draw(*, cup: Cup, by: User,
             pairs: Sequence[Sequence[Entrant | None]] | None = None) -> Cup:
    """Draw the cup as it says: at random or seeded from its seed (every round, or the
    first of a cup drawn round by round), or by hand from the first round's ``pairs``
    (home, away; away None for a bye). The fixtures of the first round's ties are made,
    on the round's date: the cup's first night, given when it was made, until an admin
    dates the round otherwise."""
    cup = _run_by(cup, by)
    _not_drawn_yet(cup)
    names = _names(cup)
    method = cup.draw_method
    try:
        drawn = cup_rules.draw(
            list(names), cup_format(cup),
            seed=None if method == DrawMethod.BY_HAND else cup.draw_seed,
            seeds=[str(pk) for pk in cup.seeds] if method == DrawMethod.SEEDED else (),
            pairs=None if pairs is None else [
                [str(side.pk) if side is not None else None for side in pair]
                for pair in pairs])
    except CupError as error:
        raise _refused(error, names, "pairs" if method == DrawMethod.BY_HAND else None) \
            from None
    cup.drawn = stored.cup_json(drawn)
    cup.save(update_fields=["drawn"])
    CupRound.objects.get_or_create(cup=cup, plate=False, number=1,
                                   defaults={"date": cup.season.starts_on})
    _log(cup, by, CupLogKind.DRAWN)
    _sync(cup)
    return cup


def _round_seed(cup: Cup, number: int, *, plate: bool) -> int:
    """The seed a later round (or the plate) is drawn with: the cup's, plus the round's
    number, plus 1000 for the plate; so every draw follows from the seed on the page."""
    return (cup.draw_seed + number + (1000 if plate else 0)) % (MAX_SEED + 1)


@transaction.atomic
def cup_round_draw(*, cup: Cup, by: User, plate: bool = False) -> Cup:
    """In a cup drawn round by round, its next round (or its plate's), once the round
    before is finished: its winners drawn at random from the cup's seed."""
    cup = _run_by(cup, by)
    drawn = _drawn(cup)
    results = cup_results(cup)
    target = drawn.plate if plate else drawn.main
    # the round it draws: the one after the last drawn (the rules refuse any other case)
    number = len(target.later_rounds) + 2 if target is not None else 1
    try:
        after = cup_rules.draw_next_round(drawn, results, _round_seed(cup, number, plate=plate),
                                          plate=plate)
    except CupError as error:
        raise _refused(error, _names(cup)) from None
    _store_draw(cup, after)
    _log(cup, by, CupLogKind.ROUND_DRAWN, f"{'plate ' if plate else ''}round {number}")
    _sync(cup)
    return cup


@transaction.atomic
def cup_plate_draw(*, cup: Cup, by: User) -> Cup:
    """The plate, drawn at random from the cup's seed among the losers of each
    entrant's first tie played, once all of them are known."""
    cup = _run_by(cup, by)
    drawn = _drawn(cup)
    try:
        after = cup_rules.draw_plate(drawn, cup_results(cup), _round_seed(cup, 0, plate=True))
    except CupError as error:
        raise _refused(error, _names(cup)) from None
    _store_draw(cup, after)
    _log(cup, by, CupLogKind.PLATE_DRAWN)
    _sync(cup)
    return cup


@transaction.atomic
def cup_plate_undraw(*, cup: Cup, by: User, reason: str) -> Cup:
    """A club admin takes back the plate's draw on purpose, for a correction that
    changes who goes into it (an entrant with a bye who went in as a loser): the
    plate's ties lose their fixtures (a played one made void and kept, one unplayed
    taken away) and the plate waits to be drawn again. Logged with ``reason``."""
    cup = _run_by(cup, by)
    why = _reason(reason)
    drawn = _drawn(cup)
    if drawn.plate is None:
        raise _refused(CupError.of("cup_plate_not_drawn"), {})
    again, _kept = cup_rules.plate_undrawn(drawn, cup_results(cup))
    for row in cup.ties.filter(plate=True).select_related("fixture"):
        fixture = row.fixture
        row.delete()
        if fixture is not None:
            _taken_back(fixture, by)
    _store_draw(cup, again)
    _log(cup, by, CupLogKind.PLATE_UNDRAWN, why)
    _sync(cup)
    return cup


@transaction.atomic
def cup_round_date(*, cup: Cup, by: User, number: int, date: datetime.date | None,
                   plate: bool = False) -> CupRound:
    """Round ``number``'s date (of the plate, with ``plate``), or a new one (a
    postponement): logged on the cup; its ties' fixtures not played yet take it
    (each re-dated as the leagues re-date a fixture, logged there too)."""
    cup = _run_by(cup, by)
    return _round_dated(cup, by, number, date, plate=plate)


def _round_dated(cup: Cup, by: User, number: int, date: datetime.date | None, *,
                 plate: bool) -> CupRound:
    drawn = _drawn(cup)
    target = drawn.plate if plate else drawn.main
    if target is None or not 1 <= number <= target.rounds:
        raise ValidationError({"number": ValidationError(NO_SUCH_ROUND, code="round",
                                                         params={"number": number})})
    if date is None:
        raise ValidationError({"date": ValidationError(DATE_NEEDED, code="date")})
    if date < cup.season.starts_on:
        raise ValidationError({"date": ValidationError(
            BEFORE_START, code="before_start",
            params={"first": date_format(cup.season.starts_on, "SHORT_DATE_FORMAT")})})
    row, _created = CupRound.objects.select_for_update().get_or_create(
        cup=cup, plate=plate, number=number)
    was = row.date
    row.date = date
    row.full_clean()
    row.save()
    for tie in cup.ties.filter(plate=plate, round=number, fixture__isnull=False) \
            .select_related("fixture"):
        fixture = tie.fixture
        assert fixture is not None
        if fixture.status in (FixtureStatus.SCHEDULED, FixtureStatus.POSTPONED) \
                and fixture.date != date:
            leagues_services.fixture_redate(fixture=fixture, by=by, date=date)
    where = f"{'plate ' if plate else ''}round {number}"
    _log(cup, by, CupLogKind.ROUND_DATED,
         f"{where}: {was.isoformat() if was else '—'} → {date.isoformat()}")
    return row


@transaction.atomic
def cup_finals_set(*, cup: Cup, by: User, date: datetime.date, venue: str) -> Cup:
    """The finals night: its date (the final's, and the plate's final's once drawn)
    and the venue where it is played."""
    cup = _run_by(cup, by)
    venue = " ".join(venue.split())
    if not venue:
        raise ValidationError({"venue": ValidationError(FINALS_VENUE_NEEDED, code="venue")})
    drawn = _drawn(cup)
    cup.finals_on, cup.finals_venue = date, venue
    cup.full_clean()
    cup.save(update_fields=["finals_on", "finals_venue"])
    _round_dated(cup, by, drawn.main.rounds, date, plate=False)
    if drawn.plate is not None:
        _round_dated(cup, by, drawn.plate.rounds, date, plate=True)
    _log(cup, by, CupLogKind.FINALS, f"{date.isoformat()}, {venue}")
    return cup


@transaction.atomic
def cup_ties_reset(*, cup: Cup, by: User, round: int, position: int, plate: bool = False,
                   reason: str) -> list[cup_rules.TieKey]:
    """A club admin resets the ties after tie (``round``, ``position``) on purpose, so
    that its result may be corrected and its winner change: each tie it affects
    (:func:`matches.rules.cup.affected_by_correction`) loses its fixture, a fixture
    played made void (it stays in the division with its games and log), one unplayed
    taken away. Logged with ``reason``. Returns the ties reset."""
    cup = _run_by(cup, by)
    why = _reason(reason)
    drawn = _drawn(cup)
    key = cup_rules.TieKey(round, position, plate=plate)
    results = cup_results(cup)
    try:
        affected = cup_rules.affected_by_correction(drawn, results, key)
    except CupError as error:
        raise _refused(error, _names(cup)) from None
    rows = {tie_key(tie): tie for tie in cup.ties.select_related("fixture")}
    reset = [after for after in affected if rows.get(after) and rows[after].fixture]
    if not reset:
        raise ValidationError(NOTHING_TO_RESET, code="nothing",
                              params={"tie": rules_messages.tie_words(str(key))})
    for after in reversed(reset):  # the latest first
        row = rows[after]
        fixture = row.fixture
        assert fixture is not None
        row.fixture, row.result = None, None
        row.save(update_fields=["fixture", "result"])
        _taken_back(fixture, by)
    _log(cup, by, CupLogKind.RESET,
         f"{why} ({', '.join(str(after) for after in reset)})")
    _sync(cup)
    return reset


def _reason(reason: str) -> str:
    """Why an admin undoes part of the cup, as typed (spaces tidied); refused if blank."""
    why = " ".join(reason.split())
    if not why:
        raise ValidationError({"reason": ValidationError(RESET_NEEDS_WHY, code="why")})
    return why


def _taken_back(fixture: Fixture, by: User) -> None:
    """A tie's fixture the cup no longer plays: taken away if nothing was played on it,
    else made void and kept (with its games and log)."""
    if cup_status_open(fixture):
        fixture.delete()
    elif fixture.status != FixtureStatus.VOID:
        leagues_services.fixture_void(fixture=fixture, by=by)


def _drawn(cup: Cup) -> cup_rules.Cup:
    drawn = rules_cup(cup)
    if drawn is None:
        raise ValidationError(NOT_DRAWN, code="not_drawn")
    return drawn


def _store_draw(cup: Cup, drawn: cup_rules.Cup) -> None:
    cup.drawn = stored.cup_json(drawn)
    cup.plate_drawn = stored.draw_json(drawn.plate) if drawn.plate is not None else None
    cup.full_clean()
    cup.save(update_fields=["drawn", "plate_drawn"])


# -- the bracket follows the fixtures ------------------------------------------------


@receiver(fixture_moved)
def tie_fixture_moved(sender: object, *, fixture: Fixture, **kwargs: object) -> None:
    """A tie's fixture moved in its sign-off: a result it holds must have a winner as
    the cup decides a level tie, and its counted result goes to the bracket
    (:func:`_sync`); the rules' refusal refuses the step."""
    tie = CupTie.objects.filter(fixture=fixture.pk).first()
    if tie is None:
        # a night the cup took back (_taken_back) stays void: a result given it now would
        # count in no tie, and a night opened again would be played for nothing
        if fixture.status != FixtureStatus.VOID \
                and fixture.division.season.kind == SeasonKind.CUP:
            raise ValidationError(NOT_A_TIE_NOW, code="not_a_tie")
        return
    cup = _locked(tie.cup)
    result = fixture_tie_result(
        Fixture.objects.prefetch_related(tie_games()).get(pk=fixture.pk), cup.season)
    if result is not None:
        try:
            cup_rules.tie_winner(result, cup_rules.LevelTie(cup.level_tie), tie_key(tie))
        except CupError as error:
            raise _refused(error, _names(cup)) from None
    _sync(cup)


def _sync(cup: Cup) -> None:
    """Bring the cup up to its fixtures: each tie's counted result taken (a first one
    always; one that changes a winner or stops counting only as the rules allow), then
    each tie whose two sides are known given its fixture (a tie whose sides changed
    before it was played gets a new one)."""
    drawn = rules_cup(cup)
    if drawn is None:
        return
    season = cup.season
    division = season.divisions.get()
    entrants = {str(entrant.pk): entrant for entrant in division.entrants.all()}
    rows = {tie_key(tie): tie for tie in cup.ties.select_for_update(of=("self",))
            .select_related("fixture").prefetch_related(tie_games("fixture__"))}
    results = {key: stored.result_from(row.result) for key, row in rows.items()
               if row.result is not None}
    changed: set[cup_rules.TieKey] = set()
    try:
        for key in sorted(rows, key=lambda key: key.order):
            row = rows[key]
            new = fixture_counted_result(row.fixture, season) if row.fixture else None
            if new == results.get(key):
                continue
            changed.add(key)
            if new is None:
                current = cup_rules.bracket(drawn, results)
                for after in cup_rules.affected_by_correction(drawn, results, key):
                    if current.tie(after).played:
                        raise ValidationError(RESULT_GOES_PLAYED, code="played", params={
                            "tie": rules_messages.tie_words(str(key)),
                            "next": rules_messages.tie_words(str(after))})
                del results[key]
            else:
                results = cup_rules.corrected(drawn, results, key, new)
        current = cup_rules.bracket(drawn, results)
    except CupError as error:
        raise _refused(error, {key: entrant.name for key, entrant in entrants.items()}) \
            from None
    for key in changed:
        row = rows[key]
        row.result = stored.result_json(results[key]) if key in results else None
        row.full_clean()
        row.save(update_fields=["result"])
    dates = {(r.plate, r.number): r.date for r in CupRound.objects.filter(cup=cup)}
    for tie in current.ties:
        found = rows.get(tie.key)
        if found is None:
            found = CupTie(cup=cup, plate=tie.key.plate, round=tie.key.round,
                           position=tie.key.position)
            found.full_clean()
            found.save()
        row = found
        want = ((tie.home, tie.away) if not tie.bye and tie.home and tie.away else None)
        if row.fixture is not None:
            have = (str(row.fixture.home_id), str(row.fixture.away_id))
            if have == want:
                continue
            if not cup_status_open(row.fixture):
                raise ValidationError(TIE_SIDES_PLAYED, code="sides", params={
                    "tie": rules_messages.tie_words(str(tie.key)),
                    "home": row.fixture.home.name, "away": row.fixture.away.name})
            gone, row.fixture = row.fixture, None
            row.save(update_fields=["fixture"])
            gone.delete()
        if want is not None:
            fixture = Fixture(division=division, week=tie.key.round,
                              date=dates.get((tie.key.plate, tie.key.round)),
                              home=entrants[want[0]], away=entrants[want[1]])
            fixture.full_clean()
            fixture.save()
            row.fixture = fixture
            row.save(update_fields=["fixture"])


# -- a cup read back from its file ---------------------------------------------------

DECIDER_NO_ROOM = _("The deciding game of %(tie)s cannot be: the cup's nights cannot end "
                    "level.")
DECIDER_MISPLACED = _("The deciding game of %(tie)s follows the night's %(games)s games, not "
                      "%(count)s.")


@transaction.atomic
def cup_import(*, club: Club, document: dict[str, Any], by: User) -> Cup:
    """A ``domino-cup/1`` document (``matches.rules.cup_record``) stored as a new cup of
    ``club``, made by ``by`` (who runs its cups): its season of kind cup with its
    entrants (a player the club does not have yet joins its players), the draw's seed,
    the seeds, the draw and the plate's, the rounds' dates, the finals night, and for
    each tie whose two sides are known its fixture, with the tie's result confirmed on
    it and counted. The rules read the document first (a ``CupError`` naming the field);
    anything refused stores nothing."""
    record = cup_record.read_cup(document)
    require_cup_admin(club=club, user=by)
    tie = record.tie
    cup = cup_create(
        club=club, by=by, name=record.name, starts_on=record.starts_on, game=record.game,
        options=dict(record.options), fixture_format=tie.format, singles=tie.singles,
        pairs=tie.pairs, race_to=tie.race_to, count_submitted=tie.count_submitted,
        paper_players_optional=tie.paper_players_optional,
        draw_method=record.format.method.value, draw_timing=record.format.timing.value,
        plate=record.format.plate, level_tie=record.format.level_tie.value,
        walkover=record.format.walkover)
    cup = _locked(cup)
    division = cup.season.divisions.get()
    ids: dict[str, str] = {}
    entrants: dict[str, Entrant] = {}
    for entrant in record.entrants:
        row = leagues_services.entrant_add(
            division=division, by=by, name=entrant.name, kind=entrant.kind,
            players=[player_named(club=club, name=name) for name in entrant.players])
        ids[entrant.name] = str(row.pk)
        entrants[str(row.pk)] = row
    cup.draw_seed = record.seed
    cup.seeds = [int(ids[name]) for name in record.seeds]
    cup.finals_on, cup.finals_venue = record.finals_on, record.finals_venue
    cup.full_clean()
    cup.save(update_fields=["draw_seed", "seeds", "finals_on", "finals_venue"])
    if record.cup is None:
        return cup
    drawn = _by_ids(record.cup, ids)
    _store_draw(cup, drawn)
    _log(cup, by, CupLogKind.DRAWN, "imported")
    for round in record.rounds:
        dated = CupRound(cup=cup, plate=round.plate, number=round.number, date=round.date)
        dated.full_clean()
        dated.save()
    dates = {(round.plate, round.number): round.date for round in record.rounds}
    try:
        current = cup_rules.bracket(drawn, record.results)
    except CupError as error:  # read_cup has checked it: kept as a guard
        raise _refused(error, _names(cup)) from None
    for shown in current.ties:
        key = shown.key
        tie_row = CupTie(cup=cup, plate=key.plate, round=key.round, position=key.position)
        if not shown.bye and shown.home and shown.away:
            tie_row.fixture = _imported_fixture(
                division=division, key=key, date=dates.get((key.plate, key.round)),
                home=entrants[shown.home], away=entrants[shown.away], result=shown.result)
            if shown.result is not None:
                tie_row.result = stored.result_json(shown.result)
        tie_row.full_clean()
        tie_row.save()
    _sync(cup)  # the fixtures give the results stored: a check, changing nothing
    return cup


def _by_ids(drawn: cup_rules.Cup, ids: dict[str, str]) -> cup_rules.Cup:
    """The rules' cup with its entrants by their ids, as a cup row keeps its draw."""
    def entry(value: cup_rules.Entry | None) -> cup_rules.Entry | None:
        return ids[value] if isinstance(value, str) else value

    main = cup_rules.Draw(drawn.main.size, tuple(
        (ids[home] if isinstance(home, str) else home, entry(away))
        for home, away in drawn.main.first_round), drawn.main.later_rounds)
    return cup_rules.Cup(drawn.format, tuple(ids[name] for name in drawn.entrants), main,
                         drawn.plate)


def _imported_fixture(*, division: Any, key: cup_rules.TieKey, date: datetime.date | None,
                      home: Entrant, away: Entrant,
                      result: cup_rules.TieResult | None) -> Fixture:
    fixture = Fixture(division=division, week=key.round, date=date, home=home, away=away)
    games: tuple[tuple[int, int], ...] = ()
    if result is not None:
        fixture.status = FixtureStatus.CONFIRMED
        if result.walkover is not None:
            fixture.walkover = result.walkover.value
        else:
            games = result.games
            if result.decider is not None:
                # stored as the night's deciding game: the game after the night's own
                night = division.season.night
                tie = rules_messages.tie_words(str(key))
                if night.deciding_game is None:
                    raise ValidationError(DECIDER_NO_ROOM, code="decider", params={"tie": tie})
                if night.deciding_game != len(games) + 1:
                    raise ValidationError(DECIDER_MISPLACED, code="decider", params={
                        "tie": tie, "games": night.games, "count": len(games)})
                games = (*games, result.decider)
            fixture.home_games, fixture.away_games = games_won(games)
    fixture.full_clean()
    fixture.save()
    if games:
        for number, (home_score, away_score) in enumerate(games, start=1):
            game = FixtureGame(fixture=fixture, number=number, home_score=home_score,
                               away_score=away_score)
            game.full_clean()
            game.save()
    return fixture
