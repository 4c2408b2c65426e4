"""Who has a game's page open: a poll, a page view or a move marks the person present.

Kept in the shared cache (the database cache or Redis, the same for every process), never in a
table row: a poll every 15 s must not write to the database. A person seen on the game page
within ACTIVE_SECONDS gets no e-mail for it: the page tells them (issue 14; 18xx.games waits
60 s, we allow for a poll or two missed).

Each process writes a person's mark at most every REFRESH_SECONDS (issue 12: a move or a poll
that follows one within seconds costs no cache write): the mark is then up to that much older
than the last visit, so a person counts as present for ACTIVE_SECONDS - REFRESH_SECONDS after it
at least. What a process last wrote is forgotten with the cache it wrote to (the CACHES setting
changing: the tests give each test a cache of its own).
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import timezone

ACTIVE_SECONDS = 120
REFRESH_SECONDS = 15
# What this process last wrote: (user, game) -> the time stored. Bounded: cleared when full.
_written: dict[tuple[int, int], float] = {}
_WRITTEN_MAX = 20_000


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def seen(*, user_id: int, game_id: int, now: datetime | None = None) -> None:
    now = now or timezone.now()
    stamp = now.timestamp()
    last = _written.get((user_id, game_id))
    if last is not None and 0 <= stamp - last < REFRESH_SECONDS:
        return
    # The time itself is stored (not left to the cache's expiry), so a simulated clock works.
    cache.set(_key(user_id, game_id), stamp, timeout=ACTIVE_SECONDS * 2)
    if len(_written) >= _WRITTEN_MAX:
        _written.clear()
    _written[(user_id, game_id)] = stamp


@receiver(setting_changed)
def _forget_written(*, setting: str, **kwargs) -> None:
    if setting == "CACHES":
        _written.clear()


def is_active(*, user_id: int, game_id: int, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    last = cache.get(_key(user_id, game_id))
    return last is not None and 0 <= now.timestamp() - last <= ACTIVE_SECONDS
