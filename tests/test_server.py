"""config/gunicorn.py: a real gunicorn with the site's uvicorn worker serves without a server
banner, keeps its worker alive across several of the arbiter's timeouts (the heartbeat reaches
it), moves its Date header on with the clock, and stops cleanly on SIGTERM.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

from tests.processes import free_port, process_tree

ROOT = Path(__file__).resolve().parent.parent


def _workers(arbiter: int) -> set[int]:
    return set(process_tree().get(arbiter, []))


@pytest.mark.slow
def test_gunicorn_with_the_worker_serves_keeps_its_worker_and_stops(tmp_path):
    port = free_port()
    env = os.environ.copy()
    # The embedded defaults (SQLite in a folder of its own): the page below reads no table.
    for name in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "LIVE_REDIS_URL"):
        env.pop(name, None)
    env.update(VAR_DIR=str(tmp_path))
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [str(gunicorn), "config.asgi:application", "-k", "config.gunicorn.Worker", "--workers", "1",
         "--bind", f"127.0.0.1:{port}", "--timeout", "3", "--graceful-timeout", "5",
         "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        answer = None
        for _ in range(300):
            try:
                answer = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css", timeout=5)
                break
            except OSError:
                assert proc.poll() is None, "gunicorn did not start"
                time.sleep(0.1)
        assert answer is not None and answer.status == 200
        # No server banner (issue 26): uvicorn's "server: uvicorn" is not sent, nor gunicorn's.
        assert answer.headers.get_all("Server") is None
        first = parsedate_to_datetime(answer.headers["Date"])
        worker = _workers(proc.pid)
        assert len(worker) == 1

        # Three of the arbiter's timeouts (3 s) with nothing to do: a worker whose heartbeat
        # stopped would have been killed and replaced by a new one.
        time.sleep(9.5)
        assert _workers(proc.pid) == worker
        later = urllib.request.urlopen(f"http://127.0.0.1:{port}/static/css/site.css", timeout=5)
        # The Date header moves on with the clock.
        assert (parsedate_to_datetime(later.headers["Date"]) - first).total_seconds() >= 8

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
