"""Template helpers of the tables half: time left before a deadline, preset names."""

from __future__ import annotations

from datetime import datetime

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

from games.options import PRESET_LABELS

register = template.Library()


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
