"""matches.leagues.schedule: the schedule runs inside the task worker, one chain of
deferred runs however often it is started, and a run sends what is due once."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from matches.leagues import schedule
from matches.leagues.services import fixture_submit
from matches.models import FixtureStatus, NoticeKind
from tests.leagues.test_notices import night, played  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db


@pytest.fixture
def database_tasks(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default"]}}


def waiting_runs() -> list[DBTaskResult]:
    return list(DBTaskResult.objects.filter(task_path=schedule.schedule_task.module_path,
                                            status=TaskResultStatus.READY))


def test_started_twice_it_waits_once(database_tasks):
    assert schedule.schedule_start() is True
    assert schedule.schedule_start() is False
    (run,) = waiting_runs()
    assert run.run_after <= timezone.now()


def test_the_command_starts_it_once(database_tasks, capsys):
    call_command("start_schedule")
    call_command("start_schedule")
    out = capsys.readouterr().out
    assert "is started" in out and "already waiting" in out
    assert len(waiting_runs()) == 1


def test_the_command_refuses_a_backend_that_cannot_defer():
    # the tests' ImmediateBackend runs a task at once; it cannot keep one for later
    with pytest.raises(CommandError, match="cannot keep tasks for later"):
        call_command("start_schedule")


def test_a_run_queues_the_next_later(database_tasks, settings):
    settings.NOTICE_SCHEDULE_MINUTES = 15
    before = timezone.now()
    schedule.schedule_task.call()
    (run,) = waiting_runs()
    assert before + datetime.timedelta(minutes=15) <= run.run_after
    assert run.run_after <= timezone.now() + datetime.timedelta(minutes=15)
    schedule.schedule_task.call()  # the next one waits already: no second chain
    assert len(waiting_runs()) == 1


def test_a_run_sends_a_reminder_once(database_tasks, night):  # noqa: F811
    fixture = night.fixture
    soon = timezone.localtime() + datetime.timedelta(hours=2)
    fixture.date = soon.date()
    fixture.save()
    season = fixture.division.season
    season.nights_start = soon.time().replace(microsecond=0)
    season.save()
    mail.outbox.clear()
    assert schedule.schedule_task.call()["reminders"] == 1
    assert schedule.schedule_task.call()["reminders"] == 0
    assert sorted(m.to[0] for m in mail.outbox) == ["bowes@example.com", "oak@example.com"]
    assert list(fixture.notices.values_list("kind", flat=True)) == [NoticeKind.REMINDER]


def test_a_run_confirms_the_results_due(night):  # noqa: F811
    season = night.fixture.division.season
    season.count_submitted = True
    season.save()
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    later = timezone.now() + datetime.timedelta(hours=25)
    assert schedule.schedule_run(now=later)["confirmed"] == 1
    night.fixture.refresh_from_db()
    assert night.fixture.status == FixtureStatus.CONFIRMED
