"""Reads for clubs: which clubs a viewer may see, members, players, roles. What a
reader may do at a club is :mod:`matches.clubs.access`'s to say."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core import signing
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import Club, Membership, Player, Role, Visibility

Viewer = AbstractBaseUser | AnonymousUser | None

INVITE_SALT = "matches.club-invite"  # services.club_invite signs with it
INVITE_MAX_AGE = 7 * 24 * 3600  # an invite link works for a week
INVITE_INVALID = _("This invite link is not valid: ask the club for a new one.")
INVITE_EXPIRED = _("This invite link has expired: ask the club for a new one.")
INVITE_WITHDRAWN = _("This invite link was withdrawn by the club: ask it for a new one.")


def invitation(*, token: str) -> tuple[Club, str]:
    """The club and role an invite token names; ValidationError if it is bad or old."""
    try:
        data = signing.loads(token, salt=INVITE_SALT, max_age=INVITE_MAX_AGE)
    except signing.SignatureExpired:
        raise ValidationError(INVITE_EXPIRED, code="expired") from None
    except signing.BadSignature:
        raise ValidationError(INVITE_INVALID, code="invalid") from None
    club = Club.objects.filter(pk=data.get("club")).first()
    if club is None or data.get("role") not in Role.values:
        raise ValidationError(INVITE_INVALID, code="invalid")
    if data.get("generation", 0) != club.invite_generation:
        raise ValidationError(INVITE_WITHDRAWN, code="withdrawn")
    return club, data["role"]


def membership(club: Club, user: Viewer) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user.pk).first()


def member_club_ids(*, user: Viewer) -> set[int]:
    """The clubs ``user`` belongs to, by primary key."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Membership.objects.filter(user=user.pk).values_list("club", flat=True))


def club_readable(*, club_id: int, user: Viewer) -> bool:
    """Whether ``user`` may read the club ``club_id`` (public, or theirs)."""
    return visible_clubs(user).filter(pk=club_id).exists()


def club_member(*, club: Club, pk: int) -> Membership:
    """The club's membership ``pk``, with its user; another club's is a 404."""
    return get_object_or_404(club.memberships.select_related("user"), pk=pk)


def club_player(*, club: Club, pk: int) -> Player:
    """The club's player ``pk``; another club's is a 404."""
    return get_object_or_404(club.players, pk=pk)


def club_member_named(*, club: Club, username: str) -> Membership | None:
    """The club's member whose username is ``username``, with the user; None for anyone
    else, whether or not the site has such an account (a club's page does not say
    which accounts exist)."""
    return club.memberships.select_related("user").filter(user__username=username).first()


def club_players_named(*, club: Club, names: list[str]) -> dict[str, Player]:
    """Of ``names``, the club's players so called (case aside), by folded name."""
    folded = {name.casefold() for name in names}
    return {player.name.casefold(): player for player in club.players.all()
            if player.name.casefold() in folded}


def visible_clubs(user: Viewer) -> QuerySet[Club]:
    """Public clubs, and the members-only clubs ``user`` belongs to, by name."""
    visible = Q(visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        visible |= Q(memberships__user=user.pk)
    return Club.objects.filter(visible).distinct().order_by("name")


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("user").order_by("user__username")


def club_players(club: Club) -> QuerySet[Player]:
    return club.players.select_related("user").order_by("name")


def last_owner(membership: Membership) -> bool:
    """Whether ``membership`` is its club's only owner: it stays, and keeps its role (the
    club keeps an owner)."""
    return membership.role == Role.OWNER and not Membership.objects.filter(
        club=membership.club_id, role=Role.OWNER).exclude(pk=membership.pk).exists()
