"""Reads: stored rows back into the rules engine, records, summaries and lists."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, Protocol
from uuid import UUID

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.shortcuts import get_object_or_404
from django.utils.functional import lazy
from django.utils.translation import gettext

from matches import rules
from matches.clubs.access import RUNS_LEAGUE, roles_at_least
from matches.clubs.models import Club, Membership
from matches.clubs.selectors import visible_clubs
from matches.scoring.changelog import action_doc
from matches.scoring.models import (
    Change,
    ChangeKind,
    Event,
    EventKind,
    Match,
    MatchStatus,
    Round,
    RoundMode,
    ScorerGrant,
    Seat,
)
from matches.scoring.selectors.outcome import counted_results


def match_list(*, status: str | None = None, game: str | None = None,
               public_ids: Sequence[str] | None = None,
               created_by: AbstractBaseUser | AnonymousUser | None = None) -> QuerySet[Match]:
    """Matches with their seats and sides, who won each as the result counts
    (:func:`~matches.scoring.selectors.outcome.counted_results`). ``public_ids`` and
    ``created_by`` together: the matches either names."""
    matches = counted_results(Match.objects.all())
    if public_ids is not None or created_by is not None:
        mine = Q(public_id__in=list(public_ids or []))
        if created_by is not None and created_by.is_authenticated:
            mine |= Q(created_by=created_by.pk)
        matches = matches.filter(mine)
    if status:
        matches = matches.filter(status=status)
    if game:
        matches = matches.filter(game=game)
    return matches


def watchable_matches(public_ids: Sequence[str],
                      user: AbstractBaseUser | AnonymousUser | None) -> QuerySet[Match]:
    """Of the matches ``public_ids`` (those a browser watched), those ``user`` may still
    watch: a match may since have become a members-only club's."""
    return match_list(public_ids=public_ids).filter(
        Q(club=None) | Q(club__in=visible_clubs(user)))


def match_by_public_id(*, public_id: UUID) -> Match:
    """The match at the public address ``public_id``; else 404. Who may see it is the
    caller's to decide (a members-only club's game: ``match_for_watcher``)."""
    return get_object_or_404(Match, public_id=public_id)


def match_fresh(*, match: Match, fields: Sequence[str] | None = None) -> Match:
    """``match`` read again (only ``fields``, if given: one query), as another phone or
    a write may have left it since it was loaded."""
    match.refresh_from_db(fields=fields)
    return match


def change_by_key(*, match: Match, key: UUID) -> Change | None:
    """The match's change made by the tap whose idempotency key is ``key``, if any."""
    return match.changes.filter(key=key).first()


def match_grant(*, match: Match, pk: int) -> ScorerGrant:
    """The match's scorer grant ``pk`` (live or revoked); another match's is a 404."""
    return get_object_or_404(match.grants, pk=pk)


def can_revoke(*, grant: ScorerGrant, by: ScorerGrant | None) -> bool:
    """A scoring phone (``by``) may revoke itself or any other phone of its match but
    the one that started it: a leaked link must not lock out the phone that can restore
    what it did."""
    if by is None or by.revoked_at is not None or by.match_id != grant.match_id:
        return False
    return grant.pk == by.pk or not grant.is_creator


def live_grant_matches(grants: Mapping[str, object]) -> set[str]:
    """Of a browser's grants ({public id: grant id}), the public ids whose grant is still
    live (not revoked, nor for another match)."""
    ids = [grant_id for grant_id in grants.values() if isinstance(grant_id, int)]
    rows = ScorerGrant.objects.filter(pk__in=ids, revoked_at=None).values_list(
        "match__public_id", "pk")
    return {str(public_id) for public_id, pk in rows if grants.get(str(public_id)) == pk}


def match_clubs(match: Match) -> list[Club]:
    """The clubs whose players sat at ``match``: the ones whose ratings its result fed."""
    return list(Club.objects.filter(players__seats__match=match).distinct())


