"""The rules of RULES.md applied to a GameState, one room per part of the rule book.

Public API (python-chess style): ``new_game``, ``legal_actions(state, player)`` and
``apply(state, action, rng=None) -> (state, events)``.

``apply`` validates the whole action before it changes anything, so an illegal action raises
``IllegalAction`` and leaves the state untouched; a legal one mutates the state in place and
returns it (copy it first to keep the old position). All randomness comes from ``rng``; without
one, the game's own seeded generator (whose state lives in ``state.rng``) is used, so a game
replays exactly from its rule set, seed and actions.

Where each rule lives:

* ``core``: the run loop, its tasks, and apply (the dispatch)
* ``context``: the working context of an action, shared constants, parameter readers
* ``queries``: read-only questions: rents, costs, worth, the dynamic economy
* ``money``: payments and charges (a charge not covered opens a debt)
* ``squares``: movement, landing on each kind of square, luck cards
* ``turns``: a game's start, the turn's own actions, next turn and round, the end
* ``auctions``: every kind of auction, bids and passes
* ``buildings``: building and selling, the supply, when money may be raised
* ``mortgages``: mortgaging, lifting, transferred mortgages, auctioning one's own deed
* ``trades``: offers, answers, the memory of past offers
* ``debt``: bankruptcy
* ``timeouts``: who the game waits on, and a timeout's default choices
* ``checks``: legal_actions
"""

from __future__ import annotations

from .auctions import auction_askee, auction_under_way, standing_maximum
from .buildings import _build_error, _build_timing_error, _money_timing_error, _sell_error
from .checks import legal_actions
from .context import _WAITING, CASINO_STAKE, DECISIONS, JAIL_CARD_VALUE, Ctx
from .core import ACTION_TYPES, _step, apply, release, stepper
from .queries import (
    building_counts,
    income_tax_percent,
    liquidation_value,
    net_worth,
    rent_of,
    rent_tax_rate,
    salary_active,
    sell_all_refund,
    sell_back,
    street_rent,
    street_rents,
    tax_worth,
    transfer_fee,
    unmortgage_cost,
)
from .timeouts import waiting_on
from .trades import (
    _trade_error,
    last_proposal_round,
    offer_refused,
    trade_balanced,
    trade_side_value,
    tradeable_deeds,
)
from .turns import new_game, set_clock

__all__ = [
    "ACTION_TYPES",
    "CASINO_STAKE",
    "DECISIONS",
    "JAIL_CARD_VALUE",
    "_WAITING",
    "Ctx",
    "_build_error",
    "_build_timing_error",
    "_money_timing_error",
    "_sell_error",
    "_step",
    "_trade_error",
    "apply",
    "auction_askee",
    "auction_under_way",
    "building_counts",
    "income_tax_percent",
    "last_proposal_round",
    "legal_actions",
    "liquidation_value",
    "net_worth",
    "new_game",
    "offer_refused",
    "release",
    "rent_of",
    "rent_tax_rate",
    "salary_active",
    "sell_all_refund",
    "sell_back",
    "set_clock",
    "standing_maximum",
    "stepper",
    "street_rent",
    "street_rents",
    "tax_worth",
    "trade_balanced",
    "trade_side_value",
    "tradeable_deeds",
    "transfer_fee",
    "unmortgage_cost",
    "waiting_on",
]
