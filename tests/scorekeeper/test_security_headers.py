"""Security headers: the Content-Security-Policy, the Permissions-Policy, HSTS.

The policy forbids inline code and inline style attributes, so every page is parsed
for them: a <script> without `src` must carry the response's nonce, and no element
may carry `style=` or an `on…=` / `hx-on` handler.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from django.http import HttpRequest, HttpResponse
from django.middleware.csp import ContentSecurityPolicyMiddleware
from django.template import RequestContext, Template
from django.test import Client, RequestFactory
from django.urls import reverse

from matches import rules
from matches.models import Match
from matches.scoring.selectors.play import match_engine
from matches.scoring.services.play import event_record, round_settle, round_start
from scorekeeper.middleware import PERMISSIONS_POLICY
from tests.scorekeeper.test_settings import run_python
from tests.support.helpers import T, play_short_round, two_player_all_fives

HTMX = {"HTTP_HX_REQUEST": "true"}
EXPECTED_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


class Markup(HTMLParser):
    """What the policy cares about in a page: its scripts and inline styles/handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[dict[str, str | None]] = []
        self.styled: list[str] = []
        self.handlers: list[str] = []
        self.style_elements = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script":
            self.scripts.append(named)
        if tag == "style":
            self.style_elements += 1
        if "style" in named:
            self.styled.append(self.get_starttag_text() or tag)
        self.handlers += [name for name in named
                          if name.startswith(("on", "hx-on", "data-hx-on"))]


def parse(html: str) -> Markup:
    markup = Markup()
    markup.feed(html)
    return markup


def header_nonce(csp: str) -> str | None:
    found = re.search(r"'nonce-([^']+)'", csp)
    return found.group(1) if found else None


def assert_meets_the_policy(response: HttpResponse) -> None:
    assert response.status_code == 200
    csp = response["Content-Security-Policy"]
    nonce = header_nonce(csp)
    markup = parse(response.content.decode())
    for script in markup.scripts:
        if script.get("src") is None or "nonce" in script:
            assert nonce is not None and script.get("nonce") == nonce, script
    assert markup.styled == []
    assert markup.style_elements == 0
    assert markup.handlers == []


def join(client: Client, match: Match) -> None:
    response = client.post(match.get_join_url())
    assert response.status_code == 302


def scorer_url(match: Match, name: str = "scorepad") -> str:
    return reverse(f"matches:{name}", kwargs={"public_id": match.public_id})


def tracked_with_a_board(client: Client) -> str:
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    join(client, match)
    return scorer_url(match)


def called(client: Client) -> str:
    match = two_player_all_fives()
    round_start(match=match, starter=None, mode="ends")
    join(client, match)
    return scorer_url(match)


def finished(client: Client) -> str:
    match = two_player_all_fives(target=20)
    play_short_round(match)
    round_settle(match=match, pips=(0, 9))
    return match.get_absolute_url()


def watched(client: Client) -> str:
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    event_record(match=match, action=rules.Play(0, T("5-5")))
    return match.get_absolute_url()


def finished_on_the_scorepad(client: Client) -> str:
    match = two_player_all_fives(target=20)
    play_short_round(match)
    round_settle(match=match, pips=(0, 9))
    join(client, match)
    return scorer_url(match)


def change_history(client: Client) -> str:
    match = two_player_all_fives()
    play_short_round(match)
    join(client, match)
    return scorer_url(match, "history")


