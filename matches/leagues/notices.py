"""League e-mails: who is told of each change to a fixture (:data:`TOLD`, one row per
kind of change), and the schedule's own (:func:`scheduled_notices_send`): the reminder the
day before, the "no result yet" prompt to the home captain a few hours after the night's
start, the missing results to the league admins a day after.

Nothing is sent in the request that made the change: :func:`change_told` queues
:func:`change_notice_task` once the change's transaction commits (a refused or failed
write sends nothing), and the task worker (``manage.py db_worker``) sends it through
Django's mail (the ``EMAIL_*`` settings). Nobody is e-mailed without an address, nor
after turning league e-mails off (``accounts.models.NoticeSettings``; every e-mail says
where), nor about their own doing. Each is written in the language its reader chose on
their account's page, else the site's.
"""

from __future__ import annotations

import datetime
import enum
import functools
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db import transaction
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from matches.accounts.models import NoticeSettings
from matches.clubs.access import RUNS_LEAGUE, roles_at_least
from matches.clubs.models import Club
from matches.leagues.models import (
    Fixture,
    FixtureChange,
    FixtureChangeKind,
    FixtureNotice,
    FixtureStatus,
    NoticeKind,
)

logger = logging.getLogger(__name__)

# the schedule's e-mails, timed from a night's start (the fixture's date at its season's
# "nights start at", in the site's time zone)
REMINDER_BEFORE = datetime.timedelta(hours=24)
NO_RESULT_AFTER = datetime.timedelta(hours=3)
MISSING_AFTER = datetime.timedelta(hours=24)


class Told(enum.Enum):
    HOME_CAPTAIN = "home captain"
    AWAY_CAPTAIN = "away captain"
    LEAGUE_ADMINS = "league admins"


@dataclass(frozen=True)
class Notice:
    """Who is told of a change of one kind, the subject (``%(home)s``, ``%(away)s``) and
    the template ``templates/matches/email/<template>.txt`` that says it."""

    told: frozenset[Told]
    subject: Promise
    template: str


CAPTAINS = frozenset({Told.HOME_CAPTAIN, Told.AWAY_CAPTAIN})
SETTLED = Notice(CAPTAINS, _("Result settled: %(home)s v %(away)s"), "fixture_settled")
# a night moved or put off: the side that did not move it must not turn up for nothing
MOVED = Notice(CAPTAINS, _("Fixture moved: %(home)s v %(away)s"), "fixture_moved")

# Each kind of change, who hears of it. A kind not here is told to nobody (a spreadsheet
# import: the season page shows it).
TOLD: dict[str, Notice] = {
    FixtureChangeKind.SUBMITTED: Notice(frozenset({Told.AWAY_CAPTAIN}),
                                        _("Result to confirm: %(home)s v %(away)s"),
                                        "fixture_submitted"),
    FixtureChangeKind.DISPUTED: Notice(frozenset({Told.HOME_CAPTAIN, Told.LEAGUE_ADMINS}),
                                       _("Result disputed: %(home)s v %(away)s"),
                                       "fixture_disputed"),
    FixtureChangeKind.CONFIRMED: SETTLED,
    FixtureChangeKind.AUTO_CONFIRMED: SETTLED,
    FixtureChangeKind.RESOLVED: SETTLED,
    FixtureChangeKind.WALKOVER: SETTLED,
    FixtureChangeKind.VOIDED: SETTLED,
    FixtureChangeKind.REINSTATED: Notice(CAPTAINS, _("Fixture open again: %(home)s v %(away)s"),
                                         "fixture_settled"),
    FixtureChangeKind.CORRECTED: Notice(CAPTAINS, _("Result corrected: %(home)s v %(away)s"),
                                        "fixture_settled"),
    FixtureChangeKind.REDATED: MOVED,
    FixtureChangeKind.POSTPONED: MOVED,
}


def change_told(change: FixtureChange) -> None:
    """Queue the e-mails about ``change`` for when its transaction commits (none if it
    rolls back). A queue that cannot be reached loses the e-mail, not the change."""
    if change.kind in TOLD:
        transaction.on_commit(functools.partial(change_notice_task.enqueue, change.pk),
                              robust=True)


