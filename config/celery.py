import os

from celery import Celery
from django.db import transaction

from config import broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# kombu's filesystem and Redis transports, with the fixes that keep a worker alive (config/broker.py).
broker.register()

app = Celery("config")
# Every CELERY_* Django setting configures Celery (CELERY_BROKER_URL -> broker_url, ...).
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def queue_on_commit(name: str, *args, countdown: float | None = None) -> None:
    """Queue the task registered as ``name`` once the current transaction commits (so the task
    never reads rows its transaction has not committed yet).

    Services queue their tasks by name rather than by importing them: tasks are thin and call
    the services, so a service importing its tasks would close an import circle
    (tests/test_import_cycles.py). The name is looked up in the app's registry, which fails
    loudly (NotRegistered, a KeyError) on a misspelt name, and the task is queued as ``delay`` queues it (eagerly when
    CELERY_TASK_ALWAYS_EAGER is on), or ``countdown`` seconds later."""
    if name not in app.tasks:
        # A web process has not imported the apps' tasks modules (a worker does at its start):
        # import them now, as the worker does.
        app.autodiscover_tasks(force=True)
    task = app.tasks[name]
    if countdown is None:
        transaction.on_commit(lambda: task.delay(*args))
    else:  # (``countdown`` seconds after the commit)
        transaction.on_commit(lambda: task.apply_async(args, countdown=countdown))
