"""Issue 29's reads and sweeps at scale: the "next game waiting" control, the warnings sweep, the
calendar feed and the move's wait hook, over N correspondence games waiting on one person.

Runs against PostgreSQL (BENCH_DATABASE_URL or DATABASE_URL, by default
postgres://postgres@127.0.0.1:5432/mono_reach_bench, created and migrated here; its tables are
emptied first). Prints, for each: the median and p90 time of a call and its queries.

    .venv/bin/python bench/reach.py [--games 2000] [--repeat 30]
    .venv/bin/python bench/reach.py --smoke      # 20 games, 3 repeats: the script still runs
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/mono_reach_bench"


def _timed(fn, repeat: int) -> tuple[float, float, int]:
    """(median ms, p90 ms, queries of one call)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * (len(times) - 1))], len(ctx.captured_queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="20 games, 3 repeats")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.repeat = 20, 3

    import deadlines  # (bench/deadlines.py: the database and the copies of one started game)

    url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    deadlines._ensure_database(url)
    deadlines.setup({
        "DJANGO_SETTINGS_MODULE": "config.settings", "DATABASE_URL": url, "DEBUG": "false",
        "SECRET_KEY": "bench-reach-not-secret", "ALLOWED_HOSTS": "127.0.0.1", "LOG_LEVEL": "WARNING",
        "EMAIL_BACKEND": "django.core.mail.backends.dummy.EmailBackend", "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_BROKER_URL": "memory://",
    })
    from django.db import transaction
    from django.utils import timezone

    from games.models import Game, Seat
    from notifications.models import Notification
    from reach import calendar, choices, waits, warnings
    from reach.models import Wait

    Notification.objects.all().delete()
    ids = deadlines.make_games(args.games)
    now = timezone.now()
    # Each game waits on its model's seat, since a moment of its own; deadlines over the next two days.
    model = Game.objects.get(pk=ids[0])
    seat = model.waiting_seats[0]
    Wait.objects.all().delete()
    Wait.objects.bulk_create([Wait(game_id=g, seat=seat, since=now - timedelta(minutes=i)) for i, g in enumerate(ids)],
                             batch_size=5000)
    step = timedelta(hours=48) / max(1, len(ids))
    with transaction.atomic():
        for i, g in enumerate(ids):
            Game.objects.filter(pk=g).update(deadline=now + step * (i + 1))
    user = Seat.objects.select_related("user").get(table__game=model, position=seat).user
    choices.save(user=user, warnings=[8, 1], email=True, push=False, bell=True, quiet_start=None, quiet_end=None)
    print(f"{len(ids)} correspondence games waiting on one player, deadlines over 48 h")

    med, p90, q = _timed(lambda: waits.next_game(user), args.repeat)
    print(f"next game waiting: median {med:.2f} ms, p90 {p90:.2f} ms, {q} queries")
    med, p90, q = _timed(lambda: waits.since_by_game(user), args.repeat)
    print(f"My games' waiting times: median {med:.2f} ms, p90 {p90:.2f} ms, {q} queries")

    # The sweep with nothing new due (its notifications written by the first run).
    due = len(warnings.plan(now=now))
    med, p90, q = _timed(lambda: warnings.plan(now=now), args.repeat)
    print(f"warnings sweep: {due} due, median {med:.2f} ms, p90 {p90:.2f} ms, {q} queries")

    subset = min(len(ids), 500)
    Wait.objects.exclude(game_id__in=ids[:subset]).delete()
    body = calendar.feed(user=user)
    med, p90, q = _timed(lambda: calendar.feed(user=user), max(3, args.repeat // 5))
    print(f"calendar feed of {subset} games: {len(body)} bytes, median {med:.2f} ms, p90 {p90:.2f} ms, {q} queries")

    def hook():
        with transaction.atomic():
            waits.record(game_id=ids[0], before={seat}, waiting=[1 - seat], now=now, people={0, 1})
            waits.record(game_id=ids[0], before={1 - seat}, waiting=[seat], now=now, people={0, 1})

    med, p90, q = _timed(hook, args.repeat)
    print(f"wait hook of a move (two changes): median {med / 2:.2f} ms a change, {q / 2:.0f} statements a change")


if __name__ == "__main__":
    main()
