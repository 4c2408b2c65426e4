"""The account's background work: the "Download my data" ZIP (issue 31)."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True)
def build_data_export(user_id: int) -> int | None:
    from accounts import services

    return services.data_export_build(user_id=user_id)


@shared_task(ignore_result=True)
def purge_data_exports() -> int:
    from accounts import services

    return services.data_export_purge()
