"""Writes. Every change to a match goes through the rules engine here, atomically.

Each service locks the match, replays its live actions, applies the one new action in
the engine (a :class:`~matches.rules.RulesError` stops it before anything is written),
then stores the action's rows, logs the :class:`~matches.models.Change` that makes
the match's next version and refreshes the cached scores, all in one transaction, so
the cache always equals a fresh replay.

Every scoring write takes the ``version`` its page showed (an older one is refused:
:class:`OutOfDate`) and the tap's idempotency ``key`` (a resent tap answers with the
change it made the first time, marked ``replayed``, and applies nothing).
Nothing is deleted: undo and restore mark the rows they take back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.models import User as Account
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.actions import action_doc, action_from_doc, describe
from matches.models import (
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
from matches.record_files import RecordSource
from matches.selectors import (
    actions_at,
    match_actions,
    match_engine,
    match_names,
    results_apart,
    score_decimal,
)
from matches.services.ratings import ratings_follow

User = AbstractBaseUser | AnonymousUser

PLAYERS_DIFFERENT = _("Each player needs a different name: %(name)s sits twice.")
OUT_OF_DATE = _("Not recorded: the match moved on since this page was drawn (another phone "
                "scored, or the tap came late). Here is the table as it stands now.")
NOTHING_TO_RESTORE = _("Version %(version)s is not an earlier version of this match.")
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
    first: Change  # the first round's start
    created: bool  # False: the same form was submitted before, and this is that match


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
                phone: str = "") -> MatchStarted:
    """A new match, its first round and the starting phone's scorer grant, together or
    not at all (no starter: draw lots).

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
                        is_creator=True)
    grant.full_clean()
    grant.save()
    first = round_start(match=match, starter=starter, mode=mode, draw_lots=True, grant=grant,
                        user=created_by)
    return MatchStarted(match=match, grant=grant, first=first, created=True)


