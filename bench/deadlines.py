"""Deadline benchmark (issue 10): how late timeouts fire with 10,000 active games, and what one
sweep over 10,000 overdue games costs.

    .venv/bin/python bench/deadlines.py [--games 10000] [--spread 60] [--workers 1] [--concurrency 4]
                                        [--lateness-only] [--analyses 0]

Runs against PostgreSQL (DATABASE_URL, by default postgres://postgres@127.0.0.1:5432/
monopoly_bench_deadlines, created and migrated here; its games are deleted first) and the Redis
broker of CELERY_BROKER_URL (by default redis://127.0.0.1:6379/0; its queue is emptied). It
makes --games two-player correspondence games, fast: one game started through the services,
then its tables, seats, game rows (the same position), deeds, decks and start rows copied with
bulk_create. Their deadlines are spread evenly over --spread seconds, starting a few seconds
after the real worker(s) (--workers processes of --concurrency threads, as bin/run runs one)
and the one beat (the sweep every second, settings.CELERY_BEAT_SCHEDULE) have started. Each
game times out once (the next decision gets 24 hours). Every clock option of RULES.md 16 is
mixed in (``CLOCKS``, a game in four each): the plain 24 h; a time bank of 3 days with a 4 h
increment, playing hours 08:00-22:00 without weekends and automatic vacation; a bank of a day
and automatic vacation; playing hours across midnight and a round limit. A game with a bank or
playing hours keeps its waited-on seat's clock in ``Game.aids`` (its own time and bank used up
at the deadline), and a game with vacation days takes an automatic vacation day instead of its
first timeout (a log row of source "clock"): lateness counts either row. Then it prints:

- lateness: for every game, its timeout's log row time minus its deadline: p50, p99, max;
- the time one sweep (games.tasks.process_deadlines, in this process, one thread) takes over
  the same 10,000 games all overdue at once, and how long the workers take to drain them.

With ``--analyses K`` (issue 30), K finished four-player games of strategy bots have their
whole-game analyses queued before the deadlines begin, and one analysis worker (as bin/run runs
it: ``-Q analysis``, solo pool, nice 10) computes them while the timeouts fire: run it with and
without to compare the lateness; it prints the analysis rounds computed during the window.

E-mail goes to Django's dummy backend (the notifications' tasks still run, as in production).
Figures, never assertions. Processes started here run in their own process groups and are
stopped on exit.
"""

from __future__ import annotations

import argparse
import atexit
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/monopoly_bench_deadlines"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"
BATCH = 2000
# The log rows a deadline leaves: a timeout, or an automatic vacation day (RULES.md 16).
SWEPT = ("timeout", "clock")

_procs: list[subprocess.Popen] = []


def _stop_all() -> None:
    for proc in _procs:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            continue
    for proc in _procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
    _procs.clear()


atexit.register(_stop_all)


def _ensure_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


def setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


def make_games(n: int) -> list[int]:
    """n active two-player correspondence games, copies of one started through the services."""
    from django.db import transaction

    from accounts.models import User
    from games import services
    from games.models import DeckRow, DeedRow, Game, GameAction, Seat, Table

    with transaction.atomic():
        Table.objects.all().delete()
        a, _ = User.objects.get_or_create(username="bench-a", defaults={"email": "a@bench.invalid"})
        b, _ = User.objects.get_or_create(username="bench-b", defaults={"email": "b@bench.invalid"})
        table = services.table_create(host=a, name="Bench", preset="classic", turn_hours=24, seat_count=2,
                                      vacation_days=0)
        services.table_join(table=table, user=b)
        model = services.table_start(table=table, by=a)
    deeds = list(DeedRow.objects.filter(game=model).values("square", "owner_seat", "level", "mortgaged",
                                                            "mortgaged_round"))
    decks = list(DeckRow.objects.filter(game=model).values("name", "cards", "discards"))
    start = GameAction.objects.get(game=model, seq=0)
    ids = [model.pk]
    t0 = time.monotonic()
    while len(ids) < n:
        k = min(BATCH, n - len(ids))
        with transaction.atomic():
            tables = Table.objects.bulk_create([
                Table(host=a, name="Bench", preset="classic", pace=Table.Pace.CORRESPONDENCE, turn_hours=24,
                      seat_count=2, status=Table.Status.PLAYING, invite_code=f"b{len(ids) + i:09d}",
                      **{"vacation_days": 0, **CLOCKS[(len(ids) + i) % len(CLOCKS)]})
                for i in range(k)])
            Seat.objects.bulk_create([Seat(table=t, position=p, user=(a, b)[p]) for t in tables for p in (0, 1)])
            games = Game.objects.bulk_create([
                Game(table=t, seed=model.seed, state=model.state, version=model.version, round=model.round,
                     current_seat=model.current_seat, pending=model.pending, waiting_seats=model.waiting_seats,
                     deadline=None)
                for t in tables])
            DeedRow.objects.bulk_create([DeedRow(game=g, **d) for g in games for d in deeds], batch_size=5000)
            DeckRow.objects.bulk_create([DeckRow(game=g, **d) for g in games for d in decks])
            GameAction.objects.bulk_create([
                GameAction(game=g, seq=0, action=start.action, events=start.events, source=start.source)
                for g in games])
        ids += [g.pk for g in games]
    print(f"made {n} games in {time.monotonic() - t0:.1f} s (bulk_create, batches of {BATCH})")
    return ids


