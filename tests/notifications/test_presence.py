"""A person's presence mark (notifications/presence.py) is written at most every REFRESH_SECONDS
by a process: the moves and polls of a page in between cost no cache write."""

from __future__ import annotations

from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone

from notifications import presence


class _Counted:
    """The cache, its writes counted."""

    def __init__(self, writes: list) -> None:
        self.writes = writes

    def set(self, key, *args, **kwargs):
        self.writes.append(key)
        return cache.set(key, *args, **kwargs)

    def get(self, *args, **kwargs):
        return cache.get(*args, **kwargs)


def test_marks_within_the_refresh_time_write_once(monkeypatch):
    writes = []
    monkeypatch.setattr(presence, "cache", _Counted(writes))
    now = timezone.now()

    presence.seen(user_id=1, game_id=2, now=now)
    presence.seen(user_id=1, game_id=2, now=now + timedelta(seconds=presence.REFRESH_SECONDS - 1))
    presence.seen(user_id=1, game_id=3, now=now)  # another game: its own mark

    assert len(writes) == 2
    assert presence.is_active(user_id=1, game_id=2, now=now + timedelta(seconds=presence.ACTIVE_SECONDS))
    later = now + timedelta(seconds=presence.REFRESH_SECONDS)
    presence.seen(user_id=1, game_id=2, now=later)
    assert len(writes) == 3
    assert not presence.is_active(user_id=1, game_id=2, now=later + timedelta(seconds=presence.ACTIVE_SECONDS + 1))
    # A clock that goes back (a simulated one) writes again.
    presence.seen(user_id=1, game_id=2, now=now - timedelta(hours=1))
    assert len(writes) == 4


def test_a_new_cache_is_written_afresh(settings):
    now = timezone.now()
    presence.seen(user_id=5, game_id=6, now=now)
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "presence-other"}}

    presence.seen(user_id=5, game_id=6, now=now)

    assert presence.is_active(user_id=5, game_id=6, now=now)
