"""The rules of RULES.md applied to a GameState, one room per part of the rule book.

Public API (python-chess style): ``new_game``, ``legal_actions(state, player)`` and
``apply(state, action, rng=None) -> (state, events)``.

``apply`` validates the whole action before it changes anything, so an illegal action raises
``IllegalAction`` and leaves the state untouched; a legal one mutates the state in place and
returns it (copy it first to keep the old position). All randomness comes from ``rng``; without
one, the game's own seeded generator (whose state lives in ``state.rng``) is used, so a game
replays exactly from its rule set, seed and actions.

Where each rule lives, each module importing only those listed above it (no import circle:
tests/test_import_cycles.py). Where a lower rule leads into a higher one, it leaves a task on
the stack that the run loop (``core``) carries out at once: a charge nobody can pay, or a
surrender, leaves ``bankrupt``; a building shortage leaves ``building_auction``.

* ``context``, ``queries``: the working context, shared constants, read-only questions
* ``money``: payments and charges (a charge not covered opens a debt)
* ``buildings``: building and selling, the supply, when money may be raised
* ``auctions``: every kind of auction, bids and passes
* ``squares``: movement, landing on each kind of square, luck cards
* ``turns``: a game's start, the turn's own actions, next turn and round, the end
* ``debt``: bankruptcy
* ``mortgages``, ``trades``, ``timeouts``, ``checks``: mortgaging and transferred mortgages;
  offers and answers; who the game waits on and a timeout's default choices; legal_actions
* ``core``: the run loop, its tasks, and apply (the dispatch)
"""

# The names below are what the engine's door (games/engine/__init__.py, whose ``__all__`` is the
# engine's one export list) and its tools (bots, simulate, analysis) take from the rules: this
# package lists none of its own.
# ruff: noqa: F401
from __future__ import annotations

from .auctions import auction_askee, auction_under_way, standing_maximum
from .buildings import _build_error, _build_timing_error, _money_timing_error, _sell_error
from .checks import legal_actions
from .context import _WAITING, CASINO_STAKE, DECISIONS, JAIL_CARD_VALUE, Ctx
from .core import ACTION_TYPES, _step, apply, stepper
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
