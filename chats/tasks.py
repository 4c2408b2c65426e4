"""Celery tasks of the group chats: thin, they take ids and call chats.delivery."""

from __future__ import annotations

from celery import shared_task

from chats import delivery


@shared_task(ignore_result=True)
def deliver_game(game_id: int) -> int:
    return delivery.deliver_game(game_id)


@shared_task(ignore_result=True, acks_late=True)
def deliver_post(post_id: int) -> str:
    """Idempotent: the post is claimed by a lease and sent only while it is dirty."""
    return delivery.deliver_post(post_id)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Posts whose backoff or rate limit is over, and any whose task was lost."""
    return delivery.sweep()