@transaction.atomic
def round_start(*, match: Match, starter: int | None, mode: str = RoundMode.TRACKED,
                draw_lots: bool = False, version: int | None = None, key: UUID | None = None,
                grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """Open the next round with ``starter``.

    With ``draw_lots`` and no starter, the seat that must start (the previous round's
    finisher, in All Fives and Five Up) starts, or else the engine draws lots; the
    returned change's ``lots_drawn`` (not stored) says which, for the page to announce.
    """
    match, done = _begin(match, version=version, key=key)
    if done is not None:
        return done
    engine = match_engine(match)
    lots_drawn = False
    if starter is None and draw_lots:
        starter = engine.required_starter()
        if starter is None:
            starter, lots_drawn = engine.draw_lots(), True
    rules_mode = rules.RoundMode.CALLED if mode == RoundMode.CALLED else rules.RoundMode.TRACKED
    change = _record(match, engine, rules.StartRound(starter, rules_mode), key=key,
                     grant=grant, user=user)
    change.lots_drawn = lots_drawn
    return change


@transaction.atomic
def event_record(*, match: Match, action: rules.Event, version: int | None = None,
                 key: UUID | None = None, grant: ScorerGrant | None = None,
                 user: User | None = None) -> Change:
    """Record a play, draw, pass or called placement in the current round.

    The action names its seat: a tap made for a seat whose turn it no longer is (the
    table moved on) is refused by the engine rather than credited to someone else.
    """
    match, done = _begin(match, version=version, key=key)
    if done is not None:
        return done
    try:
        with transaction.atomic():  # a savepoint: a refused claim leaves no change row
            return _record(match, match_engine(match), action, key=key, grant=grant,
                           user=user)
    except rules.ClaimMismatch as miscall:
        # The tile is on the table whatever was called: record it with the rules'
        # points and keep the wrong call beside it, rather than make the scorer start over.
        match.refresh_from_db(fields=["version"])  # the savepoint took its bump back
        claim = action.claim  # type: ignore[union-attr]
        uncalled: rules.Event
        if isinstance(action, rules.Play):
            uncalled = rules.Play(action.seat, action.tile, action.at, None)
        else:
            assert isinstance(action, rules.Call)
            uncalled = rules.Call(action.seat, action.ends, None, action.goes_out)
        change = _record(match, match_engine(match), uncalled, key=key, grant=grant,
                         user=user, miscall=claim, note=str(miscall))
        change.miscall = str(miscall)
        return change


def placement_record(*, match: Match, seat: int, tile: rules.Tile,
                     at: rules.AttachmentPoint | None = None, claim: int | None = None,
                     version: int | None = None, key: UUID | None = None,
                     grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """``seat`` places ``tile`` at ``at`` (the opening takes no point)."""
    return event_record(match=match, action=rules.Play(seat, tile, at, claim), version=version,
                        key=key, grant=grant, user=user)


def draw_record(*, match: Match, seat: int, tiles: int, version: int | None = None,
                key: UUID | None = None, grant: ScorerGrant | None = None,
                user: User | None = None) -> Change:
    """``seat`` draws ``tiles`` from the boneyard, one at a time."""
    return event_record(match=match, action=rules.Draw(seat, tiles), version=version, key=key,
                        grant=grant, user=user)


def pass_record(*, match: Match, seat: int, version: int | None = None, key: UUID | None = None,
                grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """``seat`` passes (refused while the boneyard holds tiles)."""
    return event_record(match=match, action=rules.Pass(seat), version=version, key=key,
                        grant=grant, user=user)


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
    match, done = _begin(match, version=version, key=key)
    if done is not None:
        return done
    engine = match_engine(match)
    settle = _settle_as_stored(engine, rules.Settle(
        tuple(tuple(hand) for hand in hands) if hands is not None else None,
        tuple(pips) if pips is not None else None, result, domino_seat))
    return _record(match, engine, settle, key=key, grant=grant, user=user)


@transaction.atomic
def event_undo(*, match: Match, version: int | None = None, key: UUID | None = None,
               grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """Take back the last action: an event, a settlement or the start of a round.

    Nothing is deleted: the rows it takes back are marked with this change, which
    says who took back what and when; ``match_restore`` can bring them back.
    """
    match, done = _begin(match, version=version, key=key)
    if done is not None:
        return done
    engine = match_engine(match)
    undone = engine.undo()  # refused with nothing to undo, before anything is written
    change = _log(match, ChangeKind.UNDO, action_doc(undone),
                  describe(undone, match_names(match)), key=key, grant=grant, user=user)
    touched = _take_back(match, undone, change)
    _sync(match, engine, touched)
    return change


@transaction.atomic
def match_restore(*, match: Match, to_version: int, version: int | None = None,
                  key: UUID | None = None, grant: ScorerGrant | None = None,
                  user: User | None = None) -> Change:
    """Bring the match back to how it stood at ``to_version``; recorded as one change.

    The actions after the point where both versions agree are taken back (marked, not
    deleted) and the earlier version's own are applied again through the engine.
    """
    match, done = _begin(match, version=version, key=key)
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
    change = _log(match, ChangeKind.RESTORE, {"actions": target},
                  str(_("the match as it stood at version %(version)s")
                      % {"version": to_version}),
                  key=key, grant=grant, user=user, restored_to=to_version)
    touched: dict[int, Round] = {}
    for doc in reversed(current[common:]):
        for round_ in _take_back(match, action_from_doc(doc), change):
            touched[round_.pk] = round_
    names = match_names(match)
    engine = rules.Match.replay(match.rules_game, names, match.options,
                                [action_from_doc(doc) for doc in target[:common]],
                                labels=names)
    for doc in target[common:]:
        for round_ in _apply(match, engine, action_from_doc(doc), change):
            touched[round_.pk] = round_
    _sync(match, engine, list(touched.values()))
    return change


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
        change = _log(match, ChangeKind.IMPORT,
                      {"actions": [action_doc(a) for a in engine.log]},
                      str(_("the match record")), key=None, grant=None, user=created_by)
    sides = {side.index: side for side in match.sides.all()}
    apart = results_apart([action_doc(a) for a in engine.log])
    number = 0
    events: list[Event] = []
    rounds: list[Round] = []
    for rnd in engine.rounds:
        settle = rnd.settle
        round_ = Round(
            match=match, number=rnd.number,
            mode=RoundMode.CALLED if not rnd.tracked else RoundMode.TRACKED,
            starter=rnd.starter, settled=rnd.settled,
            hands=_hands_text(settle.hands) if settle and settle.hands is not None else None,
            pips=list(settle.pips) if settle and settle.pips is not None else None,
            result_apart=rnd.number in apart, change=change,
        )
        _copy_end(round_, rnd)
        round_.full_clean(validate_constraints=False)
        round_.save()
        rounds.append(round_)
        for action, award in zip(rnd.events, rnd.awards, strict=True):
            number += 1
            events.append(_event_row(match, round_, action, award, number=number))
            events[-1].change = change
    Event.objects.bulk_create(events)
    _sync(match, engine, rounds, sides=sides)
    return match


@transaction.atomic
def grant_create(*, match: Match, phone: str) -> ScorerGrant:
    """A new phone may score ``match`` (it opened the shared scorer's link)."""
    grant = ScorerGrant(match=match, label=phone[:80] or str(_("A phone")))
    grant.full_clean()
    grant.save()
    return grant


@transaction.atomic
def grant_revoke(*, grant: ScorerGrant) -> ScorerGrant:
    """That phone scores no more; the changes it made keep naming it."""
    if grant.revoked_at is None:
        grant.revoked_at = timezone.now()
        grant.save(update_fields=["revoked_at"])
    return grant


@transaction.atomic
def scorer_link_rotate(*, match: Match) -> Match:
    """A new shared scorer's link; the old one stops working (granted phones keep theirs)."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    match.scorer_token = new_scorer_token()
    match.save(update_fields=["scorer_token"])
    return match


def record_import(*, source: RecordSource,
                  created_by: User | None = None) -> tuple[Match | None, str | None]:
    """Store one record read from a file, or say why it was refused (then nothing is)."""
    if source.document is None:
        return None, source.error
    try:
        return match_import(document=source.document, created_by=created_by), None
    except rules.RulesError as error:
        return None, str(error)
    except ValidationError as error:  # e.g. a player's name longer than the column
        return None, "; ".join(error.messages)


# -- internals -----------------------------------------------------------------------


def _begin(match: Match, *, version: int | None, key: UUID | None,
           abandoned_ok: bool = False) -> tuple[Match, Change | None]:
    """The match row, locked for this transaction (two phones cannot interleave writes),
    and the change an earlier request with the same key made, if any (then nothing more
    is applied); a write made on an older version, or on an abandoned match (unless
    ``abandoned_ok``: resuming it), is refused."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if key is not None:
        done = match.changes.filter(key=key).first()
        if done is not None:
            done.replayed = True
            return match, done
    if match.status == MatchStatus.ABANDONED and not abandoned_ok:
        raise MatchAbandoned()
    if version is not None and version != match.version:
        raise OutOfDate(given=version, current=match.version)
    return match, None


def _record(match: Match, engine: rules.Match, action: rules.Action, *, key: UUID | None,
            grant: ScorerGrant | None, user: User | None, miscall: Fraction | int | None = None,
            note: str = "") -> Change:
    """Apply one action (the engine refuses it before anything is written), store its
    rows and log the change that makes the new version. ``miscall``: what the table
    called for this placement when the rules give another score (``note`` says so)."""
    description = describe(action, engine.names or ())  # the engine holds the seats' names
    if note:
        description = f"{description} (miscalled: {note})"
    change = _log(match, _CHANGE_KINDS[type(action)], action_doc(action), description,
                  key=key, grant=grant, user=user)
    _sync(match, engine, _apply(match, engine, action, change, miscall=miscall))
    return change


def _apply(match: Match, engine: rules.Match, action: rules.Action,
           change: Change, *, miscall: Fraction | int | None = None) -> list[Round]:
    """The engine applies ``action`` (a refusal rolls the whole write back); its rows are
    written, naming ``change``. Returns the rounds touched."""
    result = engine.do(action)
    if isinstance(action, rules.StartRound):
        round_ = Round(match=match, number=len(engine.rounds),
                       mode=RoundMode.CALLED if action.mode == rules.RoundMode.CALLED
                       else RoundMode.TRACKED, starter=action.starter, change=change)
        _clean(round_)
        round_.save()
        return [round_]
    round_ = _live_round(match)
    rnd = engine.rounds[-1]
    if isinstance(action, rules.Settle):
        _copy_end(round_, rnd)  # settled or not: a called round's result alone may wait
        if action.hands is None and action.pips is None:
            round_.result_apart = True  # any count comes as an action of its own
        round_.hands = _hands_text(action.hands) if action.hands is not None else None
        round_.pips = list(action.pips) if action.pips is not None else None
        _clean(round_)
        round_.save()
        return [round_]
    last = match.events.aggregate(last=Max("number"))["last"] or 0
    event = _event_row(match, round_, action, result, number=last + 1)
    event.change = change
    if miscall is not None:
        event.miscall = score_decimal(miscall)
    _clean(event)
    event.save()
    _copy_end(round_, rnd)
    round_.save(update_fields=["end", "finisher", "settled"])
    return [round_]


def _clean(row: Round | Event) -> None:
    """A row's clean() and field checks before it is written. The database holds its
    named constraints and foreign keys itself; checking them here too would cost a
    query each on every tap."""
    relations = [field.name for field in row._meta.fields if field.is_relation]
    row.full_clean(exclude=relations, validate_unique=False, validate_constraints=False)


def _take_back(match: Match, action: rules.Action, change: Change) -> list[Round]:
    """Mark the rows of the last live ``action`` as taken back by ``change``."""
    round_ = _live_round(match)
    if isinstance(action, rules.StartRound):
        round_.undone_by = change
        round_.save(update_fields=["undone_by"])
        RoundSide.objects.filter(round=round_).delete()  # a cache of live rounds only
        return [round_]
    if isinstance(action, rules.Settle):
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
        return [round_]
    event = match.events.filter(undone_by=None).order_by("-number").first()
    assert event is not None  # the engine refuses an undo with nothing to take back
    event.undone_by = change
    event.save(update_fields=["undone_by"])
    # a round ends only by its last event: taking that back reopens the round (and
    # unsettles it, where it was settled as it ended)
    round_.end, round_.finisher, round_.settled = RoundEnd.NONE, None, False
    round_.save(update_fields=["end", "finisher", "settled"])
    return [round_]


def _live_round(match: Match) -> Round:
    round_ = match.rounds.filter(undone_by=None).order_by("-number").first()
    assert round_ is not None  # the engine refuses an event before the first round
    return round_


def _log(match: Match, kind: str, action: dict[str, Any], description: str, *,
         key: UUID | None, grant: ScorerGrant | None, user: User | None,
         restored_to: int | None = None) -> Change:
    """The change that makes the match's next version."""
    match.version += 1
    match.save(update_fields=["version"])
    if grant is not None:
        grant.last_used_at = timezone.now()
        grant.save(update_fields=["last_used_at"])
    return Change.objects.create(
        match=match, version=match.version, kind=kind, key=key, action=action,
        description=description[:300], restored_to=restored_to, grant=grant,
        user=_account(user))


def _account(user: User | None) -> Account | None:
    """The signed-in account behind a request's user, if any (anonymous: none)."""
    return user if isinstance(user, Account) and user.is_authenticated else None


def _started_by(creation_key: UUID) -> MatchStarted | None:
    match = Match.objects.filter(creation_key=creation_key).first()
    if match is None:
        return None
    grant = match.grants.get(is_creator=True)
    first = match.changes.order_by("version").first()
    assert first is not None  # a match started by the form has its first round's start
    return MatchStarted(match=match, grant=grant, first=first, created=False)


_CHANGE_KINDS: dict[type, str] = {
    rules.StartRound: ChangeKind.START, rules.Play: ChangeKind.PLAY,
    rules.Draw: ChangeKind.DRAW, rules.Pass: ChangeKind.PASS, rules.Call: ChangeKind.CALL,
    rules.Settle: ChangeKind.SETTLE,
}


def _store_match(engine: rules.Match, *, created_by: User | None,
                 creation_key: UUID | None = None) -> Match:
    names = [name.strip() for name in engine.names or
             [f"Seat {seat + 1}" for seat in range(engine.players)]]
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:  # one player cannot hold two seats
            raise ValidationError({"players": ValidationError(
                PLAYERS_DIFFERENT, code="players_different", params={"name": name})})
        seen.add(name.casefold())
    match = Match(game=engine.game.slug, options=dict(engine.options.given),
                  player_count=engine.players, target=engine.options.target,
                  created_by=_account(created_by),
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


def _copy_end(round_: Round, rnd: rules.Round) -> None:
    """How the engine's round ended (so far), onto its row, and whether it is settled
    (a round whose remaining tiles score nothing is settled as it ends)."""
    round_.end = rnd.end.value if rnd.end else RoundEnd.NONE
    round_.finisher = rnd.finisher
    round_.settled = rnd.settled


def _settle_as_stored(engine: rules.Match, settle: rules.Settle) -> rules.Settle:
    """``settle`` as the round's rows give it back (``selectors.round_settle_actions``),
    so that the change log and the rows hold the same actions (undo, restore and
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


def _event_row(match: Match, round_: Round, action: rules.Action, award: rules.Award | None,
               *, number: int) -> Event:
    event = Event(match=match, round=round_, number=number, seat=action.seat)  # type: ignore[union-attr]
    claim = getattr(action, "claim", None)
    if claim is not None:
        event.claim = score_decimal(claim)
    if isinstance(action, rules.Play):
        event.kind = EventKind.PLAY
        event.tile = str(action.tile)
        event.at = str(action.at) if action.at else ""
    elif isinstance(action, rules.Draw):
        event.kind, event.tiles_drawn = EventKind.DRAW, action.tiles
    elif isinstance(action, rules.Pass):
        event.kind = EventKind.PASS
    elif isinstance(action, rules.Call):
        event.kind = EventKind.CALL
        event.ends = [str(end) for end in action.ends]
        event.goes_out = action.goes_out
    if award is not None:
        event.end_sum = award.end_sum
        event.points = score_decimal(award.counted)
        event.refused = award.refused or ""
    return event


def _sync(match: Match, engine: rules.Match, rounds: Sequence[Round], *,
          sides: dict[int, Side] | None = None) -> None:
    """Refresh the cached scores and status from the engine's state."""
    sides = sides or {side.index: side for side in match.sides.all()}
    for index, score in enumerate(engine.scores):
        side = sides[index]
        side.score = score_decimal(score)
    Side.objects.bulk_update(list(sides.values()), ["score"])
    by_number = {rnd.number: rnd for rnd in engine.rounds}
    for round_ in rounds:
        rnd = by_number.get(round_.number)
        if rnd is None or round_.undone_by_id is not None:
            continue
        running = engine.scores_after(rnd)
        awards = rnd.settlement_awards
        RoundSide.objects.filter(round=round_).delete()
        RoundSide.objects.bulk_create([
            RoundSide(round=round_, side=sides[index],
                      placements=score_decimal(rnd.placements[index]),
                      settlement=score_decimal(awards[index]),
                      score=score_decimal(running[index]))
            for index in range(len(sides))
        ])
    finished = engine.winner is not None
    was_finished = match.status == MatchStatus.FINISHED
    match.status = MatchStatus.FINISHED if finished else MatchStatus.IN_PROGRESS
    match.winner_side = engine.winner
    if finished and match.finished_at is None:
        match.finished_at = max(timezone.now(), match.started_at)
    elif not finished:
        match.finished_at = None
    match.save(update_fields=["status", "winner_side", "finished_at"])
    if finished or was_finished:  # a result came, changed or went: ratings follow it
        ratings_follow(match)
