"""A test run never reaches a site running in the same checkout (issue 26, item 27).

``bin/run`` keeps the site's runtime state in ``var/`` (or ``VAR_DIR``): its SQLite database and
its filesystem broker, ``var/celery/``, whose worker runs every task it finds there. Each case runs
a small test file in a pytest of its own, as ``bin/test`` would, beside such a site (a folder
named by ``VAR_DIR``, as ``bin/run`` was given; a Redis database holding the site's queue): the
task it queues must land in the run's own broker and never where the site's worker looks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.processes import free_port

ROOT = Path(__file__).resolve().parents[1]

# (Each case starts a pytest of its own, and one of them two xdist workers: the slow group.)
pytestmark = pytest.mark.slow

# The test file the inner run collects: it queues a task as the site's code does (by name, on
# the configured broker) and says where its state went; OUT names the file it appends that to.
INNER = """
import json
import os
from pathlib import Path

from django.conf import settings

from config.celery import app


def test_queue_a_task():
    task_id = os.environ["PROBE_TASK_ID"] + "-" + os.environ.get("PYTEST_XDIST_WORKER", "main")
    app.send_task("tests.probe", task_id=task_id)  # (a name no worker knows: the default queue)
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    seen = {"var_dir": str(settings.VAR_DIR), "database": str(settings.DATABASES["default"]["NAME"]),
            "run_dir": os.environ.get("MONOPOLY_TEST_RUN_DIR", ""), "prefix": options.get("global_keyprefix", ""),
            "task_id": task_id}
    if settings.CELERY_BROKER_URL.startswith("filesystem:"):
        folder = Path(options["data_folder_out"])
        seen["queue_folder"] = str(folder)
        seen["landed"] = any(task_id in p.read_text() for p in folder.iterdir())
    else:
        import redis

        client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
        seen["landed"] = any(task_id.encode() in m for m in client.lrange(seen["prefix"] + "celery", 0, -1))
    with open(os.environ["PROBE_OUT"], "a") as out:
        out.write(json.dumps(seen) + "\\n")
"""


def _run_tests_beside_a_site(tmp_path: Path, site_var: Path, *extra: str, **env_vars: str) -> list[dict]:
    test_file = tmp_path / "inner" / "test_probe.py"
    test_file.parent.mkdir()
    test_file.write_text(INNER)
    out = tmp_path / "seen.jsonl"
    # The environment of a developer's shell: none of this run's own test variables, the site's folder.
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            (
                "PYTEST",
                "MONOPOLY_TEST",
                "CELERY_",
                "DJANGO_SETTINGS",
                "DATABASE_URL",
                "CACHE_URL",
                "LIVE_REDIS_URL",
                "VAR_DIR",
            )
        )
    }
    env.update(VAR_DIR=str(site_var), PROBE_OUT=str(out), PROBE_TASK_ID=f"probe-{uuid.uuid4().hex}", **env_vars)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-c",
            str(ROOT / "pyproject.toml"),
            "--rootdir",
            str(ROOT),
            *extra,
            str(test_file),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return [json.loads(line) for line in out.read_text().splitlines()]


def _site_queue_files(folder: Path, task_id: str) -> list[Path]:
    return [p for p in folder.iterdir() if task_id in p.read_text(errors="replace")] if folder.exists() else []


def test_a_task_queued_by_the_tests_never_lands_in_the_sites_broker_folder(tmp_path):
    site_var = tmp_path / "site-var"
    site_queue = site_var / "celery" / "queue"
    site_queue.mkdir(parents=True)

    (seen,) = _run_tests_beside_a_site(tmp_path, site_var)

    assert seen["landed"], seen  # the task was queued, in the run's own folder...
    assert not _site_queue_files(site_queue, seen["task_id"])  # ...never in the site's
    assert not _site_queue_files(ROOT / "var" / "celery" / "queue", seen["task_id"])  # (nor var/'s)
    run_dir = Path(seen["run_dir"])
    assert Path(seen["var_dir"]).parent == run_dir
    assert Path(seen["queue_folder"]).is_relative_to(run_dir)
    assert Path(seen["database"]).is_relative_to(run_dir)
    assert not Path(seen["var_dir"]).is_relative_to(site_var)
    assert not Path(seen["var_dir"]).is_relative_to(ROOT / "var")
    assert not run_dir.exists()  # removed when the run ended


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own, on a free port, stopped at the end."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    proc = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    import redis

    client = redis.Redis(port=port)
    try:
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0", client
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_on_a_shared_redis_each_xdist_worker_keeps_to_keys_of_its_own(tmp_path, own_redis):
    url, client = own_redis
    # The site's queue on that Redis: the run must neither add to it nor take from it.
    client.rpush("celery", b"the site's task")

    # One test, run on each of two workers.
    seen = _run_tests_beside_a_site(tmp_path, tmp_path / "site-var", "-n", "2", "--dist", "each", CELERY_BROKER_URL=url)

    assert len(seen) == 2
    assert all(s["landed"] for s in seen), seen  # each task was queued under its worker's prefix...
    assert client.lrange("celery", 0, -1) == [b"the site's task"]  # ...not on the site's queue
    assert len({s["prefix"] for s in seen}) == 2 and all(s["prefix"] for s in seen)
    # Each worker its own folder, in the run's one.
    assert {Path(s["var_dir"]).name for s in seen} == {"gw0", "gw1"}
    assert len({s["run_dir"] for s in seen}) == 1
    # What the run left on the broker went with it (its prefixes only).
    for s in seen:
        assert not list(client.scan_iter(match=f"{s['prefix']}*"))
    assert client.exists("celery")
