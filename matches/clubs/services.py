"""Writes for clubs: create one, invite and admit members, set roles, add and claim
players. Every service checks that ``by`` may do it
(:func:`matches.clubs.access.require_role`: :class:`PermissionDenied`)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from matches.clubs.access import ADDS_PLAYERS, INVITES, SETS_ROLES, SETS_UP_CLUB, require_role
from matches.clubs.models import PAGE_SLUGS, Club, Membership, Player, Role, Visibility
from matches.clubs.selectors import INVITE_SALT, invitation, last_owner
from matches.clubs.signals import member_left
from matches.core import resends

LAST_OWNER = _("A club keeps at least one owner: make someone else owner first.")
INVITE_ABOVE = _("As %(role)s you can invite as: %(roles)s.")
OWNER_ONLY = _("Only an owner can make or unmake owners and admins.")
OWNER_ONLY_REMOVES = _("Only an owner can take an owner or an admin out of the club.")
PLAYER_TAKEN = _("%(name)s is already claimed by another member.")
ALREADY_A_PLAYER = _("You are already %(name)s in this club.")
NOT_A_MEMBER = _("Only the club's members can claim a player.")
NAME_TAKEN = _("The club already has a player called %(name)s.")


def free_slug(*, name: str, taken: QuerySet[Any], fallback: str) -> str:
    """An address from ``name`` that no row of ``taken`` has yet, nor a page
    (:data:`~matches.clubs.models.PAGE_SLUGS`: a club named "New" is new-2): "oak",
    "oak-2", …"""
    base = slugify(name)[:70] or fallback
    slug, n = base, 1
    while slug in PAGE_SLUGS or taken.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(*, name: str, by: User, visibility: str = Visibility.PUBLIC) -> Club:
    """A new club, owned by ``by``; its address comes from its name. The same club sent
    again at once (a double tap) is the first, not a second at "-2"
    (:mod:`matches.core.resends`)."""
    name = " ".join(name.split())
    User.objects.select_for_update().filter(pk=by.pk).first()  # one send at a time
    sent = Club.objects.filter(name=name, visibility=visibility, created_by=by,
                               created_at__gte=resends.since()).first()
    if sent is not None:
        return sent
    club = Club(name=name, slug=free_slug(name=name, taken=Club.objects.all(), fallback="club"),
                visibility=visibility, created_by=by)
    club.full_clean()
    club.save()
    Membership.objects.create(club=club, user=by, role=Role.OWNER)
    return club


@transaction.atomic
def club_update(*, club: Club, by: User, name: str, visibility: str) -> Club:
    require_role(club=club, user=by, role=SETS_UP_CLUB)
    club.name, club.visibility = " ".join(name.split()), visibility
    club.full_clean()
    club.save(update_fields=["name", "visibility"])
    return club


def club_invite(*, club: Club, by: User, role: str = Role.MEMBER) -> str:
    """A signed invite token (a week long) to join ``club`` as ``role``.

    Captains invite members and scorers; admins up to captain; owners any role."""
    inviter = require_role(club=club, user=by, role=INVITES)
    invitable = inviter.invitable_roles()
    if role not in invitable:
        raise PermissionDenied(INVITE_ABOVE % {
            "role": inviter.get_role_display().lower(),
            "roles": ", ".join(Role(r).label.lower() for r in invitable)})
    return signing.dumps({"club": club.pk, "role": role, "generation": club.invite_generation},
                         salt=INVITE_SALT, compress=True)


@transaction.atomic
def club_invites_withdraw(*, club: Club, by: User) -> None:
    """Every invite link made so far stops working (one forwarded where it should not
    be, a member taken out who kept one); new ones work. For those who set roles."""
    require_role(club=club, user=by, role=SETS_ROLES)
    Club.objects.filter(pk=club.pk).update(invite_generation=F("invite_generation") + 1)
    club.refresh_from_db(fields=["invite_generation"])


@transaction.atomic
def club_join(*, token: str, user: User) -> Membership:
    """``user`` joins the club the invite names, as the role it names.

    A member already keeps the role they have, higher or lower: an invite cannot be
    withdrawn for its week, so a member an admin has since demoted must not win the old
    role back by opening it again. Members' roles are changed by ``membership_set_role``."""
    club, role = invitation(token=token)
    membership, _created = Membership.objects.get_or_create(
        club=club, user=user, defaults={"role": role})
    return membership


