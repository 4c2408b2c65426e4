"""The warnings each player chose before a deadline (issue 29; lichobile 1443: 8 h, 4 h, 1 h),
on correspondence tables, on every channel they chose (reach.delivery), once each per decision.

No task per deadline (NOTES.md): a periodic task looks, for each hour on offer, at the games
whose deadline is that far ahead, give or take the look-back (``LOOKBACK``: the sweep runs every
minute; a sweep missed for longer loses that warning, which is the price of never scanning every
game). The notification's unique key (the game, the hour, the deadline) keeps a warning from
going out twice after a retry or a second sweep; a deadline moved on (a vacation) is a new
decision's time and may be warned again. A wait that began within the warning's hours is not
warned (its "your turn" is just out).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from notifications import services
from notifications.models import Kind
from reach.models import WARNING_HOURS, Wait

LOOKBACK = timedelta(minutes=30)


def plan(*, now: datetime) -> list[tuple[int, services.Item]]:
    """(game id, item) for each warning due now."""
    from games.links import absolute
    from games.models import Game, Table

    settings_url = absolute(reverse("reach:settings"))
    out: list[tuple[int, services.Item]] = []
    for hours in WARNING_HOURS:
        ahead = timedelta(hours=hours)
        rows = (Wait.objects.filter(
            game__status=Game.Status.ACTIVE, game__table__pace=Table.Pace.CORRESPONDENCE,
            game__deadline__gt=now + ahead - LOOKBACK, game__deadline__lte=now + ahead,
            game__table__seats__position=F("seat"), game__table__seats__bot="",
            game__table__seats__user__reach__warnings__contains=f",{hours},")
            .values_list("game_id", "seat", "since", "game__deadline", "game__table__seats__user_id"))
        for game_id, seat, since, deadline, user_id in rows:
            if deadline - since <= ahead:
                continue  # (the wait began with less time than that left)
            key = f"g{game_id}:warn{hours}:{int(deadline.timestamp())}"
            out.append((game_id, [Kind.WARNING, user_id, key, seat,
                                  {"hours": hours, "deadline": deadline.isoformat(), "settings_url": settings_url}]))
    return out


def send_warnings(*, now: datetime | None = None) -> int:
    """Every warning due now; returns the e-mails sent."""
    now = now or timezone.now()
    sent = 0
    for game_id, item in plan(now=now):
        sent += services.notify(game_id=game_id, items=[item], now=now)
    return sent
