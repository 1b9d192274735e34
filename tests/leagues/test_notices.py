"""matches.leagues.notices: who is e-mailed of each change to a fixture (exactly), never
someone who turned e-mails off, has no address or made the change; nothing before the
write commits; and the schedule's reminder, "no result yet" and missing results, each at
its time and once."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.loader import get_template
from django.utils import timezone

from matches import rules
from matches.accounts.services import league_emails_set
from matches.leagues import notices
from matches.leagues.services import (
    fixture_confirm,
    fixture_correct,
    fixture_dispute,
    fixture_redate,
    fixture_reinstate,
    fixture_resolve,
    fixture_submit,
    fixture_void,
    fixture_walkover,
    fixtures_confirm_due,
)
from matches.models import (
    Fixture,
    FixtureChangeKind,
    FixtureNotice,
    FixtureStatus,
    Membership,
    NoticeKind,
)
from matches.scoring.services.play import event_record, round_start
from tests.support.helpers import LeagueNight, T, league_night

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


@pytest.fixture
def night(settings) -> LeagueNight:
    """:func:`league_night` (to 10) with an address for everyone, a second league admin
    (Sec) and a plain member (Pat), who is never e-mailed."""
    settings.SITE_URL = "https://scores.example"
    night = league_night(target=10)
    club = night.fixture.division.season.club
    for user in (night.admin, night.home_captain, night.away_captain):
        user.email = f"{user.username}@example.com"
        user.save()
    for name, role in (("sec", "admin"), ("pat", "member")):
        Membership.objects.create(club=club, role=role, user=User.objects.create_user(
            name, email=f"{name}@example.com"))
    return night


def played(night: LeagueNight) -> None:
    """Ann's 5-5 wins the night's one game 10–0 on the scorepad."""
    round_start(match=night.match, starter=0)
    event_record(match=night.match, action=rules.Play(0, T("5-5")))


def sent(capture: Callable[..., Any], write: Callable[[], Any]) -> list[str]:
    """The addresses e-mailed when ``write`` commits (its on_commit callbacks run)."""
    mail.outbox.clear()
    with capture(execute=True):
        write()
    return sorted(address for message in mail.outbox for address in message.to)


def test_submitted_tells_the_away_captain_only(night, django_capture_on_commit_callbacks):
    played(night)
    to = sent(django_capture_on_commit_callbacks,
              lambda: fixture_submit(fixture=night.fixture, by=night.home_captain))
    assert to == ["bowes@example.com"]
    message = mail.outbox[0]
    assert message.subject == "Result to confirm: Royal Oak A v Bowes Dragons"
    assert "https://scores.example" + night.fixture.get_absolute_url() in message.body
    # how to stop them, in every e-mail and its header
    assert "https://scores.example/accounts/settings/" in message.body
    assert message.extra_headers["List-Unsubscribe"] == \
        "<https://scores.example/accounts/settings/>"


def test_disputed_tells_the_home_captain_and_the_league_admins(
        night, django_capture_on_commit_callbacks):
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    to = sent(django_capture_on_commit_callbacks,
              lambda: fixture_dispute(fixture=night.fixture, by=night.away_captain,
                                      message="Bob had 5-5"))
    assert to == ["league-admin@example.com", "oak@example.com", "sec@example.com"]
    assert all("Bob had 5-5" in message.body for message in mail.outbox)


@pytest.mark.parametrize(("settle", "to"), [
    # the away captain confirms: the home captain hears, not the one who did it
    (lambda night: fixture_confirm(fixture=night.fixture, by=night.away_captain),
     ["oak@example.com"]),
    # the league settles it: both captains
    (lambda night: fixture_resolve(fixture=night.fixture, by=night.admin),
     ["bowes@example.com", "oak@example.com"]),
    (lambda night: fixture_walkover(fixture=night.fixture, by=night.admin, side="away"),
     ["bowes@example.com", "oak@example.com"]),
    (lambda night: fixture_void(fixture=night.fixture, by=night.admin),
     ["bowes@example.com", "oak@example.com"]),
])
def test_a_settled_result_tells_both_captains(night, django_capture_on_commit_callbacks,
                                              settle, to):
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    assert sent(django_capture_on_commit_callbacks, lambda: settle(night)) == to


def test_a_correction_tells_both_captains(night, django_capture_on_commit_callbacks):
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    fixture_confirm(fixture=night.fixture, by=night.away_captain)
    to = sent(django_capture_on_commit_callbacks, lambda: fixture_correct(
        fixture=night.fixture, by=night.admin, scores=[(0, 10)],
        reason="the scoresheet says Bob won"))
    assert to == ["bowes@example.com", "oak@example.com"]
    assert mail.outbox[0].subject == "Result corrected: Royal Oak A v Bowes Dragons"


def test_each_e_mail_says_the_fixture_as_its_change_left_it(night):
    """The worker sends later: made void, then a walkover a moment after, the void's
    e-mail still says void, and the walkover's says whose it is."""
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    fixture_void(fixture=night.fixture, by=night.admin)
    fixture_walkover(fixture=night.fixture, by=night.admin, side="away")
    void, walkover = night.fixture.changes.order_by("pk")[1:]
    mail.outbox.clear()
    notices.change_notice_send(change_id=void.pk)
    assert "made void. The fixture is now: Void." in mail.outbox[0].body
    assert "Games:" not in mail.outbox[0].body and "walkover" not in mail.outbox[0].body
    mail.outbox.clear()
    notices.change_notice_send(change_id=walkover.pk)
    assert "walkover. The fixture is now: Confirmed." in mail.outbox[0].body
    assert "A walkover to Bowes Dragons, who turned up." in mail.outbox[0].body


