"""config/server.py: gunicorn's uvicorn worker whose loop wakes once a second, not ten times.

The loop's per-second work (the Date header, gunicorn's heartbeat) must happen on every wake-up,
and a real gunicorn with this worker must serve, keep its worker alive across several of the
arbiter's timeouts (the heartbeat reaches it), and stop cleanly on SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest
from uvicorn.config import Config

from config import server
from tests.processes import free_port, process_tree

ROOT = Path(__file__).resolve().parent.parent


def _run_loop(monkeypatch, ticks: int) -> tuple[list[float], list[int]]:
    """The loop run for ``ticks`` ticks, without sleeping: what it slept, and the counters it
    passed to on_tick."""
    slept: list[float] = []
    counters: list[int] = []

    async def sleep(seconds):
        slept.append(seconds)

    async def on_tick(self, counter):
        counters.append(counter)
        return len(counters) == ticks

    monkeypatch.setattr(server.asyncio, "sleep", sleep)
    monkeypatch.setattr(server.Server, "on_tick", on_tick)
    asyncio.run(server.Server(Config(app=None)).main_loop())
    return slept, counters


def test_the_loop_does_the_per_second_work_on_every_wake_up(monkeypatch):
    slept, counters = _run_loop(monkeypatch, 25)
    assert slept == [server.TICK_SECONDS] * 24 == [1.0] * 24
    # uvicorn's on_tick does its once-a-second work when counter % 10 == 0: on every tick here.
    assert len(counters) == 25 and all(c % 10 == 0 for c in counters)
    assert counters[:3] == [0, 10, 20]


def test_the_counter_wraps_as_uvicorns_does(monkeypatch):
    _slept, counters = _run_loop(monkeypatch, 86402)
    assert max(counters) == 863990 and counters[86400] == 0 and counters[86401] == 10


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
        [str(gunicorn), "config.asgi:application", "-k", "config.server.Worker", "--workers", "1",
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
        # The Date header moves on with the clock (it is refreshed on each wake-up).
        assert (parsedate_to_datetime(later.headers["Date"]) - first).total_seconds() >= 8

        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_uvicorns_own_tick_refreshes_the_date_on_each_of_ours(monkeypatch):
    """The loop above counts in uvicorn's tenths: uvicorn's on_tick must still do its per-second
    work (here, the Date header) at every counter the loop passes it."""

    async def app(scope, receive, send):  # (never called)
        raise AssertionError

    config = Config(app=app, lifespan="off")
    config.load()
    srv = server.Server(config)
    clock = [1_700_000_000.0]
    monkeypatch.setattr("uvicorn.server.time.time", lambda: clock[0])

    async def ticks():
        dates = []
        for counter in (0, 10, 20):
            assert await srv.on_tick(counter) is False
            dates.append(dict(srv.server_state.default_headers)[b"date"])
            clock[0] += 1
        return dates

    dates = asyncio.run(ticks())
    assert len(set(dates)) == 3
    assert dates[0] == b"Tue, 14 Nov 2023 22:13:20 GMT"