def match_names(match: Match) -> list[str]:
    return [seat.name for seat in match.seats.order_by("position")]


class EventFields(Protocol):
    """What an event's action is read from: a stored event, or the row of one a batch
    is about to write (:class:`~matches.scoring.services.bulk.EventRow`)."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def tile(self) -> str: ...
    @property
    def at(self) -> str: ...
    @property
    def tiles_drawn(self) -> int | None: ...
    @property
    def ends(self) -> Any: ...
    @property
    def goes_out(self) -> bool: ...
    @property
    def claim(self) -> Decimal | None: ...


def event_action(event: EventFields) -> rules.Event:
    """One event (stored, or about to be) as the engine's value object."""
    claim = claim_value(event.claim)
    if event.kind == EventKind.PLAY:
        return rules.Play(event.seat, rules.Tile.parse(event.tile),
                          rules.AttachmentPoint.parse(event.at) if event.at else None, claim)
    if event.kind == EventKind.DRAW:
        return rules.Draw(event.seat, event.tiles_drawn or 0)
    if event.kind == EventKind.PASS:
        return rules.Pass(event.seat)
    return rules.Call(event.seat, tuple(rules.ScoringEnd.parse(e) for e in event.ends or ()),
                      claim, event.goes_out)


def round_settle_actions(round_: Round) -> list[rules.Settle]:
    """The round's settle actions, one for one as the change log holds them.

    A called round's result given on its own comes first; then the count, if one was
    given (naming a called round's result). None at all for a round still waiting for
    its count, or one settled as it ended (Fives and Threes: remaining tiles score
    nothing) with no count given.
    """
    result = None
    if round_.mode == RoundMode.CALLED and round_.end:
        result = rules.RoundEnd(round_.end)
    seat = round_.finisher if result else None
    actions = []
    if round_.result_apart:
        actions.append(rules.Settle(None, None, result, seat))
    if round_.hands is not None or round_.pips is not None:
        hands = (tuple(tuple(rules.Tile.parse(t) for t in hand) for hand in round_.hands)
                 if round_.hands is not None else None)
        pips = tuple(round_.pips) if round_.pips is not None else None
        actions.append(rules.Settle(hands, pips, result, seat))
    return actions


def results_apart(docs: Sequence[Any]) -> set[int]:
    """The numbers of the rounds whose result came in a settle action of its own, with
    no count (``Round.result_apart``), among action documents (:mod:`matches.scoring.changelog`)
    in the order of the change log. Anything else in ``docs`` is passed over: a backup's
    log is checked against the rows after this."""
    numbers: set[int] = set()
    number = 0
    for doc in docs:
        body = doc.get("settle") if isinstance(doc, dict) else None
        if isinstance(doc, dict) and "start" in doc:
            number += 1
        elif (isinstance(body, dict) and body.get("hands") is None
              and body.get("pips") is None):
            numbers.add(number)
    return numbers


class EventRead(NamedTuple):
    """A stored event as a replay reads it: its columns, no model instance (a replay of
    a long match reads hundreds of thousands, and an instance costs ten times as much
    to make as this tuple)."""

    match_id: int
    round_id: int
    number: int
    seat: int
    kind: str
    tile: str
    at: str
    tiles_drawn: int | None
    ends: Any
    goes_out: bool
    claim: Decimal | None
    miscall: Decimal | None
    points: Decimal | None
    undone_by_id: int | None


def events_read(events: QuerySet[Event]) -> list[EventRead]:
    """``events`` as :class:`EventRead` rows, in the queryset's order."""
    return [EventRead._make(row) for row in events.values_list(*EventRead._fields)]


def match_actions(match: Match) -> list[rules.Action]:
    """Every action of the match, in order: round starts, events and settlements."""
    return _actions(list(match.rounds.filter(undone_by=None).order_by("number")),
                    events_read(match.events.filter(undone_by=None).order_by("number")))


