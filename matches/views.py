"""Pages: the match list, a new match, the public view and the scorer's scorepad.

Views parse input, call one service and render. With htmx they answer with the
scorepad fragment (``matches/scorepad.html#scorepad``); without it, they redirect
after a write, so the page works with JavaScript off too.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.middleware import HtmxDetails

from matches import rules, scorepad, selectors, services
from matches.models import Match, MatchStatus, Round, RoundMode
from matches.scoring_forms import (
    CallForm,
    DrawForm,
    NewMatchForm,
    PlayForm,
    RoundForm,
    SeqForm,
    SettleForm,
)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for the type checker)."""

    htmx: HtmxDetails


SCORING_KEY = "scoring"  # session key: public ids of the matches started on this device
MAX_REMEMBERED = 20


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    in_progress = selectors.match_list(status=MatchStatus.IN_PROGRESS)[:20]
    finished = selectors.match_list(status=MatchStatus.FINISHED)[:20]
    scoring_here = [(match, _scorer_url(match)) for match in selectors.match_list(
        public_ids=request.session.get(SCORING_KEY, []), status=MatchStatus.IN_PROGRESS)]
    return render(request, "matches/home.html", {
        "in_progress": in_progress, "finished": finished, "scoring_here": scoring_here})


@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            match, first = services.match_start(
                game=data["game"], players=data["players"], options=data["options"],
                starter=data.get("starter_seat"), mode=data["mode"],
                created_by=request.user if request.user.is_authenticated else None)
        except rules.RulesError as error:
            form.add_error(None, str(error))
        else:
            # this phone keeps the scorer's link: the home page lists it under "Scoring here"
            scoring = request.session.get(SCORING_KEY, [])
            request.session[SCORING_KEY] = [str(match.public_id), *scoring][:MAX_REMEMBERED]
            _announce_lots(request, first)
            return redirect(_scorer_url(match))
    players = int(request.GET.get("players", 4)) if request.GET.get("players", "").isdigit() \
        else 4
    return render(request, "matches/new.html",
                  {"form": form, "shown_players": max(2, min(players, 12))})


@require_GET
@vary_on_headers("HX-Request")
def match_detail(request: HtmxHttpRequest, public_id: UUID) -> HttpResponse:
    """The public, read-only view; it refreshes itself while the match is played."""
    match = get_object_or_404(Match, public_id=public_id)
    view = scorepad.build(match, selectors.match_engine(match))
    template = "matches/scorepad.html#scorepad" if request.htmx else "matches/scorepad.html"
    return render(request, template, {"view": view, "scorer": False})


@require_GET
@vary_on_headers("HX-Request")
def scorepad_page(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    return _render(request, match, selected=request.GET.get("tile"),
                   entry=request.GET.get("entry"))


@require_POST
def play(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = PlayForm(request.POST)
    return _act(request, match, form, lambda data: services.placement_record(
        match=match, tile=data["tile"], at=data["at"], claim=data.get("claim"),
        expected_seq=data["seq"]), selected=request.POST.get("tile"))


@require_POST
def draw(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = DrawForm(request.POST)
    return _act(request, match, form, lambda data: services.draw_record(
        match=match, tiles=data["tiles"], expected_seq=data["seq"]))


@require_POST
def pass_turn(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = SeqForm(request.POST)
    return _act(request, match, form, lambda data: services.pass_record(
        match=match, expected_seq=data["seq"]))


@require_POST
def call(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = CallForm(request.POST, ends=match.rules_game.max_called_ends or 6)
    return _act(request, match, form, lambda data: services.event_record(
        match=match, action=rules.Call(data["seat"], data["ends"], data.get("claim"),
                                       data.get("goes_out", False)),
        expected_seq=data["seq"]))


@require_POST
def settle(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = SettleForm(request.POST, players=match.player_count)
    return _act(request, match, form, lambda data: services.round_settle(
        match=match, hands=data.get("hands"), pips=data.get("pips"), result=data["round_end"],
        domino_seat=data["domino_seat"], expected_seq=data["seq"]),
        entry=request.POST.get("entry"))


@require_POST
def round_next(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = RoundForm(request.POST)

    def act(data: dict[str, Any]) -> None:
        chosen = data.get("starter") or "lots"
        round_ = services.round_start(
            match=match, starter=int(chosen) if chosen.isdigit() else None,
            mode=data.get("mode") or RoundMode.TRACKED, draw_lots=True,
            expected_seq=data["seq"])
        _announce_lots(request, round_)

    return _act(request, match, form, act)


@require_POST
def undo(request: HtmxHttpRequest, public_id: UUID, token: str) -> HttpResponse:
    match = _scorer_match(public_id, token)
    form = SeqForm(request.POST)

    def act(data: dict[str, Any]) -> None:
        undone = services.event_undo(match=match, expected_seq=data["seq"])
        messages.info(request, _("Took back %(what)s.") % {
            "what": scorepad.describe(undone, selectors.match_names(match))})

    return _act(request, match, form, act)


# -- helpers -------------------------------------------------------------------------


def _announce_lots(request: HttpRequest, round_: Round) -> None:
    """Say whom the draw of lots chose, if the round's starter was drawn."""
    if round_.lots_drawn and round_.starter is not None:
        name = selectors.match_names(round_.match)[round_.starter]
        messages.info(request, _("Drawn by lots: %(name)s starts.") % {"name": name})


def _scorer_match(public_id: UUID, token: str) -> Match:
    match = get_object_or_404(Match, public_id=public_id)
    if not secrets.compare_digest(match.scorer_token, token):
        raise Http404(_("No such scorepad."))
    return match


def _scorer_url(match: Match, **query: str) -> str:
    url = match.get_scorer_url()
    given = {key: value for key, value in query.items() if value}
    return f"{url}?{urlencode(given)}" if given else url


def _act(request: HtmxHttpRequest, match: Match, form: SeqForm,
         action: Callable[[dict[str, Any]], Any], *, selected: str | None = None,
         entry: str | None = None) -> HttpResponse:
    """Validate, call the service, answer: the fragment (htmx) or a redirect."""
    error = None
    if not form.is_valid():
        error = "; ".join(str(e) for errors in form.errors.values() for e in errors)
    else:
        try:
            action(form.cleaned_data)
        except services.OutOfDate as stale:
            messages.warning(request, str(stale))  # nothing applied twice
            selected = None
        except rules.RulesError as exc:
            error = str(exc)
        else:
            if not request.htmx:
                return redirect(_scorer_url(match))
            selected = None
    if error and not request.htmx:
        messages.error(request, error)
        return redirect(_scorer_url(match, tile=selected or "", entry=entry or ""))
    return _render(request, match, selected=selected, entry=entry, error=error, form=form)


def _render(request: HtmxHttpRequest, match: Match, *, selected: str | None = None,
            entry: str | None = None, error: str | None = None,
            form: SeqForm | None = None) -> HttpResponse:
    view = scorepad.build(match, selectors.match_engine(match), selected=selected)
    context = {"view": view, "scorer": True, "error": error, "form": form,
               "entry": entry if entry in ("tiles", "pips") else "pips",
               "scorer_url": _scorer_url(match)}
    template = "matches/scorepad.html#scorepad" if request.htmx else "matches/scorepad.html"
    return render(request, template, context)

