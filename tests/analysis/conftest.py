"""Fixtures of the analysis tests (issue 30): a finished game played through the site's services,
and a cheap estimate (a few playouts a round: what is tested is the site's part, not precision)."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game


@pytest.fixture(autouse=True)
def _cheap_estimate(settings) -> None:
    settings.ANALYSIS_MAX_PLAYOUTS = 6
    settings.ANALYSIS_TARGET = None
    settings.ANALYSIS_SWING_PLAYOUTS = 4


def finish(host, *others, actions: int = 160, **kwargs) -> Game:
    """A game between users, played a while by the simple player, then ended by surrenders."""
    game = start_game(host, *others, **kwargs)
    autoplay(game, actions)
    return end_by_surrenders(game, surrenders=len(others) + 1)


@pytest.fixture
def finished(alice, bob) -> Game:
    return finish(alice, bob)
