"""Cup pages: a club's cups, a new cup, and the cup's page, which is its bracket (the
rounds side by side, the plate beside them) with its admin's forms: entrants, seeds,
the draw, the next round, the plate, the rounds' dates, the finals night and a reset.
Each tie links to its fixture's page, where it is played as any fixture night is.

Reads go through selectors, each write through one service; a refusal comes back as
the page again (400) with what was typed and why, beside the form it is about."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from matches.clubs.access import club_rights
from matches.clubs.models import Club
from matches.core.forms import add_refusal, refusal_said
from matches.cups import services as cups_services
from matches.cups.access import (
    RUNS_CUP,
    club_cups_run_by,
    club_of_cups,
    cup_for,
    cup_run_by,
    runs_cups,
)
from matches.cups.exports import cup_document, ties_csv
from matches.cups.forms import (
    CupEntrantForm,
    CupForm,
    DrawByHandForm,
    FinalsForm,
    FromSeasonForm,
    PlateUndrawForm,
    RenameEntrantForm,
    ResetForm,
    RoundDateForm,
    SeedsForm,
    entrant_lines,
    pair_lines,
)
from matches.cups.models import Cup, DrawMethod
from matches.cups.selectors import club_cups, cup_division_entrants, cup_entrants, cup_shown
from matches.leagues.selectors import season_attention

FORMS: dict[str, type[forms.Form]] = {
    "entrant": CupEntrantForm, "from-season": FromSeasonForm, "rename": RenameEntrantForm,
    "seeds": SeedsForm, "pairs": DrawByHandForm, "round-date": RoundDateForm,
    "finals": FinalsForm, "reset": ResetForm, "plate-undraw": PlateUndrawForm,
}
# forms whose choices are the cup's own (its entrants, its club's seasons)
CUP_CHOICES = (FromSeasonForm, RenameEntrantForm)


def _form(which: str, cup: Cup, data: Any = None) -> forms.Form:
    kind = FORMS[which]
    if kind in CUP_CHOICES:
        return kind(data, auto_id=f"{which}-%s", cup=cup)
    return kind(data, auto_id=f"{which}-%s")


def _user(request: HttpRequest) -> User:
    if not isinstance(request.user, User):
        raise PermissionDenied(_("Sign in first."))
    return request.user


@require_safe
def cup_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_of_cups(request, slug)
    return render(request, "matches/cups.html", {
        "club": club, "cups": club_cups(club),
        "admin": runs_cups(club=club, user=request.user)})


@require_http_methods(["GET", "HEAD", "POST"])
def cup_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_cups_run_by(request, slug)
    form = CupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            cup = cups_services.cup_create(
                club=club, by=_user(request), name=data["name"], starts_on=data["starts_on"],
                game=data["game"], options=data["options"],
                fixture_format=data["fixture_format"], singles=data["singles"] or 0,
                pairs=data["pairs"] or 0, race_to=data["race_to"],
                count_submitted=data["count_submitted"],
                paper_players_optional=data["paper_players_optional"],
                draw_method=data["draw_method"], draw_timing=data["draw_timing"],
                plate=data["plate"], level_tie=data["level_tie"],
                walkover=(data["walkover_winner"], data["walkover_loser"]))
        except ValidationError as error:
            add_refusal(form, error)
        else:
            messages.success(request, _("Cup made: add its entrants, then draw it."))
            return redirect(cup)
    status = 400 if request.method == "POST" else 200
    return render(request, "matches/cup_new.html", {"club": club, "form": form},
                  status=status)


@require_safe
def cup_page(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _cup_page(request, cup_for(request, slug, season))


def _cup_page(request: HttpRequest, cup: Cup, *, refused: str = "",
              form: forms.Form | None = None, status: int = 200) -> HttpResponse:
    """The bracket; for its admins, the forms (the ``refused`` one bound, with why)."""
    club: Club = cup.season.club
    rights = club_rights(club=club, user=request.user)
    admin = rights.at_least(RUNS_CUP)
    shown = cup_shown(cup)
    admin_forms = {name.replace("-", "_"): (form if name == refused and form is not None
                                            else _form(name, cup))
                   for name in FORMS} if admin and not cup.season.locked else {}
    return render(request, "matches/cup.html", {
        "club": club, "cup": cup, "season": cup.season, "b": shown, "admin": admin,
        "names_accounts": rights.names_accounts,
        # the ties its admins should see to, as a league season's page shows them
        "attention": season_attention(season=cup.season, now=timezone.now())
        if admin and not cup.season.locked else None,
        "forms": admin_forms, "refused": refused, "by_hand": cup.draw_method == DrawMethod.BY_HAND,
        "seeded": cup.draw_method == DrawMethod.SEEDED}, status=status)


def _write(request: HttpRequest, slug: str, season: str, which: str,
           write: Callable[[Cup, dict[str, Any]], object], done: str) -> HttpResponse:
    """An admin form of the cup's page (``which``, none for a button alone): checked,
    written by one service, then back to the page; refused, the page again (400)."""
    cup = cup_run_by(request, slug, season)
    form = _form(which, cup, request.POST) if which in FORMS else forms.Form(request.POST)
    if form.is_valid():
        try:
            write(cup, form.cleaned_data)
        except ValidationError as error:
            add_refusal(form, error)
        else:
            messages.success(request, done)
            return redirect(cup)
    cup = Cup.objects.select_related("season").get(pk=cup.pk)
    if which not in FORMS or not _form_shown(which, cup):
        # a button alone, or a form the page no longer shows (sent from a page opened
        # before the draw, or twice): its refusal is said at the top of the page
        refusal_said(request, form)
        return _cup_page(request, cup, status=400)
    return _cup_page(request, cup, refused=which, form=form, status=400)


def _form_shown(which: str, cup: Cup) -> bool:
    """Whether the cup's page shows the admin form ``which`` now (cup.html): the
    entrants' and the draw's until the draw, the plate's take-back once it is drawn,
    none once the season is locked."""
    if cup.season.locked:
        return False
    if which in ("entrant", "from-season", "seeds", "pairs"):
        return cup.drawn is None and (which != "seeds" or cup.draw_method == DrawMethod.SEEDED) \
            and (which != "pairs" or cup.draw_method == DrawMethod.BY_HAND)
    if which == "plate-undraw":
        return cup.plate_drawn is not None
    return True


def _by_name(cup: Cup) -> dict[str, Any]:
    return {entrant.name.casefold(): entrant for entrant in cup_division_entrants(cup)}


@require_POST
def cup_entrant_add(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "entrant", lambda cup, data:
                  cups_services.cup_entrant_add(
                      cup=cup, by=_user(request), name=data["name"], kind=data["kind"],
                      captain_username=data["captain"],
                      player_names=data["players"].split(",")), _("Entrant added."))


@require_POST
def cup_entrants_from_season(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "from-season", lambda cup, data:
                  cups_services.cup_entrants_from_season(cup=cup, by=_user(request),
                                                         season=data["season"]),
                  _("The season's entrants are entered."))


@require_POST
def cup_entrant_rename(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "rename", lambda cup, data:
                  cups_services.cup_entrant_rename(cup=cup, by=_user(request),
                                                   entrant=data["entrant"], name=data["name"]),
                  _("Entrant renamed."))


@require_POST
def cup_entrant_remove(request: HttpRequest, slug: str, season: str, pk: int) -> HttpResponse:
    def remove(cup: Cup, data: dict[str, Any]) -> object:
        entrant = cup_entrants(cup).filter(pk=pk).first()
        if entrant is None:
            raise Http404("No such entrant.")
        if not request.POST.get("confirm"):  # a squad and a captain would go with it
            raise ValidationError(_("Tick the box to say that %(name)s is to be taken out.")
                                  % {"name": entrant.name})
        return cups_services.cup_entrant_remove(cup=cup, by=_user(request), entrant=entrant)

    return _write(request, slug, season, "", remove, _("Entrant taken out."))


@require_POST
def cup_seeds(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    def write(cup: Cup, data: dict[str, Any]) -> object:
        seeds, unknown = entrant_lines(data["seeds"], _by_name(cup))
        if unknown or None in seeds:
            raise ValidationError({"seeds": _("Not the cup's entrants: %(names)s.")
                                   % {"names": ", ".join(unknown) or _("bye")}})
        return cups_services.cup_seeds_set(cup=cup, by=_user(request),
                                           seeds=[seed for seed in seeds if seed is not None])

    return _write(request, slug, season, "seeds", write, _("Seeds set."))


@require_POST
def cup_draw(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    if "pairs" in request.POST:
        def by_hand(cup: Cup, data: dict[str, Any]) -> object:
            pairs, unknown = pair_lines(data["pairs"], _by_name(cup))
            if unknown:
                raise ValidationError({"pairs": _("Not the cup's entrants: %(names)s.")
                                       % {"names": ", ".join(unknown)}})
            return cups_services.cup_draw(cup=cup, by=_user(request), pairs=pairs)

        return _write(request, slug, season, "pairs", by_hand, _("The cup is drawn."))
    return _write(request, slug, season, "", lambda cup, data: cups_services.cup_draw(
        cup=cup, by=_user(request)), _("The cup is drawn."))


@require_POST
def cup_round_draw(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    plate = request.POST.get("plate") == "on"
    return _write(request, slug, season, "", lambda cup, data: cups_services.cup_round_draw(
        cup=cup, by=_user(request), plate=plate), _("The next round is drawn."))


@require_POST
def cup_plate_draw(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "", lambda cup, data: cups_services.cup_plate_draw(
        cup=cup, by=_user(request)), _("The plate is drawn."))


@require_POST
def cup_round_date(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "round-date", lambda cup, data:
                  cups_services.cup_round_date(cup=cup, by=_user(request),
                                               number=data["number"], date=data["date"],
                                               plate=data["plate"]),
                  _("The round's date is set."))


@require_POST
def cup_finals(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "finals", lambda cup, data:
                  cups_services.cup_finals_set(cup=cup, by=_user(request), date=data["date"],
                                               venue=data["venue"]),
                  _("The finals night is set."))


@require_POST
def cup_reset(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "reset", lambda cup, data:
                  cups_services.cup_ties_reset(cup=cup, by=_user(request), round=data["round"],
                                               position=data["position"], plate=data["plate"],
                                               reason=data["reason"]),
                  _("The ties after it are reset: correct its result on its fixture's "
                    "page."))


@require_POST
def cup_plate_undraw(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    return _write(request, slug, season, "plate-undraw", lambda cup, data:
                  cups_services.cup_plate_undraw(cup=cup, by=_user(request),
                                                 reason=data["reason"]),
                  _("The plate's draw is taken back: correct the result, then draw the "
                    "plate again."))


@require_safe
def cup_export(request: HttpRequest, slug: str, season: str, what: str) -> HttpResponse:
    """``cup.json`` (``domino-cup/1``, read back by ``import_cup``) or ``ties.csv`` (one
    row per tie): for whoever may see the cup; else a 404."""
    if what not in ("cup.json", "ties.csv"):
        raise Http404("No such export.")
    cup = cup_for(request, slug, season)
    name = cup.season.slug
    if what == "cup.json":
        response: HttpResponse = JsonResponse(cup_document(cup),
                                              json_dumps_params={"indent": 1,
                                                                 "ensure_ascii": False})
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response
    response = HttpResponse(ties_csv(cup), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-ties.csv"'
    return response
