"""Pages that manage a match, for its scorers: abandon it (and resume it), delete it,
correct the players' names before play, start a rematch.

Each page asks before it acts (a GET shows what will happen; only a POST writes) and
is never stored by caches. Any scorer — a browser holding a scorer grant — may abandon,
resume, rename and start a rematch; deleting is for those who may restore versions
(``can_restore``: the phone that started the match, its creator's account, a
site admin, an admin of the club whose league game it was). Others get a 403. A closed
league game (its night sent or voided, its season locked) is neither abandoned, resumed,
renamed nor deleted: its pages say why and offer no form.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from matches import rules
from matches.core import messages as rules_messages
from matches.scoring import engine_cache
from matches.scoring.access import (
    GRANTS_KEY,
    hold_grant,
    not_scorer_answer,
    scorer_optional,
    scorer_required,
)
from matches.scoring.creation_keys import NOT_HERE as CREATION_KEY_NOT_HERE
from matches.scoring.creation_keys import creation_key_held
from matches.scoring.forms.lifecycle import RematchForm, RenameForm
from matches.scoring.forms.play import WriteForm
from matches.scoring.models import Change, Match, MatchStatus, ScorerGrant
from matches.scoring.selectors.outcome import before_play, match_overview, match_seats
from matches.scoring.selectors.play import can_restore, match_fresh
from matches.scoring.services import lifecycle as lifecycle_services
from matches.scoring.services.closure import ScorepadClosed, scorepad_closure
from matches.scoring.services.play import OutOfDate
from matches.scoring.views.play import announce_lots, form_refusal, phone_label, write_arguments

DELETE_NOT_ALLOWED = lifecycle_services.DELETE_NOT_ALLOWED  # the service's refusal, before the page
FORM_EXPIRED = gettext_lazy("That form was incomplete: here is the page again.")


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@scorer_required
def abandon(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    """Stop a match without a winner, after asking; an abandoned one offers Resume."""
    if request.method == "POST":
        change = _write_from_page(request, match, grant, lifecycle_services.match_abandon)
        if not isinstance(change, Change):
            return change
        if change.replayed:
            messages.info(request, _("Already abandoned."))
        else:
            messages.success(request, _("Match abandoned: it is kept with its scores, "
                                        "without a winner."))
        return redirect(match.get_absolute_url())
    return _abandon_page(request, match)


def _abandon_page(request: HttpRequest, match: Match, *, status: int = 200) -> HttpResponse:
    closure = scorepad_closure(match)  # a league game's, closed: no form
    return render(request, "matches/abandon.html", {
        **_page(match), "closed": closure.reason if closure else None},
        status=status)


@never_cache
@require_POST
@scorer_required
def resume(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    change = _write_from_page(request, match, grant, lifecycle_services.match_resume)
    if not isinstance(change, Change):
        return change
    if not change.replayed:
        messages.success(request, _("Match resumed: score on."))
    return redirect(match.get_scorer_url())


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@scorer_optional
def delete(request: HttpRequest, match: Match, grant: ScorerGrant | None) -> HttpResponse:
    """Delete a match for good, after asking; its record is kept (``DeletedMatch``)."""
    if not can_restore(match, grant=grant, user=request.user):
        if grant is None:
            return not_scorer_answer(request, match)
        raise PermissionDenied(DELETE_NOT_ALLOWED)
    if request.method == "POST":
        try:
            deleted = lifecycle_services.match_delete_recorded(match=match, grant=grant,
                                                     user=request.user)
        except ScorepadClosed as closed:  # a page drawn before the night was sent
            return render(request, "matches/delete.html",
                          {**_page(match), "closed": str(closed)}, status=400)
        grants = dict(request.session.get(GRANTS_KEY, {}))
        if grants.pop(str(match.public_id), None) is not None:
            request.session[GRANTS_KEY] = grants
        messages.success(request, _("Deleted the match of %(names)s. Its match record is "
                                    "kept for the site's admins, in case it was a mistake.")
                         % {"names": deleted.names})
        return redirect("matches:home")
    closure = scorepad_closure(match)  # a league game whose night was sent
    return render(request, "matches/delete.html", {
        **_page(match), "closed": closure.reason if closure else None})


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@scorer_required
def rename(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    """Correct the players' names while no tile has been played."""
    seats = [(seat.position, seat.name, seat.player_id is not None)
             for seat in match_seats(match=match)]
    form = RenameForm(request.POST or None, seats=seats)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            change = lifecycle_services.seats_rename(match=match, names=data["names"],
                                           **write_arguments(data, grant, request))
        except OutOfDate as stale:
            messages.warning(request, str(stale))
            return redirect("matches:rename", public_id=match.public_id)
        except ValidationError as error:  # tied to a seat's field, or to them all
            for field, errors in error.error_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        except rules.RulesError as error:  # an abandoned match
            form.add_error(None, rules_messages.explain(error))
        else:
            if change is None:
                messages.info(request, _("No name changed."))
            elif change.replayed:
                messages.info(request, _("Already recorded: %(what)s.")
                              % {"what": change.description})
            else:
                messages.success(request, _("Renamed: %(what)s.")
                                 % {"what": change.description})
            return redirect(match.get_scorer_url())
    match = match_fresh(match=match)
    closure = scorepad_closure(match)  # a league game whose night was sent
    can_rename = closure is None and match.status == MatchStatus.IN_PROGRESS
    if can_rename:
        with engine_cache.engine_for_reading(match) as engine:
            can_rename = before_play(engine)
    return render(request, "matches/rename.html", {
        **_page(match), "form": form, "can_rename": can_rename,
        "closed": closure.reason if closure else None,
        "after_play": lifecycle_services.RENAME_AFTER_PLAY},
        # a value longer than its field takes: refused as the scorepad refuses one
        status=400 if form.is_bound and form.too_long else 200)


