"""The Monopoly rules engine: pure Python, no Django (a test enforces it).

    from games.engine import RuleSet, new_game, legal_actions, apply

This module is the engine's one door: the site imports every name it uses from here, never from
``games.engine.rules``, ``.state``, ``.events`` or ``.errors``, and never a private name
(tests/engine/test_door.py checks it). The tools (``bots``, ``simulate``, ``scenarios``,
``invariants``) are modules of their own for programs and tests that play whole games.
"""

from .analysis import MIN_PLAYOUTS, AnalysisError, public_position, seen_cards, trade_meter
from .boards import load_board
from .bots import make_bot
from .cards import CARDS, card_text
from .errors import EngineError, IllegalAction, InvalidRules, RandomnessExhausted, Refused
from .events import describe, visible_to
from .refusals import MESSAGES as REFUSAL_MESSAGES
from .refusals import Refusal, refusal_text
from .rules import (
    ACTION_TYPES,
    CASINO_STAKE,
    JAIL_CARD_VALUE,
    apply,
    auction_askee,
    auction_under_way,
    income_tax_percent,
    last_proposal_round,
    legal_actions,
    liquidation_value,
    net_worth,
    new_game,
    offer_refused,
    rent_of,
    rent_tax_rate,
    salary_active,
    sell_all_refund,
    sell_back,
    set_clock,
    standing_maximum,
    stepper,
    street_rent,
    street_rents,
    tax_worth,
    trade_balanced,
    trade_side_value,
    tradeable_deeds,
    transfer_fee,
    unmortgage_cost,
    waiting_on,
)
from .ruleset import OPTION_KEYS, PRESET_NAMES, PRESETS, RuleSet
from .state import HOTEL, NO_OWNER, GameState

__all__ = [
    "ACTION_TYPES",
    "CARDS",
    "CASINO_STAKE",
    "HOTEL",
    "JAIL_CARD_VALUE",
    "MIN_PLAYOUTS",
    "NO_OWNER",
    "OPTION_KEYS",
    "PRESETS",
    "PRESET_NAMES",
    "REFUSAL_MESSAGES",
    "AnalysisError",
    "EngineError",
    "GameState",
    "IllegalAction",
    "InvalidRules",
    "RandomnessExhausted",
    "Refusal",
    "Refused",
    "RuleSet",
    "apply",
    "auction_askee",
    "auction_under_way",
    "card_text",
    "describe",
    "income_tax_percent",
    "last_proposal_round",
    "legal_actions",
    "liquidation_value",
    "load_board",
    "make_bot",
    "net_worth",
    "new_game",
    "offer_refused",
    "public_position",
    "refusal_text",
    "rent_of",
    "rent_tax_rate",
    "salary_active",
    "seen_cards",
    "sell_all_refund",
    "sell_back",
    "set_clock",
    "standing_maximum",
    "stepper",
    "street_rent",
    "street_rents",
    "tax_worth",
    "trade_balanced",
    "trade_meter",
    "trade_side_value",
    "tradeable_deeds",
    "transfer_fee",
    "unmortgage_cost",
    "visible_to",
    "waiting_on",
]