@task
def change_notice_task(change_id: int) -> int:
    """The task worker's side of :func:`change_told`."""
    return change_notice_send(change_id=change_id)


def change_notice_send(*, change_id: int) -> int:
    """E-mail the people :data:`TOLD` names for this change's kind, but not the one who
    made it. Returns how many e-mails were sent."""
    change = (FixtureChange.objects
              .select_related("fixture__division__season__club", "fixture__home__captain",
                              "fixture__away__captain", "user")
              .filter(pk=change_id).first())
    if change is None or change.kind not in TOLD:
        return 0
    notice = TOLD[change.kind]
    fixture = change.fixture
    users = told_users(fixture, notice.told, besides=change.user)
    # the fixture as this change left it, not as it is when the worker sends the e-mail
    # (made void, then a walkover a moment later: the void's e-mail says void)
    after = change.after or {}
    status = after.get("status")
    return _send(users, notice.subject, notice.template, fixture, {
        "change": change,
        "status": FixtureStatus(status).label if status in FixtureStatus.values
        else fixture.get_status_display(),
        "result": after.get("result") if "status" in after
        else [fixture.home_games, fixture.away_games] if fixture.home_games is not None
        else None,
        "turned_up": {"home": fixture.home.name, "away": fixture.away.name}.get(
            after.get("walkover") or "")})


def told_users(fixture: Fixture, told: Iterable[Told], *,
               besides: User | None = None) -> list[User]:
    """The accounts ``told`` names for ``fixture`` that may be e-mailed: with an address,
    active, league e-mails on; never ``besides`` (who made the change)."""
    told = set(told)
    users: list[User] = []
    if Told.HOME_CAPTAIN in told and fixture.home.captain is not None:
        users.append(fixture.home.captain)
    if Told.AWAY_CAPTAIN in told and fixture.away.captain is not None:
        users.append(fixture.away.captain)
    if Told.LEAGUE_ADMINS in told:
        users.extend(league_admins(fixture.division.season.club))
    return _reachable(users, besides=besides)


def league_admins(club: Club) -> list[User]:
    return list(User.objects.filter(memberships__club=club,
                                    memberships__role__in=roles_at_least(RUNS_LEAGUE))
                .order_by("pk"))


def _reachable(users: Sequence[User], *, besides: User | None = None) -> list[User]:
    once = {user.pk: user for user in users
            if user.is_active and user.email and (besides is None or user.pk != besides.pk)}
    off = set(NoticeSettings.objects.filter(user__in=once, league_emails=False)
              .values_list("user", flat=True))
    return [user for pk, user in once.items() if pk not in off]


# -- the schedule's e-mails -------------------------------------------------------------


def night_starts(fixture: Fixture) -> datetime.datetime | None:
    """When the fixture's night starts: its date at its season's usual time, in the
    site's time zone; ``None`` while it has no date."""
    if fixture.date is None:
        return None
    return datetime.datetime.combine(fixture.date, fixture.division.season.nights_start,
                                     tzinfo=timezone.get_default_timezone())


@dataclass(frozen=True)
class ScheduledSent:
    """How many fixtures the schedule's e-mails went out about, by kind."""

    reminders: int = 0
    no_result: int = 0
    missing: int = 0


