"""Long-match benchmark: the pages of a match of 3,000 rounds, while it is played.

Stores one in-progress two-player Five Up match of ``--rounds`` simulated rounds (about
17 actions a round) on a throwaway SQLite database (or the PostgreSQL database named by
``--database``), then, in-process with Django's test client, times ``--requests``
times each: the public page's poll when nothing changed (304), a tap through the
scorer's view (the POST: the write takes the engine this process kept), the poll after
it (the write handed its engine on), the poll after a tap made by another process (the
kept engine catches up from the change log), the scorer's page, and — for comparison —
building the engine from the rows (what every page and every tap paid before engines
were kept). Then, ``--cold`` times each on a worker that has kept no engine: the
watchers' whole page, and the page of a copy of the match that was abandoned (its log,
chart and board replay: the first round's, and the last round's last placement), with
the replays each request made. Prints the median and the worst of each.

    .venv/bin/python bench/long_match.py
    .venv/bin/python bench/long_match.py --rounds 3000 --requests 20 --database scorekeeper_bench
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import OrderedDict
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3000)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--database", help="a PostgreSQL database (created if missing)")
    parser.add_argument("--cold", type=int, default=5,
                        help="page loads on a cold worker, each kind (5)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    os.environ["DATABASE_URL"] = (
        f"postgres://postgres@127.0.0.1:5432/{args.database}" if args.database
        else f"sqlite:///{folder}/long.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.core.management import call_command
    from django.test import Client

    from matches import rules
    from matches.models import Match
    from matches.rules.simulate import simulated_record
    from matches.scoring import engine_cache
    from matches.scoring.selectors.play import match_engine
    from matches.scoring.services.lifecycle import match_abandon
    from matches.scoring.services.play import (
        grant_create,
        match_import,
    )

    if args.database:
        from django.db import connection
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    call_command("migrate", verbosity=0)
    document = simulated_record(rules.FIVE_UP, 2, seed=1, options={"target": 10**6},
                                max_rounds=args.rounds, finish=True)
    match = match_import(document=document)
    engine = match_engine(match)
    print(f"{len(engine.rounds)} rounds, {len(engine.log)} actions, "
          f"{match.events.count()} events stored")

    scorer = Client()
    grant = grant_create(match=match, phone="bench")
    session = scorer.session
    session["scorer_grants"] = {str(match.public_id): grant.pk}
    session.save()
    watcher = Client()
    url = match.get_absolute_url()

    def timed(run, *args: object, **headers: str) -> float:  # noqa: ANN001 - a callable
        started = time.perf_counter()
        run(*args, **headers)
        return (time.perf_counter() - started) * 1000

    def get(client: Client, path: str, status: int, **headers: str) -> None:
        response = client.get(path, headers={"HX-Request": "true", **headers})
        assert response.status_code == status, response.status_code

    def tap(client: Client) -> None:
        match.refresh_from_db()
        name, fields = _next_tap(match_engine(match), rules)  # not timed
        path = match.get_scorer_url() + f"{name}/"
        data = {"version": match.version, "key": str(uuid.uuid4()), **fields}
        started = time.perf_counter()
        response = client.post(path, data, headers={"HX-Request": "true"})
        rows["tap through the scorer's view (POST)"].append(
            (time.perf_counter() - started) * 1000)
        html = response.content.decode()
        assert response.status_code == 200 and 'id="scorepad-error"' not in html, html[:300]

    rows: dict[str, list[float]] = {"engine from the rows (no keeping)": [],
                                    "poll, nothing changed (304)": [],
                                    "tap through the scorer's view (POST)": [],
                                    "poll after that tap": [],
                                    "poll after another process's tap": [],
                                    "scorer's page": []}
    etag = watcher.get(url, HTTP_HX_REQUEST="true")["ETag"]
    for _ in range(args.requests):
        match.refresh_from_db()
        rows["engine from the rows (no keeping)"].append(timed(match_engine, match))
        rows["poll, nothing changed (304)"].append(
            timed(get, watcher, url, 304, **{"If-None-Match": etag}))
        tap(scorer)
        rows["poll after that tap"].append(timed(get, watcher, url, 200))
        with mock.patch.object(engine_cache, "_kept", OrderedDict()):  # its own engines
            _one_more_tile(match)
        rows["poll after another process's tap"].append(timed(get, watcher, url, 200))
        rows["scorer's page"].append(timed(get, scorer, match.get_scorer_url(), 200))
        etag = watcher.get(url, HTTP_HX_REQUEST="true")["ETag"]
        match = Match.objects.get(pk=match.pk)
    # A worker that has kept no engine (just started, or the match pushed out of its
    # keeping): the whole page, and the page of the same match played no more (its log,
    # chart and board replay), each with the count of replays it made.
    stopped = match_import(document=document)
    match_abandon(match=stopped)
    replays = mock.patch.object(rules.Match, "replay", wraps=rules.Match.replay)
    for name, page in (("watchers' page, cold worker (GET)", url),
                       ("abandoned match's page, cold worker (GET)",
                        stopped.get_absolute_url()),
                       ("abandoned match's page, its last round's board",
                        stopped.get_absolute_url() + f"?round={len(engine.rounds)}&step=99")):
        rows[name] = []
        for _ in range(args.cold):
            engine_cache.forget_engines()
            with replays as counted:
                started = time.perf_counter()
                response = watcher.get(page)
                rows[name].append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, response.status_code
        print(f"{name}: {counted.call_count} replay(s) a request")
    print("| request | median ms | worst ms |")
    print("|---|---|---|")
    for name, values in rows.items():
        print(f"| {name} | {statistics.median(values):.1f} | {max(values):.1f} |")


def _next_move(engine, rules):  # noqa: ANN001, ANN202
    """The next legal action of the match: a settlement of any hands the unseen tiles
    could make, a new round, the first tile that fits, or a pass."""
    rnd = engine.current_round
    if engine.phase == "settle":
        unseen = [t for t in engine.options.tile_set.tiles if t not in rnd.layout]
        hands = []
        for count in rnd.counts:
            hands.append(tuple(unseen[:count]))
            unseen = unseen[count:]
        return rules.Settle(tuple(hands), None)
    if rnd is None or engine.phase != "play":
        return rules.StartRound(engine.required_starter() or 0)
    layout = rnd.layout
    for tile in engine.options.tile_set.tiles:
        if tile in layout:
            continue
        points = layout.legal_points(tile) if len(layout) else [None]
        if points:
            return rules.Play(rnd.turn, tile, points[0])
    return rules.Pass(rnd.turn)


def _next_tap(engine, rules) -> tuple[str, dict[str, object]]:  # noqa: ANN001
    """The next legal move as the scorepad sends it: its view's name and fields."""
    move = _next_move(engine, rules)
    if isinstance(move, rules.Settle):
        return "settle", {"entry": "tiles", **{
            f"hand_{seat}": [str(tile) for tile in hand] for seat, hand in enumerate(move.hands)}}
    if isinstance(move, rules.StartRound):
        return "round", {"starter": str(move.starter), "mode": "tracked"}
    if isinstance(move, rules.Play):
        return "play", {"seat": move.seat, "tile": str(move.tile),
                        "at": str(move.at) if move.at else ""}
    return "pass", {"seat": move.seat}


def _one_more_tile(match) -> None:  # noqa: ANN001
    """The next legal move, through the services."""
    from matches import rules
    from matches.scoring.selectors.play import match_engine
    from matches.scoring.services.play import event_record, round_settle, round_start

    move = _next_move(match_engine(match), rules)
    if isinstance(move, rules.Settle):
        round_settle(match=match, hands=move.hands)
    elif isinstance(move, rules.StartRound):
        round_start(match=match, starter=move.starter)
    else:
        event_record(match=match, action=move)


if __name__ == "__main__":
    main()
