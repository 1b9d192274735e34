"""Writes. Every change to a match goes through the rules engine here, atomically.

Each service locks the match, takes its engine (the one this process kept, caught up,
or a replay of the rows: :mod:`matches.scoring.engine_cache`), applies the one new action in
the engine (a :class:`~matches.rules.RulesError` stops it before anything is written),
then stores the action's rows, logs the :class:`~matches.models.Change` that makes
the match's next version and refreshes the cached scores, all in one transaction, so
the cache always equals a fresh replay. A tap costs the same few queries however long
the match: what the write needs to know of the rows comes with the kept engine
(:attr:`~matches.scoring.engine_cache.Kept.rows`), and score rows the action leaves as they
were are not written.

Every scoring write takes the ``version`` its page showed (an older one is refused:
:class:`OutOfDate`) and the tap's idempotency ``key`` (a resent tap answers with the
change it made the first time, marked ``replayed``, and applies nothing).
Nothing is deleted: undo and restore mark the rows they take back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from typing import Any, NamedTuple
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.models import User as Account
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Case, DecimalField, OuterRef, QuerySet, Subquery, Value, When
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.clubs.models import Club, Player
from matches.clubs.signals import member_left
from matches.core.messages import explain
from matches.scoring.changelog import action_doc, action_from_doc, describe, describe_restore
from matches.scoring.engine_cache import Kept, Rows, kept_for_writing, rows_after
from matches.scoring.models import (
    Change,
    ChangeKind,
    Event,
    EventKind,
    Match,
    MatchStatus,
    Round,
    RoundEnd,
    RoundMode,
    RoundSide,
    ScorerGrant,
    Seat,
    Side,
    new_scorer_token,
)
from matches.scoring.record_checks import PLAYERS_DIFFERENT, seat_names
from matches.scoring.selectors.play import (
    actions_at,
    can_restore,
    can_revoke,
    match_actions,
    match_clubs,
    match_names,
    results_apart,
    score_decimal,
)
from matches.scoring.services.closure import closure_refuse, match_write
from matches.scoring.signals import results_changed

User = AbstractBaseUser | AnonymousUser

OUT_OF_DATE = _("Not recorded: the match moved on since this page was drawn (another phone "
                "scored, or the tap came late). Here is the table as it stands now.")
NOTHING_TO_RESTORE = _("Version %(version)s is not an earlier version of this match.")
GRANT_USE_PRECISION = timedelta(minutes=1)  # how exactly a grant's "last used" is kept
CREATOR_REVOKED_ELSEWHERE = _("The phone that started the match can only be revoked from "
                              "that phone.")
RESTORE_NOT_ALLOWED = _("Only the phone that started the match, its creator's account or an "
                        "admin of its club can restore an earlier version.")
NOT_ITS_SCORER = _("Only a phone that scores this match can revoke its phones.")
IMPORTED_FROM = _("the match record")  # what an import's change says it applied
MATCH_ABANDONED = _("This match was abandoned: nothing more can be scored on it unless a "
                    "scorer resumes it.")

class MatchAbandoned(rules.RulesError):
    """A scoring write (a tap, an undo, a restore) on an abandoned match: refused, like
    the engine refuses one after a win, until a scorer resumes the match."""

    def __init__(self) -> None:
        super().__init__(str(MATCH_ABANDONED))


class OutOfDate(Exception):
    """A write named an older version of the match than the one it holds.

    Every scoring page names the version it showed; a write made on an older page (a
    second phone's stale page, a tap that arrives late) is refused, never applied to a
    table its scorer did not see. A resent tap is recognised first, by its key.
    """

    def __init__(self, *, given: int, current: int) -> None:
        super().__init__(str(OUT_OF_DATE))
        self.given, self.current = given, current


@dataclass(frozen=True, slots=True)
class MatchStarted:
    match: Match
    grant: ScorerGrant  # the starting phone's scorer grant
    # the first round's start; None when it waits for whoever holds the highest double
    # (Fives and Threes draws no lots: the table says who, on the scorepad)
    first: Change | None
    created: bool  # False: the same form was submitted before, and this is that match


def _one_change_per_key[**P](write: Callable[P, Change]) -> Callable[P, Change]:
    """A write whose ``key`` already made a change, though it came with the current
    version (a phone that used a key twice), answers with that change, as a tap sent
    again does: the database's unique key refused the second one and rolled it back."""
    @functools.wraps(write)
    def once(*args: P.args, **kwargs: P.kwargs) -> Change:
        try:
            return write(*args, **kwargs)
        except IntegrityError:
            match, key = kwargs.get("match"), kwargs.get("key")
            if not isinstance(match, Match) or not isinstance(key, UUID | str):
                raise
            done = match.changes.filter(key=key).first()
            if done is None:
                raise
            done.replayed = True
            return done
    return once


@transaction.atomic
def match_create(*, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                 created_by: User | None = None, creation_key: UUID | None = None) -> Match:
    """A new match with its seats and sides; the first round is started separately."""
    engine = rules.Match(rules.game_for(game), list(players), dict(options or {}))
    return _store_match(engine, created_by=created_by, creation_key=creation_key)


@transaction.atomic
def match_start(*, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
                starter: int | None = None, mode: str = RoundMode.TRACKED,
                created_by: User | None = None, creation_key: UUID | None = None,
                phone: str = "", phone_name: str = "") -> MatchStarted:
    """A new match, its first round and the starting phone's scorer grant (``phone``:
    its kind; ``phone_name``: what its scorer called it, if anything), together or
    not at all (no starter: lots are drawn; in Fives and Threes, whoever holds the highest
    double starts, so the first tracked round waits for the table to say who).

    The same ``creation_key`` twice (a double tap on "Start match", a resent form)
    makes one match: the second call answers with the first one's match and grant.
    """
    if creation_key is not None and (done := _started_by(creation_key)) is not None:
        return done
    try:
        with transaction.atomic():  # a savepoint: a lost race leaves this transaction usable
            match = match_create(game=game, players=players, options=options,
                                 created_by=created_by, creation_key=creation_key)
    except IntegrityError:
        # the same form, submitted twice at once: the other request stored it first
        if creation_key is None or (done := _started_by(creation_key)) is None:
            raise
        return done
    grant = ScorerGrant(match=match, label=phone[:80] or str(_("The phone that started it")),
                        name=phone_name, is_creator=True)
    grant.full_clean()
    grant.save()
    first = None
    if starter is not None or mode == RoundMode.CALLED \
            or not rules.game_for(game).starter_holds_highest_double:
        first = round_start(match=match, starter=starter, mode=mode, draw_lots=True,
                            grant=grant, user=created_by)
    return MatchStarted(match=match, grant=grant, first=first, created=True)


@transaction.atomic
def match_for_club(*, match: Match, club: Club, season_id: int,
                   players: Sequence[Player]) -> Match:
    """A match just started for a league's or a cup's game (``season_id``): the club's,
    with the club's player in each seat (in seat order), so that its result, history and
    ratings are theirs and its scorepad closes with the night's fixture."""
    seats = {seat.position: seat for seat in match.seats.all()}
    for position, player in enumerate(players):
        seat = seats[position]
        seat.player = player
        seat.full_clean()
        seat.save(update_fields=["player"])
    match.club, match.season_id = club, season_id
    match.save(update_fields=["club", "season"])
    return match


@match_write
@_one_change_per_key
@transaction.atomic
def round_start(*, match: Match, starter: int | None, mode: str = RoundMode.TRACKED,
                draw_lots: bool = False, version: int | None = None, key: UUID | None = None,
                grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """Open the next round with ``starter``.

    With ``draw_lots`` and no starter, the seat that must start (the previous round's
    finisher, in All Fives and Five Up) starts, or else the engine draws lots; the
    returned change's ``lots_drawn`` (not stored) says which, for the page to announce.
    """
    match, done = write_begin(match, version=version, key=key, key_if_stale=True)
    if done is not None:
        return done
    with kept_for_writing(match) as kept:
        lots_drawn = False
        if starter is None and draw_lots:
            starter = kept.engine.required_starter()
            # no lots where the highest double's holder starts: the engine asks who
            if starter is None and not kept.engine.game.starter_holds_highest_double:
                starter, lots_drawn = kept.engine.draw_lots(), True
        rules_mode = (rules.RoundMode.CALLED if mode == RoundMode.CALLED
                      else rules.RoundMode.TRACKED)
        change = _record(match, kept, rules.StartRound(starter, rules_mode), key=key,
                         grant=grant, user=user)
    change.lots_drawn = lots_drawn
    return change


@match_write
@_one_change_per_key
@transaction.atomic
def event_record(*, match: Match, action: rules.Event, version: int | None = None,
                 key: UUID | None = None, grant: ScorerGrant | None = None,
                 user: User | None = None) -> Change:
    """Record a play, draw, pass or called placement in the current round.

    The action names its seat: a tap made for a seat whose turn it no longer is (the
    table moved on) is refused by the engine rather than credited to someone else.
    """
    match, done = write_begin(match, version=version, key=key, key_if_stale=True)
    if done is not None:
        return done
    with kept_for_writing(match) as kept:
        try:  # the engine refuses a wrong call before anything is written
            return _record(match, kept, action, key=key, grant=grant, user=user)
        except rules.ClaimMismatch as miscall:
            # The tile is on the table whatever was called: record it with the rules'
            # points and keep the wrong call beside it, rather than make the scorer
            # start over.
            claim = action.claim  # type: ignore[union-attr]
            uncalled: rules.Event
            if isinstance(action, rules.Play):
                uncalled = rules.Play(action.seat, action.tile, action.at, None)
            else:
                assert isinstance(action, rules.Call)
                uncalled = rules.Call(action.seat, action.ends, None, action.goes_out)
            change = _record(match, kept, uncalled, key=key, grant=grant, user=user,
                             miscall=claim, note=explain(miscall))
            change.miscall = explain(miscall)  # said in the reader's language
            return change


@match_write
def placement_record(*, match: Match, seat: int, tile: rules.Tile,
                     at: rules.AttachmentPoint | None = None, claim: int | None = None,
                     version: int | None = None, key: UUID | None = None,
                     grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """``seat`` places ``tile`` at ``at`` (the opening takes no point)."""
    return event_record(match=match, action=rules.Play(seat, tile, at, claim), version=version,
                        key=key, grant=grant, user=user)


@match_write
def draw_record(*, match: Match, seat: int, tiles: int, version: int | None = None,
                key: UUID | None = None, grant: ScorerGrant | None = None,
                user: User | None = None) -> Change:
    """``seat`` draws ``tiles`` from the boneyard, one at a time."""
    return event_record(match=match, action=rules.Draw(seat, tiles), version=version, key=key,
                        grant=grant, user=user)


@match_write
def pass_record(*, match: Match, seat: int, version: int | None = None, key: UUID | None = None,
                grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """``seat`` passes (refused while the boneyard holds tiles)."""
    return event_record(match=match, action=rules.Pass(seat), version=version, key=key,
                        grant=grant, user=user)


@match_write
@_one_change_per_key
@transaction.atomic
def round_settle(*, match: Match, hands: Sequence[Sequence[rules.Tile]] | None = None,
                 pips: Sequence[int] | None = None, result: rules.RoundEnd | None = None,
                 domino_seat: int | None = None, version: int | None = None,
                 key: UUID | None = None, grant: ScorerGrant | None = None,
                 user: User | None = None) -> Change:
    """Settle the ended round from each hand's remaining tiles or pip totals.

    A called round's ``result`` alone ends it: in All Fives and Five Up it then waits for
    its count (a second call, with the count); in Fives and Threes, where remaining tiles
    score nothing, it is settled at once, and a count given later is only checked.
    """
    match, done = write_begin(match, version=version, key=key, key_if_stale=True)
    if done is not None:
        return done
    with kept_for_writing(match) as kept:
        settle = _settle_as_stored(kept.engine, rules.Settle(
            tuple(tuple(hand) for hand in hands) if hands is not None else None,
            tuple(pips) if pips is not None else None, result, domino_seat))
        return _record(match, kept, settle, key=key, grant=grant, user=user)


@match_write
@_one_change_per_key
@transaction.atomic
def event_undo(*, match: Match, version: int | None = None, key: UUID | None = None,
               grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """Take back the last action: an event, a settlement or the start of a round.

    Nothing is deleted: the rows it takes back are marked with this change, which
    says who took back what and when; ``match_restore`` can bring them back.
    """
    match, done = write_begin(match, version=version, key=key, key_if_stale=True)
    if done is not None:
        return done
    with kept_for_writing(match) as kept:
        engine = kept.engine
        ended = engine.current_round is not None and engine.current_round.end is not None
        stored = Stored.of(engine)
        undone = engine.undo()  # refused with nothing to undo, before anything is written
        change = change_log(match, ChangeKind.UNDO, action_doc(undone),
                            describe(undone, engine.names or ()), key=key, grant=grant, user=user)
        touched = _take_back(match, undone, change, rows=kept.rows, reopens=ended,
                             number=len(engine.rounds) + isinstance(undone, rules.StartRound))
        if kept.miscalls:  # the placement taken back may have been miscalled
            kept.miscalls = None
        _sync(match, engine, touched, kept=kept, stored=stored)
        kept.rows = rows_after(kept.rows, change.kind, change.action, None)
    return change


@match_write
@transaction.atomic
def match_restore(*, match: Match, to_version: int, version: int | None = None,
                  key: UUID | None = None, grant: ScorerGrant | None = None,
                  user: User | None = None) -> Change:
    """Bring the match back to how it stood at ``to_version``; recorded as one change.

    The actions after the point where both versions agree are taken back (marked, not
    deleted) and the earlier version's own are applied again through the engine.
    Only those :func:`~matches.scoring.selectors.play.can_restore` names may (``grant``, ``user``).
    """
    if not can_restore(match, grant=grant, user=user):
        raise PermissionDenied(RESTORE_NOT_ALLOWED)
    match, done = write_begin(match, version=version, key=key)
    if done is not None:
        return done
    if not 0 <= to_version < match.version:
        raise ValidationError({"to_version": ValidationError(
            NOTHING_TO_RESTORE, code="to_version", params={"version": to_version})})
    target = actions_at(match, to_version)
    current = [action_doc(action) for action in match_actions(match)]
    common = 0
    while common < min(len(target), len(current)) and target[common] == current[common]:
        common += 1
    change = change_log(match, ChangeKind.RESTORE, {"actions": target, "resumed": False},
                        describe_restore(to_version, resumed=False),
                        key=key, grant=grant, user=user, restored_to=to_version)
    touched: dict[int, Touched] = {}
    for doc in reversed(current[common:]):
        for round_ in _take_back(match, action_from_doc(doc), change):
            touched[round_.pk] = round_
    names = match_names(match)
    engine = rules.Match.replay(match.rules_game, names, match.options,
                                [action_from_doc(doc) for doc in target[:common]],
                                labels=names)
    for doc in target[common:]:
        for round_ in _apply(match, engine, action_from_doc(doc), change):
            # a round started here is new however many of its events follow
            earlier = touched.get(round_.pk)
            touched[round_.pk] = round_._replace(new=round_.new or bool(earlier and earlier.new))
    _sync(match, engine, [round_ for round_ in touched.values() if not round_.undone])
    return change


@match_write
@transaction.atomic
def actions_record(*, match: Match, actions: Sequence[rules.Action]) -> None:
    """Record a played-out sequence of actions one by one, each as its own change (as a
    scorer would have tapped them): round starts, events and settlements."""
    for action in actions:
        if isinstance(action, rules.StartRound):
            round_start(match=match, starter=action.starter,
                        mode=RoundMode.CALLED if action.mode == rules.RoundMode.CALLED
                        else RoundMode.TRACKED)
        elif isinstance(action, rules.Settle):
            round_settle(match=match, hands=action.hands, pips=action.pips,
                         result=action.result, domino_seat=action.domino_seat)
        else:
            event_record(match=match, action=action)


@transaction.atomic
def match_import(*, document: Mapping[str, Any],
                 created_by: User | None = None, record_hash: str | None = None) -> Match:
    """Verify a ``domino-match/1`` record by replaying it, then store it whole.

    Its history starts with one change, the import, which holds every action.
    ``record_hash`` (the record's content hash) lets a later upload of the same record
    by the same account be recognised (unique per account in the database)."""
    engine = rules.replay(document)
    match = _store_match(engine, created_by=created_by)
    if record_hash is not None:
        match.record_hash = record_hash
        match.save(update_fields=["record_hash"])
    change = None
    if engine.log:
        change = change_log(match, ChangeKind.IMPORT,
                            {"actions": [action_doc(a) for a in engine.log]},
                            str(IMPORTED_FROM), key=None, grant=None, user=created_by)
    apart = results_apart([action_doc(a) for a in engine.log])
    number = 0
    events: list[Event] = []
    rounds: list[Round] = []
    for rnd in engine.rounds:
        round_ = imported_round(match, rnd, apart=rnd.number in apart, change=change)
        round_.full_clean(validate_constraints=False)
        round_.save()
        rounds.append(round_)
        for action, award in zip(rnd.events, rnd.awards, strict=True):
            number += 1
            events.append(_event_row(match, round_.pk, action, award, number=number))
            events[-1].change = change
    Event.objects.bulk_create(events)
    _sync(match, engine, [Touched(round_.number, round_.pk, new=True) for round_ in rounds])
    return match


@transaction.atomic
def grant_create(*, match: Match, phone: str, name: str = "") -> ScorerGrant:
    """A new phone may score ``match`` (it opened the shared scorer's link): ``phone``
    is what its browser says it is, ``name`` what its scorer called it, if anything."""
    grant = ScorerGrant(match=match, label=phone[:80] or str(_("A phone")), name=name)
    grant.full_clean()
    grant.save()
    return grant


@transaction.atomic
def grant_rename(*, grant: ScorerGrant, name: str) -> ScorerGrant:
    """Call the phone ``name`` in the scorers' list ("" for what its browser says)."""
    grant.name = name
    grant.full_clean()
    grant.save(update_fields=["name"])
    return grant


@transaction.atomic
def grant_revoke(*, grant: ScorerGrant, by: ScorerGrant | User) -> ScorerGrant:
    """That phone scores no more; the changes it made keep naming it. ``by``, a phone
    that scores the match, revokes it: itself, or any other but the phone that started
    the match (:func:`~matches.scoring.selectors.play.can_revoke`); or a site admin (the admin's
    "Revoke the selected phones"), any of them."""
    if isinstance(by, ScorerGrant):
        if by.match_id != grant.match_id or by.revoked_at is not None:
            raise PermissionDenied(NOT_ITS_SCORER)
        if not can_revoke(grant=grant, by=by):  # the phone that started it, from another
            raise PermissionDenied(CREATOR_REVOKED_ELSEWHERE)
    elif not getattr(by, "is_staff", False):
        raise PermissionDenied(NOT_ITS_SCORER)
    if grant.revoked_at is None:
        grant.revoked_at = timezone.now()
        grant.save(update_fields=["revoked_at"])
    return grant


@transaction.atomic
def starters_revoke(*, matches: QuerySet[Match]) -> int:
    """The phones that started ``matches`` score them no more, nor restore or delete them
    (a member who left the club; a captain's link replaced), and the scorer's link they
    could see is replaced, or they would join again by it: the changes they made keep
    naming them, and the phones that joined by the old link keep their grants. Returns
    how many were revoked."""
    revoked = ScorerGrant.objects.filter(match__in=matches, is_creator=True, revoked_at=None)
    for match in Match.objects.filter(pk__in=revoked.values("match")).only("pk"):
        scorer_link_rotate(match=match)
    return revoked.update(revoked_at=timezone.now())


@receiver(member_left)
def leavers_phones_revoked(sender: object, *, club: Club, user: Account,
                           **kwargs: object) -> int:
    """A member who left the club, or was taken out: the phones that started its matches
    under their account act on them no more (their account neither:
    :func:`~matches.scoring.selectors.play.started_by`)."""
    return starters_revoke(matches=Match.objects.filter(club=club, created_by=user))


@transaction.atomic
def scorer_link_rotate(*, match: Match) -> Match:
    """A new shared scorer's link; the old one stops working (granted phones keep theirs)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    match.scorer_token = new_scorer_token()
    match.save(update_fields=["scorer_token"])
    return match


# -- internals -----------------------------------------------------------------------


class Stored(NamedTuple):
    """What the cached score rows hold before a write: the engine's state at the version
    the write starts from (every write keeps them so). A write leaves alone the rows
    whose values it does not change: most placements score nothing."""

    scores: tuple[Fraction | int, ...]
    round_number: int | None  # the last round's, and its columns (:func:`round_side_columns`)
    columns: dict[str, tuple[Fraction | int, ...]] | None

    @classmethod
    def of(cls, engine: rules.Match) -> Stored:
        rnd = engine.rounds[-1] if engine.rounds else None
        return cls(tuple(engine.scores), rnd.number if rnd else None,
                   round_side_columns(engine, rnd) if rnd else None)


class Touched(NamedTuple):
    """A round row a write changed: its number, its primary key, and whether it is new
    (it has no cached scores yet) or was taken back (it keeps none)."""

    number: int
    pk: int
    new: bool = False
    undone: bool = False


def write_begin(match: Match, *, version: int | None, key: UUID | None,
                abandoned_ok: bool = False,
                key_if_stale: bool = False) -> tuple[Match, Change | None]:
    """The match row, locked for this transaction (two phones cannot interleave writes),
    and the change an earlier request with the same key made, if any (then nothing more
    is applied); a write on a league game whose scorepad is closed (its fixture sent or
    voided, its season locked: :class:`ScorepadClosed`), on an older version, or on an
    abandoned match (unless ``abandoned_ok``: resuming it), is refused.

    ``key_if_stale``: the key is looked for only when the version is not the match's. A
    tap sent again carries the version it was made on, which its first arrival moved on;
    a key that made a change and comes back with the current version is refused by the
    database's unique key (the service is wrapped in :func:`_one_change_per_key`). A
    tap then costs the lock's plain query. Otherwise the lock's query looks for it. A
    league game's write costs one query more, to ask whether its scorepad is closed; a
    casual match's none (the locked row says it has no season)."""
    locked = Match.objects.select_for_update()
    if key is not None and not key_if_stale:
        same_key = Change.objects.filter(match=OuterRef("pk"), key=key)
        locked = locked.annotate(done_pk=Subquery(same_key.values("pk")[:1]))
    match = locked.get(pk=match.pk)
    done_pk = getattr(match, "done_pk", None)  # an annotation: the model does not declare it
    done: Change | None = None
    if key is not None and key_if_stale and version != match.version:
        done = match.changes.filter(key=key).first()
    elif done_pk is not None:
        done = Change.objects.get(pk=done_pk)
    if done is not None:
        done.replayed = True
        return match, done
    # asked after the row is locked: a fixture's submission locks its games' rows before
    # it keeps their scores (leagues.services.fixture_submit), so a write either comes
    # first, and its score is the one kept, or sees the fixture sent
    closure_refuse(match)
    if match.status == MatchStatus.ABANDONED and not abandoned_ok:
        raise MatchAbandoned()
    if version is not None and version != match.version:
        raise OutOfDate(given=version, current=match.version)
    return match, None


def _rows(match: Match) -> Rows:
    """The live round's primary key and the highest event number, in one query (a kept
    engine's write knows them: :attr:`Kept.rows`)."""
    live_round = Round.objects.filter(match=OuterRef("pk"), undone_by=None).order_by("-number")
    last_event = Event.objects.filter(match=OuterRef("pk")).order_by("-number")
    live, last = Match.objects.filter(pk=match.pk).values_list(
        Subquery(live_round.values("pk")[:1]), Subquery(last_event.values("number")[:1])).get()
    assert live is not None  # the engine refuses an event before the first round
    return Rows(live, last or 0)


def _record(match: Match, kept: Kept, action: rules.Action, *,
            key: UUID | None, grant: ScorerGrant | None, user: User | None,
            miscall: Fraction | int | None = None, note: str = "") -> Change:
    """Apply one action in the engine (a refusal leaves it as it was, and nothing is
    written), store its rows and log the change that makes the new version.
    ``miscall``: what the table called for this placement when the rules give another
    score (``note`` says so)."""
    engine = kept.engine
    stored = Stored.of(engine)
    result = engine.do(action)
    description = describe(action, engine.names or ())  # the engine holds the seats' names
    if note:
        description = str(_("%(what)s (miscalled: %(why)s)") % {"what": description,
                                                                   "why": note})
    change = change_log(match, _CHANGE_KINDS[type(action)], action_doc(action), description,
                        key=key, grant=grant, user=user)
    rows = kept.rows
    if rows is None and not isinstance(action, (rules.StartRound, rules.Settle)):
        rows = _rows(match)
    touched = _store(match, engine, action, result, change, rows=rows, miscall=miscall)
    if miscall is not None:
        kept.miscalls = None  # read again, with this one
    _sync(match, engine, touched, kept=kept, stored=stored)
    kept.rows = rows_after(rows, change.kind, change.action, touched[0].pk)
    return change


def _apply(match: Match, engine: rules.Match, action: rules.Action,
           change: Change) -> list[Touched]:
    """The engine applies ``action`` (a refusal rolls the whole write back); its rows are
    written, naming ``change``. Returns the rounds touched."""
    return _store(match, engine, action, engine.do(action), change)


def _store(match: Match, engine: rules.Match, action: rules.Action, result: Any,
           change: Change, *, rows: Rows | None = None,
           miscall: Fraction | int | None = None) -> list[Touched]:
    """The rows of ``action``, which the engine has just applied (``result``: what it
    answered), naming ``change``. ``rows``: the live round and last event number as
    the lock read them (else they are queried). Returns the rounds touched."""
    rnd = engine.rounds[-1]
    if isinstance(action, rules.StartRound):
        round_ = Round(match=match, number=rnd.number,
                       mode=RoundMode.CALLED if action.mode == rules.RoundMode.CALLED
                       else RoundMode.TRACKED, starter=action.starter, change=change)
        _clean(round_)
        round_.save()
        return [Touched(round_.number, round_.pk, new=True)]
    if isinstance(action, rules.Settle):
        round_ = _live_round(match)
        _copy_end(round_, rnd)  # settled or not: a called round's result alone may wait
        if action.hands is None and action.pips is None:
            round_.result_apart = True  # any count comes as an action of its own
        round_.hands = _hands_text(action.hands) if action.hands is not None else None
        round_.pips = list(action.pips) if action.pips is not None else None
        _clean(round_)
        round_.save()
        return [Touched(round_.number, round_.pk)]
    if rows is None:
        rows = _rows(match)
    assert rows.live_round is not None  # the engine refuses an event before the first round
    event = _event_row(match, rows.live_round, action, result, number=rows.last_event + 1)
    event.change = change
    if miscall is not None:
        event.miscall = score_decimal(miscall)
    _clean(event)
    event.save()
    if rnd.end is not None:  # the round ended by this event (it was in play before)
        Round.objects.filter(pk=rows.live_round).update(**_end_fields(rnd))
    return [Touched(rnd.number, rows.live_round)]


def _clean(row: Round | Event) -> None:
    """A row's clean() and field checks before it is written. The database holds its
    named constraints and foreign keys itself; checking them here too would cost a
    query each on every tap."""
    relations = [field.name for field in row._meta.fields if field.is_relation]
    row.full_clean(exclude=relations, validate_unique=False, validate_constraints=False)


def _take_back(match: Match, action: rules.Action, change: Change, *,
               rows: Rows | None = None, number: int | None = None,
               reopens: bool = True) -> list[Touched]:
    """Mark the rows of the last live ``action`` as taken back by ``change``. ``rows``
    and ``number`` (the live round's number) spare a query, as in :func:`_store`;
    ``reopens``: False when the round was in play (taking back an event that did not
    end it leaves its row as it is)."""
    if isinstance(action, rules.Settle):
        return [_settlement_taken_back(match, action)]
    if rows is not None and rows.live_round is not None and number is not None:
        live = Touched(number, rows.live_round)
    else:
        round_ = _live_round(match)
        live = Touched(round_.number, round_.pk)
    if isinstance(action, rules.StartRound):
        Round.objects.filter(pk=live.pk).update(undone_by=change)
        RoundSide.objects.filter(round=live.pk).delete()  # a cache of live rounds only
        return [live._replace(undone=True)]
    last = match.events.filter(undone_by=None).order_by("-number").values("pk")[:1]
    taken = Event.objects.filter(pk=Subquery(last)).update(undone_by=change)
    assert taken == 1  # the engine refuses an undo with nothing to take back
    if reopens:
        # a round ends only by its last event: taking that back reopens the round (and
        # unsettles it, where it was settled as it ended)
        Round.objects.filter(pk=live.pk).update(end=RoundEnd.NONE, finisher=None,
                                                settled=False)
    return [live]


def _settlement_taken_back(match: Match, action: rules.Settle) -> Touched:
    """The live round's last settle action taken back: its count, or its result."""
    round_ = _live_round(match)
    counted = action.hands is not None or action.pips is not None
    out = None
    if round_.mode == RoundMode.CALLED:
        out = round_.events.filter(undone_by=None, goes_out=True).first()
    round_.hands = round_.pips = None
    if counted and (round_.mode == RoundMode.TRACKED or out or round_.result_apart):
        # only the count goes: the round keeps how it ended, and stays settled
        # where remaining tiles score nothing (it was settled as it ended)
        round_.settled = not match.rules_game.counts_remaining
    else:
        # the round's result goes (with its count, if one tap gave both): a called
        # round ends by its result, unless a call went out
        round_.settled = round_.result_apart = False
        round_.end = RoundEnd.DOMINO if out else RoundEnd.NONE
        round_.finisher = out.seat if out else None
    round_.save()
    return Touched(round_.number, round_.pk)


def _live_round(match: Match) -> Round:
    round_ = match.rounds.filter(undone_by=None).order_by("-number").first()
    assert round_ is not None  # the engine refuses an event before the first round
    return round_


def change_log(match: Match, kind: str, action: dict[str, Any], description: str, *,
               key: UUID | None, grant: ScorerGrant | None, user: User | None,
               restored_to: int | None = None) -> Change:
    """The change that makes the match's next version (``match.version`` is raised
    here, and saved by the caller with whatever else of the match it changes)."""
    match.version += 1
    if grant is not None:
        now = timezone.now()
        # to the minute: a phone tapping away does not write its grant on every tap
        if grant.last_used_at is None or now - grant.last_used_at >= GRANT_USE_PRECISION:
            grant.last_used_at = now
            grant.save(update_fields=["last_used_at"])
    return Change.objects.create(
        match=match, version=match.version, kind=kind, key=key, action=action,
        description=description[:300], restored_to=restored_to, grant=grant,
        user=signed_in_account(user))


def signed_in_account(user: User | None) -> Account | None:
    """The signed-in account behind a request's user, if any (anonymous: none)."""
    return user if isinstance(user, Account) and user.is_authenticated else None


def _started_by(creation_key: UUID) -> MatchStarted | None:
    match = Match.objects.filter(creation_key=creation_key).first()
    if match is None:
        return None
    grant = match.grants.get(is_creator=True)
    first = match.changes.order_by("version").first()  # None: it waits for its starter
    return MatchStarted(match=match, grant=grant, first=first, created=False)


_CHANGE_KINDS: dict[type, str] = {
    rules.StartRound: ChangeKind.START, rules.Play: ChangeKind.PLAY,
    rules.Draw: ChangeKind.DRAW, rules.Pass: ChangeKind.PASS, rules.Call: ChangeKind.CALL,
    rules.Settle: ChangeKind.SETTLE,
}


def unsaved_match(engine: rules.Match, *, created_by: Account | None = None,
               creation_key: UUID | None = None) -> Match:
    """The match row of ``engine`` (its game, options, players, target), not yet saved."""
    return Match(game=engine.game.slug, options=dict(engine.options.given),
                 player_count=engine.players, target=engine.options.target,
                 created_by=created_by, creation_key=creation_key)


def _store_match(engine: rules.Match, *, created_by: User | None,
                 creation_key: UUID | None = None) -> Match:
    names = seat_names(engine)
    match = unsaved_match(engine, created_by=signed_in_account(created_by),
                          creation_key=creation_key)
    match.full_clean()
    match.save()
    sides = [Side(match=match, index=index) for index in range(len(engine.sides))]
    Side.objects.bulk_create(sides)
    seats = [Seat(match=match, position=position, name=name,
                  side=sides[engine.side_of[position]])
             for position, name in enumerate(names)]
    for seat in seats:
        seat.full_clean(validate_constraints=False)
    try:
        with transaction.atomic():
            Seat.objects.bulk_create(seats)
    except IntegrityError:  # the database folds case its own way: two names it calls equal
        raise ValidationError({"players": ValidationError(
            PLAYERS_DIFFERENT, code="players_different", params={"name": names[-1]})}) from None
    return match


def _end_fields(rnd: rules.Round) -> dict[str, Any]:
    """How the engine's round ended (so far), as its row's fields, and whether it is
    settled (a round whose remaining tiles score nothing is settled as it ends)."""
    return {"end": rnd.end.value if rnd.end else RoundEnd.NONE, "finisher": rnd.finisher,
            "settled": rnd.settled}


def imported_round(match: Match, rnd: rules.Round, *, apart: bool,
                   change: Change | None) -> Round:
    """The row of a round as an import stores it (not yet saved): how it was played,
    settled and ended, as the replay gives it."""
    settle = rnd.settle
    round_ = Round(
        match=match, number=rnd.number,
        mode=RoundMode.CALLED if not rnd.tracked else RoundMode.TRACKED,
        starter=rnd.starter, settled=rnd.settled,
        hands=_hands_text(settle.hands) if settle and settle.hands is not None else None,
        pips=list(settle.pips) if settle and settle.pips is not None else None,
        result_apart=apart, change=change,
    )
    _copy_end(round_, rnd)
    return round_


def _copy_end(round_: Round, rnd: rules.Round) -> None:
    for field, value in _end_fields(rnd).items():
        setattr(round_, field, value)


def _settle_as_stored(engine: rules.Match, settle: rules.Settle) -> rules.Settle:
    """``settle`` as the round's rows give it back
    (``scoring.selectors.play.round_settle_actions``), so that the change log and the rows
    hold the same actions (undo, restore and
    backups compare them): a tracked round's count names no result, a called round's
    names the one it has, and a block names no seat. A result that contradicts how the
    round ended is left as given, for the engine to refuse."""
    rnd = engine.current_round
    result, seat = settle.result, settle.domino_seat
    if rnd is not None and rnd.end is not None:
        if result not in (None, rnd.end) or seat not in (None, rnd.finisher):
            return settle
        result, seat = (None, None) if rnd.tracked else (rnd.end, rnd.finisher)
    elif result is rules.RoundEnd.BLOCKED:
        seat = None
    return rules.Settle(settle.hands, settle.pips, result, seat)


def _hands_text(hands: Sequence[Sequence[rules.Tile]]) -> list[list[str]]:
    return [[str(tile) for tile in hand] for hand in hands]


def _event_row(match: Match, round_id: int, action: rules.Action, award: rules.Award | None,
               *, number: int) -> Event:
    return Event(match=match, round_id=round_id, number=number, **event_fields(action, award))


def event_fields(action: rules.Action, award: rules.Award | None) -> dict[str, Any]:
    """The fields of an event's row that the engine gives: who acted and how (``action``),
    and what it scored (``award``); the rest keep their defaults."""
    fields: dict[str, Any] = {"seat": action.seat}  # type: ignore[union-attr]
    claim = getattr(action, "claim", None)
    if claim is not None:
        fields["claim"] = score_decimal(claim)
    if isinstance(action, rules.Play):
        fields.update(kind=EventKind.PLAY, tile=str(action.tile),
                      at=str(action.at) if action.at else "")
    elif isinstance(action, rules.Draw):
        fields.update(kind=EventKind.DRAW, tiles_drawn=action.tiles)
    elif isinstance(action, rules.Pass):
        fields["kind"] = EventKind.PASS
    elif isinstance(action, rules.Call):
        fields.update(kind=EventKind.CALL, ends=[str(end) for end in action.ends],
                      goes_out=action.goes_out)
    if award is not None:
        fields.update(end_sum=award.end_sum, points=score_decimal(award.counted),
                      refused=award.refused or "")
    return fields


def _sync(match: Match, engine: rules.Match, rounds: Sequence[Touched], *,
          kept: Kept | None = None, stored: Stored | None = None) -> None:
    """Refresh the cached scores and status from the engine's state, and save the
    match's version (:func:`change_log` raised it). A few statements whatever the match's
    length: each table's rows change in one UPDATE, by side (``kept`` knows the sides'
    keys once it has read them), and not at all where ``stored`` (what they held
    before the write) says they already hold the new values."""
    side_ids = kept.side_ids if kept is not None else None
    if side_ids is None:
        side_ids = list(match.sides.order_by("index").values_list("pk", flat=True))
        if kept is not None:
            kept.side_ids = side_ids
    if stored is None or tuple(engine.scores) != stored.scores:
        Side.objects.filter(match=match).update(
            score=_by_side(Side, side_ids, engine.scores))
    by_number = {rnd.number: rnd for rnd in engine.rounds}
    for round_ in rounds:
        rnd = by_number.get(round_.number)
        if rnd is None:
            continue
        columns = round_side_columns(engine, rnd)
        if (not round_.new and stored is not None and stored.round_number == rnd.number
                and stored.columns == columns):
            continue
        if not round_.new and RoundSide.objects.filter(round=round_.pk).update(
                **{field: _by_side(RoundSide, side_ids, values)
                   for field, values in columns.items()}) == len(side_ids):
            continue
        if not round_.new:  # its rows are missing (stored before they were kept)
            RoundSide.objects.filter(round=round_.pk).delete()
        RoundSide.objects.bulk_create([
            RoundSide(round_id=round_.pk, side_id=side_id,
                      **{field: score_decimal(values[index])
                         for field, values in columns.items()})
            for index, side_id in enumerate(side_ids)])
    finished = engine.winner is not None
    was_finished = match.status == MatchStatus.FINISHED
    match.status = MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS
    match.winner_side = engine.winner
    if finished and match.finished_at is None:
        match.finished_at = max(timezone.now(), match.started_at)
    elif not finished:
        match.finished_at = None
    match.save(update_fields=["version", "status", "winner_side", "finished_at"])
    if finished or was_finished:  # a result came, changed or went: ratings follow it
        results_changed.send(sender=Match, clubs=match_clubs(match), game=match.game)


def round_side_columns(engine: rules.Match,
                       rnd: rules.Round) -> dict[str, tuple[Fraction | int, ...]]:
    """A round's cached columns (:class:`~matches.models.RoundSide`), each by side."""
    return {"placements": tuple(rnd.placements), "settlement": tuple(rnd.settlement_awards),
            "score": tuple(engine.scores_after(rnd))}


def _by_side(model: type[Side] | type[RoundSide], side_ids: Sequence[int],
             values: Sequence[int | Fraction]) -> Case:
    """``values`` (one per side, by index) for the rows of ``model``, in one UPDATE."""
    key = "pk" if model is Side else "side_id"
    return Case(*[When(**{key: side_id}, then=Value(score_decimal(value)))
                  for side_id, value in zip(side_ids, values, strict=True)],
                output_field=DecimalField())
