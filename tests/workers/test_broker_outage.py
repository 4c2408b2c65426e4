"""A real worker rides out Redis broker outages (issue 26 item 1).

The worker died at an outage ("Unrecoverable error: AttributeError("'NoneType' object has no
attribute 'hostname'")") whenever it held a message unacknowledged, as it holds every task queued
with a countdown (the bots' next move) until it is due: config/broker.py. Here the broker is a
redis-server of the test's own, stopped and started three times with such a task held each time;
afterwards the same worker process still consumes tasks."""

from __future__ import annotations

import uuid

import pytest

from tests.redis_server import redis_server  # noqa: F401 (a fixture)
from tests.workers.own_worker import OwnWorker, worker_env

pytestmark = pytest.mark.slow


def test_the_worker_consumes_tasks_after_three_broker_outages(tmp_path, redis_server):  # noqa: F811
    worker = OwnWorker(worker_env(tmp_path / "var", redis_server.url(0)), tmp_path / "worker.log")
    try:
        worker.wait_for_line("Connected to redis://")
        for outage in range(1, 4):
            # A task due in an hour: the worker holds it, unacknowledged, through the outage.
            held = worker.send(f"held-{outage}", countdown=3600)
            worker.wait_for_line(f"celery.accumulate[{held}] received")
            marker = f"before-outage-{outage}-{uuid.uuid4().hex}"
            worker.send(marker)
            worker.wait_until_ran(marker)

            redis_server.stop()
            worker.wait_for_line("Connection to broker lost", count=outage)
            redis_server.start()
            worker.wait_for_line("Connected to redis://", count=outage + 1)

        marker = f"after-three-outages-{uuid.uuid4().hex}"
        worker.send(marker)
        worker.wait_until_ran(marker)
        assert worker.alive()
        assert "Unrecoverable error" not in worker.log()
    finally:
        worker.stop()
