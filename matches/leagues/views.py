"""League pages: a season's tables and fixture lists, a new season, a fixture night's
result and its sign-off, and the exports (CSV of tables and fixtures, ``domino-league/1``).

Reads go through selectors (a fixed number of queries per page), writes through one
service each; a service's refusal comes back as a message beside what caused it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from matches import rules
from matches.clubs.access import club_rights
from matches.clubs.models import Club, Player
from matches.core import messages as rules_messages
from matches.core.forms import add_refusal, refusal_said, whole_number
from matches.leagues import calendar as league_calendar
from matches.leagues import files as league_files
from matches.leagues import services as leagues_services
from matches.leagues.access import (
    FixtureReach,
    club_run_by,
    fixture_for,
    held_links,
    hold_link,
    league_run_by,
    season_for,
    season_run_by,
)
from matches.leagues.forms import (
    AdjustmentForm,
    DisputeForm,
    EntrantChangeForm,
    EntrantForm,
    FixtureAddForm,
    GenerateForm,
    NightsStartForm,
    RedateForm,
    SeasonForm,
)
from matches.leagues.models import (
    MAX_FIXTURE_GAMES,
    Division,
    Entrant,
    EntrantKind,
    Fixture,
    FixtureChange,
    FixtureCorrection,
    FixtureGame,
    FixtureStatus,
    Season,
)
from matches.leagues.presenters import TIEBREAK_NAMES, fixture_author, scheme_words
from matches.leagues.selectors import (
    CalendarFixture,
    CaptainsLink,
    FixtureRights,
    calendar_fixtures,
    captain_link_entrant,
    captain_link_fixtures,
    captain_link_token,
    club_seasons,
    division_document,
    division_entrant,
    division_fixture_lines,
    division_shown,
    division_table,
    division_table_and_form,
    entrant_division,
    entrant_squad,
    fixture_changes,
    fixture_corrections,
    fixture_for_viewer,
    fixture_game_score,
    fixture_games,
    fixture_rights,
    fixture_side_choices,
    lineup_sizes,
    players_chosen,
    season_adjustment,
    season_attention,
    season_division,
    season_division_list,
    season_divisions,
    season_entrant,
)
from matches.leagues.services import PaperGame
from matches.leagues.signals import fixture_captioned
from matches.rules import signoff
from matches.scoring.access import hold_grant, scorable_matches
from matches.scoring.presenters import qr_svg
from matches.scoring.views.play import phone_label


@require_http_methods(["GET", "HEAD", "POST"])
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_run_by(request, slug)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = leagues_services.season_create(
                club=club, by=_user(request), name=data["name"], starts_on=data["starts_on"],
                game=data["game"], options=data["options"], scoring=data["scoring"],
                tiebreaks=data["tiebreaks"], ends_on=data["ends_on"],
                fixture_format=data["fixture_format"], singles=data["singles"] or 0,
                pairs=data["pairs"] or 0, race_to=data["race_to"],
                count_submitted=data["count_submitted"],
                corrections_confirmed_again=data["corrections_confirmed_again"],
                paper_players_optional=data["paper_players_optional"],
                divisions=data["divisions"], nights_start=data["nights_start"])
        except ValidationError as error:
            form.refused(error)
        else:
            messages.success(request, _("Season created: add its entrants, then generate "
                                        "the fixtures."))
            return redirect(season)
    return render(request, "matches/season_new.html", {"club": club, "form": form})


@require_safe
def season_page(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """One division at a time (``?division=``; the first by default), phone first: its
    table and its fixture list by week; the other divisions are a tap away."""
    the_season = season_for(request, slug, season)
    if the_season.is_cup:  # a cup's season is shown as its bracket
        return redirect(the_season)
    return _season_page(request, the_season.club, the_season, shown=request.GET.get("division"))


def _season_page(request: HttpRequest, club: Club, the_season: Season, *,
                 shown: str | None, entered: dict[str, str] | None = None,
                 refused: forms.Form | None = None, status: int = 200) -> HttpResponse:
    """The season page showing the division whose id is ``shown`` (or the first); after
    a refused admin form, with what was ``entered`` in it (``entered["form"]`` names
    which) and why it was ``refused`` (:func:`_refusals`)."""
    divisions = season_division_list(season=the_season)
    chosen = next((d for d in divisions if str(d.pk) == shown),
                  divisions[0] if divisions else None)
    page = None
    if chosen is not None:
        division = division_shown(season=the_season, pk=chosen.pk)
        table, form = division_table_and_form(division, the_season)
        page = {
            "division": division,
            "rows": [{"row": row, "difference": row.games_for - row.games_against,
                      "form": form.get(row.entrant, ""),
                      "decided_by": TIEBREAK_NAMES.get(row.decided_by or "", "")}
                     for row in table.rows],
            "weeks": _weeks(division),
            "adjustments": [a for e in division.entrants.all() for a in e.adjustments.all()],
        }
    admin = club_rights(club=club, user=request.user).runs_league
    return render(request, "matches/season.html", {
        "club": club, "season": the_season, "divisions": divisions, "d": page,
        "admin": admin,
        # what its league admins should see to, all divisions at once
        "attention": season_attention(season=the_season, now=timezone.now())
        if admin and not the_season.locked else None,
        "scheme": scheme_words(the_season.scoring, the_season.tiebreaks),
        "entrant_kinds": EntrantKind.choices,
        "seasons": club_seasons(club), "entered": entered or {},
        **_refusals(refused, (entered or {}).get("form", ""))}, status=status)


def _refusals(form: forms.Form | None, which: str) -> dict[str, Any]:
    """A refused admin form's reasons for the season page: the form's own (``form_error``,
    at its top) and each field's (``refused``, by form then field, ``refused.adjust.
    points``: its words and the id of the element beside it that says them). The first
    on the page takes the focus."""
    if form is None:
        return {"form_error": "", "refused": {}}
    general = [*form.non_field_errors(),
               *(error for field in form.hidden_fields() for error in field.errors)]
    refused = {field.name: {"error": " ".join(str(error) for error in field.errors),
                            "id": f"{which}-{field.name}-error", "focus": False}
               for field in form.visible_fields() if field.errors}
    if not general and refused:
        next(iter(refused.values()))["focus"] = True
    return {"form_error": " ".join(general), "refused": {which.replace("-", "_"): refused}}


@require_POST
def entrant_add(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    the_season, division = _season_division(request, slug, season)
    form = EntrantForm(request.POST)

    return _post(request, the_season, division, "entrant", form,
                 lambda data: leagues_services.entrant_add(
                     division=division, by=_user(request), name=data["name"],
                     kind=data["kind"], captain_username=data["captain"],
                     player_names=data["players"].split(",")),
                 _("Entrant added."))


@require_POST
def fixtures_generate(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    the_season, division = _season_division(request, slug, season)
    form = GenerateForm(request.POST)
    return _post(request, the_season, division, "generate", form,
                 lambda data: leagues_services.fixtures_generate(
                     division=division, by=_user(request), legs=data["legs"]),
                 _("Fixtures generated."))


@require_POST
def fixture_add(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """A fixture made by hand in a division (a late entrant's nights, a night again)."""
    the_season, division = _season_division(request, slug, season)
    form = FixtureAddForm(request.POST)

    def write(data: dict[str, Any]) -> object:
        home = division_entrant(division=division, pk=data["home"])
        away = division_entrant(division=division, pk=data["away"])
        if home is None or away is None:
            raise ValidationError({"home" if home is None else "away": ValidationError(
                leagues_services.ENTRANT_OUTSIDE % {"division": division.name})})
        return leagues_services.fixture_add(division=division, by=_user(request), home=home,
                                            away=away, date=data["date"])

    return _post(request, the_season, division, "fixture-add", form, write,
                 _("Fixture added."))


@require_POST
def adjustment_add(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    the_season = season_run_by(request, slug, season)
    if the_season.is_cup:  # a cup has no table to adjust
        raise Http404("A cup's season has no league forms.")
    form = AdjustmentForm(request.POST)
    # back to the entrant's division (or, if none was chosen, the form's own)
    entrant_pk = _whole(request.POST.get("entrant"), digits=9) or 0
    division_pk = _whole(request.POST.get("division"), digits=9) or 0
    division = (entrant_division(season=the_season, entrant_pk=entrant_pk)
                or season_division(season=the_season, pk=division_pk))

    def write(data: dict[str, Any]) -> object:
        entrant = division_entrant(division=division, pk=data["entrant"])
        if entrant is None:
            raise ValidationError(_("Choose the entrant to adjust."))
        return leagues_services.adjustment_add(entrant=entrant, by=_user(request),
                                       points=data["points"], reason=data["reason"])

    return _post(request, the_season, division, "adjust", form, write, _("Points adjusted."))


@require_POST
def adjustment_remove(request: HttpRequest, slug: str, season: str, pk: int) -> HttpResponse:
    """Take back a points adjustment: outsiders 404, anyone not running the league 403."""
    the_season = season_run_by(request, slug, season)
    adjustment = season_adjustment(season=the_season, pk=pk)
    division_pk = adjustment.entrant.division_id
    try:
        leagues_services.adjustment_remove(adjustment=adjustment, by=_user(request))
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("Adjustment taken back: %(entrant)s %(points)+d — "
                                    "%(reason)s.") % {"entrant": adjustment.entrant.name,
                                                      "points": adjustment.points,
                                                      "reason": adjustment.reason})
    return redirect(f"{the_season.get_absolute_url()}?division={division_pk}")


@require_POST
def entrant_change(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """Rename an entrant of a division, set its captain, change its squad, or remove it
    (with its unplayed fixtures)."""
    the_season, division = _season_division(request, slug, season)
    form = EntrantChangeForm(request.POST)
    gone: list[int] = []

    def write(data: dict[str, Any]) -> object:
        entrant = division_entrant(division=division, pk=data["entrant"])
        if entrant is None:
            raise ValidationError(_("Choose the entrant to change."))
        if data["do"] == "remove":
            gone.append(leagues_services.entrant_remove(entrant=entrant, by=_user(request)))
            return None
        if data["do"] == "captain":
            return leagues_services.entrant_captain_set(
                entrant=entrant, by=_user(request), captain_username=data["captain"])
        if data["do"] in ("squad_add", "squad_drop"):
            names = data["players"].split(",")
            return leagues_services.entrant_squad_change(
                entrant=entrant, by=_user(request),
                add=names if data["do"] == "squad_add" else (),
                drop=names if data["do"] == "squad_drop" else ())
        return leagues_services.entrant_rename(entrant=entrant, by=_user(request),
                                               name=data["name"])

    done = {"remove": _("Entrant removed."), "captain": _("Captain set."),
            "squad_add": _("Squad changed."), "squad_drop": _("Squad changed.")}
    # each change is its own form on the page: its refusal is said there
    which = {"captain": "entrant-captain", "squad_add": "entrant-squad",
             "squad_drop": "entrant-squad"}.get(request.POST.get("do", ""), "entrant-change")
    response = _post(request, the_season, division, which, form, write,
                     done.get(request.POST.get("do", ""), _("Entrant renamed.")))
    if gone and gone[0]:
        messages.info(request, ngettext(
            "%(count)s fixture not yet played went with it.",
            "%(count)s fixtures not yet played went with it.", gone[0]) % {"count": gone[0]})
    return response


@require_POST
def fixtures_csv(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """Results kept in a spreadsheet, uploaded as CSV (columns in the README)."""
    the_season, division = _season_division(request, slug, season)
    league_run_by(request, the_season.club)
    upload = request.FILES.get("file")
    if upload is None or (upload.size or 0) > 1_000_000:
        messages.error(request, _("Choose a CSV file (at most 1 MB)."))
        return redirect(the_season)
    try:
        text = upload.read().decode("utf-8")
        imported = leagues_services.fixtures_csv_import(division=division, by=_user(request),
                                                text=text)
    except UnicodeDecodeError:
        messages.error(request, _("The file is not UTF-8 text: save it as CSV UTF-8."))
    except ValidationError as error:
        params = getattr(error, "params", None) or {}
        if params.get("url"):  # a fixture settled on its own page: the refusal links there
            messages.error(request, format_html('{} <a href="{}">{}</a>', " ".join(
                error.messages), params["url"], params["link"]))
        else:
            messages.error(request, " ".join(error.messages))
    except csv.Error:  # a cell past the reader's limit (131,072 characters), a stray NUL
        messages.error(request, _("The file could not be read as CSV: a cell is too "
                                  "long, or holds something a spreadsheet would not "
                                  "write. Save it from the spreadsheet again as CSV UTF-8."))
    else:
        messages.success(request, ngettext(
            "%(count)s fixture row imported.", "%(count)s fixture rows imported.",
            imported.rows) % {"count": imported.rows})
        if imported.unchanged:
            messages.info(request, ngettext(
                "%(count)s row matched a fixture that holds that result already: left as "
                "it was.", "%(count)s rows matched fixtures that hold those results "
                "already: left as they were.", imported.unchanged)
                % {"count": imported.unchanged})
    return redirect(f"{the_season.get_absolute_url()}?division={division.pk}")


@require_POST
def season_corrections(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    """The league's choice for its corrections: confirmed again, or final."""
    the_season = season_run_by(request, slug, season)
    again = request.POST.get("confirmed_again") == "on"
    try:
        leagues_services.season_corrections_choose(season=the_season, by=_user(request),
                                                   confirmed_again=again)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Corrections now go to the away captain to confirm "
                                    "again.") if again else
                         _("Corrections are now final by the league's authority."))
    return redirect(the_season)


@require_POST
def season_nights_start(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    the_season = season_run_by(request, slug, season)
    form = NightsStartForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the time the nights start, such as 19:30."))
        return redirect(the_season)
    try:
        leagues_services.season_nights_start_set(season=the_season, by=_user(request),
                                                 nights_start=form.cleaned_data["nights_start"])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(the_season)
    messages.success(request, _("Nights start at %(time)s: the reminders follow it.")
                     % {"time": form.cleaned_data["nights_start"].strftime("%H:%M")})
    return redirect(the_season)


@require_POST
def season_lock(request: HttpRequest, slug: str, season: str) -> HttpResponse:
    the_season = season_run_by(request, slug, season)
    if request.POST.get("confirm") != "on":  # there is no unlocking: asked once more
        messages.error(request, _("Tick the box to say that its results will no longer "
                                  "change, then lock the season."))
        return redirect(the_season)
    try:
        leagues_services.season_lock(season=the_season, by=_user(request))
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    else:
        messages.success(request, _("Season locked: its results can no longer change."))
    return redirect(the_season)


@require_safe
def fixture_page(request: HttpRequest, slug: str, season: str, pk: int) -> HttpResponse:
    return _fixture_page(request, fixture_for(request, slug, season, pk))


# the sign-off's action each of the fixture page's writes takes
_ACTIONS = {"play": signoff.Action.ENTER, "games": signoff.Action.ENTER,
            "submit": signoff.Action.SUBMIT, "confirm": signoff.Action.CONFIRM,
            "dispute": signoff.Action.DISPUTE, "resolve": signoff.Action.RESOLVE,
            "walkover-home": signoff.Action.WALKOVER,
            "walkover-away": signoff.Action.WALKOVER, "void": signoff.Action.VOID,
            "reinstate": signoff.Action.REINSTATE, "redate": signoff.Action.REDATE}


def _by(request: HttpRequest, reach: FixtureReach,
        action: str) -> User | CaptainsLink:
    """Who takes ``action`` on the fixture: the signed-in account when it may by itself;
    else a captain's link this phone holds for one of its sides (the home side's first
    for what the home side does); else the account, or a 403 to ask for a sign-in. The
    service's guard has the last word; but one who is both sides here (their account's
    and a link's, or two links) never signs their own side's result, as a captain of
    both never does."""
    user = _user_or_none(request)
    signed_in = user is not None and user.is_authenticated
    if not reach.links:
        return _user(request)
    step = _ACTIONS.get(action)
    if step is not None:
        refused = fixture_rights(fixture=reach.fixture, season=reach.season,
                                 user=request.user,
                                 links={link.entrant.pk for link in reach.links}).refusal(step)
        if refused is not None and refused.code == "own_result":
            raise PermissionDenied(leagues_services.OWN_FIXTURE)
    if signed_in and user is not None and step is not None and fixture_rights(
            fixture=reach.fixture, season=reach.season, user=user).may(step):
        return user
    side = (reach.fixture.away_id if step in (signoff.Action.CONFIRM, signoff.Action.DISPUTE)
            else reach.fixture.home_id)
    return next((link for link in reach.links if link.entrant.pk == side), reach.links[0])


@require_POST
def fixture_action(request: HttpRequest, slug: str, season: str, pk: int,
                   action: str) -> HttpResponse:
    """Every write on a fixture: its games, submit, confirm, dispute, resolve, walkover,
    void (and take it back), re-date. Each calls its one service."""
    reach = fixture_for(request, slug, season, pk)
    fixture = reach.fixture
    user = _by(request, reach, action)
    dispute_form = DisputeForm(request.POST if action == "dispute" else None)
    redate_form = RedateForm(request.POST if action == "redate" else None)
    try:
        if action == "play":
            started = leagues_services.fixture_game_start(
                fixture=fixture, by=user, number=_whole(request.POST.get("number"), digits=5) or 0,
                home_players=_squad(fixture.home, request.POST.getlist("home_player"),
                                    season=reach.season),
                away_players=_squad(fixture.away, request.POST.getlist("away_player"),
                                    season=reach.season),
                phone=phone_label(request))
            hold_grant(request, started.grant)
            messages.success(request, _("Game %(n)s is on the scorepad: its result goes to "
                                        "the fixture by itself.")
                             % {"n": request.POST.get("number")})
            return redirect(started.match.get_scorer_url())
        elif action == "games":
            leagues_services.fixture_games_enter(fixture=fixture, by=user,
                                                 games=_paper_games(request, fixture, reach.season))
            done = _("Scores saved.")
        elif action == "submit":
            leagues_services.fixture_submit(fixture=fixture, by=user)
            done = _("Submitted: the away captain confirms or disputes it.")
        elif action == "confirm":
            leagues_services.fixture_confirm(fixture=fixture, by=user)
            done = _("Result confirmed: it counts in the table.")
        elif action == "dispute":
            if not dispute_form.is_valid():
                raise ValidationError(_("Say what is wrong with the result."))
            leagues_services.fixture_dispute(fixture=fixture, by=user,
                                     message=dispute_form.cleaned_data["message"])
            done = _("Disputed: a league admin will resolve it.")
        elif action == "resolve":
            leagues_services.fixture_resolve(
                fixture=fixture, by=user,
                games=_paper_games(request, fixture, reach.season) or None)
            done = _("Resolved and confirmed.")
        elif action in ("walkover-home", "walkover-away"):
            leagues_services.fixture_walkover(fixture=fixture, by=user, side=action.split("-")[1])
            done = _("Walkover recorded.")
        elif action == "void":
            leagues_services.fixture_void(fixture=fixture, by=user)
            done = _("Fixture made void.")
        elif action == "reinstate":
            leagues_services.fixture_reinstate(fixture=fixture, by=user)
            done = _("The void is taken back: the fixture is open for its games again.")
        elif action == "redate":
            if not redate_form.is_valid():
                raise ValidationError(_("Give a valid date."))
            try:
                leagues_services.fixture_redate(fixture=fixture, by=user,
                                        date=redate_form.cleaned_data["date"],
                                        postponed=redate_form.cleaned_data["postponed"])
            except ValidationError as refused:
                add_refusal(redate_form, refused)  # said beside the date too
                raise
            fixture.refresh_from_db(fields=["status"])
            done = (_("Fixture postponed.") if fixture.status == FixtureStatus.POSTPONED
                    else _("Fixture re-dated."))
        else:
            raise ValidationError(_("Unknown action."))
    except ValidationError as error:
        fixture.refresh_from_db()
        # the games' scores and players as typed and chosen: nothing is lost
        typed = ({name: str(value) for name, value in request.POST.items()
                  if re.fullmatch(r"(home|away)_\d{1,2}(_player_[12])?", name)}
                 if action in ("games", "resolve") else {})
        game = (getattr(error, "params", None) or {}).get("n")
        return _fixture_page(request, reach, error=" ".join(error.messages),
                             dispute_form=dispute_form, redate_form=redate_form, status=400,
                             typed=typed, refused_game=game if typed else None)
    messages.success(request, done)
    return redirect(fixture)


@require_safe
def season_export(request: HttpRequest, slug: str, season: str, what: str) -> HttpResponse:
    """``table.csv``, ``fixtures.csv`` or ``league.json`` (``domino-league/1``), per division
    (``?division=``; the first by default)."""
    if what not in ("table.csv", "fixtures.csv", "league.json"):
        raise Http404("No such export.")
    the_season = season_for(request, slug, season)
    divisions = list(season_divisions(the_season))
    asked = request.GET.get("division")
    # a stale or mistyped ?division= is not quietly given another division's file
    division = next((d for d in divisions if str(d.pk) == asked), None) if asked else \
        (divisions[0] if divisions else None)
    if division is None:
        return HttpResponse(_("This season has no such division.") if asked
                            else _("This season has no division."), status=404,
                            content_type="text/plain")
    name = f"{the_season.slug}-{division.pk}"
    if what == "league.json":
        response: HttpResponse = JsonResponse(
            division_document(division, the_season), json_dumps_params={"indent": 1})
        response["Content-Disposition"] = f'attachment; filename="{name}.json"'
        return response
    if what == "table.csv":
        filename = f"{name}-table.csv"
        lines = league_files.table_csv(division_table(division, the_season))
    else:
        filename = f"{name}-fixtures.csv"
        lines = league_files.fixtures_csv(division_fixture_lines(division))
    response = HttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def division_calendar(request: HttpRequest, slug: str, season: str,
                      division: int) -> HttpResponse:
    """The division's fixtures as an iCalendar feed to subscribe to."""
    the_season = season_for(request, slug, season)
    the_division = season_division(season=the_season, pk=division)
    return _calendar(request, the_season, f"{the_season.name} — {the_division.name}",
                     calendar_fixtures(division=the_division))


@require_safe
def entrant_calendar(request: HttpRequest, slug: str, season: str,
                     entrant: int) -> HttpResponse:
    """One entrant's fixtures, home and away, as an iCalendar feed to subscribe to."""
    the_season = season_for(request, slug, season)
    the_entrant = season_entrant(season=the_season, pk=entrant)
    return _calendar(request, the_season, f"{the_season.name} — {the_entrant.name}",
                     calendar_fixtures(entrant=the_entrant))


def _calendar(request: HttpRequest, the_season: Season, name: str,
              fixtures: list[CalendarFixture]) -> HttpResponse:
    site = f"{request.scheme}://{request.get_host()}"
    events = league_calendar.fixture_events(fixtures, the_season, site=site)
    text = league_calendar.calendar_text(name=name, events=events, now=timezone.now())
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    # shown inline: a calendar app subscribes to the address, a browser offers to open it
    response["Content-Disposition"] = 'inline; filename="fixtures.ics"'
    return response


# -- captains' links ------------------------------------------------------------------


@require_safe
def captain_link(request: HttpRequest, slug: str, season: str, entrant: int) -> HttpResponse:
    """A league admin's page of an entrant's captain's link, to hand over as a QR code
    (for a captain without an account), the phone holding it, and its replacement."""
    the_season = season_run_by(request, slug, season)
    the_entrant = season_entrant(season=the_season, pk=entrant)
    url = request.build_absolute_uri(
        reverse("matches:captain_open", kwargs={"token": captain_link_token(the_entrant)}))
    response = render(request, "matches/captain_link.html", {
        "club": the_season.club, "season": the_season, "entrant": the_entrant,
        "link_url": url, "qr_svg": qr_svg(url, title=_("QR code of the captain's link of "
                                                       "%(entrant)s")
                                         % {"entrant": the_entrant.name})})
    response["Referrer-Policy"] = "strict-origin"  # the page shows the secret
    return response


@require_POST
def captain_link_replace(request: HttpRequest, slug: str, season: str,
                         entrant: int) -> HttpResponse:
    the_season = season_run_by(request, slug, season)
    the_entrant = season_entrant(season=the_season, pk=entrant)
    leagues_services.captain_link_replace(entrant=the_entrant, by=_user(request))
    messages.success(request, _("New captain's link made: the old one, and the phone that "
                                "opened it, no longer work."))
    return redirect("matches:captain_link", slug=slug, season=season, entrant=entrant)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def captain_open(request: HttpRequest, token: str) -> HttpResponse:
    """A captain's link opened on a phone: asks first (a link preview must not take
    it), then this phone, and no other, acts as that side's captain."""
    entrant = captain_link_entrant(token=token)
    state, status = "confirm", 200
    if entrant is None:
        state, status = "invalid", 404
    elif any(link.entrant.pk == entrant.pk for link in held_links(request)):
        return redirect("matches:captain")
    elif entrant.link_phone_key:
        state, status = "taken", 403
    elif request.method == "POST":
        try:
            key = leagues_services.captain_link_open(
                entrant=entrant, generation=entrant.link_generation,
                phone=phone_label(request))
        except ValidationError as refused:
            state = "taken" if getattr(refused, "code", "") == "taken" else "invalid"
            status = 403 if state == "taken" else 404
        else:
            hold_link(request, entrant, key)
            messages.success(request, _("This phone now acts as %(entrant)s's captain.")
                             % {"entrant": entrant.name})
            return redirect("matches:captain")
    response = render(request, "matches/captain.html", {
        "state": state, "entrant": entrant, "links": []}, status=status)
    # the page's address holds the secret: its requests name only the site as Referer
    response["Referrer-Policy"] = "strict-origin"
    return response


@never_cache
@require_safe
def captain_home(request: HttpRequest) -> HttpResponse:
    """The sides this phone captains through their links, each with its fixtures."""
    links = [{"entrant": link.entrant, "season": link.entrant.division.season,
              "fixtures": captain_link_fixtures(entrant=link.entrant)}
             for link in held_links(request)]
    return render(request, "matches/captain.html", {"state": "held", "links": links})


# -- helpers -------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def fixture_correct(request: HttpRequest, slug: str, season: str, pk: int) -> HttpResponse:
    """A league admin's correction of a fixture's result: the night's games, each with
    its score and who played it, prefilled from the fixture, and why. Outsiders 404,
    anyone not running the league 403; a fixture the table does not let the league
    correct now (no result yet, a locked season) says why, without the form."""
    the_season = season_run_by(request, slug, season)
    fixture = fixture_for_viewer(season=the_season, pk=pk)
    if request.method != "POST":
        return _correction_page(request, fixture, the_season)
    rows = _correction_rows(request)
    try:
        leagues_services.fixture_correct(
            fixture=fixture, by=_user(request), scores=_scores(request),
            home_players=[_squad(fixture.home, row[0], season=the_season) for row in rows],
            away_players=[_squad(fixture.away, row[1], season=the_season) for row in rows],
            reason=str(request.POST.get("reason", "")))
    except ValidationError as error:
        fixture.refresh_from_db()
        return _correction_page(request, fixture, the_season,
                                error=" ".join(error.messages), typed=request.POST,
                                refused_game=(getattr(error, "params", None) or {}).get("n"),
                                status=400)
    fixture.refresh_from_db()
    messages.success(request, _("Result corrected: the away captain confirms it again.")
                     if fixture.status == FixtureStatus.SUBMITTED else
                     _("Result corrected: it counts in the table."))
    return redirect(fixture)


def _correction_rows(request: HttpRequest) -> list[tuple[list[str], list[str]]]:
    """Each game's chosen players as posted (``home_player_N``, ``away_player_N``), by
    game number, up to the last game with a score or a player."""
    rows = [(request.POST.getlist(f"home_player_{n}"), request.POST.getlist(f"away_player_{n}"))
            for n in range(1, MAX_FIXTURE_GAMES + 1)]
    while rows and not any(rows[-1][0] + rows[-1][1]):
        rows.pop()
    return rows


def _correction_page(request: HttpRequest, fixture: Fixture, season: Season, *,
                     error: str | None = None, typed: Any = None,
                     refused_game: int | None = None, status: int = 200) -> HttpResponse:
    """The correction form, prefilled from the fixture's games as they count; after a
    refusal, everything as it was typed and the game the refusal is about marked."""
    rights = fixture_rights(fixture=fixture, season=season, user=request.user)
    refusal = rights.refusal(signoff.correction(
        confirmed_again=season.corrections_confirmed_again))
    games = {g.number: g for g in fixture_games(fixture=fixture)}
    home_squad = list(fixture_side_choices(fixture=fixture, side="home"))
    away_squad = list(fixture_side_choices(fixture=fixture, side="away"))
    rows = []
    for n in range(1, max(max(games, default=0), season.night.most_games) + 1):
        game = games.get(n)
        score = fixture_game_score(game) if game is not None else None
        scorepad = game is not None and game.match is not None \
            and game.match.status == "finished"
        if typed is not None:
            shown = [str(typed.get(f"{side}_{n}", ""))[:12] for side in ("home", "away")]
            chosen = [typed.getlist(f"{side}_player_{n}") for side in ("home", "away")]
        else:
            shown = ["", ""] if score is None else [str(score[0]), str(score[1])]
            chosen = [[str(p.pk) for p in game.home_players.all()] if game else [],
                      [str(p.pk) for p in game.away_players.all()] if game else []]
        rows.append({
            "n": n, "game": game, "scorepad": scorepad, "invalid": refused_game == n,
            "deciding": n == season.night.deciding_game,
            "played": _played_score(game) if scorepad and game else None,
            "sides": [("home", fixture.home, home_squad, _picks(chosen[0]), shown[0]),
                      ("away", fixture.away, away_squad, _picks(chosen[1]), shown[1])]})
    return render(request, "matches/fixture_correct.html", {
        "season": season, "fixture": fixture, "rows": rows, "caption": _caption(fixture),
        "refusal": rules_messages.explain(refusal) if refusal is not None else None,
        "home_squad": home_squad, "away_squad": away_squad,
        "pairs": season.fixture_format != "games" or season.pairs > 0,
        "reason": str(typed.get("reason", ""))[:300] if typed is not None else "",
        "error": error}, status=status)


def _caption(fixture: Fixture) -> list[str] | None:
    """Where a concern above places the fixture (a cup's tie: its round), for its pages
    to say instead of its division and week; None for a league's fixture."""
    for _receiver, words in fixture_captioned.send(sender=Fixture, fixture=fixture):
        said: Any = words  # a receiver's list of words (the stubs type a string)
        if said:
            return [str(word) for word in said]
    return None


def _played_score(game: FixtureGame) -> tuple[int, int] | None:
    """A scorepad game's score as its match was played (before any correction)."""
    corrected, game.score_corrected = game.score_corrected, False
    try:
        return fixture_game_score(game)
    finally:
        game.score_corrected = corrected


def _picks(chosen: list[str]) -> list[str]:
    """A side's two player choices (the player, the partner) as posted or kept."""
    return [*chosen[:2], *[""] * (2 - len(chosen[:2]))]


def _user_or_none(request: HttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


def _user(request: HttpRequest) -> User:
    user = _user_or_none(request)
    if user is None or not user.is_authenticated:
        raise PermissionDenied(_("Sign in first."))
    return user


def _season_division(request: HttpRequest, slug: str,
                     season: str) -> tuple[Season, Division]:
    """A league season's division for an admin form of its page, if this request's
    reader runs its league (404, then 403, before the form is read); a cup's season has
    no such page (its entrants, draw and dates are the cup page's): 404."""
    the_season = season_run_by(request, slug, season)
    if the_season.is_cup:
        raise Http404("A cup's season has no league forms.")
    division = season_division(
        season=the_season, pk=_whole(request.POST.get("division"), digits=9) or 0)
    return the_season, division


def _post(request: HttpRequest, season: Season, division: Division, which: str,
          form: forms.Form, write: Callable[[dict[str, Any]], object],
          done: str) -> HttpResponse:
    """An admin form of the season page (``which``) for ``division``: written, then back
    to that division; refused, the page again with what was entered and why."""
    if form.is_valid():
        try:
            write(form.cleaned_data)
        except ValidationError as refused:
            add_refusal(form, refused)  # beside the field it names, else the form's
        except rules.RulesError as refused:
            form.add_error(None, rules_messages.explain(refused))
        else:
            messages.success(request, done)
            return redirect(f"{season.get_absolute_url()}?division={division.pk}")
    if season.locked:  # its page shows no admin form: the reasons go at its top
        refusal_said(request, form)
        return redirect(f"{season.get_absolute_url()}?division={division.pk}")
    entered = {**request.POST.dict(), "form": which}
    entered.pop("csrfmiddlewaretoken", None)
    return _season_page(request, season.club, season, shown=str(division.pk),
                        entered=entered, refused=form, status=400)


def _fixture_page(request: HttpRequest, reach: FixtureReach, *,
                  error: str | None = None, dispute_form: DisputeForm | None = None,
                  redate_form: RedateForm | None = None, status: int = 200,
                  typed: dict[str, str] | None = None,
                  refused_game: int | None = None) -> HttpResponse:
    """The fixture night; after a refused write, the games' scores and players as they
    were typed and chosen (``typed``: nothing is lost) and the game the refusal is about
    marked. A captain's link held for one of its sides acts as that side's captain."""
    fixture, season = reach.fixture, reach.season
    rights = fixture_rights(fixture=fixture, season=season, user=request.user,
                            links={link.entrant.pk for link in reach.links})
    caption = _caption(fixture)
    games = fixture_games(fixture=fixture)
    by_number = {g.number: g for g in games}
    scores = {g.number: fixture_game_score(g) for g in games}  # home, away: as counted
    # a game this phone (or its signed-in starter) may score links to its scorepad
    scorable = scorable_matches(request, [g.match for g in games if g.match is not None])
    rows = max(max(by_number, default=0), season.night.most_games)
    sizes = lineup_sizes(season=season, home=fixture.home, away=fixture.away)
    deciding = season.night.deciding_game
    # a deciding game is played one or two a side, whatever the night's own games
    deciding_sizes = sizes if sizes == (1,) else (1, 2)
    return render(request, "matches/fixture.html", {
        "season": season, "fixture": fixture, "games": games,
        "club_readable": reach.club_readable,
        "by_link": [link.entrant for link in reach.links],
        "game_rows": [_game_row(n, by_number.get(n), typed, refused_game, scores,
                                deciding_sizes if n == deciding else sizes,
                                deciding=n == deciding)
                      for n in range(1, rows + 1)],
        "deciding_game": deciding,
        "scorable": scorable,
        "caption": caption,
        # a cup's night that is no tie of it now (taken back by a reset): the cup refuses
        # every step on it, so its page offers none
        "taken_back": season.is_cup and caption is None,
        "changes": [(c, _author(c, fixture, rights)) for c in fixture_changes(fixture=fixture)],
        "admin": rights.admin,
        "corrections": [(c, _author(c, fixture, rights))
                        for c in fixture_corrections(fixture=fixture)],
        "can_correct": rights.can_correct,
        "home_squad": entrant_squad(entrant=fixture.home),
        "away_squad": entrant_squad(entrant=fixture.away),
        # the paper games' choices: a player who has left the squad stays in a game kept
        "home_choices": fixture_side_choices(fixture=fixture, side="home"),
        "away_choices": fixture_side_choices(fixture=fixture, side="away"),
        # a partner to choose on the scorepad's form: not where every game is singles
        "pairs_possible": 2 in sizes,
        "singles_possible": 1 in sizes or (deciding is not None and 1 in deciding_sizes),
        "can_enter": rights.can_enter, "can_sign": rights.can_sign,
        "both_captains": rights.both_captains, "can_resolve": rights.can_resolve,
        "can_submit": rights.can_submit, "can_redate": rights.can_redate,
        "can_walkover": rights.can_walkover, "can_void": rights.can_void,
        "can_reinstate": rights.can_reinstate,
        "error": error, "dispute_form": dispute_form or DisputeForm(),
        "redate_form": redate_form if redate_form is not None and redate_form.is_bound
        else RedateForm(initial={"date": fixture.date,
                                 "postponed": fixture.status == FixtureStatus.POSTPONED}),
    }, status=status)


def _author(change: FixtureChange | FixtureCorrection, fixture: Fixture,
            rights: FixtureRights) -> str:
    """Who made ``change``, named as this reader may see: accounts to members only."""
    by_link = getattr(change, "by_link", None)
    return fixture_author(user_id=change.user_id,
                          username=change.user.get_username() if change.user else "",
                          by_link=by_link.name if by_link is not None else None,
                          home=fixture.home, away=fixture.away,
                          accounts_shown=rights.club.names_accounts)


def _game_row(n: int, game: FixtureGame | None, typed: dict[str, str] | None,
              refused: int | None, scores: dict[int, tuple[int, int] | None],
              sizes: tuple[int, ...], *, deciding: bool = False) -> dict[str, Any]:
    """Game ``n``'s row of the games form: what it shows in its score fields and its
    players' choices (``home_players``, ``away_players``: each slot's name, whether it
    may be left empty, and the player chosen), or a scorepad game's score as the
    fixture counts it (home, away)."""
    def shown(name: str, kept: object) -> str:
        if typed is not None and name in typed:
            return typed[name][:12]
        return "" if kept is None else str(kept)

    def slots(side: str, kept: list[Player]) -> list[dict[str, Any]]:
        return [{"name": f"{side}_{n}_player_{slot}", "slot": slot,
                 # the second player of a night that has singles too: none, for one
                 "partner_optional": slot > min(sizes),
                 "chosen": shown(f"{side}_{n}_player_{slot}",
                                 kept[slot - 1].pk if len(kept) >= slot else None)}
                for slot in range(1, max(sizes) + 1)]

    home_kept = list(game.home_players.all()) if game is not None and not game.match_id else []
    away_kept = list(game.away_players.all()) if game is not None and not game.match_id else []
    return {"n": n, "game": game, "invalid": refused == n, "score": scores.get(n),
            "deciding": deciding,
            "home": shown(f"home_{n}", game.home_score if game else None),
            "away": shown(f"away_{n}", game.away_score if game else None),
            "home_players": slots("home", home_kept), "away_players": slots("away", away_kept)}


def _whole(value: object, *, digits: int) -> int | None:
    """A whole number typed in a form (spaces around it allowed), as
    :func:`matches.core.forms.whole_number` reads it; else None."""
    return whole_number(str(value or "").strip(), digits=digits)


def _squad(entrant: Entrant, chosen: list[str], *, season: Season) -> list[Player]:
    """The chosen players of ``entrant``'s squad, in the order chosen (empty choices
    skipped); the club's others are refused by the service, and a number that is no
    player of the club here, unnamed."""
    players = players_chosen(club_id=season.club_id,
                             pks=[pk for pk in (_whole(text, digits=9) for text in chosen)
                                  if pk is not None])
    if players is None:
        raise ValidationError(_("Choose %(entrant)s's players from the lists: one chosen is "
                                "no player of the club.") % {"entrant": entrant.name})
    return players


def _paper_games(request: HttpRequest, fixture: Fixture,
                 season: Season) -> list[PaperGame | None]:
    """The paper games as keyed in, by game number: scores ``home_N`` and ``away_N``,
    players ``home_N_player_1`` (and ``_2``), likewise away; a row left empty (or a
    scorepad game's, which has no fields) is None."""
    games: list[PaperGame | None] = []
    for n in range(1, MAX_FIXTURE_GAMES + 1):
        chosen = {side: [str(request.POST.get(f"{side}_{n}_player_{slot}", ""))
                         for slot in (1, 2)] for side in ("home", "away")}
        score = _typed_score(request, n,
                             required=any(any(picks) for picks in chosen.values()))
        games.append(None if score is None else PaperGame(
            *score, home_players=_squad(fixture.home, chosen["home"], season=season),
            away_players=_squad(fixture.away, chosen["away"], season=season)))
    while games and games[-1] is None:
        games.pop()
    return games


def _scores(request: HttpRequest) -> list[tuple[int, int] | None]:
    """The correction's scores as keyed in, by game number (``home_N``, ``away_N``); a row
    left empty is None."""
    scores = [_typed_score(request, n, required=False)
              for n in range(1, MAX_FIXTURE_GAMES + 1)]
    while scores and scores[-1] is None:
        scores.pop()
    return scores


def _typed_score(request: HttpRequest, n: int, *, required: bool) -> tuple[int, int] | None:
    """Game ``n``'s score as keyed in (``home_N``, ``away_N``): both whole numbers, or None
    for a row left empty where nothing else of it (``required``) was."""
    typed = [str(request.POST.get(f"{side}_{n}", "")).strip() for side in ("home", "away")]
    if not any(typed) and not required:
        return None
    home, away = (_whole(text, digits=5) for text in typed)
    if home is None or away is None:
        raise ValidationError(_("Game %(n)s: give both scores as whole numbers.")
                              % {"n": n}, code="game", params={"n": n})
    return home, away


def _weeks(division: Division) -> list[tuple[int, list[Fixture]]]:
    weeks: dict[int, list[Fixture]] = {}
    for fixture in division.fixtures.all():
        weeks.setdefault(fixture.week, []).append(fixture)
    return sorted(weeks.items())
