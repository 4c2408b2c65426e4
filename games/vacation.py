"""Vacation (RULES.md 15, site level, correspondence tables only): each player may take, per
game, up to the table's allowance (``Table.vacation_days``; 0: none) in whole days of at least
one. While on vacation their deadlines are frozen and moved on by the time taken: a decision
already waiting on them gets its deadline moved on by the days taken, and one that begins while
they are away starts its clock when the vacation ends (``deadline_start``). Their standing
orders still apply. The other players see "on vacation until ..." (the panel of the game page).

Ending a vacation early gives back the whole days not begun yet (the day under way is spent),
and moves the deadline of a decision waiting on the player back by as many days.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DAY = timedelta(days=1)


def deadline_start(game, seats_waited: list[int], now: datetime) -> datetime:
    """When the clock of a decision newly waiting on ``seats_waited`` starts: now, or when the
    last of them who is on vacation comes back (services._deadline)."""
    from games.models import Vacation

    if not seats_waited:
        return now
    back = (Vacation.objects.filter(game_id=game.pk, seat__in=seats_waited, until__gt=now)
            .order_by("-until").values_list("until", flat=True).first())
    return back if back is not None else now


def _player(game_id: int, user):
    from games import services
    from games.models import Game, Table

    game = services._locked_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise services.GameError(_("this game is over"))
    if game.table.pace != Table.Pace.CORRESPONDENCE:
        raise services.GameError(_("vacations are for correspondence tables"))
    seats = list(game.table.seats.select_related("user"))
    seat = services._seat_of(seats, user)
    if seat is None:
        raise services.NotAllowed(_("you are not playing in this game"))
    if seat.bot:
        raise services.NotAllowed(_("a bot plays your seat since your third missed turn"))
    if game.state["players"][seat.position]["bankrupt"]:
        raise services.GameError(_("you are out of this game"))
    return game, seat


def days_left(game, seat: int) -> int:
    from games.models import Vacation

    used = Vacation.objects.filter(game_id=game.pk, seat=seat).values_list("days_used", flat=True).first() or 0
    return max(0, game.table.vacation_days - used)


@transaction.atomic
def vacation_take(*, game, user, days, now: datetime | None = None, expected_version: int | None = None):
    """``user`` goes on vacation in ``game`` for ``days`` whole days (a vacation under way is
    extended). Refused (GameError, nothing written) on a live table, with no allowance left, for
    a number of days that is not a whole number from 1 to what is left, and (StaleVersion) from
    a page older than the game (``expected_version``: a second click takes no days twice).
    Returns the Vacation."""
    from games import services
    from games.models import Vacation

    now = now or timezone.now()
    game, seat = _player(game.pk, user)
    if expected_version is not None and expected_version != game.version:
        raise services.StaleVersion(
            _("the game has moved on since your page was drawn; here is the current position"))
    allowance = game.table.vacation_days
    if allowance == 0:
        raise services.GameError(_("this table gives no vacation"))
    row, _created = Vacation.objects.select_for_update().get_or_create(game=game, seat=seat.position)
    left = allowance - row.days_used
    if left <= 0:
        raise services.GameError(_("you have no vacation days left in this game"))
    if type(days) is not int or not 1 <= days <= left:
        raise services.GameError(_("take from 1 to %(n)s whole days"), n=left)
    if row.until is not None and row.until > now:
        row.until += days * DAY
    else:
        row.started_at, row.until = now, now + days * DAY
    row.days_used += days
    row.save()
    _move_deadline(game, seat.position, days * DAY)
    return row


@transaction.atomic
def vacation_end(*, game, user, now: datetime | None = None):
    """``user`` is back before the end of their vacation: the whole days not begun go back to
    their allowance, and a deadline waiting on them moves back by as many days."""
    from games import services
    from games.models import Vacation

    now = now or timezone.now()
    game, seat = _player(game.pk, user)
    row = Vacation.objects.select_for_update().filter(game=game, seat=seat.position, until__gt=now).first()
    if row is None:
        raise services.GameError(_("you are not on vacation"))
    unused = int((row.until - now) // DAY)
    row.days_used -= unused
    row.until = now
    row.save()
    _move_deadline(game, seat.position, -unused * DAY)
    return row


def _move_deadline(game, seat: int, by: timedelta) -> None:
    """A decision waiting on the seat: its deadline moves by ``by`` (the clock frozen or given
    back). The version goes up either way, so that open pages show the vacation."""
    fields = ["version", "updated_at"]
    if by and game.deadline is not None and seat in (game.waiting_seats or []):
        game.deadline += by
        fields.append("deadline")
    game.version += 1
    game.save(update_fields=fields)


def on_vacation(game, now: datetime | None = None) -> dict[int, datetime]:
    """The seats on vacation now, with when each comes back."""
    from games.models import Vacation

    now = now or timezone.now()
    return dict(Vacation.objects.filter(game_id=game.pk, until__gt=now).values_list("seat", "until"))