def scheduled_notices_send(*, now: datetime.datetime) -> ScheduledSent:
    """Send what is due at ``now``, each kind at most once per fixture (a
    :class:`FixtureNotice` row, unique per fixture and kind, is written with it):

    - a reminder to both captains from a day before the night until it starts;
    - "no result yet" to the home captain from a few hours after the start until a day
      after, while the fixture is still scheduled;
    - from a day after, one e-mail to each league admin of the club listing its fixtures
      still without a result (each fixture listed once).

    A fixture whose e-mail fails is tried again by the next run; the others still go."""
    today = timezone.localdate(now)
    waiting = (Fixture.objects
               .filter(status=FixtureStatus.SCHEDULED, date__isnull=False,
                       date__lte=today + datetime.timedelta(days=2),
                       division__season__locked=False)
               .exclude(notices__kind=NoticeKind.MISSING)
               .select_related("division__season__club", "home__captain", "away__captain")
               .order_by("date", "pk"))
    reminders = no_result = 0
    missing: dict[int, list[Fixture]] = {}
    for fixture in waiting:
        starts = night_starts(fixture)
        assert starts is not None  # the query's date__isnull=False
        if starts - REMINDER_BEFORE <= now < starts:
            reminders += _once(fixture, NoticeKind.REMINDER, now, CAPTAINS,
                               _("Tomorrow: %(home)s v %(away)s"), "fixture_reminder")
        elif starts + NO_RESULT_AFTER <= now < starts + MISSING_AFTER:
            no_result += _once(fixture, NoticeKind.NO_RESULT, now,
                               frozenset({Told.HOME_CAPTAIN}),
                               _("No result yet: %(home)s v %(away)s"), "fixture_no_result")
        elif now >= starts + MISSING_AFTER:
            missing.setdefault(fixture.division.season.club_id, []).append(fixture)
    missing_sent = sum(_missing_once(fixtures, now) for fixtures in missing.values())
    return ScheduledSent(reminders=reminders, no_result=no_result, missing=missing_sent)


def _once(fixture: Fixture, kind: NoticeKind, now: datetime.datetime, told: frozenset[Told],
          subject: Promise, template: str) -> int:
    """Send ``kind`` about ``fixture`` unless it was sent: 1 if this run sent it."""
    try:
        with transaction.atomic():
            _, created = FixtureNotice.objects.get_or_create(fixture=fixture, kind=kind,
                                                             defaults={"sent_at": now})
            if created:
                _send(told_users(fixture, told), subject, template, fixture, {})
    except Exception:
        # not marked sent: the next run tries again; the other fixtures still go
        logger.exception("The %s e-mail about fixture %s was not sent.", kind, fixture.pk)
        return 0
    return int(created)


def _missing_once(fixtures: list[Fixture], now: datetime.datetime) -> int:
    """One e-mail to each league admin of the fixtures' club, listing those not listed
    before. Returns how many fixtures it listed."""
    club = fixtures[0].division.season.club
    try:
        with transaction.atomic():
            new = [fixture for fixture in fixtures
                   if FixtureNotice.objects.get_or_create(fixture=fixture,
                                                          kind=NoticeKind.MISSING,
                                                          defaults={"sent_at": now})[1]]
            if new:
                _send(_reachable(league_admins(club)),
                      _("Results missing at %(club)s"), "fixtures_missing", None,
                      {"club": club, "fixtures": [(f, _url(f.get_absolute_url()))
                                                  for f in new]})
    except Exception:
        logger.exception("The missing results e-mail of club %s was not sent.", club.pk)
        return 0
    return len(new)


# -- writing them -----------------------------------------------------------------------


def _url(path: str) -> str:
    return settings.SITE_URL + path


def _send(users: Sequence[User], subject: Promise, template: str, fixture: Fixture | None,
          context: dict[str, object]) -> int:
    """One e-mail to each of ``users``, each in the language its reader chose (else the
    site's), each ending with where to turn them off. Returns how many were sent."""
    if not users or settings.EMAIL_DISABLED:  # a site that sends no mail on purpose
        return 0
    settings_url = _url(reverse("notice_settings"))
    names = {"club": str(context.get("club", ""))}
    if fixture is not None:
        names |= {"home": fixture.home.name, "away": fixture.away.name}
        context = {**context, "fixture": fixture, "season": fixture.division.season,
                   "starts": night_starts(fixture),
                   "fixture_url": _url(fixture.get_absolute_url())}
    chosen = dict(NoticeSettings.objects.filter(user__in=users).exclude(email_language="")
                  .values_list("user", "email_language"))
    messages = []
    for user in users:
        with translation.override(chosen.get(user.pk, settings.LANGUAGE_CODE)):
            messages.append(EmailMessage(
                subject=str(subject) % names,
                body=render_to_string(f"matches/email/{template}.txt",
                                      {**context, "user": user, "settings_url": settings_url}),
                to=[user.email], headers={"List-Unsubscribe": f"<{settings_url}>"}))
    return sum(message.send() for message in messages)

