"""The production stack from the shipped files — nginx → gunicorn → PostgreSQL, started by
``scripts/prod`` — played through as a phone would, and probed as a bad client would.

Needs PostgreSQL on 127.0.0.1:5432 and Debian's nginx (``scripts/test`` installs it as
root, as it does Chromium); skipped otherwise. CI runs it.
"""

from __future__ import annotations

import email
import email.policy
import http.client
import re
import resource
import socket
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.ready import WIRED
from tests.stack.conftest import MailSink, _get

# The stack (tests/stack/conftest.py) is one for the session: its tests share one xdist
# worker (scripts/test runs --dist loadgroup; every other test goes wherever a worker is
# free).
pytestmark = [pytest.mark.stack, pytest.mark.xdist_group("stack")]


def _post(url: str, body: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_a_match_is_scored_through_nginx(stack: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(stack + "/new/")
    page.fill("input[name=player_0]", "Olena")
    page.fill("input[name=player_1]", "Taras")
    page.check("input[name=game][value=all-fives]")
    page.select_option("select#id_starter", "0")
    page.click("#start-match")
    page.wait_for_function(WIRED)
    for tile, end in (("5-5", ""), ("0-5", "5-5:5")):
        page.locator(f'a.pick[data-tile="{tile}"]').click()
        page.locator(f'.choice-set:not([hidden]) button.choice[data-point="{end}"]').click()
        expect(page.locator(f'g.board-tile[data-tile="{tile}"]')).to_have_count(1)
    expect(page.locator('.score[data-score="0"]')).to_have_text("10")
    expect(page.locator('.score[data-score="1"]')).to_have_text("10")
    context.close()


def test_static_files_come_from_nginx_cached_and_compressed(stack: str) -> None:
    import gzip

    request = urllib.request.Request(stack + "/", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        page = answer.read()
        assert answer.headers["Content-Encoding"] == "gzip"
    html = gzip.decompress(page).decode()
    css = html.split('rel="stylesheet" href="')[1].split('"')[0]
    status, headers, _ = _get(stack + css)
    assert status == 200
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert headers["Server"].startswith("nginx")
    # the plain name, which the error pages link, is asked about again after a deploy
    status, headers, _ = _get(stack + "/static/css/app.css")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    # the service worker names the hashed shell files, and is asked for on every load
    status, headers, worker = _get(stack + "/sw.js")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert css in worker.decode()


def test_a_body_over_the_limit_is_refused_by_nginx(stack: str) -> None:
    body = b"x" * (12 * 1024 * 1024)
    request = urllib.request.Request(stack + "/import/", data=body, method="POST")
    try:
        urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        assert error.code == 413
        page = error.read().decode()  # the site's own page, not nginx's bare one
        assert "<h1>Too large to upload</h1>" in page and "Завелике для завантаження" in page
    except (ConnectionError, urllib.error.URLError):
        pass  # nginx may close the connection as soon as it has said 413
    else:
        raise AssertionError("a 12 MB body was accepted")


def test_logins_are_rate_limited_at_the_door(stack: str, run_dir: Path) -> None:
    # opening the page is free (a club's phones share one address); posting is counted
    assert {_get(stack + "/accounts/login/")[0] for _ in range(30)} == {200}
    answers = [_post(stack + "/accounts/login/", b"username=a&password=b") for _ in range(30)]
    codes = [status for status, _body in answers]
    assert codes[0] == 403 and 429 in codes  # Django's (no CSRF token), then nginx's
    refused = next(body for status, body in answers if status == 429).decode()
    assert "<h1>Too many tries</h1>" in refused and "Забагато спроб" in refused
    # the admin's sign-in too (wherever ADMIN_PATH puts it): the same limit per address
    admin = [_post(stack + "/admin/login/", b"username=a&password=b")[0] for _ in range(30)]
    assert 429 in admin
    # logged as what they were, though nginx answers them with a page of its own (a GET)
    log = (run_dir / "scorekeeper-access.log").read_text()
    assert '"POST /accounts/login/" 429' in log and '"GET /accounts/login/" 429' not in log


def test_a_club_room_behind_one_address_is_not_rate_limited_on_match_pages(stack: str) -> None:
    # 20 tables and 40 watchers on one Wi-Fi make about 17 requests a second: a burst of
    # 120 at once from one address is still answered by the app (here: no such match)
    codes = {_get(stack + f"/matches/{uuid.uuid4()}/")[0] for _ in range(120)}
    assert codes == {404}


def test_slow_clients_do_not_take_the_site_down(stack: str) -> None:
    # Thirty connections that send their headers a byte at a time: nginx holds them,
    # gunicorn's few workers never see them, and a phone is still answered at once.
    slow = []
    for _ in range(30):
        sock = socket.create_connection(("127.0.0.1", int(stack.rsplit(":", 1)[1])))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        slow.append(sock)
    try:
        started = time.monotonic()
        status, _, _ = _get(stack + "/history/", timeout=5)
        assert status == 200 and time.monotonic() - started < 3
    finally:
        for sock in slow:
            sock.close()


# -- visitors from other loopback addresses ----------------------------------------------


class Visitor:
    """A browser without JavaScript, from its own loopback address (127.0.0.1 is the one
    the rate-limit tests use up): keeps its cookies, sends the CSRF token it was given."""

    def __init__(self, stack: str, address: str) -> None:
        self.port = int(stack.rsplit(":", 1)[1])
        self.address = address
        self.cookies: dict[str, str] = {}
        self.form_token = ""

    def request(self, method: str, path: str, fields: dict[str, str] | None = None,
                headers: dict[str, str] | None = None,
                timeout: float = 10) -> tuple[int, str, str]:
        """Status, Location and page of one request (redirects are not followed)."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                                source_address=(self.address, 0))
        sent = {"Host": f"localhost:{self.port}", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if fields is not None:
            body = urlencode({"csrfmiddlewaretoken": self.form_token, **fields})
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            page = answer.read().decode("utf-8", "replace")
            for cookie in answer.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        finally:
            connection.close()
        if token := re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page):
            self.form_token = token[1]
        return answer.status, answer.headers.get("Location", ""), page

    def get(self, path: str, **kwargs: object) -> tuple[int, str, str]:
        return self.request("GET", path, **kwargs)  # type: ignore[arg-type]

    def post(self, path: str, fields: dict[str, str],
             **kwargs: object) -> tuple[int, str, str]:
        return self.request("POST", path, fields, **kwargs)  # type: ignore[arg-type]

    def sign_up_and_in(self, username: str, password: str, email: str = "") -> None:
        self.get("/accounts/signup/")
        status, _, page = self.post("/accounts/signup/", {
            "username": username, "email": email, "password1": password,
            "password2": password})
        assert status == 302, page[:2000]
        self.get("/accounts/login/")
        status, _, page = self.post("/accounts/login/", {"username": username,
                                                         "password": password})
        assert status == 302, page[:2000]


def _path(location: str) -> str:
    parts = urlsplit(location)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def test_no_secret_reaches_any_log(stack: str, run_dir: Path, mail_sink: MailSink) -> None:
    secrets: dict[str, str] = {}
    owner = Visitor(stack, "127.0.0.2")
    owner.sign_up_and_in("olena", "a-long-pass-7431", "olena@example.com")
    secrets["session id"] = owner.cookies["sessionid"]
    secrets["CSRF cookie"] = owner.cookies["csrftoken"]

    # a club's admin invite, opened by someone not signed in (its next= carries it)
    owner.get("/clubs/new/")
    status, club, _ = owner.post("/clubs/new/", {"name": "Kyiv Domino Club",
                                                 "visibility": "public"})
    assert status == 302
    club = _path(club)
    _, _, page = owner.post(club + "invite/", {"role": "admin"})
    invite = re.search(re.escape(club) + r"join/([^/\"<\s]+)/", page)
    assert invite is not None, page[:3000]
    secrets["invite token"] = invite[1]
    guest = Visitor(stack, "127.0.0.3")
    status, login, _ = guest.get(invite[0])
    assert status == 302 and "next=" in login
    guest.get(_path(login))
    guest.sign_up_and_in("taras", "a-long-pass-9182")
    assert guest.get(invite[0])[0] == 200
    assert guest.post(invite[0], {})[0] == 302
    secrets["CSRF form token"] = guest.form_token
    # a wrong invite (Django logs the 404's path), and the invite as a Referer
    wrong = invite[1][:-4] + ("AAAA" if not invite[1].endswith("AAAA") else "BBBB")
    secrets["wrong invite token"] = wrong
    assert guest.get(f"{club}join/{wrong}/", headers={"Referer": stack + invite[0]})[0] == 404

    # a password reset, its link sent by mail and used
    stranger = Visitor(stack, "127.0.0.4")
    stranger.get("/accounts/password_reset/")
    assert stranger.post("/accounts/password_reset/", {"email": "olena@example.com"})[0] == 302
    deadline = time.monotonic() + 15
    while not mail_sink.messages and time.monotonic() < deadline:
        time.sleep(0.2)
    assert mail_sink.messages, "no reset mail reached the sink"
    sent = email.message_from_string(mail_sink.messages[-1], policy=email.policy.default)
    text = sent.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    link = re.search(r"(/accounts/reset/([^/\s]+)/([^/\s]+)/)", text)
    assert link is not None, text
    secrets["reset link"], secrets["reset token"] = link[1], link[3]
    status, form, _ = stranger.get(link[1])
    assert status == 302
    stranger.get(_path(form))
    assert stranger.post(_path(form), {"new_password1": "another-pass-5521",
                                       "new_password2": "another-pass-5521"})[0] == 302

    # a new match's creation key (sent in a query too, as a form sent by GET would) and
    # its scorer's link, joined by another phone, also by the link from before grants
    _, _, page = owner.get("/new/")
    key = re.search(r'name="creation_key" value="([^"]+)"', page)
    assert key is not None
    secrets["creation key"] = key[1]
    status, pad, page = owner.post("/new/", {
        "creation_key": key[1], "game": "all-fives", "player_0": "Olena",
        "player_1": "Taras", "starter": "0", "mode": "tracked"})
    assert status == 302, re.findall(r'class="[^"]*error[^"]*"[^>]*>(.*?)<', page, re.S)
    pad = _path(pad)
    secrets["CSRF form token, in a query"] = owner.form_token
    owner.get(f"/new/?creation_key={key[1]}&csrfmiddlewaretoken={owner.form_token}")
    _, _, page = owner.get(pad + "scorers/")
    join = re.search(r"/matches/[0-9a-f-]{36}/join/([^/\"<\s]+)/", page)
    assert join is not None, page[:3000]
    secrets["scorer secret"] = join[1]
    phone = Visitor(stack, "127.0.0.3")
    assert phone.get(join[0])[0] == 200
    assert phone.post(join[0], {})[0] == 302
    assert phone.get(f"{pad}{join[1]}/")[0] in (200, 302)

    time.sleep(1)  # nginx and gunicorn write their lines as each answer goes
    logs = {path.name: path.read_text(errors="replace") for path in run_dir.glob("*.log")}
    assert {"scorekeeper-access.log", "gunicorn.log"} <= set(logs)
    found = {(name, log) for name, secret in secrets.items() for log, text in logs.items()
             if secret in text}
    assert found == set()
    # the requests are there, their secrets replaced
    for log in ("scorekeeper-access.log", "gunicorn.log"):
        assert f"{club}join/[secret]/" in logs[log]
        assert "/accounts/reset/[secret]/" in logs[log]
        assert "/join/[secret]/" in logs[log].replace(club + "join", "")
        assert "creation_key=[secret]&csrfmiddlewaretoken=[secret]" in logs[log]
    assert f"Not Found: {club}join/[secret]/" in logs["gunicorn.log"]


def test_healthz_answers_whatever_the_host(stack: str) -> None:
    visitor = Visitor(stack, "127.0.0.5")
    for host in ("10.0.0.7", "probe.internal", "evil.example:1234"):
        status, _, page = visitor.get("/healthz", headers={"Host": host})
        assert (status, page) == (200, '{"status": "ok"}'), host
    # any other page still checks the Host
    assert visitor.get("/", headers={"Host": "evil.example"})[0] == 400


def test_one_address_cannot_hold_more_than_its_share_of_the_app(stack: str) -> None:
    # 60 uploads from one address, each sent its header and no body yet: nginx counts
    # them as requests, so the address's next request is refused (429) while another
    # address is answered at once
    port = int(stack.rsplit(":", 1)[1])
    held = []
    try:
        for _ in range(60):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=("127.0.0.6", 0))
            held.append(sock)
            sock.sendall(b"POST /import/ HTTP/1.1\r\nHost: localhost\r\n"
                         b"Content-Type: text/plain\r\nContent-Length: 100000\r\n\r\n")
        time.sleep(0.5)
        assert Visitor(stack, "127.0.0.6").get("/history/")[0] == 429
        assert Visitor(stack, "127.0.0.7").get("/history/")[0] == 200
    finally:
        for sock in held:
            sock.close()


def test_a_thousand_slow_connections_from_one_address_leave_others_answered(
        stack: str) -> None:
    # one address opens 1,000 connections and sends half a request on each (nginx holds
    # them until client_header_timeout); meanwhile a room of visitors from two other
    # addresses, 40 requests at once, is answered promptly
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 4096), hard), hard))
    port = int(stack.rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 20
        while len(held) < 1000 and time.monotonic() < deadline:
            sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                            source_address=("127.0.0.1", 0))
            held.append(sock)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        assert len(held) == 1000
        time.sleep(0.5)

        def visit(index: int) -> tuple[int, float]:
            started = time.monotonic()
            try:
                status = Visitor(stack, f"127.0.0.{8 + index % 2}").get(
                    "/healthz" if index % 2 else "/static/css/app.css", timeout=5)[0]
            except OSError:
                status = 0
            return status, time.monotonic() - started

        with ThreadPoolExecutor(max_workers=40) as pool:
            answers = list(pool.map(visit, range(40)))
        assert {status for status, _ in answers} == {200}, answers
        assert max(took for _, took in answers) < 5
    finally:
        for sock in held:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_input_too_long_for_a_field_is_refused_with_a_page_never_a_5xx(stack: str) -> None:
    """A 10,000-character tile, count entry or next=: the app's refusal (400 with the
    page) or nginx's (414), never a redirect carrying it, whose header nginx refuses."""
    long = "x" * 10_000
    scorer = Visitor(stack, "127.0.0.6")
    scorer.sign_up_and_in("mykola", "a-long-pass-6620")
    _, _, page = scorer.get("/new/")
    key = re.search(r'name="creation_key" value="([^"]+)"', page)
    assert key is not None
    status, pad, _ = scorer.post("/new/", {
        "creation_key": key[1], "game": "all-fives", "player_0": "Mykola",
        "player_1": "Oksana", "starter": "0", "mode": "tracked"})
    assert status == 302
    pad = _path(pad)
    _, _, page = scorer.get(pad)
    version = re.search(r'name="version" value="(\d+)"', page)
    assert version is not None, page[:3000]
    answers = {}
    for write, fields in (("play", {"seat": "0", "tile": long, "at": "", "claim": ""}),
                          ("settle", {"entry": long, "result": "blocked"})):
        status, location, page = scorer.post(pad + write + "/", {
            "version": version[1], "key": str(uuid.uuid4()), **fields})
        answers[write] = status
        assert location == "" and long not in page
        assert "nothing was changed" in page
    assert answers == {"play": 400, "settle": 400}

    visitor = Visitor(stack, "127.0.0.6")
    for path in (f"/accounts/login/?next=/{long}", f"/import/?next=/{long}",
                 f"/import/?q={long[:3000]}"):
        status, location, _ = visitor.get(path)
        assert status < 500 and len(location) < 2048, (path[:40], status)
    visitor.get("/accounts/login/")
    status, location, _ = visitor.request(
        "POST", "/accounts/login/?next=/" + long[:3000],
        {"username": "mykola", "password": "a-long-pass-6620"})
    assert status < 500 and len(location) < 2048, status
