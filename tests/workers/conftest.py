"""Real parts for the tests of this folder (issue 10, tests with real parts): a Celery worker
process and the one beat, on the Redis broker, against this test's PostgreSQL database.

Each test is transactional (its rows are committed, so another process sees them): the worker
subprocess gets a DATABASE_URL naming pytest-django's test database. Without a Redis broker
(CELERY_BROKER_URL=redis://...) or PostgreSQL (DATABASE_URL=postgres://...) the tests are skipped,
saying why; CI (.ci/run) has both, so it runs them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]
# The worker's bots wait this long between actions (the site's default is a second).
BOT_DELAY_MS = 30
# A task taken by a worker that was then killed goes back to the queue after this many seconds.
VISIBILITY_TIMEOUT = 4


def _redis_problem() -> str | None:
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return f"needs a Redis broker (CELERY_BROKER_URL=redis://...; here {url.split(':')[0]}://), as CI has"
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except Exception as e:  # (any failure to reach it is a reason to skip)
        return f"the Redis broker at {url} does not answer ({e.__class__.__name__})"
    return None


def _postgres_problem() -> str | None:
    if not settings.DATABASE_URL.startswith(("postgres://", "postgresql://")):
        return "needs PostgreSQL (DATABASE_URL=postgres://...): the worker process must reach the test's database"
    return None


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    # (Tests with a worker and broker of their own, own_worker.py, need neither service.)
    mine = [item for item in items
            if Path(str(item.fspath)).is_relative_to(here) and "celery_processes" in getattr(item, "fixturenames", ())]
    if not mine:
        return
    reason = _postgres_problem() or _redis_problem()
    if reason:
        for item in mine:
            item.add_marker(pytest.mark.skip(reason=f"real worker tests: {reason}"))


def test_database_url() -> str:
    """DATABASE_URL with the test database's name in place of the site's."""
    parts = urlsplit(settings.DATABASE_URL)
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


class Processes:
    """Celery workers and a beat started for a test, each in a process group of its own."""

    def __init__(self, tmp: Path, env: dict[str, str]):
        self.tmp = tmp
        self.env = env
        self.running: list[subprocess.Popen] = []
        self.n = 0

    def _start(self, args: list[str], name: str) -> subprocess.Popen:
        self.n += 1
        log = open(self.tmp / f"{self.n:02d}-{name}.log", "wb")  # noqa: SIM115 (closed with the process)
        proc = subprocess.Popen([str(Path(sys.executable).parent / "celery"), "-A", "config", *args],
                                cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        proc.log = log  # type: ignore[attr-defined]
        self.running.append(proc)
        return proc

    def worker(self, name: str = "worker", concurrency: int = 2) -> subprocess.Popen:
        # Threads: one process, so SIGKILL takes the whole worker (as bin/run runs it).
        return self._start(["worker", "--pool=threads", f"--concurrency={concurrency}", "--loglevel=info",
                            "--without-gossip", "--without-mingle", f"--hostname={name}-{self.n}@%h"], name)

    def beat(self) -> subprocess.Popen:
        return self._start(["beat", "--loglevel=info", "-s", str(self.tmp / "celerybeat-schedule")], "beat")

    def kill(self, proc: subprocess.Popen, sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)
        proc.log.close()  # type: ignore[attr-defined]
        self.running.remove(proc)

    def stop_all(self) -> None:
        for proc in list(self.running):
            self.kill(proc, signal.SIGTERM)

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}"
                         for p in sorted(self.tmp.glob("*.log")))


def _purge() -> None:
    """Whatever an earlier run left on the broker (tasks queued by other tests' commits)."""
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    # (Only this test process's keys: tests/settings.py gives each its own prefix.)
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    client.delete(*(prefix + key for key in ("celery", "deadlines", "unacked", "unacked_index", "unacked_mutex")))


@pytest.fixture
def celery_processes(transactional_db, tmp_path, settings) -> Iterator[Processes]:
    """Start workers and beat with ``.worker()`` and ``.beat()``; all stopped at the end. This
    process's moves queue the bots' tasks (a delay above 0), which the workers play."""
    settings.BOT_DELAY_SECONDS = BOT_DELAY_MS / 1000
    assert not celery_app.conf.task_always_eager
    _purge()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_SETTINGS"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": test_database_url(),
        "DATABASE_CONN_MAX_AGE": "0",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "BOT_DELAY_MS": str(BOT_DELAY_MS),
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    })
    procs = Processes(tmp_path, env)
    yield procs
    procs.stop_all()
    _purge()


def wait_for(condition: Callable[[], object], *, timeout: float, what: str, procs: Processes | None = None,
             every: float = 0.1):
    """Poll ``condition`` until it is true (returned), failing with ``what`` after ``timeout`` s.
    (The timeout only bounds a hung test; no assertion is about how long anything took.)"""
    end = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}" + (f"\n{procs.logs()}" if procs else ""))
        time.sleep(every)
