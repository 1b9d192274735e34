"""Gunicorn configuration: `gunicorn scorekeeper.wsgi` picks this file up by itself.

https://docs.gunicorn.org/en/stable/settings.html
"""

import gc
import multiprocessing
import os
from typing import Any

# Only nginx talks to gunicorn: a unix socket (scripts/prod sets GUNICORN_BIND) or the
# loopback address, never every interface. nginx buffers requests and answers, so sync
# workers never wait on a slow phone.
bind = os.environ.get("GUNICORN_BIND") or f"127.0.0.1:{os.environ.get('PORT', '8000')}"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20

# gunicorn's rule of thumb is 2 * cores + 1; capped because each worker holds its own
# database connection (CONN_MAX_AGE) and memory, and a container often reports the
# host's cores rather than its own share.
workers = int(os.environ.get("WEB_CONCURRENCY") or min(2 * multiprocessing.cpu_count() + 1, 9))

accesslog = "-"
errorlog = "-"
# every line of both logs passes scorekeeper/logs.py's redaction (request lines,
# Referers, whatever access_log_format prints)
logger_class = "scorekeeper.logs.GunicornLogger"
# Behind a proxy, trust its X-Forwarded-* headers only from the addresses listed here.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def on_starting(server: Any) -> None:
    """Production mail that cannot go out (no EMAIL_HOST, not EMAIL_DISABLED) is said
    as the server starts, not found at the first password reset (`check --deploy`
    fails on the same check)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    from scorekeeper.checks import mail_problems

    for problem in mail_problems():
        server.log.error("%s %s", problem.msg, problem.hint)


def post_worker_init(worker: object) -> None:
    """The worker loads what its first requests would (the views, every template
    compiled, the catalogues: scorekeeper.warmup), so no early request pays for it.
    That lives as long as the worker does: frozen out of the cyclic garbage collector's
    sight, so that the full collections that fall during requests do not walk it each
    time (about 40 ms each, once in a few hundred taps).
    https://docs.python.org/3/library/gc.html#gc.freeze

    A long download tells the master, as it goes, that this worker is alive
    (scorekeeper.heartbeat): a sync worker is otherwise silent until it has answered."""
    from scorekeeper.heartbeat import beat_with
    from scorekeeper.warmup import warm_up

    beat_with(worker.notify)  # type: ignore[attr-defined]
    warm_up()
    gc.freeze()
