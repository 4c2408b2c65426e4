"""A private calendar feed per person (issue 29; iCalendar, RFC 5545, with the ``icalendar``
package): every correspondence game waiting on them as an event that ends at its deadline, with
an alarm at each warning they chose (one hour before, if they chose none), and their vacations.

Times are in UTC ("Z"), which Google Calendar, Apple Calendar and Thunderbird all read without a
VTIMEZONE; UIDs are stable (a wait's game, seat and start; a vacation's row), so a calendar that
fetches the feed again updates its events rather than adding copies.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from icalendar import Alarm, Calendar, Event

from reach import choices, waits

PRODID = "-//Monopoly play-by-web//Calendar feed//EN"
# An event is this long, ending at the deadline: a slot in the day, not a bar over several days.
EVENT_LENGTH = timedelta(minutes=30)
DEFAULT_ALARM_HOURS = (1,)


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def feed(*, user, now: datetime | None = None) -> bytes:
    """The user's calendar, as the bytes of one VCALENDAR (CRLF lines folded at 75 octets)."""
    from games.links import absolute, game_path
    from games.models import Table, Vacation

    now = (now or timezone.now()).astimezone(UTC)
    host = _host()
    row = choices.of(user.pk)
    alarms = row.warning_hours or list(DEFAULT_ALARM_HOURS)
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        cal.add("x-wr-calname", _("%(site)s: your games") % {"site": settings.SITE_NAME})
        for wait in waits.waiting_on(user).filter(game__table__pace=Table.Pace.CORRESPONDENCE,
                                                  game__deadline__isnull=False):
            game, table = wait.game, wait.game.table
            end = game.deadline.astimezone(UTC)
            event = Event()
            event.add("uid", f"wait-{game.pk}-{wait.seat}-{int(wait.since.timestamp())}@{host}")
            event.add("dtstamp", now)
            event.add("dtstart", max(end - EVENT_LENGTH, min(wait.since.astimezone(UTC), end)))
            event.add("dtend", end)
            event.add("summary", _("Your move in “%(table)s”") % {"table": table.name})
            url = absolute(game_path(game.pk))
            event.add("url", url)
            event.add("description", _("The game has waited on you since %(since)s (UTC). Play before the "
                                       "end of this event, or the game makes the default move for you.\n%(url)s")
                      % {"since": wait.since.astimezone(UTC).strftime("%Y-%m-%d %H:%M"), "url": url})
            event.add("transp", "TRANSPARENT")
            for hours in alarms:
                alarm = Alarm()
                alarm.add("action", "DISPLAY")
                alarm.add("trigger", -timedelta(hours=hours), parameters={"RELATED": "END"})
                alarm.add("description", ngettext("%(n)s hour left in “%(table)s”", "%(n)s hours left in “%(table)s”",
                                                  hours) % {"n": hours, "table": table.name})
                event.add_component(alarm)
            cal.add_component(event)
        vacations = (Vacation.objects.filter(game__table__seats__user=user, game__table__seats__position=_seat_ref(),
                                             until__gt=now - timedelta(days=30), started_at__isnull=False)
                     .select_related("game__table"))
        for v in vacations:
            event = Event()
            event.add("uid", f"vacation-{v.pk}-{int(v.started_at.timestamp())}@{host}")
            event.add("dtstamp", now)
            event.add("dtstart", v.started_at.astimezone(UTC))
            event.add("dtend", v.until.astimezone(UTC))
            event.add("summary", _("On vacation in “%(table)s”") % {"table": v.game.table.name})
            event.add("url", absolute(game_path(v.game_id)))
            event.add("transp", "TRANSPARENT")
            cal.add_component(event)
    return cal.to_ical()


def _seat_ref():
    from django.db.models import F

    return F("seat")
