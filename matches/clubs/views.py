"""Club pages: the list, a new club, a club's page (members, players, invites, seasons),
joining by an invite link. Reads go through selectors, writes through one service each;
a members-only club is a 404 to everyone else."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from matches.clubs import selectors as clubs_selectors
from matches.clubs import services as clubs_services
from matches.clubs.access import club_for, club_rights
from matches.clubs.forms import ClubForm, PlayerForm, RoleForm
from matches.clubs.models import Club, Role, Visibility


@require_safe
def club_list(request: HttpRequest) -> HttpResponse:
    clubs = clubs_selectors.visible_clubs(request.user)
    mine = clubs_selectors.member_club_ids(user=request.user)
    return render(request, "matches/clubs.html", {"clubs": clubs, "mine": mine})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = _user(request)
        club = clubs_services.club_create(name=form.cleaned_data["name"], by=user,
                                    visibility=form.cleaned_data["visibility"])
        messages.success(request, _("Club created. Invite its members from here."))
        return redirect(club)
    return render(request, "matches/club_new.html", {"form": form})


@require_safe
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    return _club_page(request, club)


@require_POST
def club_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the role the invite gives."))
        return redirect(club)
    token = clubs_services.club_invite(club=club, by=_user(request), role=form.cleaned_data["role"])
    link = request.build_absolute_uri(reverse("matches:club_join", kwargs={
        "slug": club.slug, "token": token}))
    return _club_page(request, club, invite_link=link, invite_role=form.cleaned_data["role"])


@require_POST
def club_invites_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    clubs_services.club_invites_withdraw(club=club, by=_user(request))
    messages.success(request, _("Every invite link made so far no longer works; new ones "
                                "do."))
    return redirect(club)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_join(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    try:
        club, role = clubs_selectors.invitation(token=token)
    except ValidationError as error:
        return render(request, "matches/club_join.html", {"error": error.messages[0]},
                      status=404)
    if club.slug != slug:
        return render(request, "matches/club_join.html",
                      {"error": _("This invite link is not valid: ask the club for a new one.")},
                      status=404)
    member = clubs_selectors.membership(club, request.user)
    if request.method == "POST":
        clubs_services.club_join(token=token, user=_user(request))
        if member is None:
            messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
        return redirect(club)
    return render(request, "matches/club_join.html", {"club": club, "member": member,
                                                      "role": Role(role).label})


@require_POST
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    form = ClubForm(request.POST)
    if form.is_valid():
        clubs_services.club_update(club=club, by=_user(request), name=form.cleaned_data["name"],
                             visibility=form.cleaned_data["visibility"])
        messages.success(request, _("Club settings saved."))
    else:
        messages.error(request, _("Give the club a name and say who can read its pages."))
    return redirect(club)


@require_POST
def member_role(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = club_for(request, slug)
    target = clubs_selectors.club_member(club=club, pk=pk)
    form = RoleForm(request.POST)
    if form.is_valid():
        try:
            clubs_services.membership_set_role(membership=target, role=form.cleaned_data["role"],
                                         by=_user(request))
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("%(user)s is now %(role)s.") % {
                "user": target.user.get_username(), "role": target.get_role_display()})
    else:  # no role the club has (the page offers none such): said, nothing changed
        messages.error(request, " ".join(str(reason) for reason in form.errors.get("role", [])))
    return redirect(club)


@require_POST
def member_remove(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Take a member out of the club, or leave it (one's own membership)."""
    club = club_for(request, slug)
    target = clubs_selectors.club_member(club=club, pk=pk)
    user = _user(request)
    try:
        clubs_services.membership_remove(membership=target, by=user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(club)
    if target.user_id == user.pk:
        messages.success(request, _("You left %(club)s.") % {"club": club.name})
        return redirect("matches:clubs")  # a members-only club is no longer theirs to read
    messages.success(request, _("%(user)s is no longer a member.")
                     % {"user": target.user.get_username()})
    return redirect(club)


@require_POST
def player_add(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for(request, slug)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            player = clubs_services.player_add(club=club, name=form.cleaned_data["name"],
                                         by=_user(request))
        except ValidationError as error:
            form.add_error("name", error.messages[0])
        else:
            messages.success(request, _("%(name)s added.") % {"name": player.name})
            return redirect(club)
    return _club_page(request, club, player_form=form, status=400)


@login_required
@require_POST
def player_claim(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = club_for(request, slug)
    player = clubs_selectors.club_player(club=club, pk=pk)
    try:
        clubs_services.player_claim(player=player, user=_user(request))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("You are %(name)s in this club.") % {"name": player.name})
    return redirect(club)


def _club_page(request: HttpRequest, club: Club, *, invite_link: str | None = None,
               invite_role: str | None = None, player_form: PlayerForm | None = None,
               status: int = 200) -> HttpResponse:
    rights = club_rights(club=club, user=request.user)
    me = rights.member
    players = list(clubs_selectors.club_players(club))
    # each member with the roles this reader may give them (none: no form)
    members = [(member, [(value, label) for value, label in Role.choices
                         if value in rights.roles_for(member)])
               for member in clubs_selectors.club_members(club)]
    return render(request, "matches/club.html", {
        "club": club, "me": me,
        # the club keeps an owner: its only one is told how to leave rather than refused
        "only_owner": me is not None and clubs_selectors.last_owner(me),
        "can_invite": rights.can_invite,
        "can_set_up": rights.can_set_up, "runs_league": rights.runs_league,
        "can_set_roles": rights.can_set_roles,
        "can_add_players": rights.can_add_players,
        "invite_roles": [(value, label) for value, label in Role.choices
                         if value in rights.invite_roles()],
        "members": members, "players": players,
        "invite_link": invite_link, "invite_role": invite_role,
        "visibilities": Visibility.choices,
        "player_form": player_form or PlayerForm(),
        "my_player": next((p for p in players if me and p.user_id == me.user_id), None),
    }, status=status)


def _user(request: HttpRequest) -> User:
    if not isinstance(request.user, User) or not request.user.is_authenticated:
        raise PermissionDenied(_("Sign in first."))
    return request.user
