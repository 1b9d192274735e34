"""The league's schedule, run inside the task worker (no cron): every
``NOTICE_SCHEDULE_MINUTES`` it confirms the results due (:func:`fixtures_confirm_due`)
and sends the reminders, prompts and missing results due
(:func:`notices.scheduled_notices_send`), then queues its next run for later.

``manage.py start_schedule`` (:func:`schedule_start`) queues the first run; it does
nothing while a run is already waiting, so starting it again, with every start of the
worker, keeps one chain. A deferred run needs a task backend that keeps tasks for later
(``django_tasks_db``, the site's); with another, the command says so and queues nothing.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.tasks import TaskResultStatus, task, task_backends
from django.utils import timezone

from matches.leagues import notices
from matches.leagues.services import fixtures_confirm_due

logger = logging.getLogger(__name__)


def schedule_run(*, now: datetime.datetime) -> dict[str, int]:
    """One run of the schedule at ``now``: what it did, by kind."""
    confirmed = fixtures_confirm_due(now=now)
    sent = notices.scheduled_notices_send(now=now)
    return {"confirmed": confirmed, "reminders": sent.reminders,
            "no_result": sent.no_result, "missing": sent.missing}


@task
def schedule_task() -> dict[str, int]:
    """A run of the schedule in the worker; the next is queued whatever this one met."""
    try:
        return schedule_run(now=timezone.now())
    finally:
        schedule_next(after=datetime.timedelta(minutes=settings.NOTICE_SCHEDULE_MINUTES))


def can_defer() -> bool:
    return bool(task_backends[schedule_task.backend].supports_defer)


def waiting() -> bool:
    """Whether a run of the schedule is queued and not yet started."""
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects.filter(task_path=schedule_task.module_path,
                                       status=TaskResultStatus.READY).exists()


def schedule_next(*, after: datetime.timedelta) -> bool:
    """Queue a run ``after`` from now unless one waits already. Whether it queued one."""
    if not can_defer():
        logger.warning("The league schedule is not kept: the task backend cannot defer.")
        return False
    if waiting():
        return False
    schedule_task.using(run_after=timezone.now() + after).enqueue()
    return True


def schedule_start() -> bool:
    """Queue a run now unless one waits already (``manage.py start_schedule``)."""
    return schedule_next(after=datetime.timedelta(0))