def test_a_void_taken_back_tells_both_captains(night, django_capture_on_commit_callbacks):
    played(night)
    fixture_void(fixture=night.fixture, by=night.admin)
    to = sent(django_capture_on_commit_callbacks,
              lambda: fixture_reinstate(fixture=night.fixture, by=night.admin))
    assert to == ["bowes@example.com", "oak@example.com"]
    assert mail.outbox[0].subject == "Fixture open again: Royal Oak A v Bowes Dragons"
    assert ("Royal Oak A v Bowes Dragons (Monday League): no longer void: open for its "
            "games again. The fixture is now: Scheduled.") in mail.outbox[0].body


def test_a_fixture_moved_or_put_off_tells_the_captains_besides_who_moved_it(
        night, django_capture_on_commit_callbacks):
    # the home captain may move the night: the away side must not turn up for nothing
    to = sent(django_capture_on_commit_callbacks, lambda: fixture_redate(
        fixture=night.fixture, by=night.home_captain, date=datetime.date(2026, 9, 14)))
    assert to == ["bowes@example.com"]
    assert mail.outbox[0].subject == "Fixture moved: Royal Oak A v Bowes Dragons"
    assert "Royal Oak A v Bowes Dragons (Monday League) is now on Monday 14 Sep 2026." in \
        mail.outbox[0].body
    to = sent(django_capture_on_commit_callbacks, lambda: fixture_redate(
        fixture=night.fixture, by=night.admin, date=None, postponed=True))
    assert to == ["bowes@example.com", "oak@example.com"]
    assert "is postponed: it has no date yet." in mail.outbox[0].body


def test_confirmed_by_itself_tells_both_captains(night, django_capture_on_commit_callbacks):
    season = night.fixture.division.season
    season.count_submitted = True
    season.save()
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    later = timezone.now() + datetime.timedelta(hours=25)
    to = sent(django_capture_on_commit_callbacks, lambda: fixtures_confirm_due(now=later))
    assert to == ["bowes@example.com", "oak@example.com"]
    assert "confirmed by itself after 24 hours" in mail.outbox[0].body


def test_who_turned_emails_off_or_has_no_address_gets_none(
        night, django_capture_on_commit_callbacks):
    league_emails_set(user=night.home_captain, on=False)
    User.objects.filter(username="sec").update(email="")
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)
    to = sent(django_capture_on_commit_callbacks,
              lambda: fixture_dispute(fixture=night.fixture, by=night.away_captain,
                                      message="No"))
    assert to == ["league-admin@example.com"]
    assert notices.told_users(night.fixture, {notices.Told.LEAGUE_ADMINS}) == [night.admin]
    league_emails_set(user=night.home_captain, on=True)
    assert notices.told_users(night.fixture, {notices.Told.HOME_CAPTAIN}) == \
        [night.home_captain]


def test_a_site_that_sends_no_mail_sends_none(settings, night,
                                              django_capture_on_commit_callbacks):
    settings.EMAIL_DISABLED = True
    played(night)
    assert sent(django_capture_on_commit_callbacks,
                lambda: fixture_submit(fixture=night.fixture, by=night.home_captain)) == []