@transaction.atomic
def membership_set_role(*, membership: Membership, role: str, by: User) -> Membership:
    """Admins set roles up to captain; only owners make or unmake owners and admins.
    The club keeps an owner (:func:`_club_locked` first)."""
    _club_locked(membership)
    acting = require_role(club=membership.club, user=by, role=SETS_ROLES)
    if role not in acting.settable_roles(membership):
        raise PermissionDenied(OWNER_ONLY)
    if role != Role.OWNER and last_owner(membership):
        raise ValidationError({"role": ValidationError(LAST_OWNER, code="last_owner")})
    membership.role = role
    membership.full_clean()
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, by: User, as_site_admin: bool = False) -> None:
    """A member leaves the club, or is taken out by one who could set their role (an
    owner: anyone; an admin: up to captains) or by a site admin repairing the club
    (``as_site_admin``: the admin's club page, staff only). The club keeps an owner, and
    the player the member claimed is no one's again (:func:`_club_locked` first); the
    concerns above hear of it (``member_left``: the leagues end the captaincies the
    member held, scoring the phones that started the club's matches under their account)."""
    _club_locked(membership)
    if membership.user_id != by.pk and not (as_site_admin and by.is_staff):
        acting = require_role(club=membership.club, user=by, role=SETS_ROLES)
        if not acting.settable_roles(membership):
            raise PermissionDenied(OWNER_ONLY_REMOVES)
    if last_owner(membership):
        raise ValidationError(LAST_OWNER, code="last_owner")
    Player.objects.filter(club=membership.club_id, user=membership.user_id).update(user=None)
    membership.delete()
    member_left.send(sender=Membership, club=membership.club, user=membership.user)


def _club_locked(membership: Membership) -> None:
    """Lock the membership's club row, then read the membership as it stands: two owners
    who unmake (or take out) each other at the same moment are taken one after the other,
    and the second is no owner by then (else both would see the other still owner, and
    the club be left with none)."""
    Club.objects.select_for_update().filter(pk=membership.club_id).first()
    membership.refresh_from_db()


@transaction.atomic
def player_add(*, club: Club, name: str, by: User) -> Player:
    """A player at the club's tables (a guest until a member claims them)."""
    require_role(club=club, user=by, role=ADDS_PLAYERS)
    name = _player_name(name)
    player = Player(club=club, name=name)
    player.full_clean(validate_constraints=False)
    if Player.objects.filter(club=club, name__iexact=name).exists():
        raise ValidationError({"name": ValidationError(NAME_TAKEN, code="taken",
                                                       params={"name": name})})
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:  # the same name added at the same moment by another captain
        raise ValidationError({"name": ValidationError(NAME_TAKEN, code="taken",
                                                       params={"name": name})}) from None
    return player


@transaction.atomic
def player_named(*, club: Club, name: str) -> Player:
    """The club's player called ``name`` (case and spacing aside), added if it has none:
    for an import, whose squads name players instead of adding them one by one. The
    caller holds the transaction and has checked who may import."""
    name = _player_name(name)
    player = Player.objects.filter(club=club, name__iexact=name).first()
    if player is None:
        player = Player(club=club, name=name)
        player.full_clean(validate_constraints=False)
        player.save()
    return player


def _player_name(name: str) -> str:
    """A name as the club keeps it: its spaces tidied (case is kept; compared without)."""
    return " ".join(name.split())


@transaction.atomic
def player_claim(*, player: Player, user: User) -> Player:
    """A member says "this player is me"."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not Membership.objects.filter(club=player.club_id, user=user).exists():
        raise PermissionDenied(NOT_A_MEMBER)
    if player.user_id is not None and player.user_id != user.pk:
        raise ValidationError(PLAYER_TAKEN, code="taken", params={"name": player.name})
    mine = Player.objects.filter(club=player.club_id, user=user).exclude(pk=player.pk).first()
    if mine is not None:
        raise ValidationError(ALREADY_A_PLAYER, code="already", params={"name": mine.name})
    player.user = user
    player.save(update_fields=["user"])
    return player
