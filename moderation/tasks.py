"""Background work of moderation (thin: call a service)."""

from __future__ import annotations

from celery import shared_task

from moderation import services


@shared_task(ignore_result=True)
def scan_trades() -> int:
    return services.collusion_scan()
