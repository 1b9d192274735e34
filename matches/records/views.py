"""Match records over HTTP: download one match's record, upload records to import.

An upload is kept and imported by a background task (``matches.records.tasks``); the upload
redirects to the import's own page, which shows its progress — records read, matches
stored, refused records with their file (and line) and the rules engine's exact message,
records already imported, and while it waits how many imports the worker takes first —
and polls until the worker has finished; a stopped import is tried again from it.
"""

from __future__ import annotations

import json
from uuid import UUID

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from matches import rules
from matches.clubs.access import club_for
from matches.leagues.selectors import club_season, season_matches
from matches.records.forms import RecordUploadForm
from matches.records.models import ImportStatus
from matches.records.selectors import (
    OTHERS_SHOWN,
    STORED_SHOWN,
    recent_record_imports,
    record_import_for_user,
    record_import_lines,
    record_imports_ahead,
)
from matches.records.services import record_import_retry, record_import_start
from matches.scoring import engine_cache
from matches.scoring.access import match_for_watcher
from matches.scoring.selectors.play import RECORDS_A_READ, club_matches, match_records
from matches.scoring.views.play import HtmxHttpRequest
from scorekeeper.heartbeat import beating


@require_safe
def match_record_json(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = match_for_watcher(request, public_id)
    # the engine the process keeps (replayed once if it has none): the match page's
    with engine_cache.engine_for_reading(match) as engine:
        document = rules.export(engine)
    response = JsonResponse(document, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="match-{match.public_id}.json"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def records_import(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = RecordUploadForm(request.POST, request.FILES)
        if form.is_valid():
            # login_required: the user is signed in, so a User
            assert isinstance(request.user, User)
            record_import = record_import_start(
                files=form.cleaned_data["files"], created_by=request.user,
                language=translation.get_language() or "")
            return redirect(record_import)
    else:
        form = RecordUploadForm()
    assert isinstance(request.user, User)  # login_required
    return render(request, "matches/records_import.html", {
        "form": form, "imports": recent_record_imports(user=request.user)})


@login_required
@require_safe
@vary_on_headers("HX-Request")
def record_import_progress(request: HtmxHttpRequest, public_id: UUID) -> HttpResponse:
    """How far an upload's import got; polled by htmx every 2 s until it is finished.
    Someone else's import is a 404: it does not admit it exists."""
    assert isinstance(request.user, User)
    record_import = record_import_for_user(public_id=public_id, user=request.user)
    template = ("matches/record_import.html#progress" if request.htmx
                else "matches/record_import.html")
    queued = record_import.status == ImportStatus.QUEUED  # else no queue to count
    return render(request, template, {
        "record_import": record_import,
        "ahead": record_imports_ahead(record_import=record_import) if queued else 0,
        "lines": record_import_lines(record_import=record_import),
        "stored_shown": STORED_SHOWN, "others_shown": OTHERS_SHOWN,
        "others": record_import.refused + record_import.duplicates,
    })


@login_required
@require_POST
def record_import_try_again(request: HttpRequest, public_id: UUID) -> HttpResponse:
    """Queue a stopped import again (it goes on after the records already read), back
    to its page; someone else's import is a 404."""
    assert isinstance(request.user, User)  # login_required
    record_import = record_import_for_user(public_id=public_id, user=request.user)
    try:
        record_import_retry(record_import=record_import)
    except ValidationError as refused:
        messages.error(request, " ".join(refused.messages))
    return redirect(record_import)


@require_safe
def club_matches_jsonl(request: HttpRequest, slug: str,
                       season: str | None = None) -> StreamingHttpResponse:
    """All matches of a club (or of one league season) as ``domino-match/1`` JSON lines."""
    club = club_for(request, slug)
    if season is not None:
        chosen = club_season(club=club, slug=season)
        matches = season_matches(season=chosen)
        name = f"{club.slug}-{chosen.slug}"
    else:
        matches = club_matches(club)
        name = club.slug
    lines = (json.dumps(record, ensure_ascii=False) + "\n"
             for record in match_records(matches.iterator(chunk_size=RECORDS_A_READ)))
    # a big club's takes minutes: the app server is told the worker is not stuck
    response = StreamingHttpResponse(beating(lines),
                                     content_type="application/jsonl; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-matches.jsonl"'
    return response
