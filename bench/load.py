"""Load benchmark through the production stack: nginx → gunicorn → PostgreSQL.

Starts ``scripts/prod`` on a free port with a throwaway database (``scorekeeper_load``,
dropped and made again) and a temporary ``SK_RUN``, then for ``--seconds``:

- ``--tables`` scorers, each from its own loopback address (127.0.0.N, so nginx's
  per-address rate limits apply per phone, as in real life): start a two-player All
  Fives match (``POST /new/``, follow the redirect to the scorepad with the session
  cookie), then place tiles as htmx does (``POST …/score/play/`` with ``HX-Request`` and
  ``X-CSRFToken``; hidden ``version``, a fresh ``key`` per tap, ``seat``, ``tile``,
  ``at``), 0.5–1 s apart. A tap that meets a network error or a 5xx is sent again with
  the SAME key. When a round can go no further (no playable tile: someone went out or
  the board is blocked), the table starts a new match.
- ``--viewers`` watchers, each from its own address: poll a table's public page
  (``GET /matches/<id>/`` with ``HX-Request``) every 5 s, with ``If-None-Match``.
- a trivial view, ``GET /healthz``, 5 times a second from one more address.
- the slow-client test: in the middle third of the run, 50 connections send their
  request headers one byte a second (reconnecting when nginx drops them); the trivial
  view's latency in that window is reported on its own.

Prints requests/s and p50/p95/p99 latency per endpoint, the errors (5xx, connection
errors and 429s apart) and the goal: placement p95 within 4× the trivial view's p95,
and 0 errors. Needs PostgreSQL on 127.0.0.1:5432 (user ``postgres``) and nginx.

With ``--nodes N`` (N > 1) the same load runs twice, each on a stack of its own: first
on one app server, then on N (``scripts/prod --nodes N``: N gunicorn instances behind
nginx's upstream, the cache on Redis, which must answer on ``REDIS_URL`` or
127.0.0.1:6379), and the two are reported side by side.

    .venv/bin/python bench/load.py                       # 60 s, 20 tables, 40 viewers
    .venv/bin/python bench/load.py --seconds 30 --tables 10 --viewers 20
    .venv/bin/python bench/load.py --nodes 2             # one app server, then two
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "scorekeeper_load"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
TRIVIAL_RATE = 5.0  # per second
POLL_EVERY = 5.0
SLOW_CLIENTS = 50
RETRIES = 5

LIVE = re.compile(r'<div id="live"[^>]*data-version="(\d+)"')
SEAT = re.compile(r'id="place-form".*?name="seat" value="(\d+)"', re.S)
CHOICE_SET = re.compile(r'<div class="choice-set" data-for="([^"]+)"[^>]*>(.*?)</div>', re.S)
POINT = re.compile(r'name="at" value="([^"]*)"')
HX_CSRF = re.compile(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'')
FORM_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# the form's own key: the app accepts only a key the same session drew
FORM_KEY = re.compile(r'name="creation_key" value="([0-9a-f-]{36})"')
MATCH_ID = re.compile(r"/matches/([0-9a-f-]{36})/")


@dataclass
class Sample:
    endpoint: str
    started: float
    seconds: float
    status: int  # 0: connection error
    timing: dict[str, dict[str, str]] | None = None  # the answer's Server-Timing metrics


def server_timing(header: str | None) -> dict[str, dict[str, str]] | None:
    """``total;dur=20.31, db;dur=4.02;desc="7"`` → {"total": {"dur": "20.31"}, …}."""
    if not header:
        return None
    metrics: dict[str, dict[str, str]] = {}
    for metric in header.split(","):
        name, *params = metric.strip().split(";")
        metrics[name] = dict(param.split("=", 1) for param in params if "=" in param)
        for key, value in metrics[name].items():
            metrics[name][key] = value.strip('"')
    return metrics


@dataclass
class Recorder:
    samples: list[Sample] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sample: Sample) -> None:
        with self.lock:
            self.samples.append(sample)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str


class Phone:
    """One client: its own source address, a keep-alive connection, a cookie jar."""

    def __init__(self, port: int, address: str, recorder: Recorder) -> None:
        self.port = port
        self.address = address
        self.recorder = recorder
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, endpoint: str, method: str, path: str, *,
                form: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> Answer | None:
        """Send one request; record it; None on a connection error."""
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        started = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(
                    "127.0.0.1", self.port, timeout=30, source_address=(self.address, 0))
            self.connection.request(method, path, body=body, headers=sent)
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.recorder.add(Sample(endpoint, started, time.monotonic() - started, 0))
            self.close()
            return None
        self.recorder.add(Sample(endpoint, started, time.monotonic() - started,
                                 response.status,
                                 server_timing(response.getheader("Server-Timing"))))
        for line in response.msg.get_all("Set-Cookie") or []:
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(line)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        if response.getheader("Content-Encoding") == "gzip":
            raw = gzip.decompress(raw)
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      raw.decode("utf-8", "replace"))


class Table(threading.Thread):
    """A quick scorer: starts a match, places tiles, starts another when a round ends."""

    def __init__(self, number: int, port: int, recorder: Recorder, stop: threading.Event,
                 live: list[str], live_lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.number = number
        self.phone = Phone(port, f"127.0.0.{2 + number}", recorder)
        self.stop = stop
        self.live = live
        self.live_lock = live_lock
        self.random = random.Random(number)
        self.scorer_path = ""
        self.csrf = ""

    def pause(self, low: float, high: float) -> None:
        self.stop.wait(self.random.uniform(low, high))

    def start_match(self) -> str | None:
        """The scorepad page of a new match, or None."""
        page = self.phone.request("new-form", "GET", "/new/")
        if page is None or page.status != 200:
            return None
        token = FORM_CSRF.search(page.body)
        key = FORM_KEY.search(page.body)
        if token is None or key is None:
            return None
        self.pause(0.5, 1.0)
        if self.stop.is_set():
            return None
        form = {"csrfmiddlewaretoken": token.group(1), "game": "all-fives",
                "player_0": f"North {self.number}", "player_1": f"South {self.number}",
                "starter": "0", "mode": "tracked", "creation_key": key.group(1)}
        for _ in range(RETRIES):  # the same creation_key: one match however often sent
            answer = self.phone.request("new", "POST", "/new/", form=form,
                                        headers={"Referer": "http://127.0.0.1/new/"})
            if answer is not None and answer.status < 500:
                break
            self.pause(0.5, 1.0)
        else:
            return None
        if answer.status != 302:
            return None
        self.scorer_path = urlsplit(answer.headers["location"]).path
        found = MATCH_ID.search(self.scorer_path)
        if found:
            with self.live_lock:
                self.live.append(found.group(1))
        scorepad = self.phone.request("scorepad", "GET", self.scorer_path)
        if scorepad is None or scorepad.status != 200:
            return None
        csrf = HX_CSRF.search(scorepad.body)
        self.csrf = csrf.group(1) if csrf else ""
        return scorepad.body

    def run(self) -> None:
        fragment: str | None = None
        while not self.stop.is_set():
            if fragment is None:
                fragment = self.start_match()
                if fragment is None:
                    self.pause(1.0, 2.0)
                    continue
            version = LIVE.search(fragment)
            seat = SEAT.search(fragment)
            choices = [(tile, POINT.findall(body)) for tile, body in CHOICE_SET.findall(fragment)]
            choices = [(tile, points) for tile, points in choices if points]
            if version is None or seat is None or not choices:
                fragment = None  # the round is over (or blocked): a new match
                continue
            tile, points = self.random.choice(choices)
            form = {"version": version.group(1), "key": str(uuid.uuid4()),
                    "seat": seat.group(1), "tile": tile, "at": self.random.choice(points)}
            self.pause(0.5, 1.0)
            if self.stop.is_set():  # the run is over: no tap after it (all tables at once)
                break
            answer = None
            for _ in range(RETRIES):  # a lost or failed tap: again, with the SAME key
                answer = self.phone.request(
                    "play", "POST", self.scorer_path + "play/", form=form,
                    headers={"HX-Request": "true", "X-CSRFToken": self.csrf,
                             "Referer": "http://127.0.0.1" + self.scorer_path})
                if answer is not None and answer.status < 500:
                    break
                self.stop.wait(0.5)
            if answer is not None and answer.status == 200 and LIVE.search(answer.body):
                fragment = answer.body
            else:  # refused, or never answered: read the table again
                page = self.phone.request("scorepad", "GET", self.scorer_path)
                fragment = page.body if page is not None and page.status == 200 else None


class Viewer(threading.Thread):
    """A watcher's phone polling one table's public page every 5 s."""

    def __init__(self, number: int, port: int, recorder: Recorder, stop: threading.Event,
                 live: list[str], live_lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.number = number
        self.phone = Phone(port, f"127.0.1.{1 + number}", recorder)
        self.stop = stop
        self.live = live
        self.live_lock = live_lock

    def pick(self) -> str | None:
        with self.live_lock:
            recent = self.live[-20:]
        return recent[self.number % len(recent)] if recent else None

    def run(self) -> None:
        self.stop.wait(random.uniform(0, POLL_EVERY))
        match, etag = None, ""
        while not self.stop.is_set():
            if match is None:
                match, etag = self.pick(), ""
                if match is None:
                    self.stop.wait(1.0)
                    continue
            headers = {"HX-Request": "true", "HX-Target": "scorepad"}
            if etag:
                headers["If-None-Match"] = etag
            answer = self.phone.request("poll", "GET", f"/matches/{match}/", headers=headers)
            if answer is not None:
                etag = answer.headers.get("etag", etag)
                if "hx-refresh" in answer.headers or answer.status == 404:
                    match = None  # that match ended: watch another
            self.stop.wait(POLL_EVERY)


class Trivial(threading.Thread):
    def __init__(self, port: int, recorder: Recorder, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.phone = Phone(port, "127.0.2.1", recorder)
        self.stop = stop

    def run(self) -> None:
        following = time.monotonic()
        while not self.stop.is_set():
            self.phone.request("trivial", "GET", "/healthz")
            following += 1 / TRIVIAL_RATE
            self.stop.wait(max(0.0, following - time.monotonic()))


class SlowClients(threading.Thread):
    """Connections that send their request headers one byte a second, never finishing."""

    def __init__(self, port: int, start_at: float, end_at: float,
                 stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.start_at = start_at
        self.end_at = end_at
        self.stop = stop
        self.opened = 0
        self.dropped = 0
        self.held_max = 0

    def connect(self, index: int) -> tuple[socket.socket, int] | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2,
                                            source_address=(f"127.0.3.{1 + index}", 0))
        except OSError:
            return None
        self.opened += 1
        return sock, 0

    def run(self) -> None:
        header = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 10_000
        self.stop.wait(max(0.0, self.start_at - time.monotonic()))
        slots: list[tuple[socket.socket, int] | None] = [
            self.connect(i) for i in range(SLOW_CLIENTS)]
        while not self.stop.is_set() and time.monotonic() < self.end_at:
            for index, slot in enumerate(slots):
                if slot is None:
                    slots[index] = self.connect(index)
                    continue
                sock, sent = slot
                try:
                    sock.sendall(header[sent:sent + 1])
                    slots[index] = (sock, sent + 1)
                except OSError:
                    self.dropped += 1  # nginx gave up on it (client_header_timeout)
                    sock.close()
                    slots[index] = self.connect(index)
            self.held_max = max(self.held_max, sum(slot is not None for slot in slots))
            self.stop.wait(1.0)
        for slot in slots:
            if slot is not None:
                slot[0].close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def healthy(port: int) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        connection.request("GET", "/healthz")
        status = connection.getresponse().status
        connection.close()
    except (OSError, http.client.HTTPException):
        return False
    return status == 200


def start_stack(port: int, run: str, nodes: int) -> subprocess.Popen[bytes]:
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", DATABASE],
                   check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DATABASE], check=True)
    # SERVER_TIMING: each answer says where its time went (scorekeeper.middleware)
    env = {**os.environ, "SK_RUN": run, "DATABASE_URL": DATABASE_URL, "SERVER_TIMING": "1"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    process = subprocess.Popen([str(ROOT / "scripts/prod"), "--nodes", str(nodes), str(port)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = process.stdout.read().decode() if process.stdout else ""
            raise SystemExit(f"bench/load.py: scripts/prod stopped:\n{output[-3000:]}")
        if healthy(port):
            return process
        time.sleep(0.5)
    os.killpg(process.pid, signal.SIGTERM)
    raise SystemExit("bench/load.py: the stack did not answer within 240 s")


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine, from /proc/stat."""
    try:
        fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return sum(fields) - idle, sum(fields)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def row(name: str, samples: list[Sample], seconds: float) -> str:
    ms = [s.seconds * 1000 for s in samples]
    errors = sum(s.status >= 500 for s in samples)
    lost = sum(s.status == 0 for s in samples)
    limited = sum(s.status == 429 for s in samples)
    return (f"| {name} | {len(samples)} | {len(samples) / seconds:.1f} | "
            f"{percentile(ms, 0.50):.0f} | {percentile(ms, 0.95):.0f} | "
            f"{percentile(ms, 0.99):.0f} | {errors} | {lost} | {limited} |")


