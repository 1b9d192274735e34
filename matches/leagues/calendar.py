"""A division's or an entrant's fixtures as an iCalendar feed (RFC 5545) that a phone's
calendar can subscribe to: one all-day event per dated fixture (a season has no time of
play), its UID fixed by the fixture so that a re-fetch updates it rather than adds one.

Written by hand: the few properties used need no library, only the format's rules (CRLF
lines folded at 75 octets, text escaped, times in UTC).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from matches.leagues.models import Fixture, FixtureStatus, Season
from matches.leagues.selectors import CalendarFixture, counted

PRODID = "-//Scorekeeper//League fixtures//EN"
UID_DOMAIN = "scorekeeper.fixtures"  # fixed, not the request's host: UIDs outlive hosts


@dataclass(frozen=True)
class Event:
    uid: str
    day: datetime.date
    summary: str
    location: str
    url: str
    sequence: int
    cancelled: bool
    modified: datetime.datetime | None


def escape(text: str) -> str:
    """TEXT value escaping (RFC 5545 3.3.11): backslash first, then ``;`` ``,`` and
    newlines."""
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def fold(line: str) -> str:
    """A content line folded so that no line is longer than 75 octets (3.1), never
    inside a UTF-8 character; continuation lines start with one space."""
    parts: list[str] = []
    current, size, limit = "", 0, 75
    for char in line:
        width = len(char.encode("utf-8"))
        if size + width > limit:
            parts.append(current)
            current, size, limit = "", 0, 74  # the leading space takes one octet
        current += char
        size += width
    parts.append(current)
    return "\r\n ".join(parts)


def utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def summary(fixture: Fixture, season: Season) -> str:
    """"Home v Away"; once the result counts, with it; a walkover, postponement or
    voiding said after."""
    home, away = fixture.home.name, fixture.away.name
    if fixture.walkover and counted(fixture, season):
        note = _("walkover (%(side)s turned up)") % {"side": fixture.turned_up}
    elif fixture.status in (FixtureStatus.POSTPONED, FixtureStatus.VOID):
        note = str(fixture.get_status_display())
    elif counted(fixture, season):
        return _("%(home)s %(home_games)s–%(away_games)s %(away)s") % {
            "home": home, "away": away, "home_games": fixture.home_games,
            "away_games": fixture.away_games}
    else:
        note = ""
    match = _("%(home)s v %(away)s") % {"home": home, "away": away}
    return _("%(match)s — %(note)s") % {"match": match, "note": note} if note else match


def fixture_events(fixtures: Iterable[CalendarFixture], season: Season, *,
                   site: str) -> list[Event]:
    """An event for each fixture that has a date (undated ones have no day to show);
    ``site`` is the scheme and host the fixtures' pages are linked under."""
    events = []
    for c in fixtures:
        if c.fixture.date is None:
            continue
        events.append(Event(
            uid=f"fixture-{c.fixture.pk}@{UID_DOMAIN}", day=c.fixture.date,
            summary=summary(c.fixture, season),
            # clubs record no venue: a fixture is played at the home entrant's
            location=c.fixture.home.name, url=site + c.fixture.get_absolute_url(),
            sequence=c.changes, cancelled=c.fixture.status == FixtureStatus.VOID,
            modified=c.last_change))
    return events


def calendar_text(*, name: str, events: Iterable[Event], now: datetime.datetime) -> str:
    """The feed: a VCALENDAR named ``name`` holding ``events``, stamped ``now``."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{PRODID}", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{escape(name)}"]
    for event in events:
        lines += ["BEGIN:VEVENT", f"UID:{event.uid}", f"DTSTAMP:{utc(now)}",
                  f"DTSTART;VALUE=DATE:{event.day:%Y%m%d}"]
        if event.day < datetime.date.max:  # without DTEND a day's event is that day
            # (RFC 5545, 3.6.1), and 31 December 9999 has no day after it to end on
            lines.append(f"DTEND;VALUE=DATE:{event.day + datetime.timedelta(days=1):%Y%m%d}")
        lines += [f"SEQUENCE:{event.sequence}", f"SUMMARY:{escape(event.summary)}",
                  f"LOCATION:{escape(event.location)}", f"URL:{event.url}",
                  "TRANSP:TRANSPARENT",
                  f"STATUS:{'CANCELLED' if event.cancelled else 'CONFIRMED'}"]
        if event.modified is not None:
            lines.append(f"LAST-MODIFIED:{utc(event.modified)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)
