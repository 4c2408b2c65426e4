"""Celery tasks of the games app: thin, they take ids and call a service or a notification.

They are queued with ``transaction.on_commit`` by the services, so a task never sees a row
that its transaction has not committed yet.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games import notifications, services
from games.meter_tasks import trade_meter_task  # noqa: F401 (registers it: autodiscovery reads this module)
from games.models import Game, Invitation
from moderation.selectors import is_blocked
from notifications import services as notification_services
from notifications.models import Kind

logger = logging.getLogger(__name__)

# Games one run of process_deadlines takes at most; the rest wait for the next run (or are
# claimed meanwhile by an overlapping run on another worker: SKIP LOCKED shares them out).
DEADLINE_BATCH = 1000
# Games claimed (locked) and timed out in one transaction, each in a savepoint of its own: one
# commit for several timeouts (a commit waits for the disk). A player's move on one of them
# waits for these few timeouts (milliseconds each); the sweep never waits for a player's move.
DEADLINE_CLAIM = 10


def _claim_due(now, failed: set[int], limit: int) -> list[tuple[int, int]]:
    """Due games, locked, as (id, version), the earliest deadline first.

    PostgreSQL: ``SELECT ... FOR UPDATE SKIP LOCKED``: a game whose row another run or a
    player's move holds is skipped, not waited for, so the sweep never queues behind a move and
    several runs share the due games without both taking one. SQLite has no row locks (nor SKIP
    LOCKED): there each transaction takes the database's write lock as it begins (settings.py),
    so claims are serialised, and game_timeout's version check turns a second claim of a game
    into nothing."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline__lte=now)
    if failed:
        due = due.exclude(pk__in=failed)
    due = due.order_by("deadline")
    if connection.features.has_select_for_update_skip_locked:
        due = due.select_for_update(skip_locked=True, of=("self",))
    return list(due.values_list("pk", "version")[:limit])


@shared_task(ignore_result=True)
def process_deadlines() -> int:
    """Apply the timeout defaults of RULES.md 11 to every game whose deadline has passed.

    A few games at a time (DEADLINE_CLAIM), claimed in a transaction (``_claim_due``) and timed
    out in it, each in a savepoint, so a game's lock is held only while a handful of timeouts
    are applied. Exactly once under several workers, overlapping beats and redelivered runs: a
    claimed game is locked until its timeout commits, and game_timeout re-checks the deadline
    and the version claimed, so a game a player or another run has moved on meanwhile is left
    alone. Returns the number of actions applied.
    """
    applied = 0
    failed: set[int] = set()
    taken = 0
    while taken < DEADLINE_BATCH:
        now = timezone.now()
        with transaction.atomic():
            claimed = _claim_due(now, failed, DEADLINE_CLAIM)
            for game_id, version in claimed:
                try:
                    with transaction.atomic():
                        applied += services.game_timeout(game_id=game_id, now=now, seen_version=version)
                except Exception:
                    # One broken game must not hold up the timers of every other game (its
                    # savepoint is rolled back; the next run tries it again).
                    logger.exception("timeout of game %s failed", game_id)
                    failed.add(game_id)
        if len(claimed) < DEADLINE_CLAIM:
            break
        taken += len(claimed)
    return applied


@shared_task(ignore_result=True)
def expire_pauses() -> int:
    """RULES.md 16: live games paused longer than their table allows resume by themselves."""
    from games.aids import services as aids
    return aids.pauses_expire()


@shared_task(ignore_result=True)
def play_site_action(game_id: int, version: int) -> int:
    """One action the site plays for a seat (a bot's), queued on commit by the write of
    ``version`` (services.moves._queue_site_action). Idempotent: a duplicate or stale delivery finds
    the game at another version and does nothing, so it is acknowledged late (settings.py) and
    a worker's death redelivers it without any risk of playing twice."""
    return services.game_site_action(game_id=game_id, seen_version=version)


@shared_task(ignore_result=True)
def send_invitation(invitation_id: int) -> None:
    invitation = (
        Invitation.objects.select_related("table", "invited_by").filter(pk=invitation_id).first()
    )
    if invitation is None or invitation.invited_by is None:
        # (Its sender deleted their account before it went out: no one to say it is from.)
        return
    if is_blocked(blocker_email=invitation.email, blocked=invitation.invited_by):
        # The address's account blocks the sender (a block made since the invitation, too).
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