PAGES: dict[str, Callable[[Client], str]] = {
    "home": lambda client: reverse("matches:home"),
    "new match": lambda client: reverse("matches:new"),
    "scorepad, tracked, with a board": tracked_with_a_board,
    "scorepad, called round": called,
    "scorepad, match over": finished_on_the_scorepad,
    "public page, being played": watched,
    "public page, finished": finished,
    "change history": change_history,
    "history of matches": lambda client: reverse("matches:history_list"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("make", PAGES.values(), ids=PAGES.keys())
def test_pages_meet_the_content_security_policy(client, make):
    response = client.get(make(client))

    assert_meets_the_policy(response)
    assert response["Content-Security-Policy"] == EXPECTED_CSP


@pytest.mark.django_db
def test_a_scorepad_fragment_swapped_by_htmx_has_no_inline_script_or_style(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    match.refresh_from_db()
    rnd = match_engine(match).current_round
    assert rnd is not None

    response = client.post(scorer_url(match, "play"), {
        "version": match.version, "key": str(uuid.uuid4()), "seat": rnd.turn,
        "tile": "5-5"}, **HTMX)

    assert 'class="board"' in response.content.decode()
    assert_meets_the_policy(response)


def nonce_page(request: HttpRequest) -> HttpResponse:
    return HttpResponse(Template('<script nonce="{{ csp_nonce }}"></script>')
                        .render(RequestContext(request)))


def test_an_inline_script_given_the_nonce_is_allowed_by_the_header():
    middleware = ContentSecurityPolicyMiddleware(nonce_page)

    response = middleware(RequestFactory().get("/"))

    assert isinstance(response, HttpResponse)
    nonce = header_nonce(response["Content-Security-Policy"])
    assert nonce is not None and len(nonce) >= 16
    assert parse(response.content.decode()).scripts == [{"nonce": nonce}]
    assert f"script-src 'self' 'nonce-{nonce}';" in response["Content-Security-Policy"]


@pytest.mark.django_db  # the new-match page keeps its form's key in the session
def test_base_keeps_htmx_from_injecting_styles_or_evaluating_code():
    html = Client().get("/new/").content.decode()

    # nor settling a "style" attribute over to a swapped element: the policy refuses it
    assert ("""<meta name="htmx-config" content='{"includeIndicatorStyles": false, """
            """"allowEval": false, "allowScriptTags": false, """
            """"attributesToSettle": ["class", "width", "height"]}'>""") in html


@pytest.mark.django_db
def test_permissions_policy_denies_what_the_app_does_not_use(client):
    header = client.get("/").headers["Permissions-Policy"]

    features = dict(item.split("=") for item in header.split(", "))
    assert features == PERMISSIONS_POLICY
    for denied in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features[denied] == "()"
    assert features["clipboard-write"] == "(self)"
    # the scorer's scorepad keeps the screen on (static/js/wakelock.js)
    assert features["screen-wake-lock"] == "(self)"


def test_csrf_cookie_is_not_readable_by_scripts(settings):
    assert settings.CSRF_COOKIE_HTTPONLY is True
    assert settings.SESSION_COOKIE_HTTPONLY is True
    assert settings.CSRF_COOKIE_SAMESITE == settings.SESSION_COOKIE_SAMESITE == "Lax"


def test_the_language_cookie_is_not_readable_by_scripts_and_secure_in_production(client):
    answer = client.post("/i18n/setlang/", {"language": "uk", "next": "/"})
    cookie = answer.cookies["django_language"]
    assert (cookie.value, cookie["httponly"], cookie["samesite"]) == ("uk", True, "Lax")
    assert not cookie["secure"]  # development: plain HTTP
    result = run_python(
        "import django; django.setup(); from django.test import Client; "
        "c = Client().post('/i18n/setlang/', {'language': 'ru', 'next': '/'}, secure=True, "
        "headers={'host': 'scores.example.com'}).cookies['django_language']; "
        "print(c.value, c['secure'], c['httponly'], c['samesite'])", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["ru", "True", "True", "Lax"]


# A page that reads no database: the subprocess has no migrated one.
HEADERS_OF_A_PAGE = (
    "import django; django.setup(); from django.test import Client; "
    "r = Client().get('/no-such-page/', secure=True, headers={'host': 'scores.example.com'}); "
    "print(r.status_code, r.headers.get('Strict-Transport-Security'))"
)
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x7Qe-2vN9rTb_Lm4KpZ8sWc1YhGd6FjA3uE0oRiVnXqMlBtySg5aPk",
    "ALLOWED_HOSTS": "scores.example.com",
    "TESTING": "1",
}


def hsts(**env: str) -> str:
    result = run_python(HEADERS_OF_A_PAGE, **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(("env", "expected"), [
    ({"ALLOWED_HOSTS": "scores.example.com"}, "404 None"),
    (PRODUCTION, "404 max-age=31536000; includeSubDomains; preload"),
    ({**PRODUCTION, "SECURE_HSTS_SECONDS": "3600", "SECURE_HSTS_INCLUDE_SUBDOMAINS": "0",
      "SECURE_HSTS_PRELOAD": "0"}, "404 max-age=3600"),
    ({**PRODUCTION, "SECURE_HSTS_SECONDS": "0"}, "404 None"),
], ids=["development", "production", "production, a year, this host only", "turned off"])
def test_hsts_is_sent_only_when_configured(env, expected):
    assert hsts(**env) == expected