def breakdown(samples: list[Sample]) -> list[str]:
    """Where the placements' time went, from their Server-Timing headers: by how the
    worker came by the match's engine, and for the median and the slowest 5 %: the
    worker's CPU, the time in database statements, the rest of the worker's time (off
    the CPU, outside a statement: waiting for a core), and the time outside the worker
    (nginx, the socket's queue, this client)."""
    timed = [s for s in samples if s.endpoint == "play" and s.status == 200 and s.timing]
    if not timed:
        return []

    def dur(sample: Sample, name: str) -> float:
        return float(sample.timing[name]["dur"]) if sample.timing and name in sample.timing \
            else 0.0

    lines = ["| engine | placements | p50 | p95 | worker CPU p50 | statements |",
             "|---|---|---|---|---|---|"]
    for source in ("kept", "caught-up", "replayed"):
        some = [s for s in timed if (s.timing or {}).get("engine", {}).get("desc") == source]
        if some:
            ms = [s.seconds * 1000 for s in some]
            statements = [float((s.timing or {})["db"]["desc"]) for s in some]
            lines.append(f"| {source} | {len(some)} | {percentile(ms, 0.5):.0f} | "
                         f"{percentile(ms, 0.95):.0f} | "
                         f"{percentile([dur(s, 'cpu') for s in some], 0.5):.1f} | "
                         f"{percentile(statements, 0.5):.0f} |")
    ordered = sorted(timed, key=lambda s: s.seconds)
    lines += ["", "| placements | latency | worker CPU | in statements | worker, waiting | "
              "outside the worker |", "|---|---|---|---|---|---|"]
    for name, group in (("median (45–55 %)", ordered[len(ordered) * 45 // 100:
                                                    len(ordered) * 55 // 100 + 1]),
                        ("slowest 5 %", ordered[len(ordered) * 95 // 100:])):
        n = len(group)
        latency = sum(s.seconds * 1000 for s in group) / n
        total = sum(dur(s, "total") for s in group) / n
        cpu = sum(dur(s, "cpu") for s in group) / n
        db = sum(dur(s, "db") for s in group) / n
        lines.append(f"| {name} | {latency:.1f} | {cpu:.1f} | {db:.1f} | "
                     f"{max(total - cpu - db, 0):.1f} | {latency - total:.1f} |")
    return lines


GOAL = 4  # a placement's p95 within this many times the trivial view's


@dataclass
class Run:
    """One load on one stack, and what the machine did meanwhile."""

    nodes: int
    port: int
    samples: list[Sample]
    seconds: float
    slow: SlowClients
    before: float  # % of the machine busy in the 3 s before the load
    busy: float  # % busy during it
    own: float  # CPU-seconds the load generator used


def measure(args: argparse.Namespace, nodes: int) -> Run:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="sk-load-", delete=not args.keep) as run:
        if args.keep:
            print(f"SK_RUN: {run}", file=sys.stderr)
        print(f"starting scripts/prod --nodes {nodes} on 127.0.0.1:{port} "
              f"(database {DATABASE})…", file=sys.stderr)
        process = start_stack(port, run, nodes)
        try:
            recorder = Recorder()
            stop = threading.Event()
            live: list[str] = []
            live_lock = threading.Lock()
            idle_began = machine_busy()
            time.sleep(3)  # what else runs on this machine: its CPU use before the load
            idle_ended = machine_busy()
            began = time.monotonic()
            cpu_began, busy_began = os.times(), machine_busy()
            slow = SlowClients(port, began + args.seconds / 3, began + 2 * args.seconds / 3,
                               stop)
            threads: list[threading.Thread] = [
                *(Table(n, port, recorder, stop, live, live_lock) for n in range(args.tables)),
                *(Viewer(n, port, recorder, stop, live, live_lock)
                  for n in range(args.viewers)),
                Trivial(port, recorder, stop), slow]
            for thread in threads:
                thread.start()
            stop.wait(args.seconds)
            stop.set()
            for thread in threads:
                thread.join(timeout=35)
            ended = time.monotonic()
            cpu_ended, busy_ended = os.times(), machine_busy()
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)
    own = (cpu_ended.user + cpu_ended.system) - (cpu_began.user + cpu_began.system)
    total = busy_ended[1] - busy_began[1]
    span = idle_ended[1] - idle_began[1]
    return Run(nodes=nodes, port=port, samples=list(recorder.samples), seconds=ended - began,
               slow=slow,
               before=100 * (idle_ended[0] - idle_began[0]) / span if span else 0.0,
               busy=100 * (busy_ended[0] - busy_began[0]) / total if total else 0.0,
               own=own)


def ratio(run: Run) -> tuple[float, float, int, int]:
    """Placement p95 and trivial p95 (ms), errors (5xx + connection), 429s."""
    play = [s.seconds * 1000 for s in run.samples if s.endpoint == "play"]
    trivial = [s.seconds * 1000 for s in run.samples if s.endpoint == "trivial"]
    errors = sum(s.status >= 500 or s.status == 0 for s in run.samples)
    limited = sum(s.status == 429 for s in run.samples)
    return percentile(play, 0.95), percentile(trivial, 0.95), errors, limited


def report(args: argparse.Namespace, run: Run) -> None:
    samples, seconds, slow = run.samples, run.seconds, run.slow
    servers = "one app server" if run.nodes == 1 else f"{run.nodes} app servers"
    print(f"\n{args.seconds:g} s, {args.tables} tables, {args.viewers} viewers, "
          f"through nginx on 127.0.0.1:{run.port}, {servers}; latency in ms\n")
    print("| endpoint | requests | req/s | p50 | p95 | p99 | 5xx | conn. errors | 429 |")
    print("|---|---|---|---|---|---|---|---|---|")
    names = ["new", "play", "poll", "trivial", "new-form", "scorepad"]
    for name in names:
        print(row(name, [s for s in samples if s.endpoint == name], seconds))
    print(row("all", samples, seconds))
    window = [s for s in samples if s.endpoint == "trivial"
              and slow.start_at <= s.started < slow.end_at]
    outside = [s for s in samples if s.endpoint == "trivial"
               and not slow.start_at <= s.started < slow.end_at]
    print(row("trivial, slow clients on", window, slow.end_at - slow.start_at))
    print(row("trivial, slow clients off", outside,
              seconds - (slow.end_at - slow.start_at)))
    odd = Counter((s.endpoint, s.status) for s in samples if s.status == 0 or s.status >= 400)
    if odd:
        print("\nrefused or failed (endpoint, status: count; 0 = connection error): "
              + ", ".join(f"{name} {status}: {count}"
                          for (name, status), count in sorted(odd.items())))
    lines = breakdown(samples)
    if lines:
        print("\nwhere the placements' time went (ms; their Server-Timing headers):\n")
        print("\n".join(lines))
    polls = [s for s in samples if s.endpoint == "poll"]
    print(f"\npolls answered 304: {sum(s.status == 304 for s in polls)} of {len(polls)}")
    print(f"slow clients: {SLOW_CLIENTS} wanted, up to {slow.held_max} held at once, "
          f"{slow.opened} connections opened, {slow.dropped} dropped by nginx")
    print(f"CPU: the machine was {run.before:.0f} % busy in the 3 s before the load (other "
          f"work on it), {run.busy:.0f} % during it ({os.cpu_count()} cores); this load "
          f"generator itself used {run.own:.1f} CPU-seconds "
          f"({100 * run.own / seconds:.0f} % of a core)")
    play, trivial, errors, limited = ratio(run)
    within = play <= GOAL * trivial
    print(f"goal: placement p95 {play:.0f} ms within {GOAL} × trivial p95 {trivial:.0f} ms "
          f"({play / trivial if trivial else 0:.1f}×): {'met' if within else 'NOT met'}; "
          f"errors (5xx + connection): {errors} ({'met' if errors == 0 else 'NOT met'}); "
          f"429s: {limited}")


def side_by_side(runs: list[Run]) -> None:
    print("\n| app servers | requests/s | placements/s | placement p50 | placement p95 | "
          "trivial p95 | ratio | errors | 429 | machine busy before / during |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for run in runs:
        play_ms = [s.seconds * 1000 for s in run.samples if s.endpoint == "play"]
        play, trivial, errors, limited = ratio(run)
        print(f"| {run.nodes} | {len(run.samples) / run.seconds:.1f} | "
              f"{len(play_ms) / run.seconds:.1f} | {percentile(play_ms, 0.5):.0f} | "
              f"{play:.0f} | {trivial:.0f} | {play / trivial if trivial else 0:.1f}× | "
              f"{errors} | {limited} | {run.before:.0f} % / {run.busy:.0f} % |")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=40)
    parser.add_argument("--nodes", type=int, default=1,
                        help="app servers; above 1, one app server's run comes first")
    parser.add_argument("--keep", action="store_true",
                        help="keep SK_RUN (the stack's logs) and say where it is")
    args = parser.parse_args()
    if not 1 <= args.tables <= 250 or not 0 <= args.viewers <= 250:
        parser.error("--tables and --viewers: at most 250 each (one address per phone)")
    if not 1 <= args.nodes <= 9:
        parser.error("--nodes: from 1 to 9")
    runs = []
    for nodes in sorted({1, args.nodes}):
        runs.append(measure(args, nodes))
        report(args, runs[-1])
    if len(runs) > 1:
        side_by_side(runs)


if __name__ == "__main__":
    main()
