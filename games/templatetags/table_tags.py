"""Template helpers of the tables half: time left before a deadline, preset names."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils import timezone
from django.utils.translation import gettext as _

from games.options import PRESET_LABELS

register = template.Library()


@register.filter(expects_localtime=True)
def zoned(moment: datetime | None) -> str:
    """A moment in the active time zone (in an e-mail, the recipient's), with that zone named:
    "Dec. 7, 2026, 6 p.m. Europe/Madrid". A reader elsewhere, or a mail program that shows
    another zone, can tell which time is meant (issue 26)."""
    if moment is None:
        return ""
    return f"{date_filter(moment, 'DATETIME_FORMAT')} {timezone.get_current_timezone_name()}"


@register.filter
def time_left(deadline: datetime | None, now: datetime | None = None) -> str:
    """A short "in 3 h" for a deadline: seconds, minutes, hours or days, whichever fits."""
    if deadline is None:
        return ""
    seconds = int((deadline - (now or timezone.now())).total_seconds())
    if seconds <= 0:
        return _("time is up")
    if seconds < 60:
        return _("in %(n)d s") % {"n": seconds}
    minutes = seconds // 60
    if minutes < 60:
        return _("in %(n)d min") % {"n": minutes}
    hours = minutes // 60
    if hours < 48:
        rest = minutes % 60
        if hours < 3 and rest:
            return _("in %(h)d h %(m)d min") % {"h": hours, "m": rest}
        return _("in %(n)d h") % {"n": hours}
    return _("in %(n)d days") % {"n": hours // 24}


@register.filter
def preset_label(preset: str) -> str:
    return str(PRESET_LABELS.get(preset, preset))


@register.filter
def clock_lines(table) -> list[str]:
    """The clock options of a table (RULES.md 16), one line each: games.options.clock_summary."""
    from games.options import clock_summary

    return clock_summary(table)
