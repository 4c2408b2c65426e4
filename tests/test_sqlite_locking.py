"""The embedded defaults' SQLite database: a move waits for another writer's lock.

A transaction that reads first (every move does) and then writes could not upgrade to a writer
while another connection (a Celery task) held the write lock: SQLite answered "database is
locked" at once, whatever the busy timeout. settings.py's OPTIONS make every transaction take
the write lock when it begins (``transaction_mode: IMMEDIATE``) and wait for it (``timeout``).

Each test runs a fresh Python with the site's settings as ``bin/run`` has them (no
DATABASE_URL) on a file database of its own, held by a second, raw sqlite3 connection.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Another connection takes the write lock (BEGIN IMMEDIATE) and writes; then, while it holds
# the lock, the site's connection runs a read-then-write transaction, as a move does. The
# holder lets go after a moment, from a thread, so the site's transaction has something to wait
# for; what is checked is only whether it went through, never how long it took.
SCRIPT = textwrap.dedent(
    """
    import json, sqlite3, threading, time
    import django
    django.setup()
    from django.conf import settings
    from django.db import OperationalError, connection, transaction

    path = str(settings.DATABASES["default"]["NAME"])
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER)")
        cursor.execute("INSERT INTO counter VALUES (1, 0)")
        cursor.execute("PRAGMA journal_mode")
        journal = cursor.fetchone()[0]
    connection.close()

    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("UPDATE counter SET n = n + 100")
    held = threading.Event()

    def release():
        held.wait()
        time.sleep(0.5)
        holder.execute("COMMIT")

    threading.Thread(target=release).start()
    outcome = "ok"
    held.set()
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT n FROM counter WHERE id = 1")
                n = cursor.fetchone()[0]
                cursor.execute("UPDATE counter SET n = %s WHERE id = 1", [n + 1])
    except OperationalError as e:
        outcome = str(e)
    with connection.cursor() as cursor:
        cursor.execute("SELECT n FROM counter WHERE id = 1")
        final = cursor.fetchone()[0]
    print(json.dumps({"outcome": outcome, "final": final, "journal": journal}))
    """
)


def _run(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CACHE_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", VAR_DIR=str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_read_then_write_transaction_waits_for_another_writer_instead_of_failing(tmp_path):
    result = _run(tmp_path)

    assert result["outcome"] == "ok"
    # It waited for the holder's commit and then read the holder's write: 0 + 100, then + 1.
    assert result["final"] == 101


def test_the_embedded_database_runs_in_wal_mode(tmp_path):
    # Readers (the game page, polls) then never wait for a writer, nor a writer for them.
    assert _run(tmp_path)["journal"] == "wal"
