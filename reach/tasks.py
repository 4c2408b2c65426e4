"""Celery tasks of issue 29: thin, they call the modules."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True)
def send_warnings() -> int:
    """The warnings before a deadline that players chose, due now (reach/warnings.py)."""
    from reach import warnings

    return warnings.send_warnings()


@shared_task(ignore_result=True)
def release_quiet() -> int:
    """What was held through quiet hours that are now over, one message a person (reach/quiet.py)."""
    from reach import quiet

    return quiet.release()