def _actions(rounds: Sequence[Round], events: Iterable[EventRead]) -> list[rules.Action]:
    """The actions of the live ``rounds`` and ``events``, in the order of play."""
    events_by_round: dict[int, list[EventRead]] = {}
    for event in events:
        events_by_round.setdefault(event.round_id, []).append(event)
    actions: list[rules.Action] = []
    for round_ in rounds:
        mode = rules.RoundMode.CALLED if round_.mode == RoundMode.CALLED else \
            rules.RoundMode.TRACKED
        actions.append(rules.StartRound(round_.starter, mode))
        actions.extend(event_action(event) for event in events_by_round.get(round_.pk, ()))
        actions.extend(round_settle_actions(round_))
    return actions


def match_miscalls(match: Match, names: Sequence[str] | None = None) -> dict[int, list[str]]:
    """Per round number, the wrong calls of its live placements, in the table's words.
    ``names``: the seats' names, if the caller has them (an engine does)."""
    events = list(match.events.filter(undone_by=None, miscall__isnull=False)
                  .select_related("round").order_by("number"))
    if events and names is None:
        names = match_names(match)
    return _miscall_notes([(event.round.number, event) for event in events], names or ())


def _miscall_notes(events: Sequence[tuple[int, Event | EventRead]],
                   names: Sequence[str]) -> dict[int, list[str]]:
    """The notes of miscalled ``events`` (each with its round's number), by round."""
    notes: dict[int, list[str]] = {}
    for number, event in events:
        # said when shown, in the reader's language: an engine kept for the match keeps
        # its notes for every reader (matches.scoring.engine_cache)
        notes.setdefault(number, []).append(_miscall_note(
            names[event.seat], show_decimal(event.miscall),
            event.tile if event.kind == EventKind.PLAY else None, show_decimal(event.points)))
    return notes


def _say_miscall(who: str, called: str, tile: str | None, points: str) -> str:
    values = {"who": who, "called": called, "tile": tile, "points": points}
    if tile is None:
        return gettext("%(who)s called %(called)s for a called placement; the rules give "
                       "%(points)s, which counted") % values
    return gettext("%(who)s called %(called)s for %(tile)s; the rules give %(points)s, "
                   "which counted") % values


_miscall_note = lazy(_say_miscall, str)


def show_decimal(value: Decimal | None) -> str:
    """A stored score as the table writes it (halves as ½)."""
    return rules.show_points(claim_value(value) or 0)


def match_engine(match: Match) -> rules.Match:
    """The match replayed through the rules engine from its stored events."""
    return _replay(match, match_names(match), match_actions(match))


def _replay(match: Match, names: Sequence[str], actions: Sequence[rules.Action]) -> rules.Match:
    """``match`` replayed through the rules engine from ``actions`` (as its rows give
    them), its seats named ``names``."""
    return rules.Match.replay(match.rules_game, names, match.options, actions, labels=names)


class Replayed(NamedTuple):
    """The match replayed from its rows (:func:`match_replayed`), with what those rows
    say that a kept engine keeps (:class:`matches.scoring.engine_cache.Kept`)."""

    engine: rules.Match
    live_round: int | None  # the live round's primary key (None before the first round)
    last_event: int  # the highest event number, taken back or not (0: none yet)
    side_ids: list[int]  # the sides' primary keys, by index
    miscalls: dict[int, list[str]]  # as :func:`match_miscalls` says them


def match_replayed(match: Match) -> Replayed:
    """:func:`match_engine`, and from the same three reads (seats, rounds, events) the
    facts a write would otherwise query: a tap on a process that has not kept the
    match costs no more reads than the replay."""
    seats = list(match.seats.order_by("position").values_list("name", "side_id"))
    names = [name for name, _ in seats]
    rounds = list(match.rounds.filter(undone_by=None).order_by("number"))
    # taken-back events too: event numbers are never reused, so the next is after them
    events = events_read(match.events.order_by("number"))
    live = [event for event in events if event.undone_by_id is None]
    engine = _replay(match, names, _actions(rounds, live))
    side_ids = [0] * len(engine.sides)
    for position, (_, side_id) in enumerate(seats):
        side_ids[engine.side_of[position]] = side_id
    numbers = {round_.pk: round_.number for round_ in rounds}
    return Replayed(engine, rounds[-1].pk if rounds else None,
                    events[-1].number if events else 0, side_ids,
                    _miscall_notes([(numbers[e.round_id], e) for e in live
                                    if e.miscall is not None], names))


