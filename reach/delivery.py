"""Issue 29's part of every notification's delivery (notifications.services.deliver calls
``intercept`` before it e-mails, ``_push`` asks ``wants_push``): quiet hours hold it, and the
person's channels (e-mail, push, the bell) decide where it goes.

A held notification keeps the status HELD; reach.quiet.release sends what was held, folded into
one message, once the quiet hours are over.
"""

from __future__ import annotations

from datetime import datetime

from notifications.models import Notification
from reach import choices


def intercept(n: Notification, *, user, now: datetime) -> str | None:
    """None: e-mail it as usual. Otherwise the notification's final status, having done what
    the person chose instead (held for the end of their quiet hours; pushed only; bell only)."""
    row = choices.of(user.pk)
    if row.pk is None:
        return None  # (the defaults: every channel, no quiet hours)
    if not row.bell and n.read_at is None:
        # Not in the bell: the row stays (it is what keeps the notification from going out twice).
        Notification.objects.filter(pk=n.pk).update(read_at=now)
    if choices.is_quiet(row, zone=choices.zone_of(user), now=now):
        return Notification.Status.HELD
    if row.email:
        return None
    if row.push and _push_alone(n):
        return Notification.Status.SENT
    return Notification.Status.OFF


def wants_push(user_id: int) -> bool:
    row = choices.of(user_id)
    return row.push


def _push_alone(n: Notification) -> bool:
    """Push a notification whose person turned e-mail off: its kind's words as the title."""
    from django.conf import settings
    from django.utils import translation

    from games.links import absolute, game_path
    from notifications import push
    from notifications.models import Kind

    if not push.enabled():
        return False
    with translation.override(n.user.language or settings.LANGUAGE_CODE):
        body = str(Kind(n.kind).label)
        if n.game_id is not None:
            body = f"{body}: {n.game.table.name}"
    url = absolute(game_path(n.game_id)) if n.game_id else absolute("/")
    return push.send(user_id=n.user_id, payload={"title": settings.SITE_NAME, "body": body, "url": url,
                                                 "tag": f"notification-{n.pk}"}) > 0