def test_nothing_is_sent_when_the_write_rolls_back(night, django_capture_on_commit_callbacks):
    played(night)

    def submitted_then_failed() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            fixture_submit(fixture=night.fixture, by=night.home_captain)
            raise RuntimeError("the request failed after the submission")

    assert sent(django_capture_on_commit_callbacks, submitted_then_failed) == []
    night.fixture.refresh_from_db()
    assert night.fixture.status == FixtureStatus.SCHEDULED


def test_nothing_is_sent_for_a_refused_write(night, django_capture_on_commit_callbacks):
    played(night)
    fixture_submit(fixture=night.fixture, by=night.home_captain)

    def refused() -> None:
        with pytest.raises(ValidationError):
            fixture_dispute(fixture=night.fixture, by=night.away_captain, message=" ")

    assert sent(django_capture_on_commit_callbacks, refused) == []


def test_every_told_kind_has_its_template():
    for kind, notice in notices.TOLD.items():
        assert kind in FixtureChangeKind.values
        assert get_template(f"matches/email/{notice.template}.txt")


# -- the schedule's e-mails ---------------------------------------------------------------


@pytest.fixture
def dated(night) -> Fixture:
    """The night's fixture on Monday 7 September 2026; the season's nights start at 19:30
    (the default), in the site's time zone (UTC in the tests)."""
    fixture = night.fixture
    fixture.date = datetime.date(2026, 9, 7)
    fixture.save()
    return fixture


STARTS = datetime.datetime(2026, 9, 7, 19, 30, tzinfo=UTC)
SECOND = datetime.timedelta(seconds=1)
HOUR = datetime.timedelta(hours=1)


def run_at(now: datetime.datetime) -> list[str]:
    mail.outbox.clear()
    notices.scheduled_notices_send(now=now)
    return sorted(address for message in mail.outbox for address in message.to)


def test_the_reminder_goes_to_both_captains_from_a_day_before(dated):
    assert run_at(STARTS - 24 * HOUR - SECOND) == []
    assert run_at(STARTS - 24 * HOUR) == ["bowes@example.com", "oak@example.com"]
    assert mail.outbox[0].subject == "Tomorrow: Royal Oak A v Bowes Dragons"
    assert "is on Monday 7 Sep 2026 at 19:30." in mail.outbox[0].body
    # run again, and again later that day: sent once
    assert run_at(STARTS - 24 * HOUR) == []
    assert run_at(STARTS - HOUR) == []
    assert list(dated.notices.values_list("kind", flat=True)) == [NoticeKind.REMINDER]


def test_a_fixture_moved_to_another_night_is_reminded_of_again(night, dated):
    # each e-mail goes once a fixture, ever: moved, its new night had no reminder
    assert run_at(STARTS - HOUR) == ["bowes@example.com", "oak@example.com"]
    assert run_at(STARTS + 25 * HOUR)  # its result missing: the league's admins told
    week = datetime.timedelta(days=7)
    fixture_redate(fixture=dated, by=night.admin, date=datetime.date(2026, 9, 14))
    assert run_at(STARTS + week - HOUR) == ["bowes@example.com", "oak@example.com"]
    assert "is on Monday 14 Sep 2026 at 19:30." in mail.outbox[0].body
    assert run_at(STARTS + week) == []  # once for that night too
    # put on the night it is on already: nothing new is due
    fixture_redate(fixture=dated, by=night.admin, date=datetime.date(2026, 9, 14))
    assert run_at(STARTS + week - HOUR) == []


def test_each_captain_is_written_to_in_the_language_they_chose(night, dated, settings):
    league_emails_set(user=night.away_captain, language="uk")
    league_emails_set(user=night.home_captain, on=True)  # chose nothing: the site's

    run_at(STARTS - HOUR)

    by_address = {message.to[0]: message for message in mail.outbox}
    away, home = by_address["bowes@example.com"], by_address["oak@example.com"]
    assert away.subject == "Завтра: Royal Oak A — Bowes Dragons"
    assert away.body.startswith("Вітаємо, bowes!")
    assert "відбудеться" in away.body and "о 19:30" in away.body
    assert home.subject == "Tomorrow: Royal Oak A v Bowes Dragons"
    assert "is on Monday 7 Sep 2026 at 19:30." in home.body
    settings.LANGUAGE_CODE = "ru"  # the site's language is for whoever chose none
    run_at(STARTS + 3 * HOUR)
    assert [m.subject for m in mail.outbox] == ["Результата ещё нет: Royal Oak A — Bowes Dragons"]


