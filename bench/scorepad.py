"""Scorepad benchmark: a tracked placement at the table, measured in Chromium.

For each table shape it starts a match on a throwaway SQLite database served by
``manage.py runserver`` (DEBUG off is not needed: the numbers are about the page), then
in headless Chromium at 360 × 740 places ``--placements`` tiles the way a scorer does:
tap the tile (no request), tap an end (one request). For every placement it records

- the taps it took and the requests it sent,
- the answer's size as sent (gzip, as the app compresses pages) and uncompressed,
- the time from the tap on the end to the new table on screen, on a fast link and on
  a slow one emulated by Chromium (``--latency`` ms round trip, ``--kbps`` kB/s each way),

and prints the median and the worst of each. Shapes: All Fives for 2 (double-six) and
Fives and Threes for 12 (double-twelve, the largest picker and page).

    .venv/bin/python bench/scorepad.py
    .venv/bin/python bench/scorepad.py --placements 10 --latency 600 --kbps 50
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SHAPES: tuple[tuple[str, str, list[str], dict[str, str]], ...] = (
    ("All Fives, 2 players", "all-fives", ["Olena", "Taras"], {}),
    ("Fives and Threes, 12 players, double-twelve", "fives-and-threes",
     [f"Player {n}" for n in range(1, 13)], {"tile_set": "double-twelve"}),
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(database: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"}
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    port = free_port()
    server = subprocess.Popen([python, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("bench/scorepad.py: the development server did not start")


def start(page: Page, url: str, game: str, names: list[str], extra: dict[str, str]) -> None:
    page.goto(f"{url}/new/?players={len(names)}")
    page.check(f"input[name=game][value={game}]")
    for seat, name in enumerate(names):
        page.fill(f"input[name=player_{seat}]", name)
    for field, value in extra.items():
        page.select_option(f"select[name={field}]", value)
    if game == "fives-and-threes":
        page.select_option("select#id_double_holder", "0")
    else:
        page.select_option("select#id_starter", "0")
    page.click("#start-match")
    page.wait_for_function("() => window.htmx !== undefined")


def place_one(page: Page) -> dict[str, float]:
    """Tap the first playable tile and its first end; measure what that cost."""
    version = page.locator("#live").get_attribute("data-version")
    sent: list[str] = []
    answers: list = []

    def on_request(request) -> None:  # noqa: ANN001 - Playwright's Request
        sent.append(request.method)

    def on_response(response) -> None:  # noqa: ANN001
        if response.request.method == "POST":
            answers.append(response)

    page.on("request", on_request)
    page.on("response", on_response)
    taps = 0
    page.locator("a.pick.playable").first.click()
    taps += 1
    button = page.locator(".choice-set:not([hidden]) button.choice").first
    started = time.perf_counter()
    button.click()
    taps += 1
    page.wait_for_function(
        "v => document.getElementById('live').dataset.version !== v", arg=version)
    seconds = time.perf_counter() - started
    page.remove_listener("request", on_request)
    page.remove_listener("response", on_response)
    answer = answers[0]
    answer.finished()
    encoded = int(answer.request.sizes()["responseBodySize"])
    raw = len(answer.body())
    return {"taps": taps, "requests": len(sent), "gzip": encoded, "raw": raw,
            "seconds": seconds}


def run(shape: tuple[str, str, list[str], dict[str, str]], placements: int,
        link: tuple[int, int] | None) -> list[dict[str, float]]:
    _, game, names, extra = shape
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        server, url = serve(Path(folder) / "bench.sqlite3")
        try:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True,
                args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context(viewport={"width": 360, "height": 740},
                                          is_mobile=True, has_touch=True)
            page = context.new_page()
            start(page, url, game, names, extra)
            if link is not None:
                latency, kbps = link
                cdp = context.new_cdp_session(page)
                cdp.send("Network.enable")
                cdp.send("Network.emulateNetworkConditions", {
                    "offline": False, "latency": latency,
                    "downloadThroughput": kbps * 1024, "uploadThroughput": kbps * 1024})
            rows = [place_one(page) for _ in range(placements)]
            browser.close()
            return rows
        finally:
            server.terminate()
            server.wait()


def report(name: str, label: str, rows: list[dict[str, float]]) -> None:
    def both(key: str) -> str:
        values = [row[key] for row in rows]
        return f"{statistics.median(values):g} / {max(values):g}"

    seconds = [row["seconds"] for row in rows]
    print(f"| {name} | {label} | {both('taps')} | {both('requests')} | "
          f"{statistics.median([r['gzip'] for r in rows]) / 1024:.1f} / "
          f"{max(r['gzip'] for r in rows) / 1024:.1f} | "
          f"{statistics.median([r['raw'] for r in rows]) / 1024:.1f} / "
          f"{max(r['raw'] for r in rows) / 1024:.1f} | "
          f"{statistics.median(seconds):.2f} / {max(seconds):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--placements", type=int, default=8)
    parser.add_argument("--latency", type=int, default=600, help="round trip, ms")
    parser.add_argument("--kbps", type=int, default=50, help="kB/s each way")
    args = parser.parse_args()
    print(f"{args.placements} placements per row; median / worst; slow link: "
          f"{args.latency} ms, {args.kbps} kB/s")
    print("| table | link | taps | requests | answer kB (gzip) | answer kB (raw) | seconds |")
    print("|---|---|---|---|---|---|---|")
    for shape in SHAPES:
        report(shape[0], "local", run(shape, args.placements, None))
        report(shape[0], "slow", run(shape, args.placements, (args.latency, args.kbps)))


if __name__ == "__main__":
    main()
