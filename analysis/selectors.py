"""Reads of the analysis app."""

from __future__ import annotations

from analysis.models import Sandbox


def is_sandbox(*, game_id: int) -> bool:
    """Whether the game was played on from a replay (issue 30): never rated, no progress."""
    return Sandbox.objects.filter(game_id=game_id).exists()
