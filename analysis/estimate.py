"""The one door to the win-chance estimate (games/engine/analysis.py) for the site: the whole-game
analysis calls ``chances`` and nothing else, so a faster policy (issue 30's trade meter work)
drops in here alone."""

from __future__ import annotations

from django.conf import settings

from games.engine import GameState
from games.engine.analysis import Estimate, compare, win_chances

# The whole game's per-round target: ±5 points (95%), as bench/analysis.py measures it (a 60-round
# game within the 2 minutes of one core); at most settings.ANALYSIS_MAX_PLAYOUTS a round.
DEFAULT_TARGET = 0.05
# A turning point's candidate action: playouts from just before and just after it (common random
# numbers), settings.ANALYSIS_SWING_PLAYOUTS a side (300 by default: the difference's 95% interval
# is then about ±5 points where a chance is near a half; a decisive trade moves one by 10-40).


def chances(state: GameState, *, seen: dict[str, int], seed: int) -> Estimate:
    """Each side's chance to win from ``state``, from what every player could know then (``seen``:
    the cards seen drawn, games.engine.analysis.seen_cards). ``seed`` is the analysis's own,
    never the game's. ANALYSIS_TARGET (tests: None, a fixed number) and ANALYSIS_MAX_PLAYOUTS."""
    target = getattr(settings, "ANALYSIS_TARGET", DEFAULT_TARGET)
    playouts = settings.ANALYSIS_MAX_PLAYOUTS
    return win_chances(state, playouts, seed, target=target, seen=seen)


def swing(before: GameState, after: GameState, *, seen: dict[str, int], seed: int) -> list[float]:
    """How much one action moved each side's chance: the chances just after it minus just before
    it, by the same playouts from both (common random numbers), from what every player could
    know before it (``seen``). ANALYSIS_SWING_PLAYOUTS a side (tests: a few)."""
    playouts = settings.ANALYSIS_SWING_PLAYOUTS
    return [d.delta for d in compare(before, after, playouts, seed, seen=seen).differences]
