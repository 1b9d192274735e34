"""The Server-Timing header (SERVER_TIMING=1, for measuring): where a request's time went,
and how the match's engine was come by (scorekeeper.middleware.ServerTimingMiddleware)."""

from __future__ import annotations

from collections import OrderedDict
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches import rules
from matches.scoring import engine_cache
from matches.scoring.services.play import event_record, round_start
from tests.scorekeeper.test_settings import run_python
from tests.scoring.views.test_play import join, scorer_url, w
from tests.support.helpers import A, T, two_player_all_fives

pytestmark = pytest.mark.django_db

TIMING = "scorekeeper.middleware.ServerTimingMiddleware"
HTMX = {"HTTP_HX_REQUEST": "true"}


def timing(response) -> dict[str, dict[str, str]]:  # noqa: ANN001 - a test response
    """The header's metrics: name → its parameters (dur, desc)."""
    metrics = {}
    for metric in response["Server-Timing"].split(", "):
        name, *params = metric.split(";")
        metrics[name] = {key: value.strip('"')
                         for key, value in (param.split("=", 1) for param in params)}
    return metrics


@pytest.fixture
def timed():
    with override_settings(MIDDLEWARE=[TIMING, *settings.MIDDLEWARE]):
        yield


def test_off_unless_asked_for(client):
    assert settings.SERVER_TIMING is False and TIMING not in settings.MIDDLEWARE
    assert "Server-Timing" not in client.get(reverse("healthz"))


def test_server_timing_env_puts_it_outermost():
    result = run_python("from django.conf import settings as s; print(s.MIDDLEWARE[0])",
                        SERVER_TIMING="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == TIMING


@pytest.mark.usefixtures("timed")
def test_a_trivial_request_says_its_one_statement_and_no_engine(client):
    metrics = timing(client.get(reverse("healthz")))

    assert set(metrics) == {"total", "cpu", "db"}
    assert metrics["db"]["desc"] == "1"
    total, cpu, db = (float(metrics[name]["dur"]) for name in ("total", "cpu", "db"))
    assert 0 < db < total and cpu > 0


@pytest.mark.django_db(transaction=True)  # writes commit, and hand their engine on, as live
@pytest.mark.usefixtures("timed")
def test_a_tap_says_how_its_engine_was_come_by(client):
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    join(client, match)
    engine_cache.forget_engines()  # a process that kept nothing of this match

    def tap(name: str, **fields: str) -> dict[str, dict[str, str]]:
        data = {**w(match, turn=True), **fields}
        with CaptureQueriesContext(connection) as queries:
            response = client.post(scorer_url(match, name), data, **HTMX)
        assert response.status_code == 200 and 'id="scorepad-error"' not in response.text
        metrics = timing(response)
        # every statement the request ran is counted: COMMIT is not one, nor is BEGIN on
        # PostgreSQL (psycopg's own), while SQLite's BEGIN is
        ran = [q for q in queries.captured_queries if q["sql"] != "COMMIT"
               and not (q["sql"] == "BEGIN" and connection.vendor == "postgresql")]
        assert metrics["db"]["desc"] == str(len(ran))
        return metrics

    # the write replays, then its answer reads the engine it kept: the costlier is said
    assert tap("play", tile="5-5", at="")["engine"]["desc"] == "replayed"
    assert tap("draw", tiles="1")["engine"]["desc"] == "kept"
    with mock.patch.object(engine_cache, "_kept", OrderedDict()):  # another process's tap
        event_record(match=match, action=rules.Play(1, T("0-5"), A("5-5:5")))
    assert tap("play", tile="5-6", at="5-5:5")["engine"]["desc"] == "caught-up"


@pytest.mark.usefixtures("timed")
def test_a_watchers_page_says_it_too():
    match = two_player_all_fives()
    round_start(match=match, starter=0)
    engine_cache.forget_engines()

    assert timing(Client().get(match.get_absolute_url()))["engine"]["desc"] == "replayed"
    assert timing(Client().get(match.get_absolute_url()))["engine"]["desc"] == "kept"
