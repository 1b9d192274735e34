"""Who may read a club and what its members may do there: the role each write needs,
named once, asked by the pages' flags (:func:`club_rights`) and the services' checks
(:func:`require_role`) alike. An outsider of a members-only club gets a 404 (the club
does not admit it exists); a member without the role, a 403."""

from __future__ import annotations

from functools import cached_property

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.utils.translation import gettext_lazy as _

from matches.clubs.models import ROLE_RANK, Club, Membership, Role
from matches.clubs.selectors import Viewer, membership, visible_clubs

# the least role that may do each thing at a club
INVITES = Role.CAPTAIN
ADDS_PLAYERS = Role.CAPTAIN
SETS_ROLES = Role.ADMIN
SETS_UP_CLUB = Role.ADMIN  # its name and who may see it
RUNS_LEAGUE = Role.ADMIN  # seasons, entrants, fixtures, adjustments, resolving disputes

NOT_ALLOWED = _("Only a club %(role)s or above can do that.")


class ClubRights:
    """What ``user`` may do at ``club``: their membership decides, read once, and only
    when a question needs it (none for a reader who is not signed in)."""

    def __init__(self, club: Club, user: Viewer) -> None:
        self.club, self.user = club, user

    @cached_property
    def member(self) -> Membership | None:
        return membership(self.club, self.user)

    def at_least(self, role: str) -> bool:
        return self.member is not None and self.member.at_least(role)

    @property
    def names_accounts(self) -> bool:
        """Whether the club's pages name its accounts to this reader: to members only,
        as its member list; outsiders are not told which accounts exist."""
        return self.member is not None

    @property
    def can_invite(self) -> bool:
        return self.at_least(INVITES)

    @property
    def can_add_players(self) -> bool:
        return self.at_least(ADDS_PLAYERS)

    @property
    def can_set_roles(self) -> bool:
        return self.at_least(SETS_ROLES)

    @property
    def can_set_up(self) -> bool:
        return self.at_least(SETS_UP_CLUB)

    @property
    def runs_league(self) -> bool:
        return self.at_least(RUNS_LEAGUE)

    def invite_roles(self) -> list[str]:
        """The roles this reader's invites may give (none: no invites)."""
        return self.member.invitable_roles() if self.can_invite and self.member else []

    def roles_for(self, other: Membership) -> list[str]:
        """The roles this reader may give ``other`` (never themselves)."""
        if not self.can_set_roles or self.member is None or other.pk == self.member.pk:
            return []
        return self.member.settable_roles(other)


def roles_at_least(role: str) -> list[str]:
    """``role`` and the roles above it, highest first: for a query of who holds it."""
    return [other for other in Role.values if ROLE_RANK[other] >= ROLE_RANK[role]]


def club_rights(*, club: Club, user: Viewer) -> ClubRights:
    return ClubRights(club, user)


def require_role(*, club: Club, user: Viewer, role: str) -> Membership:
    """``user``'s membership of ``club`` if it is at least ``role``; else PermissionDenied.
    The club's page asks the same :func:`club_rights`."""
    rights = club_rights(club=club, user=user)
    if rights.member is None or not rights.at_least(role):
        raise PermissionDenied(NOT_ALLOWED % {"role": Role(role).label.lower()})
    return rights.member


def club_for_viewer(slug: str, user: Viewer) -> Club:
    """The club, if ``user`` may read it; a members-only club is a 404 to others."""
    club = visible_clubs(user).filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    return club


def club_for(request: HttpRequest, slug: str) -> Club:
    """The club ``slug`` for this request's reader; a 404 if they may not read it."""
    return club_for_viewer(slug, request.user)


def club_for_role(request: HttpRequest, slug: str, role: str) -> Club:
    """The club ``slug`` if this request's reader is at least ``role`` there: a 404 if
    they may not read it, a 403 if they may but lack the role."""
    club = club_for(request, slug)
    require_role(club=club, user=request.user, role=role)
    return club
