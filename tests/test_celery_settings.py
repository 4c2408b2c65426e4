"""Celery's delivery settings suit tasks that are idempotent and short: a task whose worker died
is run again soon, not lost and not held for an hour."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from config.celery import app

ROOT = Path(__file__).resolve().parent.parent


def test_tasks_are_acknowledged_after_they_ran_and_requeued_if_the_worker_dies():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    # One task at a time per worker process: a crash strands no prefetched pile.
    assert app.conf.worker_prefetch_multiplier == 1


def test_the_deadline_sweep_expires_before_the_next_one_is_due():
    sweep = app.conf.beat_schedule["games-process-deadlines"]
    assert sweep["options"]["expires"] <= sweep["schedule"]


def _celery_conf(broker: str) -> dict:
    env = {**os.environ, "CELERY_BROKER_URL": broker}
    script = (
        "import json, django; django.setup(); from config.celery import app; "
        "print(json.dumps(app.conf.broker_transport_options))"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                            timeout=60, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_on_redis_a_lost_task_comes_back_within_minutes_not_an_hour():
    options = _celery_conf("redis://127.0.0.1:6379/1")

    # Redis's default is 3600 s. Every task takes well under a second and none has an ETA.
    assert 30 <= options["visibility_timeout"] <= 300


def test_the_deadline_sweep_has_a_queue_of_its_own_that_every_worker_consumes():
    # (Else its runs wait behind the e-mail tasks a big sweep queues, and expire unrun.)
    assert app.amqp.router.route({}, "games.tasks.process_deadlines")["queue"].name == "deadlines"
    assert app.amqp.router.route({}, "games.tasks.play_site_action")["queue"].name == "celery"
    assert {q.name for q in app.conf.task_queues} == {"celery", "deadlines"}
