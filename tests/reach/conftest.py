from datetime import datetime, timedelta

import pytest

from tests.games.conftest import clock, make_game, make_table  # noqa: F401


def waited_since(game, ago: timedelta) -> datetime:
    """Make the wait the game is in have begun ``ago`` before now; returns that moment."""
    from django.utils import timezone

    from reach.models import Wait

    game.refresh_from_db()
    since = timezone.now() - ago
    assert Wait.objects.filter(game=game, seat__in=game.waiting_seats).update(since=since) >= 1
    return since


@pytest.fixture
def pushes(monkeypatch):
    """Web Push turned on, each push recorded (the real push service is tested in
    tests/notifications/test_push.py)."""
    from notifications import push

    sent: list[tuple[int, dict]] = []
    monkeypatch.setattr(push, "enabled", lambda: True)

    def send(*, user_id, payload):
        sent.append((user_id, payload))
        return 1

    monkeypatch.setattr(push, "send", send)
    return sent
