"""Pages: the home page, a new match, the public view and the scorer's scorepad.

Views parse input, call one service and render. With htmx they answer with the
scorepad fragment (``matches/scorepad.html#scorepad``); without it, they redirect
after a write, so the page works with JavaScript off too.

Scoring needs a scorer grant held in this browser's session: the phone that starts
a match gets one, and the shared scorer's link (``join``) is exchanged for one on
first use, then the browser goes on at token-free addresses. Scorer pages are never
stored by caches (``never_cache`` sends ``no-store``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRefresh
from django_htmx.middleware import HtmxDetails

from matches import rules
from matches.clubs.selectors import visible_clubs
from matches.core.forms import whole_number
from matches.core.messages import explain
from matches.scoring import engine_cache, match_page, presenters, scorepad
from matches.scoring.access import (
    GRANTS_KEY,
    held_grant,
    hold_grant,
    is_creator,
    match_for_watcher,
    not_scorer_answer,
    scorer_or_restorer,
    scorer_required,
)
from matches.scoring.creation_keys import NOT_HERE as CREATION_KEY_NOT_HERE
from matches.scoring.creation_keys import creation_key_for, creation_key_held
from matches.scoring.forms.play import (
    MAX_PLAYERS,
    CallForm,
    DrawForm,
    NewMatchForm,
    PhoneNameForm,
    PlayForm,
    RestoreForm,
    RoundForm,
    SettleForm,
    TurnForm,
    WriteForm,
    seat_number,
)
from matches.scoring.models import Change, ChangeKind, Match, MatchStatus, RoundMode, ScorerGrant
from matches.scoring.selectors import play as scoring_selectors
from matches.scoring.selectors.outcome import MatchEnd, match_end_summary
from matches.scoring.selectors.place import match_place
from matches.scoring.services.closure import scorepad_closure
from matches.scoring.services.play import (
    OutOfDate,
    draw_record,
    event_record,
    event_undo,
    grant_create,
    grant_rename,
    grant_revoke,
    match_restore,
    match_start,
    pass_record,
    placement_record,
    round_settle,
    round_start,
    scorer_link_rotate,
)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for the type checker)."""

    htmx: HtmxDetails


OPENED_KEY = "opened"  # session: public ids of matches this browser has watched, newest first
MAX_REMEMBERED = 20
COUNT_ENTRIES = ("tiles", "pips")  # how the count form is shown (?entry=)


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """This phone's matches: those it scores, those it has opened, those its user started.
    Strangers' matches are not listed (their public links are theirs to share)."""
    grants = scoring_selectors.live_grant_matches(request.session.get(GRANTS_KEY, {}))
    scoring = list(scoring_selectors.match_list(public_ids=list(grants),
                                                created_by=request.user)[:50])
    scoring_ids = {str(match.public_id) for match in scoring}
    opened = [match for match in scoring_selectors.watchable_matches(
        request.session.get(OPENED_KEY, []), request.user)[:MAX_REMEMBERED]
        if str(match.public_id) not in scoring_ids]
    # a match the user's account started but this phone holds no grant for still goes
    # to its scorepad while in play: the page there offers the account's right to score
    rows = [(match, match.get_scorer_url() if str(match.public_id) in grants
             or match.status == MatchStatus.IN_PROGRESS else match.get_absolute_url())
            for match in scoring]
    return render(request, "matches/home.html", {
        "scoring_here": [(m, url) for m, url in rows if m.status == MatchStatus.IN_PROGRESS],
        # abandoned ones too: no longer scored, kept with their scores (shown as abandoned)
        "finished_here": [(m, url) for m, url in rows if m.status != MatchStatus.IN_PROGRESS],
        "opened": opened, "clubs": visible_clubs(request.user)[:10]})


