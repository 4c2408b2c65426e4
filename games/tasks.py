"""Celery tasks of the games app: thin, they take ids and call a service or a notification.

They are queued with ``transaction.on_commit`` by the services, so a task never sees a row
that its transaction has not committed yet.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

from accounts.models import User
from games import notifications, services
from games.models import Game, Invitation
from notifications import services as notification_services
from notifications.models import Kind

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
def send_invitation(invitation_id: int) -> None:
    invitation = (
        Invitation.objects.select_related("table", "invited_by").filter(pk=invitation_id).first()
    )
    if invitation is None or invitation.invited_by is None:
        # (Its sender deleted their account before it went out: no one to say it is from.)
        return
    invitee = User.objects.filter(email__iexact=invitation.email, is_active=True).first()
    if invitee is None:
        # An address without an account: nobody's preferences to follow, nothing to unsubscribe.
        notifications.send_invitation(invitation=invitation)
        return
    # Someone with an account: through the one path, with their preferences and the one-click
    # unsubscribe, once per invitation whatever the task's deliveries.
    notification_services.notify(game_id=None, items=[
        [Kind.INVITATION, invitee.pk, f"inv{invitation.pk}", None, {"invitation": invitation.pk}]])
