"""Match records over HTTP: download one match's record, upload records to import.

The import page lists every record it read, in order: a link to each stored match, and
for each refused one its file (and line) with the rules engine's exact message. The
upload redirects to that list (kept in the session until shown), so reloading the page
never imports the same records twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from matches import services
from matches.forms import RecordUploadForm
from matches.models import Match
from matches.record_files import record_sources
from matches.selectors import match_record

RESULTS_KEY = "import_results"  # the session's results of the last upload, shown once


@dataclass(frozen=True, slots=True)
class ImportResult:
    source: str  # file name, and line for .jsonl
    match: Match | None = None
    error: str | None = None
    deleted: int | None = None  # the id of a match stored, then deleted before shown


@require_GET
def match_record_json(request: HttpRequest, public_id: UUID) -> HttpResponse:
    match = get_object_or_404(Match, public_id=public_id)
    response = JsonResponse(match_record(match), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="match-{match.public_id}.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def records_import(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = RecordUploadForm(request.POST, request.FILES)
        if form.is_valid():
            results: list[ImportResult] = []
            # login_required: the user is signed in, so a User
            user = request.user if isinstance(request.user, User) else None
            for upload in form.cleaned_data["files"]:
                results.extend(_import_file(upload.name or "upload", upload.read(), user=user))
            request.session[RESULTS_KEY] = [
                [result.source, result.match.pk if result.match else None, result.error]
                for result in results]
            return redirect("matches:import")
        results = []
    else:
        form = RecordUploadForm()
        results = _shown_once(request)
    return render(request, "matches/records_import.html", {
        "form": form,
        "results": results,
        "stored": [result for result in results if result.error is None],
        "refused": [result for result in results if result.error is not None],
    })


def _shown_once(request: HttpRequest) -> list[ImportResult]:
    """The last upload's results, taken out of the session."""
    kept = request.session.pop(RESULTS_KEY, [])
    matches = Match.objects.in_bulk([pk for _, pk, _ in kept if pk is not None])
    return [ImportResult(source, matches.get(pk), error,
                         deleted=pk if pk is not None and pk not in matches else None)
            for source, pk, error in kept]


def _import_file(name: str, data: bytes, *, user: User | None) -> list[ImportResult]:
    return [ImportResult(source.label, *services.record_import(source=source, created_by=user))
            for source in record_sources(name, data)]