@require_http_methods(["GET", "HEAD", "POST"])
def match_new(request: HttpRequest) -> HttpResponse:
    """The new-match form; sent, the match starts and this browser scores it. Its
    creation key is good in the session that drew the form only
    (matches/scoring/creation_keys.py): from another browser it starts nothing."""
    form = NewMatchForm(request.POST or None, initial={
        "creation_key": None if request.method == "POST"
        else creation_key_for(request)})
    status = 200
    if request.method == "POST" and form.is_valid() \
            and not creation_key_held(request.session, form.cleaned_data["creation_key"]):
        form.add_error(None, CREATION_KEY_NOT_HERE)
        status = 400
    elif request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            started = match_start(
                game=data["game"], players=data["players"], options=data["options"],
                starter=data.get("starter_seat"), mode=data["mode"],
                created_by=request.user, creation_key=data["creation_key"],
                phone=phone_label(request))
        except rules.RulesError as error:
            form.add_error(None, explain(error))
        except ValidationError as error:  # e.g. names the database folds to one
            form.add_error("player_0", error.messages)
        else:
            hold_grant(request, started.grant)
            if started.created:
                announce_lots(request, started.match, started.first)
            return redirect(started.match.get_scorer_url())
    if form.is_bound:  # drawn again: with a key of this browser's own
        data = request.POST.copy()
        data["creation_key"] = str(creation_key_for(request))
        form.data = data
    players = whole_number(request.GET.get("players", ""), digits=2)
    return render(request, "matches/new.html", {
        "form": form, "shown_players": max(2, min(4 if players is None else players,
                                                  MAX_PLAYERS))}, status=status)


@require_safe
@vary_on_headers("HX-Request")
def match_detail(request: HtmxHttpRequest, public_id: UUID) -> HttpResponse:
    """The public, read-only view; it refreshes itself while the match is played.

    A finished match gets its own page instead: the log of its rounds, a chart of the
    scores and a replay of its tracked rounds (``?round=N&step=K``; with htmx, only the
    replay is sent)."""
    match = match_for_watcher(request, public_id)
    if request.htmx and request.htmx.target == "match-watch":
        # a finished or abandoned match's page asks whether it changed: a win undone, a
        # match resumed, a score corrected; unchanged, 204, else it loads itself again
        if request.GET.get("seen") == str(match.version):
            return HttpResponse(status=204)
        return HttpResponseClientRefresh()
    _remember_opened(request, match)
    if match.status != MatchStatus.IN_PROGRESS:  # finished, or abandoned: played no more
        if request.htmx and request.htmx.target != "replay":
            # a watcher's poll (it swaps #scorepad) saw the match end: load this page
            return HttpResponseClientRefresh()
        page = match_page.build(match, round_text=request.GET.get("round"),
                                step_text=request.GET.get("step"))
        template = "matches/match.html#replay" if request.htmx and page.replay else \
            "matches/match.html"
        grant = held_grant(request, match)
        scorer = grant is not None
        # an abandoned league game whose result is the league's now is not resumed; a
        # finished one whose score the league corrected says what counts instead
        closure = (scorepad_closure(match)
                   if match.season_id is not None and (
                       match.status == MatchStatus.FINISHED or scorer) else None)
        return render(request, template, {
            "page": page, "end": match_end_summary(match), "scorer": scorer,
            "closed": closure.reason if closure and scorer
            and match.status == MatchStatus.ABANDONED else None,
            "league_note": closure.note if closure else None,
            "league_url": closure.url if closure else None,
            # a league game: its fixture, season and club, named and linked
            "place": match_place(match),
            # whoever may delete it is offered the way: not only on a scorepad they hold
            "may_delete": scoring_selectors.can_restore(match, grant=grant,
                                                        user=request.user)})
    # A watcher's poll asks every few seconds, naming the version it shows (?seen=):
    # unchanged, it gets 204, which htmx leaves unswapped, so the page keeps the focus
    # and the open details it had. (The browser's revalidation would turn a 304 into
    # the cached page, swapped all the same.) Without ?seen=, the ETag answers 304.
    if request.htmx and request.GET.get("seen") == str(match.version):
        return HttpResponse(status=204)
    etag = f'"match-{match.version}"' if request.htmx else None
    if etag is not None and etag in request.headers.get("If-None-Match", ""):
        not_modified = HttpResponseNotModified()
        not_modified["ETag"] = etag
        return not_modified
    with engine_cache.engine_for_reading(match) as engine:
        view = scorepad.build(match, engine)
    template = "matches/scorepad.html#scorepad" if request.htmx else "matches/scorepad.html"
    response = render(request, template, {"view": view, "scorer": False,
                                          "place": match_place(match)})
    if etag is not None:
        response["ETag"] = etag
        response["Cache-Control"] = "no-cache"  # keep it, but ask again every time
    return response


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def join(request: HttpRequest, public_id: UUID, token: str) -> HttpResponse:
    """The shared scorer's link: asks before this phone takes a grant (a link preview
    must not make one), then leaves the secret behind for a token-free address."""
    match = scoring_selectors.match_by_public_id(public_id=public_id)
    form = PhoneNameForm(request.POST if request.method == "POST" else None)
    if not _token_matches(match, token):
        response = render(request, "matches/join.html", {"match": match, "state": "invalid"},
                          status=404)
    elif held_grant(request, match) is not None:
        response = redirect(match.get_scorer_url())
    elif form.is_valid():
        hold_grant(request, grant_create(
            match=match, phone=phone_label(request), name=form.cleaned_data["name"]))
        messages.success(request, _("This phone now scores this match."))
        response = redirect(match.get_scorer_url())
    else:  # asked first, or the name it was given refused (and shown again)
        response = render(request, "matches/join.html", {
            "match": match, "state": "confirm", "names": scoring_selectors.match_names(match),
            "form": form}, status=400 if form.is_bound else 200)
    # the page's address holds the secret: its requests name only the site as Referer
    # ("no-referrer" would also send "Origin: null", which Django's CSRF check refuses)
    response["Referrer-Policy"] = "strict-origin"
    return response