# changes to the match itself (its names, whether it is played on), not to the table:
# they hold no engine action, so replaying the log passes over them
NO_ACTION_KINDS = (ChangeKind.RENAME, ChangeKind.ABANDON)


def actions_at(match: Match, version: int) -> list[dict[str, Any]]:
    """The live actions (as :mod:`matches.scoring.changelog` documents) at ``version``, read from
    the change log alone: undo takes the last back, an import or a restore sets all."""
    docs: list[dict[str, Any]] = []
    for kind, action in (match.changes.filter(version__lte=version).order_by("version")
                         .values_list("kind", "action")):
        if kind in (ChangeKind.IMPORT, ChangeKind.RESTORE):
            docs = list(action["actions"])
        elif kind == ChangeKind.UNDO:
            docs.pop()
        elif kind in NO_ACTION_KINDS:
            continue
        else:
            docs.append(action)
    return docs


def change_in_force(*, match: Match, change: Change) -> bool:
    """Whether what ``change`` did still stands, so that a tap sent again is told when
    another phone took it back since, not just that it was recorded. An action (or an
    import, a restore) stands while the match's live actions begin with those it left;
    an undo, while what it took back is not back; a rename always (names are not taken
    back); an abandon, while the match is abandoned."""
    if change.kind == ChangeKind.RENAME:
        return True
    if change.kind == ChangeKind.ABANDON:
        return match.status == MatchStatus.ABANDONED
    now = [action_doc(action) for action in match_actions(match)]
    if change.kind == ChangeKind.UNDO:
        before = actions_at(match, change.version - 1)
        return now[:len(before)] != before
    then = actions_at(match, change.version)
    return now[:len(then)] == then


def change_history(match: Match) -> QuerySet[Change]:
    """Every change of the match, newest first, with who made it, and for a placement
    recorded despite a wrong call, the call and the rules' points (``called_as``,
    ``called_points``)."""
    miscalled = Event.objects.filter(change=OuterRef("pk"), miscall__isnull=False)
    return (match.changes.select_related("grant", "user").order_by("-version")
            .annotate(called_as=Subquery(miscalled.values("miscall")[:1]),
                      called_points=Subquery(miscalled.values("points")[:1])))


def scorer_grant(match: Match, grant_id: object) -> ScorerGrant | None:
    """The live grant ``grant_id`` (from a browser's session) for ``match``, if any."""
    if not isinstance(grant_id, int):
        return None
    return ScorerGrant.objects.filter(pk=grant_id, match=match, revoked_at=None).first()


def scorer_grant_with_match(public_id: UUID, grant_id: object) -> ScorerGrant | None:
    """The live grant ``grant_id`` (from a browser's session) for the match
    ``public_id``, with its match, in one query; None if it holds none."""
    if not isinstance(grant_id, int):
        return None
    try:  # get(), not first(): no ordering to add to a query every tap makes
        return ScorerGrant.objects.select_related("match").get(
            pk=grant_id, match__public_id=public_id, revoked_at=None)
    except ScorerGrant.DoesNotExist:
        return None


def matches_with_live_grants(grants: dict[int, int]) -> set[int]:
    """Of ``grants`` (match pk -> the grant id a browser's session holds for it), the
    matches whose grant is live: one query."""
    if not grants:
        return set()
    rows = (ScorerGrant.objects.filter(pk__in=grants.values(), match__in=grants.keys(),
                                       revoked_at=None)
            .order_by().values_list("match", "pk"))
    return {match for match, grant in rows if grants.get(match) == grant}