# RULES.md 16: the clock options mixed in, game i taking CLOCKS[i % 4] (the table's fields).
CLOCKS = (
    {},
    {"time_bank_hours": 72, "time_bank_increment_hours": 4, "playing_hours": "08:00-22:00", "count_weekends": False,
     "vacation_days": 7},
    {"time_bank_hours": 24, "vacation_days": 7},
    {"playing_hours": "22:00-06:00", "round_limit": 60},
)


def _clocked(options: dict) -> bool:
    return bool(options.get("time_bank_hours") or options.get("playing_hours"))


def _set_deadlines(deadlines: dict) -> None:
    """Each game's deadline column and, at a table with a bank or playing hours, its waited-on
    seat's clock, started at the deadline with its own time and bank all used (so that the
    column and the seat's own deadline agree: games.seat_clock)."""
    import json

    from django.db import connection

    from games.models import Game

    waiting = dict(Game.objects.filter(pk__in=list(deadlines)).values_list("pk", "waiting_seats"))
    clocked = set(Game.objects.filter(pk__in=list(deadlines)).filter(
        table__time_bank_hours__gt=0).values_list("pk", flat=True)) | set(
        Game.objects.filter(pk__in=list(deadlines)).exclude(table__playing_hours="").values_list("pk", flat=True))
    with connection.cursor() as cur:
        cur.execute("DROP TABLE IF EXISTS bench_deadline")
        cur.execute("CREATE TEMP TABLE bench_deadline (id bigint PRIMARY KEY, deadline timestamptz, aids jsonb)")
        rows = []
        for gid, at in deadlines.items():
            seat = (waiting.get(gid) or [0])[0]
            aids = {"clock": {"bank": {}, "run": {str(seat): [at.isoformat(), 1e9]}}} if gid in clocked else None
            rows.append((gid, at, None if aids is None else json.dumps(aids)))
        cur.executemany("INSERT INTO bench_deadline VALUES (%s, %s, %s)", rows)
        cur.execute("UPDATE games_game g SET deadline = b.deadline, aids = COALESCE(b.aids, g.aids) "
                    "FROM bench_deadline b WHERE g.id = b.id")


def make_finished(k: int) -> list[int]:
    """k finished four-player classic games of strategy bots (seeds 2000..), each with its log
    rows as the site writes them, for their analyses (issue 30)."""
    from django.db import transaction

    from accounts.models import User
    from games.engine import RuleSet, apply, make_bot, new_game
    from games.engine.simulate import play_game
    from games.models import Game, GameAction, Seat, Table

    rules = RuleSet.build("classic")
    host = User.objects.get(username="bench-a")
    ids = []
    for i in range(k):
        actions: list[dict] = []
        play_game(rules, [make_bot("strategy") for _ in range(4)], 2000 + i, minutes_per_round=0,
                  on_action=lambda _state, action, kept=actions: kept.append(dict(action)))
        names = [f"Bot {p + 1}" for p in range(4)]
        state, events = new_game(rules, names, 2000 + i)
        with transaction.atomic():
            table = Table.objects.create(host=host, name="Bench analysis", preset="classic", seat_count=4,
                                         status=Table.Status.FINISHED, invite_code=f"a{i:09d}")
            Seat.objects.bulk_create([Seat(table=table, position=p, bot="strategy") for p in range(4)])
            game = Game.objects.create(table=table, seed=2000 + i, state={})
            rows = [GameAction(game=game, seq=0, action={"type": "start", "seed": 2000 + i, "rules": rules.to_json(),
                                                         "names": names, "teams": None}, events=events,
                               source="system")]
            for n, action in enumerate(actions, start=1):
                state, events = apply(state, action)
                rows.append(GameAction(game=game, seq=n, seat=action.get("player"), action=action, events=events,
                                       source="bot"))
            GameAction.objects.bulk_create(rows, batch_size=1000)
            Game.objects.filter(pk=game.pk).update(state=state.to_json(), status=Game.Status.FINISHED,
                                                   round=state.round, winner_seat=state.winner,
                                                   finished_at=timezone_now())
        ids.append(game.pk)
    return ids


