"""A redis-server of the test's own, on a free port, that the test may stop and start again (issue
26: the parts must ride out an outage). The shared Redis of the test run is never stopped."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import free_port


class RedisServer:
    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        assert self.proc is None, "already running"
        # No persistence: an outage loses what the server held, as a crashed Redis may.
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--logfile",
                str(self.folder / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=1)
        end = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if self.proc.poll() is not None or time.monotonic() > end:
                    raise AssertionError(f"redis-server did not start:\n{self.log()}") from None
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        assert self.proc is not None, "not running"
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=20)
        self.proc = None

    def log(self) -> str:
        path = self.folder / "redis.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""


@pytest.fixture
def redis_server(tmp_path_factory) -> Iterator[RedisServer]:
    """A running redis-server of this test's own (skipped, saying why, where there is none)."""
    if not shutil.which("redis-server"):
        pytest.skip("needs redis-server (Debian's redis-server package), as CI has")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    if server.proc is not None:
        with contextlib.suppress(Exception):
            server.stop()
