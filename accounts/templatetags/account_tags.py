"""The account pages' filters: a session's browser and device in words, from its user agent."""

from __future__ import annotations

from functools import lru_cache

from django import template
from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

register = template.Library()


@lru_cache(maxsize=512)
def _parse(user_agent: str) -> tuple[str, str]:
    from ua_parser import parse

    result = parse(user_agent or "")
    browser = result.user_agent.family if result.user_agent else ""
    if browser == "Other":
        browser = ""
    system = result.os.family if result.os and result.os.family != "Other" else ""
    device = result.device.family if result.device and result.device.family not in ("Other", "Mac") else ""
    where = " ".join(part for part in (device, system) if part and part not in browser)
    return browser, where


@register.filter
def browser_and_device(user_agent: str) -> str:
    """ "Firefox on Windows", "Mobile Safari on iPhone iOS", or "Unknown browser"."""
    browser, where = _parse(user_agent)
    if browser and where:
        return _("%(browser)s on %(device)s") % {"browser": browser, "device": where}
    return browser or where or _("Unknown browser")


@register.filter
def time_ago(moment) -> str:
    """"just now" under a minute, else "5 minutes ago" (the session list's approximate times)."""
    if moment is None:
        return ""
    now = timezone.now()
    if (now - moment).total_seconds() < 60:
        return _("just now")
    return _("%(since)s ago") % {"since": timesince(moment, now)}
