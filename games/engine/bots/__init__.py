"""Bots: players that choose among the engine's legal actions.

A bot is an object with ``choose(state, seat, rng) -> action`` (a dict ``apply`` accepts). Bots
read the state and the engine's read-only helpers and never change the state; whatever they
choose is one of ``legal_actions(state, seat)`` with its free parameters filled in. ``rng`` is
the bot's own generator (a ``random.Random``), never the game's, so a bot's choices cannot
shift the dice.

* ``RandomBot`` picks uniformly among the legal actions, with bounds that make games end: it never
  surrenders unless nothing else is left, takes a few free actions per turn at most, gives up
  value (mortgages, sales) only to pay a debt or to break a building shortage, proposes rarely.
* ``StrategyBot`` plays by value: it buys and bids by what a deed is worth to it (completing or
  blocking a group counts), builds evenly towards three houses on its best groups, keeps a cash
  reserve that grows with the rents it may face, raises money cheaply, trades for groups.

The package: ``board`` (what the bots know about a board), ``tables`` (the shared views of a
game), ``random_bot`` (the random bot and the helpers both use), ``strategy`` (the strategy bot).

Speed matters (simulations play thousands of games): the strategy bot answers the common
decisions (roll, end the turn, buy, bid) from the state, confirms the free actions it takes in
its own turn with the very checks ``apply`` runs for them, and asks ``legal_actions`` for the
options only at the rarer decisions (debts, transferred mortgages, placing a building).
"""

from __future__ import annotations

from .board import BoardInfo, board_info
from .random_bot import RandomBot
from .strategy import StrategyBot
from .tables import GameViews, Ownership, RentTable, _owner_rents, ownership

BOTS = {"random": RandomBot, "strategy": StrategyBot}


def make_bot(name: str):
    """A new bot of the named kind ('random' or 'strategy')."""
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; expected one of {', '.join(BOTS)}") from None


__all__ = [
    "BOTS",
    "BoardInfo",
    "GameViews",
    "Ownership",
    "RandomBot",
    "RentTable",
    "StrategyBot",
    "_owner_rents",
    "board_info",
    "make_bot",
    "ownership",
]
