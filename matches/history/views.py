"""Match history: every match the viewer may see, filtered by links (shareable URLs that
work without JavaScript; htmx swaps the results in place), paged by key, and the same
list as CSV."""

from __future__ import annotations

import datetime
from collections import Counter
from fractions import Fraction

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.template.defaultfilters import floatformat
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from matches.clubs import selectors as clubs_selectors
from matches.clubs.access import club_for
from matches.core.cells import BYTE_ORDER_MARK, line_writer, text_cell
from matches.history.forms import HistoryForm
from matches.history.models import PROVISIONAL_BELOW, Rating
from matches.history.player_selectors import player_matches, player_stats
from matches.history.selectors import club_ratings as rating_table
from matches.history.selectors import (
    history_page,
    history_queryset,
)
from matches.scoring.access import GRANTS_KEY
from matches.scoring.models import GameKind
from matches.scoring.presenters import show_score, sparkline, winner_names
from matches.scoring.views.play import OPENED_KEY, HtmxHttpRequest
from scorekeeper.heartbeat import beating

CSV_LIMIT = 50_000

CORRECTED = _("corrected by the league")  # as the list says it (history_list.html)


@require_safe
@vary_on_headers("HX-Request")
def history(request: HtmxHttpRequest) -> HttpResponse:
    form = HistoryForm(request.GET)
    filters = form.filters()
    page = history_page(user=request.user, own=_own(request), filters=filters,
                        cursor=request.GET.get("after"))
    query = request.GET.copy()
    query.pop("after", None)
    template = "matches/history_list.html#results" if request.htmx else \
        "matches/history_list.html"
    return render(request, template, {"form": form, "page": page,
                                      "query": query.urlencode()})


@require_safe
def history_csv(request: HttpRequest) -> StreamingHttpResponse:
    """The list under its current filters, every page of it, as CSV."""
    filters = HistoryForm(request.GET).filters()
    matches = history_queryset(user=request.user, own=_own(request), filters=filters)

    writer = line_writer()

    def rows():  # noqa: ANN202 - a generator of CSV lines
        yield BYTE_ORDER_MARK + writer.writerow(["date", "game", "players", "scores",
                                                 "winner", "status", "club", "link", "note"])
        for match in matches[:CSV_LIMIT].iterator(chunk_size=500):
            seats = sorted(match.seats.all(), key=lambda seat: seat.position)
            sides = sorted(match.sides.all(), key=lambda side: side.index)
            winner = winner_names(match) if match.winner_side is not None else ""
            yield writer.writerow([
                timezone.localdate(match.started_at).isoformat(), match.get_game_display(),
                text_cell(", ".join(seat.name for seat in seats)),
                " – ".join(show_score(Fraction(side.score).limit_denominator(2))
                           for side in sides), text_cell(winner),
                match.status, text_cell(match.club.name) if match.club else "",
                request.build_absolute_uri(match.get_absolute_url()),
                # the scores as played, the winner as counted: the page's words say why
                str(CORRECTED) if getattr(match, "corrected", False) else ""])

    # a long list takes a while: the app server is told the worker is not stuck
    response = StreamingHttpResponse(beating(rows()), content_type="text/csv; charset=utf-8")
    stamp = datetime.date.today().isoformat()
    response["Content-Disposition"] = f'attachment; filename="matches-{stamp}.csv"'
    return response


def _own(request: HttpRequest) -> list[str]:
    """The casual matches this browser scores or watched."""
    return [*request.session.get(GRANTS_KEY, {}), *request.session.get(OPENED_KEY, [])]


@require_safe
def player_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A club player's record: by game, points a round, best placement, partner,
    toughest opponent, form, rating and its chart."""
    club = club_for(request, slug)
    player = clubs_selectors.club_player(club=club, pk=pk)
    stats = player_stats(player)
    charts = [(rating, sparkline(steps)) for rating, steps in stats.ratings]
    return render(request, "matches/player.html", {
        "club": club, "player": player, "stats": stats, "charts": charts,
        "matches": player_matches(player)})


@require_safe
def club_ratings(request: HttpRequest, slug: str, game: str) -> HttpResponse:
    """The club's rating table at one game (openskill; never part of league points)."""
    club = club_for(request, slug)
    if game not in GameKind.values:
        raise Http404("No such game.")
    return render(request, "matches/club_ratings.html", {
        "club": club, "game": GameKind(game),
        "ratings": _ranked(list(rating_table(club, game))),
        "provisional_below": PROVISIONAL_BELOW})


def _ranked(ratings: list[Rating]) -> list[tuple[str, Rating]]:
    """Each rating with its rank as the table shows it: players whose ratings read the
    same (one decimal) share a rank, marked "=", as in a league table."""
    shown = [floatformat(rating.ordinal, 1) for rating in ratings]
    counts = Counter(shown)
    first: dict[str, int] = {}  # each shown rating's first place
    ranked = []
    for place, (value, rating) in enumerate(zip(shown, ratings, strict=True), start=1):
        first.setdefault(value, place)
        ranked.append((f"{first[value]}=" if counts[value] > 1 else str(place), rating))
    return ranked
