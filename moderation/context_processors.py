from __future__ import annotations

from functools import cache, partial

from django.http import HttpRequest

from moderation.signals import SESSION_KEY


def moderation(request: HttpRequest) -> dict:
    """The header's queue badge, for moderators only: a callable the template calls (one query,
    once per page, only on a moderator's page); nobody else's page pays anything."""
    session = getattr(request, "session", None)
    if session is None or not session.get(SESSION_KEY):
        return {"moderation_badge": None}
    from moderation import selectors

    return {"moderation_badge": cache(partial(selectors.open_report_count, viewer=request.user))}