def match_grants(match: Match) -> QuerySet[ScorerGrant]:
    return match.grants.order_by("-revoked_at", "created_at", "id")


def started_by(match: Match, user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """``user``'s account started ``match`` and, for a club's match, is still one of the
    club's members: one who left the club (or was taken out) keeps no right over its
    games, as a phone's account that never joined it has none."""
    if user is None or not user.is_authenticated or match.created_by_id != user.pk:
        return False
    return match.club_id is None or Membership.objects.filter(club=match.club_id,
                                                              user=user.pk).exists()


def can_restore(match: Match, *, grant: ScorerGrant | None,
                user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """The phone that started the match, its creator's account (:func:`started_by`), a
    site admin (staff or superuser), or an admin of the club whose league the match was
    played in: who may restore an earlier version, or delete the match (the services
    check it)."""
    if grant is not None and grant.is_creator and grant.revoked_at is None:
        return True
    if user is None or not user.is_authenticated:
        return False
    if (bool(getattr(user, "is_staff", False)) or bool(getattr(user, "is_superuser", False))
            or started_by(match, user)):
        return True
    if match.season_id is None:  # no league's game: no club admin's to delete
        return False
    return Membership.objects.filter(
        user=user.pk, role__in=roles_at_least(RUNS_LEAGUE),
        club__seasons__divisions__fixtures__games__match=match).exists()


def match_record(match: Match) -> dict[str, Any]:
    """The ``domino-match/1`` document of a stored match."""
    return next(match_records([match]))


RECORDS_A_READ = 200  # matches whose rows match_records reads together


def match_records(matches: Iterable[Match]) -> Iterator[dict[str, Any]]:
    """The ``domino-match/1`` documents of ``matches``, in their order, as
    :func:`match_record` gives each: their seats, live rounds and live events read for
    :data:`RECORDS_A_READ` matches at a time (three queries, not three a match), each
    match replayed once. A match the rules refuse raises its error when its document is
    asked for, after those before it."""
    for batch in itertools.batched(matches, RECORDS_A_READ):
        ids = [match.pk for match in batch]
        names: dict[int, list[str]] = {}
        for match_id, name in (Seat.objects.filter(match__in=ids)
                               .order_by("match", "position").values_list("match", "name")):
            names.setdefault(match_id, []).append(name)
        rounds: dict[int, list[Round]] = {}
        for round_ in Round.objects.filter(match__in=ids, undone_by=None).order_by(
                "match", "number"):
            rounds.setdefault(round_.match_id, []).append(round_)
        events: dict[int, list[EventRead]] = {}
        for event in events_read(Event.objects.filter(match__in=ids, undone_by=None)
                                 .order_by("match", "number")):
            events.setdefault(event.match_id, []).append(event)
        for match in batch:
            yield rules.export(_replay(match, names.get(match.pk, []), _actions(
                rounds.get(match.pk, []), events.get(match.pk, []))))


def match_summary(match: Match) -> dict[str, Any]:
    return rules.summary(match_engine(match))


def claim_value(claim: Decimal | None) -> int | Fraction | None:
    if claim is None:
        return None
    return int(claim) if claim == claim.to_integral_value() else Fraction(claim)


def score_decimal(value: int | Fraction) -> Decimal:
    """An exact score (whole or half) as the database stores it."""
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(value.numerator) / Decimal(value.denominator)


def club_matches(club: Club) -> QuerySet[Match]:
    """The club's matches (its own, as the history lists them: a league game, or a
    rematch of one), its league games and the matches its players sat at, in the order
    they started."""
    ids = Match.objects.filter(
        Q(club=club) | Q(fixture_game__fixture__division__season__club=club)
        | Q(seats__player__club=club)
    ).values("pk")
    return Match.objects.filter(pk__in=ids).order_by("started_at", "id")
