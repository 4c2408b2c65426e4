"""Quiet hours (issue 29): a notification due while a person's quiet hours run is held
(reach.delivery.intercept gives it the status HELD); once they are over, ``release`` sends what
was held folded into one message (e-mail and push, as the person chose), from a periodic task.

Each held row is claimed with a conditional UPDATE (HELD to SENDING): of two runs of the task,
only one sends a given row; a failed e-mail puts the rows back, for the next run.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from notifications.models import Kind, Notification
from reach import choices

logger = logging.getLogger(__name__)


def release(*, now: datetime | None = None) -> int:
    """Every held message whose person's quiet hours are over; returns the messages sent."""
    from accounts.models import User

    now = now or timezone.now()
    user_ids = (Notification.objects.filter(status=Notification.Status.HELD)
                .values_list("user_id", flat=True).distinct())
    sent = 0
    for user in User.objects.filter(pk__in=list(user_ids)):
        if choices.is_quiet(choices.of(user.pk), zone=choices.zone_of(user), now=now):
            continue
        sent += release_user(user=user, now=now)
    return sent


def release_user(*, user, now: datetime) -> int:
    """The held notifications of one person, in one message; returns 1 if one went out."""
    from games import notifications as game_emails
    from games.links import absolute, game_path
    from notifications.services import WAITS

    held = list(Notification.objects.filter(user=user, status=Notification.Status.HELD)
                .select_related("game__table").order_by("created_at"))
    ids = [n.pk for n in held]
    if not ids:
        return 0
    claimed = Notification.objects.filter(pk__in=ids, status=Notification.Status.HELD).update(
        status=Notification.Status.SENDING)
    if claimed != len(ids):
        # Another run took some of them: it sends them; ours go back, for a run of their own.
        Notification.objects.filter(pk__in=ids, status=Notification.Status.SENDING, emailed_at__isnull=True).update(
            status=Notification.Status.HELD)
        return 0
    # A wait that ended while they slept is no news (the bell's item is read, as a stale one is).
    stale = [n.pk for n in held if n.kind in WAITS and n.game_id is not None and (
        n.game.status != n.game.Status.ACTIVE or n.seat not in (n.game.waiting_seats or []))]
    if stale:
        Notification.objects.filter(pk__in=stale).update(status=Notification.Status.STALE, read_at=now)
    news = [n for n in held if n.pk not in stale]
    if not news:
        return 0
    row = choices.of(user.pk)
    settings_url = absolute(reverse("reach:settings"))
    context = {
        "user": user, "settings_url": settings_url,
        "news": [{"label": Kind(n.kind).label, "table": n.game.table if n.game_id else None,
                  "url": absolute(game_path(n.game_id)) if n.game_id else None} for n in news],
    }
    keep = [n.pk for n in news]
    try:
        subject = ""
        if row.email and user.email and user.is_active:
            subject = game_emails.send(name="quiet_summary", to=user.email, context=context,
                                       language=user.language, time_zone=user.time_zone)
    except Exception:
        Notification.objects.filter(pk__in=keep).update(status=Notification.Status.HELD)
        raise
    Notification.objects.filter(pk__in=keep).update(status=Notification.Status.SENT, emailed_at=now)
    if row.push:
        _push(user=user, count=len(news), subject=subject, url=absolute(reverse("notifications:inbox")))
    return 1


def _push(*, user, count: int, subject: str, url: str) -> None:
    from django.utils.translation import ngettext

    from notifications import push

    if not push.enabled():
        return
    with translation.override(user.language or settings.LANGUAGE_CODE):
        body = subject or ngettext("While you were away: %(n)s notification",
                                   "While you were away: %(n)s notifications", count) % {"n": count}
    try:
        push.send(user_id=user.pk, payload={"title": settings.SITE_NAME, "body": body, "url": url,
                                            "tag": "quiet-summary"})
    except Exception:
        logger.exception("push of the quiet hours' summary of user %s failed", user.pk)
