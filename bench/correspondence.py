"""What bench/notifications.py and bench/pace.py share: a throwaway site on SQLite with Celery
tasks inline and e-mail in memory, a simulated clock, and a correspondence table of two humans
and two strategy bots."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path
from unittest import mock


def setup(folder: str) -> None:
    """The throwaway site in ``folder``. With BENCH_SQLITE_FROM naming a migrated SQLite database
    (tests/test_bench.py gives the tests' template), the site's database starts as a copy of
    it: ``migrate`` then has nothing to do, where it ran all the migrations (about 10 s of CPU,
    most of a smoke run)."""
    source = os.environ.get("BENCH_SQLITE_FROM")
    if source:
        shutil.copyfile(source, Path(folder) / "db.sqlite3")
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "VAR_DIR": folder,
        "DATABASE_URL": "",
        "CACHE_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "true",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "RATELIMIT_ENABLE": "false",
        "LOG_LEVEL": "WARNING",
    })
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def table_of_four(tag: str, *, preset: str, options: dict | None = None):
    """A correspondence table (24 h a move) of two humans, the first its host, and two strategy
    bots: (table, humans)."""
    from accounts.models import User
    from games import services

    humans = [User.objects.create_user(username=f"{tag}_{i}", email=f"{tag}_{i}@example.com", password=None)
              for i in range(2)]
    table = services.table_create(host=humans[0], name=f"Bench {tag}", preset=preset, options=options,
                                  turn_hours=24, seat_count=4)
    services.table_join(table=table, user=humans[1])
    for position in (2, 3):
        services.table_set_seat(table=table, by=humans[0], position=position, bot="strategy")
    return table, humans


def start(table, humans, *, seed: int):
    """Start the table's game with the seed ``seed``: (game, the humans by seat)."""
    from games import services

    with mock.patch("secrets.randbits", return_value=seed):
        game = services.table_start(table=table, by=humans[0])
    seat_of = {s.user_id: s.position for s in table.seats.all() if s.user_id}
    return game, {seat_of[u.pk]: u for u in humans}
