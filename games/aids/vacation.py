"""Vacation (RULES.md 15, site level, correspondence tables only): each player may take, per
game, up to the table's allowance (``Table.vacation_days``; 0: none) in whole days of at least
one. While on vacation their deadlines are frozen and moved on by the time taken: a decision
already waiting on them gets its deadline moved on by the days taken, and one that begins while
they are away starts its clock when the vacation ends (``deadline_start``). Their standing
orders still apply. Everyone sees "On vacation until ..." on the player's card of the game page.

Ending a vacation early gives back the whole days not begun yet (the day under way is spent),
and moves the deadline of a decision waiting on the player back by as many days. A decision
that waits on several players (an open auction) has its clock frozen until the last of them on
vacation is back: their vacations overlap, they do not add up (games.aids.services._move_deadline).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

DAY = timedelta(days=1)


def deadline_start(game, seats_waited: list[int], now: datetime) -> datetime:
    """When the clock of a decision newly waiting on ``seats_waited`` starts: now, or when the
    last of them who is on vacation comes back (services.moves._deadline)."""
    from games.models import Vacation

    if not seats_waited:
        return now
    back = (Vacation.objects.filter(game_id=game.pk, seat__in=seats_waited, until__gt=now)
            .order_by("-until").values_list("until", flat=True).first())
    return back if back is not None else now


def days_left(game, seat: int) -> int:
    from games.models import Vacation

    used = Vacation.objects.filter(game_id=game.pk, seat=seat).values_list("days_used", flat=True).first() or 0
    return max(0, game.table.vacation_days - used)


def auto_on(game, seat: int) -> bool:
    """Whether a timeout of ``seat`` takes a vacation day instead (RULES.md 16; on by default)."""
    from games.models import Vacation

    return Vacation.objects.filter(game_id=game.pk, seat=seat).values_list("auto", flat=True).first() is not False


def on_vacation(game, now: datetime | None = None) -> dict[int, datetime]:
    """The seats on vacation now, with when each comes back."""
    from games.models import Vacation

    now = now or timezone.now()
    return dict(Vacation.objects.filter(game_id=game.pk, until__gt=now).values_list("seat", "until"))


def auto_day(game, seat: int, decision: str, now: datetime) -> datetime | None:
    """RULES.md 16, auto-vacation: when a timeout would fall on ``seat``, who has a whole
    vacation day left and has not turned the choice off, one day is taken instead (at most one
    automatic day per ``decision``, the key of what the game waits on: games.services.moves._decision).
    Returns when the player is back, or None (the timeout applies). Writes the seat's vacation
    row and marks the decision in ``game.aids`` (saved by the caller)."""
    from games.models import Table, Vacation

    table = game.table
    if table.pace != Table.Pace.CORRESPONDENCE or table.vacation_days <= 0:
        return None
    marks = dict((game.aids or {}).get("auto_day") or {})
    if marks.get(str(seat)) == decision:
        return None
    row, _created = Vacation.objects.select_for_update().get_or_create(game=game, seat=seat)
    if not row.auto or table.vacation_days - row.days_used < 1 or (row.until is not None and row.until > now):
        return None
    row.days_used += 1
    row.started_at, row.until = now, now + DAY
    row.save()
    marks[str(seat)] = decision
    game.aids = {**(game.aids or {}), "auto_day": marks}
    return row.until