@never_cache
@require_POST
@scorer_required
def rematch(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    """One tap: a new match with the same game, players and options, scored here."""
    form = RematchForm(request.POST)
    if not form.is_valid():
        messages.error(request, FORM_EXPIRED)
        return redirect(match.get_absolute_url())
    if not creation_key_held(request.session, form.cleaned_data["creation_key"]):
        # another scorer's page, copied: its key would lead to that phone's rematch
        messages.error(request, CREATION_KEY_NOT_HERE)
        return redirect(match.get_absolute_url())
    try:
        started = lifecycle_services.match_rematch(
            match=match, creation_key=form.cleaned_data["creation_key"],
            created_by=request.user, phone=phone_label(request), phone_name=grant.name)
    except (rules.RulesError, ValidationError) as error:
        messages.error(request, _messages(error))
        return redirect(match.get_absolute_url())
    hold_grant(request, started.grant)
    if started.created:
        announce_lots(request, started.match, started.first)
    return redirect(started.match.get_scorer_url())


def _write_from_page(request: HttpRequest, match: Match, grant: ScorerGrant,
                     service: Callable[..., Change]) -> Change | HttpResponse:
    """Abandon or resume from the abandon page's form: the change made, or the way back
    to that page with what went wrong (a stale page, a refusal)."""
    back = redirect("matches:abandon", public_id=match.public_id)
    form = WriteForm(request.POST)
    if not form.is_valid():
        if form.too_long:  # said on the page, as the scorepad does
            messages.error(request, form_refusal(form))
            return _abandon_page(request, match, status=400)
        messages.error(request, FORM_EXPIRED)
        return back
    try:
        return service(match=match, **write_arguments(form.cleaned_data, grant, request))
    except OutOfDate as stale:
        messages.warning(request, str(stale))
    except (rules.RulesError, ValidationError) as error:
        messages.error(request, _messages(error))
    return back


def _page(match: Match) -> dict[str, object]:
    """What every management page shows of the match: who plays, the score so far (the
    stored scores, per side)."""
    overview = match_overview(match=match)
    return {"match": match, "names": overview.names, "sides": overview.sides,
            "rounds": overview.rounds}


def _messages(error: Exception) -> str:
    if isinstance(error, rules.RulesError):
        return rules_messages.explain(error)
    return "; ".join(getattr(error, "messages", [str(error)]))
