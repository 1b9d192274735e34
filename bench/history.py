"""History benchmark: a club with 10,000 matches, its pages and a full rating rebuild.

Fills a public club with ``--matches`` finished matches of all three games between its
20 players (two to four seats, partnerships included), stored as rows — match, sides
with their scores, seats with their players, one round with its cached totals — plus a
few matches imported from whole simulated records, so a match page has events to show.
Then, in-process with Django's test client, it renders ``--requests`` times each:
the history page (unfiltered, and filtered by a player and a game), a match page, a
player page and the rating table, and prints each one's median and 95th percentile and
its query count. Last it times a full rating rebuild of the club at each game.

Run against PostgreSQL (the database named by ``--database``, created if missing and
emptied first):

    .venv/bin/python bench/history.py
    .venv/bin/python bench/history.py --matches 2000 --requests 20
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAMES = ("all-fives", "five-up", "fives-and-threes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="scorekeeper_bench")
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()

    _create_database(args.database)
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if "matches_match" in connection.introspection.table_names():
        call_command("flush", interactive=False, verbosity=0)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    club, sample = _fill(args.matches)
    print(f"filled: {args.matches} matches of {club.name} in "
          f"{time.perf_counter() - started:.1f} s")
    _time_pages(club, sample, args.requests)
    _time_recompute(club)


def _create_database(name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                            (name,)).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def _fill(count: int):  # noqa: ANN202 - Django models are imported after setup
    from django.contrib.auth.models import User

    from matches import rules
    from matches.clubs.services import club_create
    from matches.history.services import ratings_recompute
    from matches.models import Match, MatchStatus, Player, Round, RoundSide, Seat, Side
    from matches.rules.simulate import simulated_record
    from matches.scoring.services.play import match_import

    rng = random.Random(5)
    owner = User.objects.create_user("owner")
    club = club_create(name="Bench Club", by=owner)
    players = [Player.objects.create(club=club, name=f"Player {n + 1:02d}") for n in range(20)]
    start = datetime.datetime(2024, 1, 1, 19, tzinfo=datetime.UTC)
    matches, layouts = [], []
    for n in range(count):
        game = GAMES[n % 3]
        seats = rng.choice([2, 2, 3, 4])
        when = start + datetime.timedelta(hours=6 * n)
        sides = 2 if seats == 4 else seats
        winner = rng.randrange(sides)
        matches.append(Match(game=game, player_count=seats, target=61, club=club,
                             status=MatchStatus.FINISHED, winner_side=winner,
                             started_at=when, finished_at=when, version=1))
        layouts.append((seats, sides, winner, rng.sample(players, seats)))
    Match.objects.bulk_create(matches, batch_size=2000)
    side_rows, round_rows = [], []
    for match, (_seats, sides, winner, _who) in zip(matches, layouts, strict=True):
        for index in range(sides):
            side_rows.append(Side(match=match, index=index,
                                  score=61 if index == winner else rng.randint(0, 60)))
        round_rows.append(Round(match=match, number=1, starter=0, end="domino", finisher=0,
                                settled=True, pips=[0] * match.player_count))
    Side.objects.bulk_create(side_rows, batch_size=4000)
    Round.objects.bulk_create(round_rows, batch_size=4000)
    by_match: dict[int, list[Side]] = {}
    for side in side_rows:
        by_match.setdefault(side.match_id, []).append(side)
    seat_rows, totals = [], []
    for match, round_, (seats, sides, _winner, who) in zip(matches, round_rows, layouts,
                                                           strict=True):
        match_sides = by_match[match.pk]
        for position in range(seats):
            side = match_sides[position % sides]
            seat_rows.append(Seat(match=match, position=position, name=who[position].name,
                                  player=who[position], side=side))
        for side in match_sides:
            totals.append(RoundSide(round=round_, side=side, placements=side.score,
                                    settlement=0, score=side.score))
    Seat.objects.bulk_create(seat_rows, batch_size=4000)
    RoundSide.objects.bulk_create(totals, batch_size=4000)
    # whole records, so a match page has rounds and tiles to show
    sample = None
    for seed in range(3):
        record = simulated_record(rules.ALL_FIVES, 2, seed=seed)
        sample = match_import(document=record)
        Match.objects.filter(pk=sample.pk).update(club=club)
    for game in GAMES:
        ratings_recompute(club=club, game=game)
    return club, sample


def _time_pages(club, sample, requests: int) -> None:  # noqa: ANN001
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from matches.models import Player

    player = Player.objects.get(club=club, name="Player 07")
    pages = [
        ("history page", reverse("matches:history_list"), {}),
        ("history page, filtered (player, game)", reverse("matches:history_list"),
         {"player": "Player 07", "game": "five-up"}),
        ("match page (a finished match)", sample.get_absolute_url(), {}),
        ("player page", reverse("matches:club_player", kwargs={"slug": club.slug,
                                                               "pk": player.pk}), {}),
        ("rating table", reverse("matches:club_ratings", kwargs={"slug": club.slug,
                                                                 "game": "all-fives"}), {}),
    ]
    client = Client(HTTP_HOST="localhost")
    for name, url, query in pages:
        assert client.get(url, query).status_code == 200  # warm up
        queries: list[str] = []

        def count(execute, sql, params, many, context, seen=queries):  # noqa: ANN001, ANN202
            seen.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url, query)
        times = []
        for _ in range(requests):
            began = time.perf_counter()
            response = client.get(url, query)
            times.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200
        print(f"{name}: median {statistics.median(times):.0f} ms, p95 {_p95(times):.0f} ms, "
              f"{len(queries)} queries, {len(response.content) // 1024} KiB")


def _time_recompute(club) -> None:  # noqa: ANN001
    from matches.history.services import ratings_recompute

    began = time.perf_counter()
    rated = sum(ratings_recompute(club=club, game=game) for game in GAMES)
    print(f"full rating rebuild: {rated} matches in {time.perf_counter() - began:.2f} s")


def _p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


if __name__ == "__main__":
    main()
