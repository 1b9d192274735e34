"""Clubs: their members and roles, and the players who sit at their tables.

A club's player may have no account (a guest, someone without a phone); a member can
claim the player that is them. Whether a club's pages are public or for its members
only is the club's choice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Public: anyone can read the club's pages")
    MEMBERS = "members", _("Members only")


class Role(models.TextChoices):
    """From most to least: each role may do what the ones below it may."""

    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    CAPTAIN = "captain", _("Captain")
    SCORER = "scorer", _("Scorer")
    MEMBER = "member", _("Member")


ROLE_RANK = {role: rank for rank, role in enumerate(reversed(Role.values))}  # member 0 … owner 4

# addresses that are pages of their own beside the rows' (clubs/new/, a club's
# seasons/new/ and cups/new/): no club, season or cup has one
PAGE_SLUGS = ("new",)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    visibility = models.CharField(_("who can read its pages"), max_length=8,
                                  choices=Visibility.choices, default=Visibility.PUBLIC)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL,
                                   null=True, blank=True, related_name="clubs_created")
    # each invite link names the generation it was made in: withdrawing every link made
    # so far is a new generation (an invite is signed, not stored, so none is deleted)
    invite_generation = models.PositiveIntegerField(_("invite links' generation"), default=0)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(visibility__in=Visibility.values),
                                   name="club_visibility_valid"),
            models.CheckConstraint(condition=~Q(name=""), name="club_name_not_blank"),
            models.CheckConstraint(condition=~Q(slug=""), name="club_slug_not_blank"),
            models.CheckConstraint(condition=~Q(slug__in=PAGE_SLUGS),
                                   name="club_slug_not_a_page",
                                   violation_error_message=_("That address is a page's.")),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("matches:club", kwargs={"slug": self.slug})


class Membership(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="memberships")
    role = models.CharField(_("role"), max_length=8, choices=Role.choices,
                            default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        ordering = ["club", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            models.CheckConstraint(condition=Q(role__in=Role.values),
                                   name="membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.club}"

    def at_least(self, role: str) -> bool:
        return ROLE_RANK[self.role] >= ROLE_RANK[role]

    def invitable_roles(self) -> list[str]:
        """The roles this member may invite as: an owner any; others those below their
        own (captains members and scorers, admins up to captain)."""
        return [role for role in Role.values if self.role == Role.OWNER
                or ROLE_RANK[role] < ROLE_RANK[self.role]]

    def settable_roles(self, other: Membership) -> list[str]:
        """The roles this member may give ``other``: an owner any; an admin up to captain,
        to a member who is not an owner or admin; nobody else any."""
        if self.role == Role.OWNER:
            return list(Role.values)
        high = (Role.OWNER, Role.ADMIN)
        if self.role == Role.ADMIN and other.role not in high:
            return [role for role in Role.values if role not in high]
        return []


class Player(models.Model):
    """Someone who sits at a club's table, with or without an account."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players",
                             null=True, blank=True)
    name = models.CharField(_("name"), max_length=60)
    # the member who is this player (claimed); a guest has none
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                             blank=True, related_name="players")
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(F("club"), Lower("name"), name="player_name_unique_ci"),
            models.UniqueConstraint(fields=["club", "user"], condition=Q(user__isnull=False),
                                    name="player_one_per_member"),
            models.CheckConstraint(condition=~Q(name=""), name="player_name_not_blank"),
        ]

    def __str__(self) -> str:
        return self.name
