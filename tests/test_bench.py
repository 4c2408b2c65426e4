"""Every benchmark in bench/ still runs: each script's cheapest real mode, in a subprocess, at
a tiny size (``--smoke`` where a script's smallest arguments were not small enough), must exit
0 and print the labels of its figures. The figures themselves are never checked (a test does
not time things, STYLE.md); this only keeps the scripts from rotting unseen.

The scripts that need PostgreSQL (bench.web, bench/deadlines.py) get a database of their own
on the test database's server (``test_<name>_bench``, dropped afterwards), never the test
database: bench/deadlines.py empties its tables. bench/deadlines.py also needs the Redis broker
of CELERY_BROKER_URL, whose queue it empties, and starts a worker and a beat of its own, which
it stops on exit."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from games.engine.ruleset import PRESET_NAMES
from tests import template_db

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 120  # seconds a script may take before the test gives up on it


def run(script: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run bench/``script`` (``web``: the package bench.web) with ``args``; its output, once it
    has exited 0. A script still running after TIMEOUT is interrupted (SIGINT: it stops the
    processes it started)."""
    # (A script is a file; bench.web is a package, run as a module.)
    target = [str(ROOT / "bench" / script)] if script.endswith(".py") else ["-m", f"bench.{script}"]
    proc = subprocess.Popen([sys.executable, *target, *args], cwd=ROOT,
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        pytest.fail(f"bench/{script} {' '.join(args)} ran for more than {TIMEOUT} s:\n{out[-3000:]}")
    assert proc.returncode == 0, f"bench/{script} {' '.join(args)} exited {proc.returncode}:\n{out[-3000:]}"
    return out


def assert_labels(out: str, *labels: str) -> None:
    missing = [label for label in labels if label not in out]
    assert not missing, f"missing {missing} in:\n{out[-3000:]}"


@pytest.fixture(scope="module")
def sqlite_from() -> dict[str, str]:
    """The environment of a benchmark that runs a site on SQLite (bench/correspondence.py): its
    database a copy of the tests' migrated template, so that it migrates nothing."""
    return {"BENCH_SQLITE_FROM": str(template_db.sqlite_template())}


@pytest.fixture(scope="module")
def bench_database_url(django_db_setup) -> str:
    """A database of the benchmarks' own, next to the test database (dropped at the end): a copy
    of the template the test databases were made from (tests/template_db.py), so that the
    benchmark's ``migrate`` finds nothing to do."""
    import psycopg

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("bench.web and bench/deadlines.py need PostgreSQL: set DATABASE_URL (CI does)")
    parts = urlsplit(url)
    # (Each pytest-xdist worker its own, as its test database: test_<name>_bench_gw0...)
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    name = f"test_{parts.path.lstrip('/')}_bench" + (f"_{worker}" if worker else "")
    admin = urlunsplit(parts._replace(path="/postgres"))
    template_db.postgresql_copy(url, name)
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_engine():
    out = run("engine.py", "--games", "1", "--repeat", "1")
    assert_labels(out, "4 strategy bots", "classic ", "world-classic ", "games/s", "player turns/s", "actions/s",
                  "finished game: state JSON", "action log JSON")


def test_engine_hash():
    out = run("engine_hash.py", "--smoke")
    fingerprints = re.findall(r"^([\w-]+)/(strategy|random|mixed) [0-9a-f]{16}$", out, re.M)
    assert {preset for preset, _mix in fingerprints} == set(PRESET_NAMES)
    assert len(fingerprints) == 3 * len(PRESET_NAMES)


def test_record_lengths():
    out = run("record_lengths.py", "--smoke", "--jobs", "1")
    assert len(re.findall(r"^\S+ +\d (strategy|random|mixed) +games +1 ", out, re.M)) == 3 * len(PRESET_NAMES)
    assert_labels(out, "median", "p99", "longest game:", "bytes of record")


def test_replay_steps():
    out = run("replay_steps.py", "--actions", "300", "--steps", "2")
    assert_labels(out, "record: 300 actions", "new, prepare once", "turn starts:", "old, one step:",
                  "new, one step:", "actions applied at most")


def test_notifications(sqlite_from):
    out = run("notifications.py", "--games", "1", "--rounds", "1", env=sqlite_from)
    assert_labels(out, "waits/round", "e-mails/round", "per decision/round", "reminders/round", "page closed",
                  "page closed, with aids", "slow", "page open")


def test_pace(sqlite_from):
    out = run("pace.py", "--games", "1", "--rounds", "1", "--clock-games", "1", env=sqlite_from)
    assert_labels(out, "visits/human/round", "decisions/human/round", "days/round", "classic ", "world-classic ",
                  "visits began with (no aids)", "visits began with (today aids)", "visits began with (all aids)",
                  "timeouts/human/100 rounds", "forfeits/game", "auto days/game", "fixed 24 h", "bank 3d+4h, 08-22")


def test_analysis():
    out = run("analysis.py", "--smoke")
    assert_labels(out, "load average", "playouts from round", "bench/engine.py whole games", "games/s",
                  "player turns/s", "estimate to ±", "p50", "p90", "compare with/without a trade",
                  "whole game of", "as each of rounds", "antithetic dice", "of two separate estimates'",
                  "round cap,", "(default)", "with the shortcut", "played to the end",
                  "late-game shortcut", "its turning points by measured swings", "its own swing",
                  "shortcut - full", "verdicts differ", "mean |difference|", "within 2 points:",
                  "trade meter (", "first figures shown at p50", "a verdict possible from",
                  "points; final at p50", "truncated at", "truncated playouts (", "leaf - full",
                  "shown within at 95%", "the true differences' spread")


def test_analysis_bench_times_the_meter_as_it_runs():
    """bench/analysis.py's meter section uses games/meter.py's settings (it cannot import that
    module: no Django there)."""
    import importlib.util

    from games import meter
    from games.views.trade_meter import POLL_FIRST_MS, POLL_MS

    spec = importlib.util.spec_from_file_location("bench_analysis", ROOT / "bench" / "analysis.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert (bench.METER_PLAYOUTS, bench.METER_TARGET, bench.METER_BATCH) == (
        meter.METER_PLAYOUTS, meter.METER_TARGET, meter.METER_BATCH)
    assert (bench.METER_POLL_FIRST_S * 1000, bench.METER_POLL_S * 1000) == (POLL_FIRST_MS, POLL_MS)


def test_web_profile(bench_database_url):
    # (Its cheapest mode: three moves posted in-process to the act endpoint, through the
    # middleware, with the legal.json reads between them; --render plays 200 actions first.)
    out = run("web", "--server", "wsgi", "--profile", "3", env={"DATABASE_URL": bench_database_url})
    assert re.search(r"^3 moves in [\d.]+ s", out, re.M), out[-3000:]
    assert_labels(out, "function calls", "Ordered by: cumulative time", "Ordered by: internal time")


def test_web_render(bench_database_url):
    # (Two renders of each part, warm and after other requests; it plays 200 actions first.)
    out = run("web", "--server", "wsgi", "--render", "2", env={"DATABASE_URL": bench_database_url})
    assert_labels(out, "game page render, in-process", "full page", "htmx fragment", "board (40 sq.)",
                  "one player", "centre", "tools slot", "surrender slot")
    assert len(re.findall(r"ms, after other requests +[\d.]+ ms$", out, re.M)) == 7, out[-3000:]


def test_deadlines(bench_database_url):
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        pytest.skip("bench/deadlines.py needs the Redis broker: set CELERY_BROKER_URL (CI does)")
    out = run("deadlines.py", "--games", "2", "--spread", "1", "--lead", "2", "--concurrency", "1",
              "--lateness-only", env={"DATABASE_URL": bench_database_url, "BENCH_DATABASE_URL": ""})
    assert_labels(out, "made 2 games", "deadlines set", "timeouts fired: 2 of 2", "lateness (s): p50")


def test_move_cpu(bench_database_url, tmp_path):
    # (A few moves past the warm-up, with an A/B whose two sides are the same and a breakdown.)
    same = tmp_path / "same.py"
    same.write_text("def on():\n    pass\n\n\ndef off():\n    pass\n")
    out = run("move_cpu.py", "--moves", "46", "--ab", str(same), "--breakdown", "games.services.moves:_write",
              env={"DATABASE_URL": bench_database_url})
    assert_labels(out, "6 moves (after 40 to warm up)", "htmx move", "minimal", "of which the garbage collector",
                  "other page's fetch",
                  "A/B (", "off - on", "games.services.moves:_write:")


def test_channels(sqlite_from):
    out = run("channels.py", "--games", "1", "--rounds", "1", env=sqlite_from)
    assert_labels(out, "waits/rnd", "posts/rnd", "edits/rnd", "requests/rnd", "mentions/rnd", "wrong mentions",
                  "discord ", "slack ", "telegram ", "webhook ", "move CPU")


def test_reach(bench_database_url):
    # Issue 29's reads and sweeps (bench/reach.py), at 20 games.
    out = run("reach.py", "--smoke", env={"DATABASE_URL": bench_database_url, "BENCH_DATABASE_URL": ""})
    assert_labels(out, "next game waiting: median", "My games' waiting times", "warnings sweep:",
                  "calendar feed of", "wait hook of a move")
