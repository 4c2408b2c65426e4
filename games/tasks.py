"""Celery tasks of the games app: thin, they take ids and call a service or a notification.

They are queued with ``transaction.on_commit`` by the services, so a task never sees a row
that its transaction has not committed yet.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from games import notifications, selectors, services
from games.models import Game, Invitation, Table

logger = logging.getLogger(__name__)

# Games handled per run of process_deadlines; the rest wait for the next run, 5 s later.
DEADLINE_BATCH = 200


@shared_task(ignore_result=True)
def process_deadlines() -> int:
    """Apply the timeout defaults of RULES.md 11 to every game whose deadline has passed.

    Safe with several workers (or a beat run that overlaps the previous one) and with players
    moving meanwhile: game_timeout claims each game by locking its row and re-checking that it
    is still at the version found due, so a game another worker or a player has just moved on
    is left alone (the next run sees its new deadline). Returns the number of actions applied.
    """
    now = timezone.now()
    due = list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
        .order_by("deadline")
        .values_list("pk", "version")[:DEADLINE_BATCH]
    )
    applied = 0
    for game_id, version in due:
        try:
            applied += services.game_timeout(game_id=game_id, now=now, seen_version=version)
        except Exception:
            # One broken game must not hold up the timers of every other game.
            logger.exception("timeout of game %s failed", game_id)
    return applied


@shared_task(ignore_result=True)
def notify_turn(game_id: int, version: int) -> int:
    """E-mail the humans a correspondence game waits on, once per version.

    The claim is a conditional UPDATE of notified_version: of two deliveries of the same task
    (or a late task for an older version) only the first one that still moves it forward sends.
    """
    claimed = Game.objects.filter(
        pk=game_id,
        status=Game.Status.ACTIVE,
        notified_version__lt=version,
        table__pace=Table.Pace.CORRESPONDENCE,
    ).update(notified_version=version)
    if claimed != 1:
        return 0
    game = Game.objects.select_related("table").get(pk=game_id)
    return notifications.send_your_turn(game=game)


@shared_task(ignore_result=True)
def notify_game_over(game_id: int) -> int:
    game = Game.objects.select_related("table").filter(pk=game_id).first()
    if game is None or game.status == Game.Status.ACTIVE:
        return 0
    seats = list(game.table.seats.select_related("user"))
    return notifications.send_game_over(game=game, winner=selectors.winner_name(game, seats))


@shared_task(ignore_result=True)
def send_invitation(invitation_id: int) -> None:
    invitation = (
        Invitation.objects.select_related("table", "invited_by").filter(pk=invitation_id).first()
    )
    if invitation is None or invitation.invited_by is None:
        # (Its sender deleted their account before it went out: no one to say it is from.)
        return
    notifications.send_invitation(invitation=invitation)
