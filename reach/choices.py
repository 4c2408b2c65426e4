"""A person's choices of issue 29 (reach.models.Reach), read with defaults when they made none."""

from __future__ import annotations

import secrets
import zoneinfo
from datetime import datetime, time

from reach.models import WARNING_HOURS, Reach


def of(user_id: int) -> Reach:
    """The user's choices, or the defaults (an unsaved row) when they never chose."""
    return Reach.objects.filter(user_id=user_id).first() or Reach(user_id=user_id)


def save(*, user, warnings: list[int], email: bool, push: bool, bell: bool,
         quiet_start: time | None, quiet_end: time | None) -> Reach:
    row = of(user.pk)
    row.warnings = "," + ",".join(str(h) for h in sorted(set(warnings), reverse=True) if h in WARNING_HOURS) + ","
    if row.warnings == ",,":
        row.warnings = ""
    row.email, row.push, row.bell = email, push, bell
    row.quiet_start, row.quiet_end = quiet_start, quiet_end
    row.save()
    return row


def calendar_reset(*, user) -> str:
    """A new secret for the user's calendar feed: the old URL stops working at once."""
    row = of(user.pk)
    row.calendar_token = secrets.token_urlsafe(32)
    row.save()
    return row.calendar_token


def zone_of(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def is_quiet(row: Reach, *, zone: zoneinfo.ZoneInfo, now: datetime) -> bool:
    """Whether ``now`` falls in the person's quiet hours, on their own wall clock (hours that
    cross midnight, 23:00-08:00, run from the start to midnight and from midnight to the end)."""
    if not row.has_quiet_hours:
        return False
    t = now.astimezone(zone).time()
    start, end = row.quiet_start, row.quiet_end
    if start < end:
        return start <= t < end
    return t >= start or t < end
