"""The tests' settings: the site's own (config/settings.py), with runtime state of the test run's own.

A site started with ``bin/run`` in the same checkout keeps its SQLite database, its filesystem
broker (``var/celery/``), its beat schedule and its static files in ``var/``; a test run that used
the same folder handed its tasks to the site's worker, which ran them against the development
database (issue 26, item 27). Here every test process gets a fresh folder of its own (one per
pytest-xdist worker, under one folder per run, removed when the run ends), and on a Redis broker a
key prefix of its own, so that neither a running site nor another test process (another worker,
another checkout's run on the same Redis) takes its tasks.

pytest loads this module through ``--ds`` (pyproject.toml), before any test module or conftest:
the environment is set first, then the site's settings are read from it. The tests' subprocesses
(workers, servers, benchmarks) inherit that environment and read config.settings itself.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

_RUN = os.environ.get("MONOPOLY_TEST_RUN_DIR")
if not _RUN:
    # The first process of the run (pytest itself, or xdist's controller) makes the run's folder;
    # the xdist workers it starts inherit the variable, and the folder is removed when it exits.
    _RUN = tempfile.mkdtemp(prefix="monopoly-tests-")
    os.environ["MONOPOLY_TEST_RUN_DIR"] = _RUN
    atexit.register(shutil.rmtree, _RUN, True)

# "gw0", "gw1"... under pytest-xdist (set before the worker reads its settings), else "main".
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
os.environ["VAR_DIR"] = str(Path(_RUN) / WORKER)
os.environ["CELERY_BROKER_KEY_PREFIX"] = f"{Path(_RUN).name}-{WORKER}:"
# The tests' subprocesses read the site's settings, with the variables above.
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"

from config.settings import *  # noqa: E402, F403
from config.settings import CELERY_BROKER_TRANSPORT_OPTIONS, CELERY_BROKER_URL  # noqa: E402


def _forget_broker_keys() -> None:
    """The run's keys on a Redis broker (tasks queued and never consumed), by their prefix only:
    nothing else on that Redis is touched."""
    prefix = CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix")
    if not prefix or not CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        return
    try:
        import redis

        client = redis.Redis.from_url(CELERY_BROKER_URL, socket_connect_timeout=2, socket_timeout=5)
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
    except Exception:  # (a Redis gone by the end of the run leaves nothing of ours to clean)
        pass


atexit.register(_forget_broker_keys)
