"""The Monopoly rules engine: pure Python, no Django (a test enforces it).

    from games.engine import RuleSet, new_game, legal_actions, apply
"""

from .errors import EngineError, IllegalAction, InvalidRules, RandomnessExhausted
from .rules import ACTION_TYPES, apply, legal_actions, liquidation_value, net_worth, new_game, set_clock, waiting_on
from .ruleset import OPTION_KEYS, PRESET_NAMES, PRESETS, RuleSet
from .state import GameState

__all__ = [
    "ACTION_TYPES",
    "OPTION_KEYS",
    "PRESETS",
    "PRESET_NAMES",
    "EngineError",
    "GameState",
    "IllegalAction",
    "InvalidRules",
    "RandomnessExhausted",
    "RuleSet",
    "apply",
    "legal_actions",
    "liquidation_value",
    "net_worth",
    "new_game",
    "set_clock",
    "waiting_on",
]
