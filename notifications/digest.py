"""The daily digest: at the user's local morning, every game waiting on them with the time
left, and the news they chose to read in the digest (issue 14). Lichess's maintainer chose one
or two e-mails a day over one per move (NOTES.md); this is that e-mail, for those who want it.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import notifications as game_emails
from games.links import absolute, game_path
from games.models import Game, Table
from notifications.models import Digest, Kind, Mode, Notification, Preference
from notifications.services import DIGEST_KIND

# The local hour from which a user's digest goes out (the task runs every quarter of an hour;
# a day whose morning the workers missed is caught up later that day).
DIGEST_HOUR = 8
DIGEST_LABEL = _("The daily digest")


def _local(now: datetime, zone_name: str) -> datetime:
    try:
        zone = zoneinfo.ZoneInfo(zone_name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return now.astimezone(zone)


def waiting_games(user) -> list[Game]:
    games = (Game.objects.filter(status=Game.Status.ACTIVE, table__pace=Table.Pace.CORRESPONDENCE,
                                 table__seats__user=user, table__seats__bot="")
             .select_related("table").order_by("deadline"))
    out = []
    for game in games:
        seat = next((s for s in game.table.seats.all() if s.user_id == user.pk), None)
        if seat is not None and seat.position in (game.waiting_seats or []):
            out.append(game)
    return out


def send_digest(*, user, now: datetime) -> bool:
    """The digest of one user for their local today, if it is morning there, it has not gone
    out yet and there is something to tell. Returns whether an e-mail went out."""
    local = _local(now, user.time_zone)
    if local.hour < DIGEST_HOUR or not user.email or not user.is_active:
        return False
    from reach.choices import is_quiet, of

    if is_quiet(of(user.pk), zone=local.tzinfo, now=now):
        return False  # (issue 29: in the person's quiet hours; a later run sends it)
    news = list(Notification.objects.filter(user=user, status=Notification.Status.DIGEST, emailed_at__isnull=True)
                .select_related("game__table").order_by("created_at"))
    games = waiting_games(user)
    if not news and not games:
        return False
    try:
        with transaction.atomic():
            digest = Digest.objects.create(user=user, day=local.date())
    except IntegrityError:
        return False  # today's went out already (or another worker is sending it)
    from notifications.emails import list_headers, unsubscribe_url

    context: dict[str, Any] = {
        "user": user,
        "games": [{"game": g, "table": g.table, "url": absolute(game_path(g.pk))} for g in games],
        "news": [{"label": Kind(n.kind).label, "table": n.game.table if n.game_id else None,
                  "url": absolute(game_path(n.game_id)) if n.game_id else None} for n in news],
        "unsubscribe_url": unsubscribe_url(user_id=user.pk, kind=DIGEST_KIND),
        "preferences_url": absolute(reverse("notifications:preferences")),
        "kind_label": DIGEST_LABEL,
    }
    game_emails.send(name="digest", to=user.email, context=context, language=user.language,
                     time_zone=user.time_zone, headers=list_headers(user_id=user.pk, kind=DIGEST_KIND))
    Notification.objects.filter(pk__in=[n.pk for n in news]).update(emailed_at=now)
    Digest.objects.filter(pk=digest.pk).update(sent_at=now)
    return True


def send_digests(*, now: datetime | None = None) -> int:
    """Every digest due now: the users who read any kind in the digest."""
    now = now or timezone.now()
    from accounts.models import User

    users = User.objects.filter(pk__in=Preference.objects.filter(mode=Mode.DIGEST).values("user_id"))
    return sum(send_digest(user=user, now=now) for user in users)
