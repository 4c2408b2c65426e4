"""Nudges (issue 29; Warzone limits them to one a day): a player may nudge the one the game waits
on, once per 24 hours per game, and only after the wait has lasted 12 hours, or half the
decision's time where a decision has less than a day (faster tables). The nudged player hears of
it on their channels (the NUDGE notification); the game's own log and record say who nudged whom
(an engine note, games/site_notes.py), and the game page's panel lists the game's nudges.

Refusals (``NudgeRefused``: a code and the reader's words) change nothing. The nudger's seat row
is locked while the check and the write run, so a double click nudges once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import queue_on_commit
from notifications.models import Kind
from reach.models import Nudge, Wait

AGAIN_AFTER = timedelta(hours=24)
WAIT_AT_LEAST = timedelta(hours=12)


class NudgeRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def least_wait(*, since: datetime, deadline: datetime | None) -> timedelta:
    """How long a wait must have lasted before a nudge: 12 hours, or half the decision's time
    when the decision has less than a day."""
    if deadline is None:
        return WAIT_AT_LEAST
    return min(WAIT_AT_LEAST, (deadline - since) / 2)


@dataclass
class Nudgeable:
    """A seat the viewer may nudge now, or when they may."""

    seat: int
    name: str
    at: datetime  # from when a nudge is allowed


def nudge_send(*, game, user, to_seat: int, now: datetime | None = None) -> Nudge:
    from games import site_notes
    from games.models import Seat
    from games.services import moves

    now = now or timezone.now()
    with transaction.atomic():
        # The game's row first (as a move locks it), then the nudger's seat: the log line is
        # written with the game, and a double click nudges once.
        game = moves._locked_game(game.pk)
        mine = (Seat.objects.select_for_update().filter(table_id=game.table_id, user=user).first())
        if mine is None:
            raise NudgeRefused("spectator", _("Only the players of this game may nudge."))
        target = Seat.objects.select_related("user").filter(table_id=game.table_id, position=to_seat).first()
        if target is not None and target.position == mine.position:
            raise NudgeRefused("self", _("You cannot nudge yourself."))
        if (game.status != game.Status.ACTIVE or target is None or target.user_id is None or target.bot
                or to_seat not in (game.waiting_seats or [])):
            raise NudgeRefused("not_waited", _("The game is not waiting on that player now."))
        since = Wait.objects.filter(game_id=game.pk, seat=to_seat).values_list("since", flat=True).first()
        if since is None:
            raise NudgeRefused("not_waited", _("The game is not waiting on that player now."))
        allowed = since + least_wait(since=since, deadline=game.deadline)
        if now < allowed:
            from games.templatetags.table_tags import time_left

            raise NudgeRefused("too_early", _("Too early to nudge: you may nudge %(when)s.")
                               % {"when": time_left(allowed, now)})
        last = (Nudge.objects.filter(game_id=game.pk, from_seat=mine.position, at__gt=now - AGAIN_AFTER)
                .order_by("-at").values_list("at", flat=True).first())
        if last is not None:
            from games.templatetags.table_tags import time_left

            raise NudgeRefused("twice", _("You nudged in this game less than a day ago: you may nudge again %(when)s.")
                               % {"when": time_left(last + AGAIN_AFTER, now)})
        nudge = Nudge.objects.create(game_id=game.pk, from_seat=mine.position, to_seat=to_seat, at=now)
        # The game's own log and record say who nudged whom (a note: the position is unchanged).
        site_notes.write_nudge(game, by=mine.position, to=to_seat, user=user)
        queue_on_commit("notifications.tasks.notify", game.pk,
                        [[Kind.NUDGE, target.user_id, f"g{game.pk}:nudge{nudge.pk}", to_seat,
                          {"by": mine.label, "from_seat": mine.position}]])
    return nudge
