"""Keeping each game's status post up to date, in Celery tasks only (issue 29).

A move marks the game's posts dirty (chats.hooks, one UPDATE in its transaction) and queues
``tasks.deliver_game`` after the commit. ``deliver_post`` then:

1. claims the post with a conditional UPDATE (a lease, not a row lock: a move that marks it
   dirty meanwhile never waits on a send);
2. reads the game as it is now, so a burst of moves is shown by one request;
3. coalesces: at most one edit per game every ``edit_interval()`` seconds (10), except when
   whom the game waits on changed (always sent at once); a move that changes nothing of whom
   it waits on is shown once the game has been still for ``settle()`` seconds (120); a new
   message instead of an edit only when the game waits on someone new after ``quiet()`` (3 h)
   of silence (the channel then shows fresh
   activity, and the mention pings: an edit pings nobody);
4. sends (chats.providers) and records the result; a rate limit waits the provider's
   ``retry_after``, any other failure backs off (30 s doubling up to 30 min), and after
   ``GIVE_UP`` of failures, or at once for a refusal retrying cannot mend, the channel stops
   and its host is told on the table's channel page.

Each post is its own task, each send within its time budget: a dead channel delays nothing but
itself. Waits longer than a minute are left to ``sweep`` (every 15 s), not to a Celery ETA.
"""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from chats import crypto, message, providers
from chats.models import Channel, StatusPost

logger = logging.getLogger(__name__)

LEASE = timedelta(seconds=60)
SHORT_WAIT = 60  # seconds: a shorter wait is a Celery countdown, a longer one the sweep's


def edit_interval() -> float:
    return float(getattr(settings, "CHATS_EDIT_INTERVAL", 10))


def settle() -> float:
    return float(getattr(settings, "CHATS_SETTLE_SECONDS", 120))


def quiet() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "CHATS_QUIET_SECONDS", 3 * 3600)))