def test_no_reminder_once_the_night_has_started(dated):
    assert run_at(STARTS) == []
    assert not dated.notices.exists()


def test_no_result_yet_goes_to_the_home_captain_a_few_hours_after(dated):
    assert run_at(STARTS + 3 * HOUR - SECOND) == []
    assert run_at(STARTS + 3 * HOUR) == ["oak@example.com"]
    assert mail.outbox[0].subject == "No result yet: Royal Oak A v Bowes Dragons"
    assert run_at(STARTS + 5 * HOUR) == []


def test_no_prompt_once_the_result_is_sent(night, dated):
    played(night)
    fixture_submit(fixture=dated, by=night.home_captain)
    assert run_at(STARTS + 3 * HOUR) == []
    assert run_at(STARTS + 25 * HOUR) == []


def test_missing_results_go_to_the_league_admins_a_day_after(dated):
    assert run_at(STARTS + 24 * HOUR - SECOND) == ["oak@example.com"]  # the prompt
    assert run_at(STARTS + 24 * HOUR) == ["league-admin@example.com", "sec@example.com"]
    assert mail.outbox[0].subject == "Results missing at Teesdale"
    assert "Royal Oak A v Bowes Dragons" in mail.outbox[0].body
    assert "https://scores.example" + dated.get_absolute_url() in mail.outbox[0].body
    assert run_at(STARTS + 48 * HOUR) == []


def test_the_missing_results_list_is_in_the_admins_language_to_its_fixtures(night, dated,
                                                                          settings):
    settings.LANGUAGE_CODE = "uk"
    assert run_at(STARTS + 24 * HOUR) == ["league-admin@example.com", "sec@example.com"]
    body = mail.outbox[0].body
    assert "Royal Oak A — Bowes Dragons" in body and " v " not in body


def test_one_missing_email_lists_the_clubs_fixtures(night, dated):
    second = Fixture.objects.create(division=dated.division, week=2, home=dated.away,
                                    away=dated.home, date=datetime.date(2026, 9, 1))
    assert run_at(STARTS + 24 * HOUR) == ["league-admin@example.com", "sec@example.com"]
    body = mail.outbox[0].body
    assert "Bowes Dragons v Royal Oak A" in body and "Royal Oak A v Bowes Dragons" in body
    assert set(second.notices.values_list("kind", flat=True)) == {NoticeKind.MISSING}


def test_the_nights_time_is_read_in_the_sites_time_zone(settings, dated):
    settings.TIME_ZONE = "Europe/London"  # 19:30 in London on 7 September is 18:30 UTC
    assert run_at(STARTS - 25 * HOUR - SECOND) == []
    assert run_at(STARTS - 25 * HOUR) == ["bowes@example.com", "oak@example.com"]


def test_a_failed_email_is_tried_again_by_the_next_run(dated, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("the mail server is down")

    monkeypatch.setattr(notices, "_send", broken)
    assert run_at(STARTS - HOUR) == []
    assert not FixtureNotice.objects.exists()  # not marked sent
    monkeypatch.undo()
    assert run_at(STARTS - HOUR) == ["bowes@example.com", "oak@example.com"]


def test_locked_seasons_and_undated_fixtures_are_left_alone(dated):
    season = dated.division.season
    season.locked = True
    season.save()
    assert run_at(STARTS - HOUR) == []
    season.locked = False
    season.save()
    Fixture.objects.filter(pk=dated.pk).update(date=None)
    assert run_at(STARTS - HOUR) == []


def test_with_the_sites_task_backend_the_worker_gets_the_change(
        settings, night, django_capture_on_commit_callbacks):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                  "QUEUES": ["default"]}}
    played(night)
    with django_capture_on_commit_callbacks(execute=True):
        fixture_submit(fixture=night.fixture, by=night.home_captain)
    (queued,) = DBTaskResult.objects.filter(task_path=notices.change_notice_task.module_path)
    assert mail.outbox == []  # the worker sends it
    change = night.fixture.changes.get(kind=FixtureChangeKind.SUBMITTED)
    assert queued.args_kwargs == {"args": [change.pk], "kwargs": {}}
    assert notices.change_notice_send(change_id=change.pk) == 1
    assert mail.outbox[0].to == ["bowes@example.com"]
