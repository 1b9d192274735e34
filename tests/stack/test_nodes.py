"""More than one app server (``scripts/prod --nodes 2``, started by tests/stack/conftest.py):
one phone's taps alternated between the two gunicorn instances, each addressed on its own
socket as nginx's upstream would; and the processes that die are started again.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from tests.stack.conftest import DATABASE, ROOT, _free_port, _get, stack_nodes

pytestmark = [pytest.mark.stack, pytest.mark.xdist_group("stack")]

LIVE = re.compile(r'<div id="live"[^>]*data-version="(\d+)"')
SEAT = re.compile(r'id="place-form".*?name="seat" value="(\d+)"', re.S)
CHOICE_SET = re.compile(r'<div class="choice-set" data-for="([^"]+)"[^>]*>(.*?)</div>', re.S)
POINT = re.compile(r'name="at" value="([^"]*)"')
HX_CSRF = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
FORM_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
FORM_KEY = re.compile(r'name="creation_key" value="([0-9a-f-]{36})"')
BOARD_TILE = re.compile(r'<g class="board-tile[^"]*" data-tile="([^"]+)"')
# what differs between two renderings of one table: the per-request tokens and nonces,
# and the fresh key each form carries for its next tap
PER_REQUEST = re.compile(
    r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|nonce="|name="key" value=")[^"]+')


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: Path) -> None:
        super().__init__("localhost", timeout=30)
        self.path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(str(self.path))


class Phone:
    """One scorer's browser (one cookie jar) whose every request goes to the app server
    it is told, straight to that gunicorn's socket, with the headers nginx adds."""

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(self, node: int, method: str, path: str,
                fields: dict[str, str] | None = None, *,
                htmx: bool = False) -> tuple[int, str, str]:
        """Status, Location and page."""
        headers = {"Host": "localhost", "X-Forwarded-For": "127.0.0.10",
                   "X-Forwarded-Proto": "http", "Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers |= {"HX-Request": "true", "X-CSRFToken": self.csrf}
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection = UnixConnection(self.run_dir / f"gunicorn-{node}.sock")
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            page = answer.read().decode("utf-8", "replace")
        finally:
            connection.close()
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        if token := HX_CSRF.search(page):
            self.csrf = token[1]
        return answer.status, answer.headers.get("Location", ""), page


def version(page: str) -> int:
    found = LIVE.search(page)
    assert found is not None, page[:3000]
    return int(found[1])


def a_placement(page: str, turn: int) -> dict[str, str]:
    """A tile the table allows now, and where (the same choice for the same table)."""
    seat = SEAT.search(page)
    choices = [(tile, POINT.findall(body)) for tile, body in CHOICE_SET.findall(page)]
    choices = [(tile, points) for tile, points in choices if points]
    assert seat is not None and choices, page[:3000]
    tile, points = choices[turn % len(choices)]
    return {"seat": seat[1], "tile": tile, "at": points[0]}


@pytest.fixture
def two_nodes(stack: str) -> str:
    if stack_nodes() < 2:
        pytest.skip("Redis is not running on 127.0.0.1:6379: the stack has one app server")
    return stack


def test_one_phones_taps_alternated_between_two_servers_apply_once_each(
        two_nodes: str, run_dir: Path) -> None:
    phone = Phone(run_dir)
    # the form from one server, the match made by the other (the key is the session's)
    _, _, page = phone.request(1, "GET", "/new/")
    token, key = FORM_CSRF.search(page), FORM_KEY.search(page)
    assert token is not None and key is not None, page[:3000]
    status, pad, page = phone.request(2, "POST", "/new/", {
        "csrfmiddlewaretoken": token[1], "creation_key": key[1], "game": "all-fives",
        "player_0": "Olena", "player_1": "Taras", "starter": "0", "mode": "tracked"})
    assert status == 302, page[:3000]
    pad = urlsplit(pad).path
    status, _, page = phone.request(1, "GET", pad)
    assert status == 200
    start = shown = version(page)

    applied, doubled, stale_accepted = 0, 0, 0
    node = 2
    for turn in range(8):
        tap = {"version": str(shown), "key": str(uuid.uuid4()), **a_placement(page, turn)}
        _, _, answer = phone.request(node, "POST", pad + "play/", tap, htmx=True)
        assert version(answer) == shown + 1, answer[:3000]
        applied += 1
        node = 3 - node
        # the same tap sent again (its answer lost) to the other server: recognised
        _, _, again = phone.request(node, "POST", pad + "play/", tap, htmx=True)
        assert "Already recorded" in again
        doubled += version(again) != shown + 1
        node = 3 - node
        if turn % 2:
            # a tap from the page before, with a key of its own: refused by the other
            late = {**tap, "key": str(uuid.uuid4())}
            _, _, refused = phone.request(node, "POST", pad + "play/", late, htmx=True)
            stale_accepted += version(refused) != shown + 1
            node = 3 - node
        shown, page = shown + 1, answer

    # an undo on one server and a tap on the other, sent together from the same table:
    # one of them is applied, the other refused as out of date
    undo = {"version": str(shown), "key": str(uuid.uuid4())}
    tap = {"version": str(shown), "key": str(uuid.uuid4()), **a_placement(page, 0)}
    with ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(
            lambda sent: phone.request(sent[0], "POST", pad + sent[1], sent[2], htmx=True),
            [(1, "undo/", undo), (2, "play/", tap)]))
    assert sorted(version(answer) for _, _, answer in answers) == [shown + 1, shown + 1]
    applied += 1
    # both sent again, each to the other server: nothing more applied
    for node, write, sent in ((2, "undo/", undo), (1, "play/", tap)):
        _, _, again = phone.request(node, "POST", pad + write, sent, htmx=True)
        doubled += version(again) != shown + 1

    pages = {node: phone.request(node, "GET", pad)[2] for node in (1, 2)}
    lost = start + applied - version(pages[1])
    assert (doubled, stale_accepted, lost) == (0, 0, 0)
    assert PER_REQUEST.sub("", pages[1]) == PER_REQUEST.sub("", pages[2])
    # the board holds the eight tiles, less the one undone or with the ninth
    assert len(BOARD_TILE.findall(pages[1])) in (7, 9)
    watched = "/".join(pad.split("/")[:3]) + "/"  # the match's public page
    public = {node: phone.request(node, "GET", watched)[2] for node in (1, 2)}
    assert PER_REQUEST.sub("", public[1]) == PER_REQUEST.sub("", public[2])


