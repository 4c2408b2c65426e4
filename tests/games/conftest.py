"""Fixtures of the games app's site tests: tables, started games, Celery run inline."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.models import Game, Table


@pytest.fixture
def make_table(db: None) -> Callable[..., Table]:
    """services.table_create with defaults: a public classic correspondence table, 24 h a turn."""

    def make(host: User, **kwargs: Any) -> Table:
        kwargs.setdefault("name", "Test table")
        kwargs.setdefault("preset", "classic")
        return services.table_create(host=host, **kwargs)

    return make


@pytest.fixture
def make_game(make_table: Callable[..., Table]) -> Callable[..., Game]:
    """A started game: the host in seat 0, then the other users, then bots in the rest."""

    def make(host: User, *others: User, bots: tuple[str, ...] = (), **kwargs: Any) -> Game:
        kwargs.setdefault("seat_count", 1 + len(others) + len(bots))
        table = make_table(host, **kwargs)
        for user in others:
            services.table_join(table=table, user=user)
        empty = [s.position for s in table.seats.all() if s.is_empty]
        for position, bot in zip(empty, bots, strict=True):
            services.table_set_seat(table=table, by=host, position=position, bot=bot)
        return services.table_start(table=table, by=host)

    return make


class Clock:
    """``django.utils.timezone.now`` under a test's hand: it reads ``clock.now``."""

    def __init__(self):
        self.now = timezone.now()

    def __call__(self):
        return self.now


@pytest.fixture
def clock() -> Iterator[Clock]:
    """A simulated clock for timeouts, vacations and pauses: set ``clock.now`` to move time."""
    c = Clock()
    with mock.patch("django.utils.timezone.now", c):
        yield c
