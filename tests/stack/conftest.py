"""The production stack from the shipped files, started once for the session's stack
tests by ``scripts/prod --nodes 2``: nginx → two gunicorn instances (each its own socket
and processes) → PostgreSQL, the task worker beside them, the cache on Redis. With no
Redis answering, one app server (the tests that need two skip, saying why).
"""

from __future__ import annotations

import os
import signal
import socket
import socketserver
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATABASE = "scorekeeper_stack"

SPREAD = pytest.StashKey[list[str]]()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Note the grouped tests whose ids xdist could not mark with their group: under
    --dist loadgroup that mark is what keeps them on one worker, and a pytest whose ids it
    cannot mark spreads them silently (the stack's fixture then fails, saying so)."""
    config.stash[SPREAD] = [
        item.nodeid for item in items
        if getattr(config.option, "loadgroup", False)
        and item.get_closest_marker("xdist_group") and "@" not in item.nodeid]


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


def _redis() -> bool:
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


def stack_nodes() -> int:
    """How many app servers the stack runs: two, sharing the cache on Redis, when
    Redis answers (scripts/prod refuses more than one without it)."""
    return 2 if _redis() else 1


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stack's SK_RUN: its sockets, rendered configs and logs."""
    return tmp_path_factory.mktemp("run")


class MailSink(socketserver.ThreadingTCPServer):
    """A tiny SMTP server on the loopback address: the stack's EMAIL_HOST, so that a
    password reset's mail is sent as in production and read here."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _SmtpSession)
        self.messages: list[str] = []


class _SmtpSession(socketserver.StreamRequestHandler):
    server: MailSink

    def handle(self) -> None:
        self.wfile.write(b"220 sink\r\n")
        while line := self.rfile.readline(65536):
            verb = line[:4].upper()
            if verb == b"EHLO":
                self.wfile.write(b"250-sink\r\n250 8BITMIME\r\n")
            elif verb == b"DATA":
                self.wfile.write(b"354 go on\r\n")
                lines = []
                while (data := self.rfile.readline(65536)) not in (b".\r\n", b""):
                    lines.append(data.decode("utf-8", "replace"))
                self.server.messages.append("".join(lines))
                self.wfile.write(b"250 kept\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:  # HELO, MAIL, RCPT, RSET, NOOP
                self.wfile.write(b"250 ok\r\n")


@pytest.fixture(scope="session")
def mail_sink() -> Iterator[MailSink]:
    sink = MailSink()
    thread = threading.Thread(target=sink.serve_forever, daemon=True)
    thread.start()
    try:
        yield sink
    finally:
        sink.shutdown()
        sink.server_close()


@pytest.fixture(scope="session")
def stack(request: pytest.FixtureRequest, run_dir: Path, mail_sink: MailSink) -> Iterator[str]:
    if request.config.stash.get(SPREAD, []):
        pytest.fail("the stack's tests are not kept on one xdist worker: --dist loadgroup did "
                    "not mark their ids with their group (see the pytest pin in "
                    "requirements-dev.txt)")
    if not _postgres():
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    if not (Path("/usr/sbin/nginx").exists() or os.geteuid() == 0):
        pytest.skip("nginx is missing (apt-get install nginx)")
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE],
                   check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DATABASE], check=True)
    port = _free_port()
    nodes = stack_nodes()
    env = {**os.environ, "SK_RUN": str(run_dir),
           "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
           # mail goes out by SMTP, as in production: to the sink above
           "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(mail_sink.server_address[1]),
           "EMAIL_USE_TLS": "0"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("EMAIL_DISABLED", None)
    process = subprocess.Popen([str(ROOT / "scripts/prod"), "--nodes", str(nodes), str(port)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://localhost:{port}"
    try:
        # setup, a fresh database's migrations and collectstatic: minutes on a busy machine
        deadline = time.monotonic() + 480
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
            pytest.fail("the stack did not answer within 480 s")
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
