"""League benchmark: the season page over a big season, and ``league_table`` over many
documents.

1. Fills a season of 10 divisions × 14 teams, double round robin (182 fixtures a
   division, 1,820 in all), 9 games a fixture, each game a stored match (16,380
   matches with their sides and seats), all results confirmed; then renders the season
   page (a division's table and fixture list; the page shows one division at a time)
   ``--requests`` times in-process with Django's test client, cycling through the
   divisions, and reports the median and 95th percentile. It also times one
   division's table alone through the standings service.
2. Writes ``--documents`` generated ``domino-league/1`` documents (14 entrants, double
   round robin, random results) and times ``manage.py league_table --json`` over all of
   them in one subprocess, start-up included.

Run against PostgreSQL (the database named by ``--database``, created if missing, its
tables dropped and migrated afresh):

    .venv/bin/python bench/league.py
    .venv/bin/python bench/league.py --requests 20 --documents 200
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DIVISIONS, TEAMS, GAMES = 10, 14, 9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="scorekeeper_bench")
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--documents", type=int, default=1000)
    args = parser.parse_args()

    url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    _create_database(args.database)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0) if _migrated() else None
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    season = _fill()
    print(f"filled: {DIVISIONS} divisions x {TEAMS} teams, double round robin, {GAMES} games "
          f"a fixture with stored matches in {time.perf_counter() - started:.1f} s")
    _time_pages(season, args.requests)
    _time_league_table(args.documents)


def _create_database(name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                              (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def _migrated() -> bool:
    from django.db import connection

    return "matches_match" in connection.introspection.table_names()


def _fill():  # noqa: ANN202 - Django models are imported after setup
    from django.contrib.auth.models import User

    from matches.clubs.services import club_create
    from matches.leagues.services import entrant_add, season_create
    from matches.models import (
        Fixture,
        FixtureGame,
        FixtureStatus,
        Match,
        Seat,
        Side,
    )
    from matches.rules import fixtures as fixture_rules

    rng = random.Random(7)
    played = datetime.datetime(2026, 9, 7, 20, tzinfo=datetime.UTC)
    secretary = User.objects.create_user("secretary")
    club = club_create(name="Bench Club", by=secretary)
    season = season_create(
        club=club, by=secretary, name="Big Season", starts_on=datetime.date(2026, 9, 7),
        game="fives-and-threes", fixture_format="games", singles=GAMES,
        scoring={"per_game": 1}, tiebreaks=["game_difference", "games_for", "head_to_head"],
        divisions=[f"Division {n + 1}" for n in range(DIVISIONS)])
    for division in season.divisions.all():
        entrants = {}
        for n in range(TEAMS):
            entrant = entrant_add(division=division, by=secretary,
                                           name=f"{division.name} Team {n + 1}")
            entrants[entrant.name] = entrant
        schedule = fixture_rules.round_robin(list(entrants), legs=2,
                                             start=season.starts_on)
        fixtures = []
        for f in schedule.fixtures:
            home_games = rng.randint(0, GAMES)
            fixtures.append(Fixture(division=division, week=f.week, date=f.date,
                                    home=entrants[f.home], away=entrants[f.away],
                                    status=FixtureStatus.CONFIRMED, home_games=home_games,
                                    away_games=GAMES - home_games))
        Fixture.objects.bulk_create(fixtures)
        matches, games, sides, seats = [], [], [], []
        for fixture in fixtures:
            for number in range(1, GAMES + 1):
                home_won = number <= (fixture.home_games or 0)
                match = Match(game="fives-and-threes", player_count=2, target=61,
                              status="finished", winner_side=0 if home_won else 1,
                              started_at=played, finished_at=played, version=1)
                matches.append(match)
                low = rng.randint(0, 60)
                games.append((fixture, number, match,
                              (61, low) if home_won else (low, 61)))
        Match.objects.bulk_create(matches, batch_size=2000)
        for _fixture, _number, match, (home, away) in games:
            sides += [Side(match=match, index=0, score=home), Side(match=match, index=1,
                                                                  score=away)]
        Side.objects.bulk_create(sides, batch_size=4000)
        by_match: dict[int, list[Side]] = {}
        for side in sides:
            by_match.setdefault(side.match_id, []).append(side)
        for _fixture, _number, match, _score in games:
            home_side, away_side = by_match[match.pk]
            seats += [Seat(match=match, position=0, name="Home player", side=home_side),
                      Seat(match=match, position=1, name="Away player", side=away_side)]
        Seat.objects.bulk_create(seats, batch_size=4000)
        FixtureGame.objects.bulk_create([
            FixtureGame(fixture=fixture, number=number, match=match, home_score=home,
                        away_score=away)
            for fixture, number, match, (home, away) in games], batch_size=4000)
    return season


def _time_pages(season, requests: int) -> None:  # noqa: ANN001
    from django.db import connection
    from django.test import Client

    from matches.leagues.selectors import division_table, season_divisions

    client = Client(HTTP_HOST="localhost")
    url = season.get_absolute_url()
    divisions = list(season.divisions.values_list("pk", flat=True))
    assert client.get(url).status_code == 200  # warm up
    queries: list[str] = []

    def count(execute, sql, params, many, context):  # noqa: ANN001, ANN202
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):  # (a request resets connection.queries)
        client.get(url, {"division": divisions[-1]})
    times = []
    for n in range(requests):
        started = time.perf_counter()
        response = client.get(url, {"division": divisions[n % len(divisions)]})
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200
    size = len(response.content)
    print(f"season page, one division ({TEAMS} teams, {TEAMS * (TEAMS - 1)} fixtures, "
          f"{size // 1024} KiB, {len(queries)} queries): median "
          f"{statistics.median(times):.0f} ms, p95 {_p95(times):.0f} ms over {requests} "
          f"requests across the {len(divisions)} divisions")
    division = season_divisions(season).first()
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        division = season_divisions(season).first()
        assert division is not None
        division_table(division, season)
        times.append((time.perf_counter() - started) * 1000)
    print(f"one division's table (standings service, {TEAMS} teams, "
          f"{TEAMS * (TEAMS - 1)} fixtures): median {statistics.median(times):.1f} ms, "
          f"p95 {_p95(times):.1f} ms")


def _time_league_table(count: int) -> None:
    from matches.rules import fixtures as fixture_rules

    rng = random.Random(11)
    names = [f"Team {n + 1}" for n in range(TEAMS)]
    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for n in range(count):
            schedule = fixture_rules.round_robin(names, legs=2,
                                                 start=datetime.date(2026, 9, 7))
            fixtures = []
            for f in schedule.fixtures:
                home = rng.randint(0, GAMES)
                fixtures.append({"date": f.date.isoformat() if f.date else None,
                                 "home": f.home, "away": f.away,
                                 "result": [home, GAMES - home]})
            document = {"format": "domino-league/1", "name": f"League {n}",
                        "game": "fives-and-threes", "entrants": [{"name": x} for x in names],
                        "scoring": {"per_game": 1},
                        "tiebreaks": ["game_difference", "games_for", "head_to_head"],
                        "fixtures": fixtures}
            path = Path(folder) / f"league-{n}.json"
            path.write_text(json.dumps(document), "utf-8")
            paths.append(str(path))
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "manage.py", "league_table", "--json", *paths],
                              cwd=ROOT, capture_output=True, text=True)
        elapsed = time.perf_counter() - started
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == count, done.stderr[-2000:]
    print(f"league_table --json over {count} documents ({TEAMS} entrants, "
          f"{TEAMS * (TEAMS - 1)} fixtures each): {elapsed:.2f} s, start-up included")


def _p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


if __name__ == "__main__":
    main()