def _restarted(pid_file: Path, before: int, program: str, timeout: float = 60) -> int:
    """The pid a supervisor wrote after `before` stopped, once it runs `program` (the
    worker's is a shell until its imports are resumed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            now = int(pid_file.read_text())
            running = Path(f"/proc/{now}/cmdline").read_text().replace("\0", " ")
        except (OSError, ValueError):
            now, running = before, ""
        if now != before and program in running:
            return now
        time.sleep(0.2)
    raise AssertionError(f"{pid_file.name}: {program} not started again within {timeout} s")


def test_a_worker_that_dies_is_started_again(stack: str, run_dir: Path) -> None:
    pid_file = run_dir / "worker.pid"
    before = int(pid_file.read_text())
    os.kill(before, signal.SIGKILL)
    _restarted(pid_file, before, "manage.py db_worker")
    assert "worker stopped (exit 137)" in (run_dir / "worker.log").read_text()
    assert _get(stack + "/healthz")[0] == 200  # the site never went down


def test_an_app_server_that_dies_is_started_again_and_the_other_answers(
        two_nodes: str, run_dir: Path) -> None:
    pid_file = run_dir / "gunicorn-2.pid"
    before = int(pid_file.read_text())
    os.kill(before, signal.SIGKILL)
    # meanwhile nginx passes every request to the server that still runs
    assert {_get(two_nodes + "/healthz")[0] for _ in range(6)} == {200}
    _restarted(pid_file, before, "gunicorn")
    phone = Phone(run_dir)
    deadline = time.monotonic() + 60
    while True:
        try:
            if phone.request(2, "GET", "/healthz")[0] == 200:
                break
        except OSError:
            pass
        assert time.monotonic() < deadline, "gunicorn-2 does not answer again"
        time.sleep(0.3)


def _prod(run_dir: Path, *args: str, **env: str) -> tuple[int, str]:
    """scripts/prod's exit status and what it wrote to stderr, when it is expected to
    refuse; should it start instead, all it started is stopped."""
    environ = {**os.environ, "SK_RUN": str(run_dir),
               "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}", **env}
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    process = subprocess.Popen([str(ROOT / "scripts/prod"), *args], cwd=ROOT, env=environ,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        _, stderr = process.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        process.communicate(timeout=30)
        raise AssertionError("scripts/prod started rather than refusing") from None
    return process.returncode, stderr


@pytest.mark.parametrize("nodes", ["0", "two", "100"])
def test_a_number_of_app_servers_that_is_none_is_refused(nodes: str, tmp_path: Path) -> None:
    status, said = _prod(tmp_path, "--nodes", nodes)

    assert status == 2
    assert f"--nodes takes a number of app servers from 1 to 99, not '{nodes}'" in said


def test_two_app_servers_without_redis_are_refused(stack: str, tmp_path: Path) -> None:
    # the session's stack database, already made: its setup is quick
    status, said = _prod(tmp_path, "--nodes", "2", str(_free_port()),
                         REDIS_URL=f"redis://127.0.0.1:{_free_port()}/0")

    assert status == 1, said[-2000:]
    assert "no Redis answers at redis://127.0.0.1:" in said
    assert not list(tmp_path.glob("*.sock"))  # nothing was started
