"""Celery tasks of the notifications app: thin, they take ids and call the service."""

from __future__ import annotations

from celery import shared_task

from notifications import services


@shared_task(ignore_result=True)
def notify(game_id: int | None, items: list) -> int:
    """Write and deliver the notifications of one move (services.plan_game). Safe to run twice
    or in two workers at once: each (user, kind, key) is written and e-mailed once."""
    return services.notify(game_id=game_id, items=items)


@shared_task(ignore_result=True)
def send_digests() -> int:
    """The daily digests due now (each user's local morning), once a day each."""
    from notifications import digest

    return digest.send_digests()


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """The reminders due now: a quarter of a correspondence decision's time left (issue 14)."""
    from notifications import reminders

    return reminders.send_reminders()