def timezone_now():
    from django.utils import timezone

    return timezone.now()


def _celery(env: dict[str, str], args: list[str], log: Path, *, nice: int = 0) -> subprocess.Popen:
    out = open(log, "wb")  # noqa: SIM115 (kept open while the process runs)
    prefix = ["nice", "-n", str(nice)] if nice else []
    proc = subprocess.Popen([*prefix, str(ROOT / ".venv/bin/celery"), "-A", "config", *args], cwd=ROOT, env=env,
                            stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    _procs.append(proc)
    return proc


def _clock_words(options: dict) -> str:
    if not options:
        return "plain 24 h"
    words = []
    if options.get("time_bank_hours"):
        words.append(f"bank {options['time_bank_hours']} h + {options.get('time_bank_increment_hours', 0)} h")
    if options.get("playing_hours"):
        words.append(f"hours {options['playing_hours']}" + ("" if options.get("count_weekends", True)
                                                            else " weekdays"))
    if options.get("vacation_days"):
        words.append("auto-vacation")
    if options.get("round_limit"):
        words.append(f"round limit {options['round_limit']}")
    return " ".join(words)


def _percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000, method="inclusive")[int(q * 1000) - 1] if len(values) > 1 \
        else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--spread", type=float, default=60.0, help="seconds over which the deadlines fall")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--concurrency", type=int, default=4, help="threads per worker process")
    parser.add_argument("--lead", type=float, default=15.0, help="seconds from the start of the workers "
                                                                  "to the first deadline")
    parser.add_argument("--lateness-only", action="store_true", help="stop after the lateness figures")
    parser.add_argument("--analyses", type=int, default=0,
                        help="whole-game analyses (issue 30) computed by an analysis worker meanwhile")
    args = parser.parse_args()

    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    broker = os.environ.get("CELERY_BROKER_URL") or DEFAULT_BROKER_URL
    _ensure_database(url)
    env = {
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": url, "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false", "DEBUG": "false", "SECRET_KEY": "bench-deadlines-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1", "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend",
        "LOG_LEVEL": "WARNING", "RATELIMIT_ENABLE": "false",
    }
    setup(env)
    import redis
    from django.db.models import Min
    from django.utils import timezone

    from games import tasks
    from games.models import GameAction

    queue = redis.Redis.from_url(broker)
    # The broker's keys carry the site's prefix, if it has one (CELERY_BROKER_KEY_PREFIX: a test run's).
    prefix = os.environ.get("CELERY_BROKER_KEY_PREFIX", "")
    queue_keys = [prefix + key for key in ("celery", "deadlines", "analysis", "unacked", "unacked_index")]
    queue.delete(*queue_keys)
    ids = make_games(args.games)

    child_env = {**os.environ, **env}
    folder = Path(tempfile.mkdtemp(prefix="bench-deadlines-"))
    analysed: list[int] = []
    if args.analyses:
        from analysis.models import GameAnalysis
        from analysis.tasks import analyse_game

        analysed = make_finished(args.analyses)
        GameAnalysis.objects.filter(game_id__in=analysed).delete()
        for gid in analysed:
            analyse_game.delay(gid)
        _celery(child_env, ["worker", "-Q", "analysis", "--pool=solo", "--loglevel=warning", "--without-gossip",
                            "--without-mingle", "--hostname=bench-analysis@%h"], folder / "analysis.log", nice=10)
        print(f"{len(analysed)} whole-game analyses queued ({args.analyses} finished games of 4 strategy bots), "
              f"one analysis worker (solo, nice 10)")
    for w in range(args.workers):
        _celery(child_env, ["worker", "--pool=threads", f"--concurrency={args.concurrency}", "--loglevel=warning",
                            "--without-gossip", "--without-mingle", f"--hostname=bench{w}@%h"],
                folder / f"worker{w}.log")
    _celery(child_env, ["beat", "--loglevel=warning", "-s", str(folder / "schedule")], folder / "beat.log")

    # Deadlines spread evenly over the window, in a shuffled order of the games.
    first = timezone.now() + timedelta(seconds=args.lead)
    step = args.spread / len(ids)
    order = list(ids)
    random.Random(1).shuffle(order)
    deadlines = {gid: first + timedelta(seconds=i * step) for i, gid in enumerate(order)}
    t0 = time.monotonic()
    _set_deadlines(deadlines)
    mix = ", ".join(f"{sum(1 for i in range(len(ids)) if i % len(CLOCKS) == c)} {_clock_words(o)}"
                    for c, o in enumerate(CLOCKS))
    print(f"clocks mixed in: {mix}")
    print(f"deadlines set in {time.monotonic() - t0:.1f} s: {len(ids)} games, from {args.lead:.0f} s on, "
          f"over {args.spread:.0f} s ({len(ids) / args.spread:.0f} a second); "
          f"{args.workers} worker process(es) x {args.concurrency} threads, one beat (sweep every second)")

    end_by = first + timedelta(seconds=args.spread + 300)
    while True:
        done = GameAction.objects.filter(game_id__in=ids, source__in=SWEPT).values("game_id").distinct().count()
        if done >= len(ids) or timezone.now() > end_by:
            break
        time.sleep(2)
    if analysed:
        from analysis.models import GameAnalysis

        rows = list(GameAnalysis.objects.filter(game_id__in=analysed).values_list("points", "status"))
        print(f"analyses meanwhile: {sum(len(p) for p, _s in rows)} rounds estimated, "
              f"{sum(s == 'done' for _p, s in rows)} of {len(analysed)} done")
    fired = dict(GameAction.objects.filter(game_id__in=ids, source__in=SWEPT).values("game_id")
                 .annotate(at=Min("created_at")).values_list("game_id", "at"))
    late = sorted((fired[g] - deadlines[g]).total_seconds() for g in ids if g in fired)
    print(f"timeouts fired: {len(late)} of {len(ids)}; load average {os.getloadavg()[0]:.1f} "
          f"({os.cpu_count()} CPUs)")
    if late:
        print(f"lateness (s): p50 {_percentile(late, 0.5):.3f}  p99 {_percentile(late, 0.99):.3f}  "
              f"max {late[-1]:.3f}  (min {late[0]:.3f})")

    _stop_all()
    if args.lateness_only:
        queue.delete(*queue_keys)
        return
    # One sweep over every game overdue at once: the workers stopped, this process sweeps.
    queue.delete(*queue_keys)
    _set_deadlines(dict.fromkeys(ids, timezone.now() - timedelta(seconds=1)))
    t0, cpu0 = time.monotonic(), time.process_time()
    applied = runs = 0
    while True:
        n = tasks.process_deadlines()
        runs += 1
        if n == 0:
            break
        applied += n
    took, cpu = time.monotonic() - t0, time.process_time() - cpu0
    print(f"one sweep, one thread, {len(ids)} overdue games: {took:.1f} s ({applied} timeouts, "
          f"{applied / took:.0f} a second, {runs - 1} runs of up to {tasks.DEADLINE_BATCH} games); "
          f"this process's CPU {cpu:.1f} s ({1000 * cpu / max(applied, 1):.1f} ms a timeout)")
    print(f"load average while it ran: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")

    # The same with the workers and the beat: from all overdue to all timed out.
    queue.delete(*queue_keys)
    before = GameAction.objects.filter(game_id__in=ids, source__in=SWEPT).count()
    _set_deadlines(dict.fromkeys(ids, timezone.now() - timedelta(seconds=1)))
    t0 = time.monotonic()
    for w in range(args.workers):
        _celery(child_env, ["worker", "--pool=threads", f"--concurrency={args.concurrency}", "--loglevel=warning",
                            "--without-gossip", "--without-mingle", f"--hostname=bench{w}b@%h"],
                folder / f"worker{w}b.log")
    _celery(child_env, ["beat", "--loglevel=warning", "-s", str(folder / "schedule2")], folder / "beat2.log")
    while GameAction.objects.filter(game_id__in=ids, source__in=SWEPT).count() - before < len(ids):
        if time.monotonic() - t0 > 600:
            break
        time.sleep(0.5)
    print(f"the workers and beat, {len(ids)} overdue games: all timed out {time.monotonic() - t0:.1f} s after "
          f"the workers were started (their start-up included)")
    _stop_all()
    queue.delete(*queue_keys)
    print(f"logs: {folder}")


if __name__ == "__main__":
    main()
