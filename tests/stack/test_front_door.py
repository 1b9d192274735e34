"""The production stack from the shipped files — nginx → gunicorn → PostgreSQL, started by
``scripts/prod`` — played through as a phone would, and probed as a bad client would.

Needs PostgreSQL on 127.0.0.1:5432 and Debian's nginx (``scripts/test`` installs it as
root, as it does Chromium); skipped otherwise. CI runs it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

ROOT = Path(__file__).resolve().parents[2]
DATABASE = "scorekeeper_stack"

pytestmark = pytest.mark.stack


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _postgres() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
    except OSError:
        return False
    return True


def _get(url: str, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def _post(url: str, body: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stack's SK_RUN: its sockets, rendered configs and logs."""
    return tmp_path_factory.mktemp("run")


@pytest.fixture(scope="module")
def stack(run_dir: Path) -> Iterator[str]:
    if not _postgres():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    if not (Path("/usr/sbin/nginx").exists() or os.geteuid() == 0):
        pytest.skip("nginx is missing (apt-get install nginx)")
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE],
                   check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DATABASE], check=True)
    port = _free_port()
    env = {**os.environ, "SK_RUN": str(run_dir),
           "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    process = subprocess.Popen([str(ROOT / "scripts/prod"), str(port)], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    url = f"http://localhost:{port}"
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            if process.poll() is not None:
                output = process.stdout.read().decode() if process.stdout else ""
                pytest.fail(f"scripts/prod stopped:\n{output[-3000:]}")
            try:
                if _get(url + "/", timeout=1)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        else:
            pytest.fail("the stack did not answer within 240 s")
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


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
    page.wait_for_function("() => window.htmx !== undefined")
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
