"""Who has a game's page open: a poll, a page view or a move marks the person present.

Kept in the shared cache (the database cache or Redis, the same for every process), never in a
table row: a poll every 15 s must not write to the database. A person seen on the game page
within ACTIVE_SECONDS gets no e-mail for it: the page tells them (issue 14; 18xx.games waits
60 s, we allow for a poll or two missed).
"""

from __future__ import annotations

from datetime import datetime

from django.core.cache import cache
from django.utils import timezone

ACTIVE_SECONDS = 120


def _key(user_id: int, game_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def seen(*, user_id: int, game_id: int, now: datetime | None = None) -> None:
    now = now or timezone.now()
    # The time itself is stored (not left to the cache's expiry), so a simulated clock works.
    cache.set(_key(user_id, game_id), now.timestamp(), timeout=ACTIVE_SECONDS * 2)


def is_active(*, user_id: int, game_id: int, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    last = cache.get(_key(user_id, game_id))
    return last is not None and 0 <= now.timestamp() - last <= ACTIVE_SECONDS
