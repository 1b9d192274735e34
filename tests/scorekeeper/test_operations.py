"""Operations: /healthz, the error pages, the database connect timeout, the admin's
address, and error reports (logged and mailed) without scorers' secrets."""

from __future__ import annotations

import gc
import logging
import runpy
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import PermissionDenied
from django.db import OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.test import Client
from django.urls import include, path
from django.utils import translation

from scorekeeper import heartbeat
from tests.scorekeeper.test_settings import run_python

# a scorer's secret as new_scorer_token() draws one (redaction goes by its shape)
SECRET = "Xk3_pQ9zRt7LmN2vBc8dFg4hJk1sWq0eYb5u"
SECRET_PATH = f"/matches/{'0' * 8}-0000-0000-0000-{'0' * 12}/join/{SECRET}/"


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("the view broke")


def forbidden(request: HttpRequest) -> HttpResponse:
    raise PermissionDenied("not yours")


# This module is also the URLconf of the tests marked `urls(__name__)`: the site's own
# URLs plus one view that fails.
urlpatterns = [
    path("boom/", boom),
    path("forbidden/", forbidden),
    path(SECRET_PATH.lstrip("/"), boom),
    path("", include("scorekeeper.urls")),
]


# -- /healthz ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_healthz_answers_ok_when_the_database_answers(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_healthz_answers_503_when_the_database_is_unreachable(client):
    with mock.patch.object(connections["default"], "cursor",
                           side_effect=OperationalError("connection refused")):
        response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


def test_healthz_only_reads():
    assert Client().post("/healthz").status_code == 405


@pytest.mark.django_db
def test_healthz_answers_a_probe_by_an_address_allowed_hosts_does_not_list(client):
    # a load balancer or a platform probes the instance by its own address
    response = client.get("/healthz", HTTP_HOST="10.1.2.3:8000")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert client.head("/healthz", HTTP_HOST="10.1.2.3").status_code == 200
    # every other address still checks the Host
    assert client.get("/", HTTP_HOST="10.1.2.3").status_code == 400
    assert client.get("/healthz/", HTTP_HOST="10.1.2.3").status_code == 400


# -- error pages -------------------------------------------------------------------------


@pytest.mark.parametrize("template", ["500.html", "503.html", "429.html", "413.html"])
def test_error_pages_render_without_any_context(template):
    html = render_to_string(template)

    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<h1") == 1
    assert "{%" not in html and "{{" not in html and "{#" not in html


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_a_failing_view_shows_the_friendly_500_page(settings):
    settings.DEBUG = False
    client = Client(raise_request_exception=False)

    response = client.get("/boom/")

    assert response.status_code == 500
    assert b"<h1>Something went wrong</h1>" in response.content
    assert b"RuntimeError" not in response.content


@pytest.mark.django_db
def test_a_form_from_a_stale_page_gets_the_sites_own_page_in_the_readers_language():
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="uk")
    client.get("/new/")  # the form's page sets its token's cookie
    client.cookies["csrftoken"] = "x" * 32  # then another tab signs in: a new one

    response = client.post("/new/", {"player_0": "Ann", "player_1": "Bo"})

    html = response.content.decode()
    assert response.status_code == 403 and '<html lang="uk"' in html
    assert html.count("<h1") == 1 and "DEBUG" not in html and "viewport" in html
    with translation.override("uk"):
        assert f"<h1>{translation.gettext('This page had expired')}</h1>" in html


@pytest.mark.django_db
def test_a_form_sent_without_any_cookie_says_the_site_needs_them():
    """Reloading would not help a browser that refuses cookies: the page says why."""
    response = Client(enforce_csrf_checks=True).post("/new/", {"player_0": "Ann",
                                                               "player_1": "Bo"})

    html = response.content.decode()
    assert response.status_code == 403 and "<h1>Cookies are needed</h1>" in html
    assert "Allow cookies for this site, reload the page" in html
    assert "open too long" not in html


@pytest.mark.django_db
def test_a_scorepad_tap_from_a_stale_page_reloads_it_saying_the_tap_was_not_recorded():
    from matches.scoring.services.play import match_create

    match = match_create(game="all-fives", players=["Ann", "Bo"])
    client = Client(enforce_csrf_checks=True)

    response = client.post(match.get_scorer_url() + "play/", {"tile": "5-5"},
                           HTTP_HX_REQUEST="true")

    assert response.status_code == 403 and response["HX-Refresh"] == "true"
    page = client.get("/").content.decode()  # where the message waits
    assert "That was not recorded: the page had been open too long" in page


# -- logging and error reports -----------------------------------------------------------


def test_request_errors_pass_the_redacting_filter_on_every_handler():
    from scorekeeper.logs import RedactSecrets

    # pytest adds its own capturing handlers; check the ones the settings configure
    handlers = [h for h in logging.getLogger("django.request").handlers
                if not type(h).__module__.startswith("_pytest")]
    assert {type(h).__name__ for h in handlers} >= {"StreamHandler",
                                                    "RedactingAdminEmailHandler"}
    for handler in handlers:
        assert any(isinstance(f, RedactSecrets) for f in handler.filters), handler


class Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_a_refusal_is_logged_in_one_line_and_a_server_error_with_its_traceback():
    kept = Kept()
    logger = logging.getLogger("django.request")
    logger.addHandler(kept)
    try:
        client = Client(raise_request_exception=False)
        assert client.get("/forbidden/").status_code == 403
        assert client.get("/boom/").status_code == 500
    finally:
        logger.removeHandler(kept)
    refusal, error = kept.records
    assert (refusal.levelname, refusal.getMessage()) == (
        "WARNING", "Forbidden (Permission denied): /forbidden/")
    assert refusal.exc_info is None
    assert "Traceback" not in logging.Formatter().format(refusal)
    assert error.levelname == "ERROR" and error.exc_info is not None
    assert "RuntimeError: the view broke" in logging.Formatter().format(error)


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_a_server_error_is_mailed_to_admins_without_the_scorers_secret(settings, mailoutbox):
    settings.ADMINS = ["Ops <ops@example.com>"]
    client = Client(raise_request_exception=False,
                    HTTP_REFERER=f"http://testserver{SECRET_PATH}")

    assert client.get(SECRET_PATH).status_code == 500

    assert len(mailoutbox) == 1
    mail = mailoutbox[0]
    assert mail.to == ["Ops <ops@example.com>"]
    assert "RuntimeError" in mail.body
    assert "[secret]" in mail.subject and "[secret]" in mail.body
    assert SECRET not in mail.subject + mail.body


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_no_error_mail_without_admins(settings, mailoutbox):
    settings.ADMINS = []

    assert Client(raise_request_exception=False).get("/boom/").status_code == 500

    assert mailoutbox == []


def test_admins_and_log_level_come_from_the_environment():
    result = run_python(
        "from django.conf import settings; print(settings.ADMINS); "
        "print(settings.LOGGING['root']['level'])",
        ADMINS="Ada <ada@example.com>, ops@example.com",
        LOG_LEVEL="warning",
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["['Ada <ada@example.com>', 'ops@example.com']",
                                          "WARNING"]


# -- settings ----------------------------------------------------------------------------


@pytest.mark.parametrize(("env", "expected"),
                         [({}, "5"), ({"DATABASE_CONNECT_TIMEOUT": "2"}, "2")])
def test_postgresql_connects_with_a_timeout(env, expected):
    result = run_python(
        "from django.conf import settings; "
        "print(settings.DATABASES['default']['OPTIONS']['connect_timeout'])",
        DATABASE_URL="postgres://scorer@db.example.com:5432/scores", **env,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_sqlite_gets_no_connect_timeout():
    result = run_python(
        "from django.conf import settings; "
        "print(settings.DATABASES['default'].get('OPTIONS', {}))"
    )

    assert result.returncode == 0, result.stderr
    assert "connect_timeout" not in result.stdout


@pytest.mark.parametrize(("value", "expected"),
                         [(None, "/admin/"), ("backstage", "/backstage/"),
                          ("/ops/admin/", "/ops/admin/")])
def test_the_admin_path_comes_from_the_environment(value, expected):
    env = {} if value is None else {"ADMIN_PATH": value}
    result = run_python(
        "import django; django.setup(); from django.urls import reverse; "
        "print(reverse('admin:index'))",
        **env,
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_a_new_worker_compiles_every_project_template_before_its_first_request():
    from django.template import engines
    from django.template.backends.django import DjangoTemplates
    from django.template.loaders.cached import Loader as CachedLoader

    from scorekeeper.warmup import warm_up

    backend = engines["django"]
    assert isinstance(backend, DjangoTemplates)
    loader = backend.engine.template_loaders[0]
    assert isinstance(loader, CachedLoader)  # Django's default
    loader.reset()  # the cached loader, as a new worker has it: empty
    folder = Path(__file__).resolve().parents[2] / "templates"
    names = {path.relative_to(folder).as_posix() for path in folder.rglob("*.html")}

    assert warm_up() == len(names)
    assert names <= set(loader.get_template_cache)
    assert "matches/scorepad.html" in names


def test_a_new_worker_builds_the_url_tables_of_every_language_before_its_first_request(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from django.conf import settings
    from django.urls import URLResolver, clear_url_caches, reverse
    from django.utils import translation

    from scorekeeper.warmup import warm_up

    clear_url_caches()  # the resolver as a new worker has it: no table built
    warm_up()
    built: list[str | None] = []
    populate = URLResolver._populate

    def counted(resolver: URLResolver) -> None:
        built.append(translation.get_language())
        populate(resolver)

    monkeypatch.setattr(URLResolver, "_populate", counted)
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            reverse("matches:new")

    assert built == []  # no request pays for building them
    assert len(settings.LANGUAGES) == 3


def test_a_gunicorn_worker_freezes_what_it_loaded_out_of_the_collectors_sight():
    conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    try:
        conf["post_worker_init"](mock.Mock())
        frozen = gc.get_freeze_count()
    finally:
        gc.unfreeze()
        heartbeat.beat_with(None)
    assert frozen > 10_000  # Django, the project and the views' modules


def test_a_gunicorn_worker_is_told_of_by_a_long_download_as_it_goes(monkeypatch):
    conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    worker = mock.Mock()
    try:
        conf["post_worker_init"](worker)
        monkeypatch.setattr(heartbeat, "EVERY_SECONDS", 0)
        assert list(heartbeat.beating("abc")) == ["a", "b", "c"]
    finally:
        gc.unfreeze()
        heartbeat.beat_with(None)
    assert worker.notify.call_count == 3  # the master's timeout counts from each


def test_gunicorn_says_at_start_that_production_mail_cannot_go_out(settings):
    settings.DEBUG, settings.EMAIL_DISABLED = False, False
    settings.EMAIL_BACKEND = "scorekeeper.mail.RefusingBackend"
    conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    server = mock.Mock()

    conf["on_starting"](server)

    [(message, problem, hint)] = [c.args for c in server.log.error.call_args_list]
    assert "EMAIL_HOST is not set" in problem and "EMAIL_DISABLED=1" in hint
    settings.EMAIL_DISABLED = True
    server.reset_mock()
    conf["on_starting"](server)
    server.log.error.assert_not_called()