@never_cache
@require_safe
@vary_on_headers("HX-Request")
@scorer_required
def scorepad_page(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    sync = request.GET.get("sync")
    if sync:
        _announce_sync(request, match, sync)
    return _render(request, match, grant, selected=request.GET.get("tile"),
                   entry=request.GET.get("entry"))


@never_cache
@require_POST
@scorer_required
def play(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    form = PlayForm(request.POST)
    return _act(request, match, grant, form, lambda data: placement_record(
        match=match, seat=data["seat"], tile=data["tile"], at=data["at"],
        claim=data.get("claim"), **write_arguments(data, grant, request)),
        selected=request.POST.get("tile"))


@never_cache
@require_POST
@scorer_required
def draw(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    form = DrawForm(request.POST)
    return _act(request, match, grant, form, lambda data: draw_record(
        match=match, seat=data["seat"], tiles=data["tiles"],
        **write_arguments(data, grant, request)))


@never_cache
@require_POST
@scorer_required
def pass_turn(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    form = TurnForm(request.POST)
    return _act(request, match, grant, form, lambda data: pass_record(
        match=match, seat=data["seat"], **write_arguments(data, grant, request)))


@never_cache
@require_POST
@scorer_required
def call(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    # as many ends as the largest set allows: the rules then refuse more than the
    # match's own set can make
    form = CallForm(request.POST, ends=match.rules_game.called_ends_limit(rules.DOUBLE_TWELVE))
    return _act(request, match, grant, form, lambda data: event_record(
        match=match, action=rules.Call(data["seat"], data["ends"], data.get("claim"),
                                       data.get("goes_out", False)),
        **write_arguments(data, grant, request)))


@never_cache
@require_POST
@scorer_required
def settle(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    form = SettleForm(request.POST, players=match.player_count)
    return _act(request, match, grant, form, lambda data: round_settle(
        match=match, hands=data.get("hands"), pips=data.get("pips"), result=data["round_end"],
        domino_seat=data["domino_seat"], **write_arguments(data, grant, request)),
        entry=request.POST.get("entry"))


@never_cache
@require_POST
@scorer_required
def round_next(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    form = RoundForm(request.POST)

    def act(data: dict[str, Any]) -> Change:
        change = round_start(
            match=match, starter=data.get("starter"),
            mode=data.get("mode") or RoundMode.TRACKED, draw_lots=True,
            **write_arguments(data, grant, request))
        if not change.replayed:
            announce_lots(request, match, change)
        return change

    return _act(request, match, grant, form, act)


@never_cache
@require_POST
@scorer_required
def undo(request: HtmxHttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    form = WriteForm(request.POST)

    def act(data: dict[str, Any]) -> Change:
        change = event_undo(match=match, **write_arguments(data, grant, request))
        if not change.replayed:
            messages.info(request, _("Took back %(what)s.") % {"what": change.description})
        return change

    return _act(request, match, grant, form, act)


@never_cache
@require_safe
@scorer_or_restorer
def history(request: HttpRequest, match: Match,
            grant: ScorerGrant | None) -> HttpResponse:
    """Every change of the match, for its scorers, with restore where allowed."""
    return _history_page(request, match, grant)


def _history_page(request: HttpRequest, match: Match, grant: ScorerGrant | None, *,
                  status: int = 200) -> HttpResponse:
    names = scoring_selectors.match_names(match)
    changes = [(change, presenters.change_words(change, names))
               for change in scoring_selectors.change_history(match)]
    may_restore = scoring_selectors.can_restore(match, grant=grant, user=request.user)
    abandoned = match.status == MatchStatus.ABANDONED
    # a league game whose result is the league's now takes no restore (nor a resume)
    closure = scorepad_closure(match) if may_restore else None
    return render(request, "matches/history.html", {
        "match": match, "changes": changes, "names": names,
        # an abandoned match takes no change, a restore neither: it is resumed first, by a
        # phone that scores it (the link only where this one does)
        "can_restore": may_restore and not abandoned and closure is None,
        "resume_first": may_restore and abandoned and closure is None,
        "closed": closure.reason if closure else None,
        "scorer": grant is not None}, status=status)


@never_cache
@require_POST
@scorer_or_restorer
def restore(request: HttpRequest, match: Match,
            grant: ScorerGrant | None) -> HttpResponse:
    form = RestoreForm(request.POST)
    if not form.is_valid():
        if form.too_long:  # said on the page, as the scorepad does
            messages.error(request, form_refusal(form))
            return _history_page(request, match, grant, status=400)
        messages.error(request, _("Choose a version to restore."))
        return redirect("matches:history", public_id=match.public_id)
    data = form.cleaned_data
    try:
        change = match_restore(match=match, to_version=data["to_version"],
                                        **write_arguments(data, grant, request))
    except OutOfDate as stale:
        messages.warning(request, str(stale))
        return redirect("matches:history", public_id=match.public_id)
    except PermissionDenied as refused:  # a phone that scores it, but did not start it
        messages.error(request, str(refused))
        return redirect("matches:history", public_id=match.public_id)
    except rules.RulesError as error:
        messages.error(request, explain(error))
        return redirect("matches:history", public_id=match.public_id)
    except ValidationError as error:
        messages.error(request, "; ".join(error.messages))
        return redirect("matches:history", public_id=match.public_id)
    if not change.replayed:
        messages.success(request, _("Restored version %(version)s (now version %(now)s).")
                         % {"version": data["to_version"], "now": change.version})
    return redirect(match.get_scorer_url())


@never_cache
@require_safe
@scorer_required
def scorers(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    """Hand scoring to another phone (a QR code of the scorer's link), replace the link,
    see and revoke the phones that score."""
    return _scorers_page(request, match, grant,
                         name_form=PhoneNameForm(initial={"name": grant.name}))


def _scorers_page(request: HttpRequest, match: Match, grant: ScorerGrant, *,
                  name_form: PhoneNameForm, status: int = 200) -> HttpResponse:
    join_url = request.build_absolute_uri(match.get_join_url())
    grants = list(scoring_selectors.match_grants(match))
    response = render(request, "matches/scorers.html", {
        "match": match, "grant": grant, "join_url": join_url, "name_form": name_form,
        "qr_svg": presenters.qr_svg(join_url), "grants": grants,
        # the phones this one may revoke, as the service has it
        "revocable": {g.pk for g in grants
                      if g.active and scoring_selectors.can_revoke(grant=g, by=grant)}},
        status=status)
    response["Referrer-Policy"] = "strict-origin"  # the page shows the scorer's link
    return response


@never_cache
@require_POST
@scorer_required
def scorers_name(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    """This phone's name in the scorers' list."""
    form = PhoneNameForm(request.POST)
    if not form.is_valid():
        return _scorers_page(request, match, grant, name_form=form, status=400)
    grant_rename(grant=grant, name=form.cleaned_data["name"])
    messages.success(request, _("This phone is now called %(phone)s.")
                     % {"phone": presenters.phone_name(grant)})
    return redirect("matches:scorers", public_id=match.public_id)


@never_cache
@require_POST
@scorer_required
def scorers_rotate(request: HttpRequest, match: Match, grant: ScorerGrant) -> HttpResponse:
    scorer_link_rotate(match=match)
    messages.success(request, _("New scorer's link made: the old one no longer works."))
    return redirect("matches:scorers", public_id=match.public_id)


@never_cache
@require_POST
@scorer_required
def scorers_revoke(request: HttpRequest, match: Match, grant: ScorerGrant,
                   grant_id: int) -> HttpResponse:
    target = scoring_selectors.match_grant(match=match, pk=grant_id)
    try:
        grant_revoke(grant=target, by=grant)
    except PermissionDenied as refused:
        messages.error(request, str(refused))
        return redirect("matches:scorers", public_id=match.public_id)
    if target.pk == grant.pk:
        messages.info(request, _("This phone no longer scores this match."))
        return redirect(match.get_absolute_url())
    messages.success(request, _("%(phone)s no longer scores this match.")
                     % {"phone": presenters.phone_name(target)})
    return redirect("matches:scorers", public_id=match.public_id)


# -- helpers -------------------------------------------------------------------------


def write_arguments(data: dict[str, Any], grant: ScorerGrant | None,
                    request: HttpRequest) -> dict[str, Any]:
    """The arguments every scoring service takes from its form and its scorer."""
    return {"version": data["version"], "key": data["key"], "grant": grant,
            "user": request.user}


def announce_lots(request: HttpRequest, match: Match, change: Change | None) -> None:
    """Say whom the draw of lots chose, if the round's starter was drawn."""
    if change is not None and change.lots_drawn:
        starter = change.action["start"]["starter"]
        name = scoring_selectors.match_names(match)[starter]
        messages.info(request, _("Drawn by lots: %(name)s starts.") % {"name": name})


def _announce_sync(request: HttpRequest, match: Match, key: str) -> None:
    """After a lost answer the page asks whether its tap was recorded; say which."""
    try:
        change = scoring_selectors.change_by_key(match=match, key=UUID(key))
    except ValueError:
        return
    if change is not None and not scoring_selectors.change_in_force(match=match, change=change):
        messages.warning(request, _("Your last tap was recorded, and since taken back: "
                                    "%(what)s.") % {"what": _what_it_did(change, match)},
                         extra_tags="recorded")
    elif change is not None:
        messages.success(request, _("Your last tap was recorded: %(what)s.")
                         % {"what": _what_it_did(change, match)})
    else:
        messages.warning(request, _("Your last tap was not recorded. Tap it again if it is "
                                    "still needed."))


def _what_it_did(change: Change, match: Match) -> str:
    """A change in the reader's words, for "recorded: …": an undo says what it took
    back, not (as its description alone would) the tile as if just placed."""
    words = presenters.change_words(change, scoring_selectors.match_names(match))
    if change.kind == ChangeKind.UNDO:
        return _("took back %(what)s") % {"what": words}
    return words


def _token_matches(match: Match, token: str) -> bool:
    # bytes, so a token with any characters compares safely instead of raising
    return secrets.compare_digest(match.scorer_token.encode(), token.encode())


def _remember_opened(request: HttpRequest, match: Match) -> None:
    """The home page lists the matches this browser watched, newest first."""
    opened: list[str] = request.session.get(OPENED_KEY, [])
    public_id = str(match.public_id)
    if opened[:1] != [public_id]:  # a poll of the same page writes no session
        request.session[OPENED_KEY] = [public_id, *(p for p in opened if p != public_id)][
            :MAX_REMEMBERED]


@require_POST
def claim(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """The match's creator, signed in, scores it on this phone: the account's right, as
    it may restore or delete the match, so no shared link is needed."""
    match = scoring_selectors.match_by_public_id(public_id=public_id)
    if not is_creator(request, match):
        return not_scorer_answer(request, match)
    if held_grant(request, match) is None:
        form = PhoneNameForm(request.POST)
        if not form.is_valid():
            return not_scorer_answer(request, match, form=form)
        hold_grant(request, grant_create(
            match=match, phone=phone_label(request), name=form.cleaned_data["name"]))
        messages.success(request, _("This phone now scores this match."))
    return redirect(match.get_scorer_url())


def phone_label(request: HttpRequest) -> str:
    """A name for a phone in the scorers' list, from what its browser says it is. Kept
    in English and shown in each reader's language (``{% translate grant.label %}``),
    as the other scorers may read another language than this phone's."""
    agent = request.headers.get("User-Agent", "")
    for word, label in (("iPhone", "iPhone"), ("iPad", "iPad"),
                        ("Android", gettext_noop("Android phone")),
                        ("Windows", gettext_noop("Windows computer")), ("Macintosh", "Mac"),
                        ("Linux", gettext_noop("Linux computer"))):
        if word in agent:
            return label
    return gettext_noop("A browser")


def _scorer_url(match: Match, **query: str) -> str:
    url = match.get_scorer_url()
    given = {key: value for key, value in query.items() if value}
    return f"{url}?{urlencode(given)}" if given else url


def _act(request: HtmxHttpRequest, match: Match, grant: ScorerGrant, form: WriteForm,
         action: Callable[[dict[str, Any]], Change], *, selected: str | None = None,
         entry: str | None = None) -> HttpResponse:
    """Validate, call the service, answer: the fragment (htmx) or a redirect; a value
    longer than its field takes is refused on the page (400), never sent back in an
    address, and a refusal's way back names only a tile or count the page may show."""
    error = None
    refused: set[str] = set()  # the seats a refusal names, by name
    made: Change | None = None  # the write this tap made, if it made one
    if not form.is_valid():
        error = form_refusal(form)
    else:
        try:
            change = action(form.cleaned_data)
        except OutOfDate as stale:
            messages.warning(request, str(stale))  # nothing applied to an unseen table
            selected = None
        except rules.RulesError as exc:
            error = explain(exc)  # in the reader's language (matches/core/messages.py)
            refused = _named_seats(exc)
        else:
            if change.replayed and not scoring_selectors.change_in_force(match=match,
                                                                         change=change):
                # an undo or a restore took it back meanwhile: the table does not show it
                messages.warning(request, _("Already recorded, and since taken back: "
                                            "%(what)s.") % {"what": _what_it_did(change, match)},
                                 extra_tags="recorded")
            elif change.replayed:
                messages.info(request, _("Already recorded: %(what)s.")
                              % {"what": _what_it_did(change, match)})
            elif change.miscall:
                messages.warning(request, _("Recorded with the rules' points: %(why)s.")
                                 % {"why": change.miscall})
            if not request.htmx:
                return redirect(_scorer_url(match))
            selected = None
            if not change.replayed:
                made = change
    if error and not request.htmx:
        if form.too_long:  # the page with the refusal: the way back would carry the value
            return _render(request, match, grant, selected=selected, entry=entry, error=error,
                           form=form, status=400)
        messages.error(request, error)
        return redirect(_scorer_url(match, tile=selected or "",
                                    entry=entry if entry in COUNT_ENTRIES else ""))
    return _render(request, match, grant, selected=selected, entry=entry, error=error,
                   form=form, change=made, refused=refused)


def form_refusal(form: WriteForm) -> str:
    """Every error of a refused form, in one sentence for the page."""
    return "; ".join(str(e) for errors in form.errors.values() for e in errors)


def _named_seats(error: rules.RulesError) -> set[str]:
    """The seats a refusal is about (a count's "who", or "names" of several), so their
    fields can say they are in error."""
    who, names = error.params.get("who"), error.params.get("names")
    found = {who} if isinstance(who, str) else set()
    if isinstance(names, tuple):
        found.update(name for name in names if isinstance(name, str))
    return found


def _news(change: Change, view: scorepad.ScorepadView, end: MatchEnd | None) -> list[str]:
    """What a write just did, said in the bar: a placement says itself (its award), the
    rest in words, and a win after either."""
    news: list[str] = []
    if change.kind in (ChangeKind.DRAW, ChangeKind.PASS):
        news.append(presenters.change_words(change, view.names))
    elif change.kind == ChangeKind.START and view.round_number is not None:
        if view.turn_name:
            news.append(_("Round %(number)s: %(name)s to play") % {
                "number": view.round_number, "name": view.turn_name})
        else:
            news.append(_("Round %(number)s") % {"number": view.round_number})
    if view.rounds and view.rounds[-1].steps and (
            change.kind == ChangeKind.SETTLE
            # where hands are not counted (Fives and Threes), the last tile or the last
            # pass of a block settles the round by itself
            or change.kind in (ChangeKind.PLAY, ChangeKind.CALL, ChangeKind.PASS)
            and view.phase == "start"):
        settled = view.rounds[-1]
        settled_words = (_("Round %(number)s blocked and settled") if settled.blocked
                         else _("Round %(number)s settled"))
        news.append(settled_words % {"number": settled.number} + ": "
                    + "; ".join(settled.steps))
    if change.kind in (ChangeKind.PLAY, ChangeKind.CALL, ChangeKind.PASS, ChangeKind.SETTLE) \
            and view.phase == "settle" and view.round_number is not None:
        # the last tile, the last pass of a block, or a called round's result: the round
        # waits for its count
        news.append(view.count_title)
    if end is not None and end.winner is not None:
        news.append(_("%(winner)s won") % {"winner": end.winner})
    return news


def _count_seats(view: scorepad.ScorepadView, refused: WriteForm | None,
                 named: set[str]) -> list[dict[str, Any]]:
    """Each seat of the count (settle) form with what its fields hold: after a refused
    count, what the scorer entered, so that a typo costs one field, not the whole count,
    and whether the refusal named the seat (``named``); otherwise nothing, but 0 for a
    seat that went out."""
    seats = []
    for seat in view.seats:
        if isinstance(refused, SettleForm):  # its bound fields hold what was sent
            pips = str(refused[f"pips_{seat.position}"].value() or "")[:12]
            hand = set(refused[f"hand_{seat.position}"].value() or ())
        else:
            went_out = seat.tiles == 0 or seat.position == view.went_out
            pips, hand = "0" if went_out else "", set()
        seats.append({"seat": seat, "pips": pips, "hand": hand,
                      "invalid": seat.name in named})
    return seats


def _call_entry(view: scorepad.ScorepadView, refused: WriteForm | None) -> dict[str, Any]:
    """What the called placement's form holds: after a refused call, what the scorer
    entered (who placed it, the ends, the call), so that one wrong end costs one tap and
    the placement is not credited to the next seat by default; otherwise the next seat
    to call and nothing else."""
    if not isinstance(refused, CallForm):
        return {"seat": view.next_caller, "ends": [("", False)] * view.called_ends,
                "claim": "", "goes_out": False}
    seat = seat_number(refused["seat"].value(), len(view.seats))  # only one at this table
    return {"seat": view.next_caller if seat is None else seat,
            "ends": [(str(refused[f"end_{i}"].value() or "")[:2],
                      bool(refused[f"double_{i}"].value()))
                     for i in range(min(view.called_ends, refused.end_count))],
            "claim": str(refused["claim"].value() or "")[:6],
            "goes_out": bool(refused["goes_out"].value())}


def _render(request: HtmxHttpRequest, match: Match, grant: ScorerGrant | None, *,
            selected: str | None = None, entry: str | None = None, error: str | None = None,
            form: WriteForm | None = None, change: Change | None = None,
            refused: set[str] | None = None, status: int = 200) -> HttpResponse:
    """The scorepad as it stands; after ``change``, the write a tap just made, the match
    as that write left it (the service's copy: nothing to read again), and its news,
    which the bar says (and the page's announcer reads). ``refused``: the seats a
    refusal named, whose count fields say so."""
    if change is not None:
        match = change.match
    else:
        match = scoring_selectors.match_fresh(
            match=match, fields=["version", "status", "winner_side", "finished_at"])
    with engine_cache.scorepad_for_reading(match) as (engine, miscalls):
        view = scorepad.build(match, engine, selected=selected, miscalls=miscalls)
    end = match_end_summary(match)
    # a write this tap made found the scorepad open: a league game's tap asks no more
    closure = None if change is not None else scorepad_closure(match)
    context = {"view": view, "scorer": True, "error": error, "form": form,
               # a league game whose result is the league's now: said, and no controls
               "closed": closure.reason if closure else None,
               "closed_url": closure.url if closure else None,
               "news": _news(change, view, end) if change is not None else [],
               "placed": change is not None and change.kind in (ChangeKind.PLAY,
                                                                ChangeKind.CALL),
               "entry": entry if entry in COUNT_ENTRIES else "pips",
               "count_seats": _count_seats(view, form if error else None, refused or set()),
               "call_entry": _call_entry(view, form if error else None),
               "scorer_url": _scorer_url(match), "grant": grant,
               # finished or abandoned: what templates/matches/_match_end.html shows
               "end": end,
               # a league game's, over: back to its fixture, and no rematch
               "place": match_place(match) if end is not None else None,
               "sync_url": reverse("matches:scorepad", kwargs={"public_id": match.public_id}),
               # the page's links, a tap's answer's too: delete, as the delete page lets
               "may_delete": scoring_selectors.can_restore(match, grant=grant,
                                                           user=request.user)}
    if not request.htmx or request.htmx.target == "scorepad":
        template = "matches/scorepad.html#scorepad" if request.htmx else "matches/scorepad.html"
        return render(request, template, context, status=status)
    # A tap answers with what it changed: the table (scores, board, tiles, the bar)
    # and the rounds table, swapped out of band; the page around them stays.
    response = render(request, "matches/scorepad.html#live", context)
    oob = render(request, "matches/scorepad.html#history", {**context, "oob": True})
    response.content += oob.content
    return response



