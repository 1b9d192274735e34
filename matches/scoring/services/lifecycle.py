"""Writes that manage a match as a whole, for its scorers: abandon it (and resume it),
correct the players' names before play, start a rematch, delete it (kept as its record).

Abandoning, resuming and renaming are changes like a tap: they lock the match, name the
version their page showed and carry an idempotency key
(:func:`~matches.scoring.services.play.write_begin`), and are logged as the match's next
version. They hold no engine action (``scoring.selectors.play.NO_ACTION_KINDS``): the
table's history replays past them. Any scorer may abandon, resume, rename and start a
rematch (the views hold the grant that says so); deleting is for those who may restore
versions, which :func:`match_delete_recorded` checks itself
(``scoring.selectors.play.can_restore``). None of them is made on a
closed league game (:mod:`matches.scoring.services.closure`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from fractions import Fraction
from uuid import UUID

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches import rules
from matches.scoring.changelog import action_doc, describe_abandon, describe_restore
from matches.scoring.models import (
    Change,
    ChangeKind,
    DeletedMatch,
    Match,
    MatchStatus,
    RoundMode,
    ScorerGrant,
    Seat,
)
from matches.scoring.selectors.outcome import before_play
from matches.scoring.selectors.play import (
    can_restore,
    match_actions,
    match_clubs,
    match_engine,
    match_names,
    match_record,
)
from matches.scoring.services.closure import closure_refuse, match_write
from matches.scoring.services.play import (
    PLAYERS_DIFFERENT,
    MatchStarted,
    User,
    change_log,
    match_start,
    signed_in_account,
    write_begin,
)
from matches.scoring.signals import results_changed

NAME_LENGTH: int = Seat._meta.get_field("name").max_length or 60

NOT_IN_PROGRESS = _("Only a match being played can be abandoned: this one is %(status)s.")
NOT_ABANDONED = _("This match is not abandoned: there is nothing to resume.")
NOT_OVER = _("A rematch follows a finished or abandoned match: this one is still being "
             "played.")
NO_LEAGUE_REMATCH = _("A league game has no rematch here: it would count in no fixture. "
                      "The fixture's page starts its next game.")
RENAME_AFTER_PLAY = _("The names can only be changed before the first tile is played: "
                      "the scores already name these players.")
RENAME_CLUB_PLAYER = _("%(name)s sits here as the club's player in a league game: the name "
                       "comes from the club's player list and is not changed here.")
NAME_NEEDED = _("Enter a name for seat %(n)s.")
NAME_TOO_LONG = _("A name has at most %(limit)s characters.")
DELETE_NOT_ALLOWED = _(
    "Only the phone that started the match, its creator's account, a site admin or an "
    "admin of its club can delete it. You can abandon it instead.")
NAMES_FOR_SEATS = _("Give one name for each of the %(count)s seats.")


@transaction.atomic
def matches_adopt(*, user: User, grant_ids: Collection[int]) -> int:
    """The matches a phone started with no one signed in on it (``grant_ids``: the
    scorer grants its session holds; each match's own starting grant, not revoked)
    become ``user``'s, who signed up or in on that phone: the account then scores them
    from any phone and keeps them once signed out. A match an account has already stays
    its. Returns how many."""
    return Match.objects.filter(
        created_by__isnull=True,
        pk__in=ScorerGrant.objects.filter(pk__in=grant_ids, is_creator=True,
                                          revoked_at__isnull=True).values("match"),
    ).update(created_by=user)


@match_write
@transaction.atomic
def match_abandon(*, match: Match, version: int | None = None, key: UUID | None = None,
                  grant: ScorerGrant | None = None, user: User | None = None,
                  closed_by: dict[str, int] | None = None) -> Change:
    """Stop the match without a winner; ``finished_at`` says when. Scoring writes are
    refused from then on (``MatchAbandoned``) until :func:`match_resume`. ``closed_by``:
    another concern stopped it for good, and keeps with the abandon what its closure
    check reads (a league's walkover: ``{"walkover": fixture id}``)."""
    match, done = write_begin(match, version=version, key=key)  # an abandoned one: refused
    if done is not None:
        return done
    if match.status != MatchStatus.IN_PROGRESS:
        raise ValidationError(NOT_IN_PROGRESS, code="not_in_progress",
                              params={"status": match.get_status_display().lower()})
    scores = " – ".join(rules.show_points(Fraction(side.score).limit_denominator(2))
                        for side in match.sides.order_by("index"))
    # the scores kept in the action too, so the history says it in each reader's language
    change = change_log(match, ChangeKind.ABANDON,
                        {"abandon": True, "scores": scores,
                         **({"closed_by": closed_by} if closed_by else {})},
                        describe_abandon(scores),
                        key=key, grant=grant, user=user)
    match.status = MatchStatus.ABANDONED
    match.finished_at = max(timezone.now(), match.started_at)
    match.full_clean()
    match.save(update_fields=["version", "status", "finished_at"])
    return change


@match_write
@transaction.atomic
def match_resume(*, match: Match, version: int | None = None, key: UUID | None = None,
                 grant: ScorerGrant | None = None, user: User | None = None) -> Change:
    """Play on an abandoned match, from where it stopped.

    Logged as a restore of the version before the abandon: its table is the one the
    match has now (an abandon changes no table), and the history page already reads a
    restore; undo and restore then work as before the abandon.
    """
    match, done = write_begin(match, version=version, key=key, abandoned_ok=True)
    if done is not None:
        return done
    if match.status != MatchStatus.ABANDONED:
        raise ValidationError(NOT_ABANDONED, code="not_abandoned")
    abandon = match.changes.filter(kind=ChangeKind.ABANDON).order_by("-version").first()
    assert abandon is not None  # the service that abandons logs it
    change = change_log(match, ChangeKind.RESTORE,
                        {"actions": [action_doc(action) for action in match_actions(match)],
                         "resumed": True},
                        describe_restore(abandon.version - 1, resumed=True),
                        key=key, grant=grant, user=user, restored_to=abandon.version - 1)
    match.status, match.finished_at = MatchStatus.IN_PROGRESS, None
    match.full_clean()
    match.save(update_fields=["version", "status", "finished_at"])
    return change


@match_write
@transaction.atomic
def seats_rename(*, match: Match, names: Sequence[str], version: int | None = None,
                 key: UUID | None = None, grant: ScorerGrant | None = None,
                 user: User | None = None) -> Change | None:
    """Correct the players' names, seat by seat, before the first tile is played.

    Names are checked as the new-match form checks them (spaces folded, not empty, at
    most 60 characters, different whatever their case); a seat that is a club's player
    keeps its name. Errors are tied to ``player_<seat>``, or to ``players`` for the
    match as a whole. Returns None when no name changed (nothing is logged).
    """
    match, done = write_begin(match, version=version, key=key)
    if done is not None:
        return done
    if not before_play(match_engine(match)):
        raise ValidationError({"players": ValidationError(RENAME_AFTER_PLAY,
                                                          code="rename_after_play")})
    seats = list(match.seats.order_by("position"))
    if len(names) != len(seats):
        raise ValidationError({"players": ValidationError(
            NAMES_FOR_SEATS, code="names_for_seats", params={"count": len(seats)})})
    wanted = [" ".join(name.split()) for name in names]
    errors: dict[str, ValidationError] = {}
    seen: set[str] = set()
    for seat, name in zip(seats, wanted, strict=True):
        field = f"player_{seat.position}"
        if seat.player_id is not None and name != seat.name:
            errors[field] = ValidationError(RENAME_CLUB_PLAYER, code="club_player",
                                            params={"name": seat.name})
        elif not name:
            errors[field] = ValidationError(NAME_NEEDED, code="name_needed",
                                            params={"n": seat.position + 1})
        elif len(name) > NAME_LENGTH:
            errors[field] = ValidationError(NAME_TOO_LONG, code="name_too_long",
                                            params={"limit": NAME_LENGTH})
        elif name.casefold() in seen:  # one player cannot hold two seats
            errors[field] = ValidationError(PLAYERS_DIFFERENT, code="players_different",
                                            params={"name": name})
        seen.add(name.casefold())
    if errors:
        raise ValidationError(errors)
    before = [seat.name for seat in seats]
    if wanted == before:
        return None
    changed = [seat for seat, name in zip(seats, wanted, strict=True) if seat.name != name]
    change = change_log(match, ChangeKind.RENAME, {"rename": {"from": before, "to": wanted}},
                        ", ".join(f"{seat.name} → {wanted[seat.position]}" for seat in changed),
                        key=key, grant=grant, user=user)
    match.save(update_fields=["version"])
    try:
        with transaction.atomic():
            # two passes, so names may swap seats under the unique-name rule
            for seat in changed:
                seat.name = f"\x1f{seat.position}"
            Seat.objects.bulk_update(changed, ["name"])
            for seat in changed:
                seat.name = wanted[seat.position]
                seat.full_clean(validate_constraints=False)
            Seat.objects.bulk_update(changed, ["name"])
    except IntegrityError:  # the database folds case its own way: two names it calls equal
        raise ValidationError({"players": ValidationError(
            PLAYERS_DIFFERENT, code="players_different",
            params={"name": changed[-1].name})}) from None
    return change


@transaction.atomic
def match_rematch(*, match: Match, creation_key: UUID, created_by: User | None = None,
                  phone: str = "", phone_name: str = "") -> MatchStarted:
    """A new match after a casual ``match`` (finished or abandoned; a league game has
    none): the same game, names and options, the same club if any, its first round in
    the mode the last one was played in, the starter drawn by lots.

    The same ``creation_key`` twice makes one match (:func:`match_start`)."""
    match = Match.objects.get(pk=match.pk)  # as it stands now, not as a page saw it
    if match.status == MatchStatus.IN_PROGRESS:
        raise ValidationError(NOT_OVER, code="not_over")
    if match.season_id is not None:  # its page offers none: it would count in no fixture
        raise ValidationError(NO_LEAGUE_REMATCH, code="league_game")
    last = match.rounds.filter(undone_by=None).order_by("-number").first()
    started = match_start(game=match.game, players=match_names(match),
                          options=match.options,
                          mode=last.mode if last is not None else RoundMode.TRACKED,
                          created_by=created_by, creation_key=creation_key, phone=phone,
                          phone_name=phone_name)
    if started.created and match.club_id is not None:
        Match.objects.filter(pk=started.match.pk).update(club=match.club_id)
        started.match.club_id = match.club_id
    return started


@match_write
@transaction.atomic
def match_delete_recorded(*, match: Match, grant: ScorerGrant | None = None,
                          user: User | None = None) -> DeletedMatch:
    """Delete a match for good, keeping its ``domino-match/1`` record (what its "Match
    record (JSON)" link gives, which the import takes back), who deleted it and when;
    the ratings it fed are rebuilt without it (:func:`match_delete`). Only those
    :func:`~matches.scoring.selectors.play.can_restore` names may (``grant``, ``user``), and no one
    once it is a closed league game (:class:`~matches.scoring.services.closure.ScorepadClosed`):
    its fixture's result holds its score, and would keep it with its evidence gone."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if not can_restore(match, grant=grant, user=user):
        raise PermissionDenied(DELETE_NOT_ALLOWED)
    closure_refuse(match)
    deleted = DeletedMatch(
        public_id=match.public_id, game=match.game,
        names=", ".join(match_names(match))[:800], record=match_record(match),
        grant_label=grant.phone[:80] if grant is not None else "", user=signed_in_account(user))
    deleted.full_clean()
    deleted.save()
    match_delete(match=match)
    return deleted


@match_write
@transaction.atomic
def match_delete(*, match: Match) -> None:
    """Delete a match for good (the admin's delete); the ratings it fed are rebuilt
    without it (``results_changed``). A closed league game is not deleted
    (:func:`closure_refuse`)."""
    closure_refuse(match)
    clubs = match_clubs(match)  # before the seats that name them are deleted
    game = match.game
    match.delete()
    results_changed.send(sender=Match, clubs=clubs, game=game)
