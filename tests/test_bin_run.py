"""bin/run supervises its processes: a worker that dies is started again; when the beat or the
server dies, nothing is left running.

The worker started with an embedded beat (-B) used to leave its pool process and the beat
behind when its main process was killed; the orphaned beat kept queueing the deadline sweep.
bin/run now runs one worker, one beat and the server, each in a process group of its own, and
stops all of them when any ends. These tests start the real bin/run on the embedded defaults
(SQLite and the filesystem broker in a folder of their own, on a free port), kill a process the hard
way, and look at every process that bin/run had started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from tests.processes import free_port, process_tree

ROOT = Path(__file__).resolve().parent.parent
PORT = free_port()
START_TIMEOUT = 180  # setup, migrations on a fresh database (the first run), then three processes starting
STOP_TIMEOUT = 60

pytestmark = pytest.mark.slow


def _descendants(pid: int) -> set[int]:
    tree, found, todo = process_tree(), set(), [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def _wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    pytest.fail(f"{what} within {timeout} s")


def _answers() -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture(scope="module")
def var_dir(tmp_path_factory) -> Path:
    """The site's folder (SQLite database, broker folders), shared by this module's runs: the
    first bin/run migrates the fresh database, the next finds it migrated (a migration of the
    SQLite database takes seconds of a loaded machine's CPU; each test is about the processes,
    not the migrations)."""
    return tmp_path_factory.mktemp("bin-run-var")


@pytest.fixture
def bin_run(tmp_path, var_dir):
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "SITE_URL"}}
    env.update(VAR_DIR=str(var_dir), PORT=str(PORT), STOP_GRACE="5")
    log = (tmp_path / "bin-run.log").open("w")
    proc = subprocess.Popen([str(ROOT / "bin" / "run")], cwd=ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    seen: set[int] = set()
    try:
        _wait_until(_answers, START_TIMEOUT, "bin/run's site did not answer")
        # Both Celery processes are up too (the site answering does not say so).
        _wait_until(lambda: {"worker", "beat"} <= {word for pid in _descendants(proc.pid)
                                                  for word in _cmdline(pid).split()},
                    START_TIMEOUT, "bin/run did not start its worker and beat")
        seen |= _descendants(proc.pid)
        yield proc
    finally:
        # Whatever a failed test left running (each service has a process group of its own);
        # only processes of ours that are still there, never a pid taken by someone else since.
        for pid in seen | _descendants(proc.pid):
            if _alive(pid) and any(word in _cmdline(pid) for word in ("celery", "uvicorn", "manage.py", "bin/run")):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        log.close()


def _role(pids: set[int], word: str) -> int:
    # (The analysis worker, issue 30, is a role of its own: "analysis".)
    if word == "analysis":
        matching = [pid for pid in pids if "config worker -Q analysis" in _cmdline(pid)]
    else:
        matching = [pid for pid in pids if f"config {word}" in _cmdline(pid) and "-Q analysis" not in _cmdline(pid)]
    assert len(matching) == 1, {pid: _cmdline(pid) for pid in pids}
    return matching[0]


def test_a_killed_worker_is_started_again_and_a_killed_beat_stops_everything(bin_run):
    started = _descendants(bin_run.pid)
    # Exactly one scheduler, in a process of its own: not the worker's embedded beat (-B).
    beat, worker = _role(started, "beat"), _role(started, "worker")
    assert beat != worker and " -B" not in _cmdline(worker) and "--beat" not in _cmdline(worker)
    # Issue 30: the analyses' queue has a worker of its own, never the one of the deadline sweep.
    analyser = _role(started, "analysis")
    assert analyser not in (beat, worker) and "--pool=solo" in _cmdline(analyser)
    # The site is served by uvicorn, an ASGI server (the game's event stream, issue 12).
    servers = [pid for pid in started if "uvicorn config.asgi:application" in _cmdline(pid)]
    assert servers
    # ...which sends no server banner (issue 26).
    with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/", timeout=5) as answer:
        assert answer.status == 200 and answer.headers.get_all("Server") is None

    # A worker that dies (kombu's Redis transport crashed it in a broker outage, issue 26) is
    # started again; the beat and the server stay up.
    os.kill(worker, signal.SIGKILL)
    _wait_until(lambda: [pid for pid in _descendants(bin_run.pid)
                         if pid != worker and "config worker --pool=threads" in _cmdline(pid)],
                STOP_TIMEOUT, "bin/run did not start a new worker")
    now = _descendants(bin_run.pid)
    new_worker = _role(now, "worker")
    assert new_worker != worker and not _alive(worker)
    assert _role(now, "beat") == beat and all(_alive(pid) for pid in servers)
    assert bin_run.poll() is None and _answers()

    # The beat or the server ending ends the run, and nothing is left running.
    os.kill(beat, signal.SIGKILL)
    bin_run.wait(timeout=STOP_TIMEOUT)

    assert bin_run.returncode != 0
    left = [f"{pid}: {_cmdline(pid)}" for pid in started | now if _alive(pid)]
    assert left == []
    assert not _answers()


def test_when_bin_run_itself_is_killed_its_processes_stop_too(bin_run):
    if subprocess.run(["sh", "-c", "command -v setpriv"], capture_output=True).returncode != 0:
        pytest.skip("util-linux's setpriv is not installed")
    started = _descendants(bin_run.pid)

    os.kill(bin_run.pid, signal.SIGKILL)
    bin_run.wait()

    _wait_until(lambda: not any(_alive(pid) for pid in started), STOP_TIMEOUT,
                "bin/run's processes outlived it")
