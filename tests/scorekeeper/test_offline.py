"""The service worker script (/sw.js) and the offline page: scorekeeper/offline.py.

What the worker does on a phone is tested in Chromium: tests/browser/test_offline.py.
"""

from __future__ import annotations

import json
import re
from uuid import uuid4

import pytest
from django.templatetags.static import static
from django.urls import reverse

from scorekeeper import offline
from scorekeeper.offline import scorer_page_pattern, shell_urls

CACHE_NAME = r'var CACHE = PREFIX \+ "([0-9a-f]{12})";'


def found(pattern: str, text: str) -> str:
    """The first group of ``pattern`` in ``text``, which must hold it."""
    match = re.search(pattern, text)
    assert match is not None, pattern
    return match.group(1)


def test_the_worker_is_served_from_the_root_as_javascript_checked_on_every_load(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    # never taken from a cache without asking: a new deployment's worker is found at once
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    assert reverse("service_worker") == "/sw.js"


def test_the_worker_is_served_with_the_production_storage(client, settings, tmp_path):
    # the manifest storage names files by their content's hash and refuses a name it has
    # no entry for (static("") did: /sw.js answered 500 on every deployment)
    paths = {name: name.replace(".", ".0123456789ab.", 1) for name in offline.SHELL_FILES}
    (tmp_path / "staticfiles.json").write_text(json.dumps({"paths": paths, "version": "1.1"}))
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}

    body = client.get("/sw.js").content.decode()

    assert '"/static/css/app.0123456789ab.css"' in body
    assert 'var STATIC_PREFIX = "/static/";' in body and "var STATIC_HASHED = true;" in body


def test_the_worker_lists_the_app_shell_and_the_offline_page(client):
    body = client.get("/sw.js").content.decode()
    shell = json.loads(found(r"var SHELL = (\[.*?\]);", body))
    assert shell == shell_urls()
    for name in ("css/app.css", "js/htmx.min.js", "js/scorepad.js", "js/offline.js",
                 "js/sw-register.js"):
        assert static(name) in shell
    assert reverse("offline") in shell
    assert 'var OFFLINE_URL = "/offline/";' in body


def test_a_shell_file_that_is_not_there_is_left_out(monkeypatch):
    # one address that fails would make the whole install fail on the phone
    monkeypatch.setattr(offline, "SHELL_FILES", ("css/app.css", "js/not-there.js"))
    assert shell_urls() == [static("css/app.css"), reverse("offline")]


def test_the_cache_is_named_after_the_worker_and_changes_with_it(client, settings):
    first = client.get("/sw.js").content.decode()
    name = found(CACHE_NAME, first)
    assert first == client.get("/sw.js").content.decode()  # the same script, the same name
    settings.STATIC_URL = "/assets/"  # another shell: another cache
    second = client.get("/sw.js").content.decode()
    assert found(CACHE_NAME, second) != name


def test_the_worker_keeps_only_scorer_pages(client):
    pattern = re.compile(scorer_page_pattern())
    public_id = uuid4()
    assert pattern.match(reverse("matches:scorepad", kwargs={"public_id": public_id}))
    for other in (reverse("matches:detail", kwargs={"public_id": public_id}),
                  reverse("matches:play", kwargs={"public_id": public_id}),
                  reverse("matches:history", kwargs={"public_id": public_id}),
                  reverse("matches:home")):
        assert not pattern.match(other), other
    body = client.get("/sw.js").content.decode()
    assert f"new RegExp({json.dumps(scorer_page_pattern())})" in body


@pytest.mark.django_db
def test_the_offline_page_says_there_is_no_connection(client):
    response = client.get(reverse("offline"))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-cache"
    assert re.search(r"<h1>\s*No connection\s*</h1>", response.content.decode())


@pytest.mark.django_db
def test_every_page_registers_the_worker(client):
    page = client.get(reverse("matches:home")).content.decode()
    assert f'src="{static("js/sw-register.js")}" data-sw="/sw.js"' in page
