from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.chats.fakes import FakeChats
from tests.games.conftest import clock, make_game, make_table  # noqa: F401


@pytest.fixture
def fake(settings, request) -> Iterator[FakeChats]:
    """The fake chat services on localhost; the site pointed at them (tests only: chats.safety).
    With the ``clock`` fixture, the fake reads the simulated time (rate limits' retry times)."""
    simulated = request.getfixturevalue("clock") if "clock" in request.fixturenames else None
    now = (lambda: simulated.now.timestamp()) if simulated is not None else time.monotonic
    with FakeChats(clock=now) as server:
        for name, value in server.settings().items():
            setattr(settings, name, value)
        yield server
    assert server.problems == [], server.problems
