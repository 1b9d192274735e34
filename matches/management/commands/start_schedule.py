"""``manage.py start_schedule``: start the league's schedule in the task worker.

Queues one run of ``matches.leagues.schedule`` (confirm due results, the reminders, the
"no result yet" prompts, the missing results to the league admins) for the worker
(``manage.py db_worker``), which then queues each next run itself. Safe to run at every
start: while a run waits, it queues nothing (``scripts/run`` and ``scripts/prod`` run it).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from matches.leagues import schedule


class Command(BaseCommand):
    help = "Start the league schedule (reminders, auto-confirm) in the task worker, once."

    def handle(self, *args: Any, **options: Any) -> None:
        if not schedule.can_defer():
            raise CommandError("The task backend (TASKS) cannot keep tasks for later: the "
                               "schedule needs django_tasks_db.DatabaseBackend.")
        if schedule.schedule_start():
            self.stdout.write("The league schedule is started: the worker runs it now, "
                              "then every few minutes.")
        else:
            self.stdout.write("The league schedule is already waiting for the worker.")
