"""A real Celery worker of the test's own, on a broker the test chooses (its own redis-server, or the
filesystem transport in a folder of its own), needing no database: the task it is given is Celery's
built-in ``celery.accumulate``, which returns its arguments, and the worker logs that it succeeded
with them (issue 26, items 1 and 2)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_BIN = Path(sys.executable).parent


def worker_env(var_dir: Path, broker_url: str) -> dict[str, str]:
    """The site's settings with only this broker and a var folder of the test's own (no database,
    cache or push service of the test run's)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "DJANGO_SETTINGS", "CELERY_", "DATABASE_", "CACHE_URL", "LIVE_REDIS"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "VAR_DIR": str(var_dir),
            "CELERY_BROKER_URL": broker_url,
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


class OwnWorker:
    """A worker as bin/run starts it (threads; gossip, mingle and heartbeat on)."""

    def __init__(self, env: dict[str, str], log: Path):
        self.env = env
        self.log_path = log
        self._log = open(log, "wb")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [
                str(_BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--pool=threads",
                "--concurrency=2",
                "--loglevel=info",
                f"--hostname=own-{uuid.uuid4().hex[:8]}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def send(self, marker: str, *, countdown: int = 0) -> str:
        """Queue ``celery.accumulate(marker)`` from another process, as the site queues its tasks,
        ``countdown`` seconds later; its task id is returned."""
        task_id = str(uuid.uuid4())
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from config.celery import app; app.send_task('celery.accumulate', args=(sys.argv[1],),"
                " task_id=sys.argv[2], countdown=int(sys.argv[3]) or None)",
                marker,
                task_id,
                str(countdown),
            ],
            cwd=ROOT,
            env=self.env,
            check=True,
            timeout=60,
        )
        return task_id

    def ran(self, marker: str) -> bool:
        return any(
            "celery.accumulate" in line and "succeeded" in line and marker in line for line in self.log().splitlines()
        )

    def wait_until_ran(self, marker: str, *, timeout: float = 60) -> None:
        # (The timeout only bounds a hung test: nothing asserts on how long it took.)
        end = time.monotonic() + timeout
        while not self.ran(marker):
            if not self.alive():
                raise AssertionError(f"the worker died (status {self.proc.returncode}):\n{self.log()[-4000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"the worker never ran {marker}:\n{self.log()[-4000:]}")
            time.sleep(0.1)

    def wait_for_line(self, text: str, *, count: int = 1, timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while self.log().count(text) < count:
            if not self.alive():
                raise AssertionError(f"the worker died (status {self.proc.returncode}):\n{self.log()[-4000:]}")
            if time.monotonic() > end:
                raise AssertionError(f"the worker never logged {text!r} x{count}:\n{self.log()[-4000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)
        self._log.close()
