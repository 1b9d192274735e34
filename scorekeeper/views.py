"""Views apart from the matches app: the health check, the web app manifest and the
page for a form sent from a page too old to send it (CSRF)."""

from __future__ import annotations

import logging

from django.contrib import messages
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"status": "ok"}`` when the database answers a trivial query; 503 otherwise, so
    a load balancer or platform stops sending requests to an instance that cannot serve
    them. No session, no template: cheap enough to probe every few seconds."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("Health check: the database did not answer")
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok"})


# The manifest's colours: the light theme's page background and header blue
# (static/css/app.css), also in base.html's <meta name="theme-color">.
MANIFEST_BACKGROUND = "#f6f7f9"
MANIFEST_THEME = "#0b5cad"


@cache_control(max_age=24 * 60 * 60, public=True)
@require_safe
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest that makes the site installable (base.html links it).

    A view rather than a static file: the icons' addresses come from ``static()``, so
    they carry the content hash production serves them under (cached for good by
    nginx), and the content type is the manifest's own."""
    icon = {"type": "image/png", "purpose": "any"}
    return JsonResponse({
        "id": "/",
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        # in the language of the page that linked it (LocaleMiddleware: cookie, browser)
        "lang": get_language(),
        "description": gettext("Keeps score for domino matches."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": MANIFEST_BACKGROUND,
        "theme_color": MANIFEST_THEME,
        "icons": [
            {**icon, "src": static("icons/icon-192.png"), "sizes": "192x192"},
            {**icon, "src": static("icons/icon-512.png"), "sizes": "512x512"},
            {"src": static("icons/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml",
             "purpose": "any"},
        ],
    }, content_type="application/manifest+json")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent from a page whose security token no longer holds (signed in or out in
    another tab, or a session that expired): nothing was done. The page says so in the
    site's own words and language. A scorepad tap (htmx) gets the page loaded again, with
    a fresh token and a message that the tap was not recorded: its "no answer" banner
    would have waited for a connection that was never lost. A form sent with no cookie
    at all is from a browser that refuses them: the page says what the site needs."""
    if request.headers.get("HX-Request") == "true":
        messages.warning(request, gettext(
            "That was not recorded: the page had been open too long to send it, so it "
            "has been loaded again. Tap again if it is still needed."))
        response = HttpResponse(status=403)
        response["HX-Refresh"] = "true"
        return response
    # no cookie at all came with it: reloading would not help, the browser refuses them
    return render(request, "403_csrf.html", {"no_cookies": not request.COOKIES}, status=403)
