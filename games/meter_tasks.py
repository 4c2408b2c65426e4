"""The trade meter's task (issue 30, games/meter.py): thin, it takes the row's id and calls the
service. Imported by games/tasks.py, which Celery's autodiscovery finds."""

from __future__ import annotations

from celery import shared_task

from games import meter


# acks_late: a worker that dies mid-estimate hands it back (the task is idempotent: a row done
# is left alone).
@shared_task(name=meter.METER_TASK, acks_late=True, ignore_result=True)
def trade_meter_task(meter_id: int) -> None:
    meter.meter_compute(meter_id=meter_id)