def give_up_after() -> timedelta:
    return timedelta(seconds=float(getattr(settings, "CHATS_GIVE_UP_SECONDS", 3 * 3600)))


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failures in a row, with a little jitter."""
    return min(30.0 * 2 ** max(0, attempts - 1), 1800.0) * random.uniform(0.9, 1.1)


def _queue(post_id: int, countdown: float | None) -> None:
    from chats import tasks

    if countdown is None or countdown <= 0:
        tasks.deliver_post.delay(post_id)
    elif countdown <= SHORT_WAIT:
        tasks.deliver_post.apply_async((post_id,), countdown=countdown)
    # (else: chats.tasks.sweep picks it up when retry_at comes)


def deliver_game(game_id: int) -> int:
    """Queue a delivery of each live post of a game; how many."""
    ids = list(StatusPost.objects.filter(game_id=game_id, channel__gave_up_at__isnull=True,
                                         dirty_seq__gt=F("sent_seq")).values_list("pk", flat=True))
    for pk in ids:
        _queue(pk, None)
    return len(ids)


def sweep(now=None) -> int:
    """Posts left dirty whose wait is over (a retry after a long backoff, a lost task)."""
    now = now or timezone.now()
    ids = list(StatusPost.objects.filter(dirty_seq__gt=F("sent_seq"), channel__gave_up_at__isnull=True)
               .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
               .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
               .filter(Q(scheduled_at__isnull=True) | Q(scheduled_at__lte=now - timedelta(seconds=30)))
               .values_list("pk", flat=True)[:500])
    for pk in ids:
        _queue(pk, None)
    return len(ids)


def deliver_post(post_id: int, *, now=None) -> str:
    """Bring one status post up to date (or decide to wait); what happened, for tests and logs."""
    now = now or timezone.now()
    claimed = (StatusPost.objects.filter(pk=post_id, dirty_seq__gt=F("sent_seq"),
                                         channel__gave_up_at__isnull=True)
               .filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
               .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
               .update(lease_until=now + LEASE))
    if not claimed:
        return "nothing"
    post = StatusPost.objects.select_related("channel", "game__table__host").filter(pk=post_id).first()
    if post is None:  # (the channel was disconnected meanwhile: its posts went with it)
        return "nothing"
    game, channel = post.game, post.channel
    seq = post.dirty_seq
    waiting = list(game.waiting_seats or [])
    waits_changed = post.message_ref == "" or waiting != list(post.sent_waiting or [])
    if not waits_changed and post.last_sent_at is not None:
        # A move that leaves the game waiting on the same players (a roll, a purchase, a
        # building bought) is shown once the game has been still for ``settle`` seconds, or
        # with the next change of whom it waits on, whichever comes first: a player's visit of
        # several decisions is one edit, not one per decision.
        due = max(post.last_sent_at + timedelta(seconds=edit_interval()),
                  (game.updated_at or now) + timedelta(seconds=settle()))
        if due > now:
            # Coalesced: one edit at ``due`` shows every move until then.
            queue = post.scheduled_at is None or post.scheduled_at < now
            StatusPost.objects.filter(pk=post.pk).update(
                lease_until=None, scheduled_at=due if queue else F("scheduled_at"))
            if queue:
                _queue(post.pk, (due - now).total_seconds())
            return "coalesced"
    new_waiters = set(waiting) - set(post.sent_waiting or [])
    fresh = (post.message_ref == ""
             or (bool(new_waiters) and post.last_sent_at is not None and now - post.last_sent_at >= quiet()))
    status = message.build(game)
    mentions = message.mentions_for(status).get(channel.provider, []) if not status.over else []
    post_id_text = f"game-{game.pk}-{post.posts + (1 if fresh else 0)}"
    try:
        ref = providers.deliver(channel.provider, crypto.unseal(channel.secret), status, mentions,
                                ref=None if fresh else post.message_ref, post_id=post_id_text)
    except providers.Gone:
        # The message was deleted in the chat: the next delivery posts a new one.
        StatusPost.objects.filter(pk=post.pk).update(message_ref="", lease_until=None)
        _queue(post.pk, None)
        return "gone"
    except providers.RateLimited as limited:
        wait = limited.retry_after + 0.5
        StatusPost.objects.filter(pk=post.pk).update(lease_until=None, retry_at=now + timedelta(seconds=wait))
        _queue(post.pk, wait)
        return "rate-limited"
    except providers.DeliveryError as error:
        _failed(post, channel, error, now=now)
        return "failed"
    except Exception as error:  # (a bug or a library's surprise: backed off, logged)
        logger.exception("chats: delivery of post %s failed", post.pk)
        _failed(post, channel, providers.Transient(type(error).__name__), now=now)
        return "failed"
    StatusPost.objects.filter(pk=post.pk).update(
        message_ref=ref, sent_seq=seq, sent_waiting=waiting, last_sent_at=now, lease_until=None,
        retry_at=None, scheduled_at=None, attempts=0, posts=F("posts") + (1 if fresh else 0))
    Channel.objects.filter(pk=channel.pk).update(last_ok_at=now, failing_since=None, last_error="")
    if StatusPost.objects.filter(pk=post.pk, dirty_seq__gt=seq).exists():
        # Moves came in while it was sent: catch up (coalesced, or at once if the waits changed).
        _queue(post.pk, None)
    return "posted" if fresh else "edited"


def _failed(post: StatusPost, channel: Channel, error: providers.DeliveryError, *, now) -> None:
    since = channel.failing_since or now
    text = str(error)[:300]
    if isinstance(error, providers.Refusal) or now - since >= give_up_after():
        Channel.objects.filter(pk=channel.pk).update(failing_since=since, last_error=text, gave_up_at=now)
        StatusPost.objects.filter(pk=post.pk).update(lease_until=None)
        logger.warning("chats: channel %s gave up: %s", channel.pk, text)
        return
    attempts = post.attempts + 1
    wait = backoff(attempts)
    Channel.objects.filter(pk=channel.pk).update(failing_since=since, last_error=text)
    StatusPost.objects.filter(pk=post.pk).update(lease_until=None, attempts=attempts,
                                                  retry_at=now + timedelta(seconds=wait))
    _queue(post.pk, wait)
