"""Working without a connection: the service worker script and the offline page.

The service worker must be served from the site's root (``/sw.js``) to control every
page: a worker controls the pages under its own address. It is a template rather than
a static file because it lists the app shell under the addresses ``static()`` gives
(with their content hash in production) and names its cache after its own content, so
a new deployment's worker replaces the old one and removes its cache.
"""

from __future__ import annotations

import hashlib
import json
import re
from uuid import UUID

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.csp import build_policy
from django.views.decorators.http import require_safe

# What a phone keeps on install to draw a kept page without the network. Files that are
# not there (yet) are left out: one missing file would make the whole install fail.
SHELL_FILES = (
    "css/app.css",
    "js/htmx.min.js",
    "js/theme.js",
    "js/sw-register.js",
    "js/share.js",
    "js/wakelock.js",
    "js/scorekeeper.js",
    "js/scorepad.js",
    "js/offline.js",
    "js/kept.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/apple-touch-icon.png",
)
CACHE_VERSION_MARK = "__CACHE_VERSION__"


def shell_urls() -> list[str]:
    """The app shell's addresses: the static files that exist, and the offline page."""
    urls = [static(name) for name in SHELL_FILES if finders.find(name)]
    return [*urls, reverse("offline")]


def scorer_page_pattern() -> str:
    """A regular expression (JavaScript's syntax too) for the scorer pages' paths, the
    only pages the worker keeps: a page a phone opened to score, never anyone else's."""
    zero = UUID(int=0)
    path = reverse("matches:scorepad", kwargs={"public_id": zero})
    return "^" + re.escape(path).replace(re.escape(str(zero)), "[0-9a-f-]{36}") + "$"


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: always checked with the server (``no-cache``), so a new version is
    found on the next page load; ``Service-Worker-Allowed: /`` states the scope."""
    body = render_to_string("sw.js", {
        "shell": json.dumps(shell_urls()),
        "offline_url": json.dumps(reverse("offline")),
        "shared_script": json.dumps(static("js/scorekeeper.js")),
        # not static(""): the manifest storage (production) refuses a name it has no
        # entry for
        "static_prefix": json.dumps(settings.STATIC_URL),
        # the manifest storage (production) names files by their content's hash
        "static_hashed": json.dumps(not static(SHELL_FILES[0]).endswith("/" + SHELL_FILES[0])),
        "scorer_pattern": json.dumps(scorer_page_pattern()),
        # a page the worker builds from the page's own state gets the site's policy
        # (no nonce: every script is a file, allowed as 'self')
        "csp": json.dumps(build_policy(settings.SECURE_CSP)),  # type: ignore[arg-type]
        "version_mark": CACHE_VERSION_MARK,
    })
    # the cache is named after the script itself: any change to the code or to a
    # shell file's address (its hash) makes a new cache, and the old one is removed
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    response = HttpResponse(body.replace(CACHE_VERSION_MARK, version),
                            content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it does not keep, without a network."""
    response = render(request, "offline.html", {"scorer_pattern": scorer_page_pattern()})
    response["Cache-Control"] = "no-cache"
    return response
