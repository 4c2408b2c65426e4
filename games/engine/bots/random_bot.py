"""The random bot, and the helpers both bots use to list what raises money and to confirm a
free action with the engine's own checks.
"""

from __future__ import annotations

from typing import Any

from ..rules import (
    _build_error,
    _build_timing_error,
    _money_timing_error,
    _sell_error,
    _trade_error,
    legal_actions,
    tradeable_deeds,
    unmortgage_cost,
)
from ..state import GameState
from .board import _turn_key
from .tables import Ownership

FREE_TYPES = frozenset({"build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own"})


# Free actions that only give up value: taken only to pay a debt.
RAISE_TYPES = frozenset({"sell", "sell_all", "mortgage"})


class RandomBot:
    """Uniform over the legal actions, bounded so that games end:

    * it never surrenders while anything else is possible;
    * at most ``free_per_turn`` free actions (build, unmortgage...) per turn, and at each
      decision a free action only half the time, so even a fresh bot per decision (as the site
      makes them) soon moves on;
    * it mortgages deeds only to pay a debt, and sells buildings only to pay a debt or when
      the bank has run out of houses or hotels: undoing what it built, or mortgaging and
      lifting in turn, lets random play wander for ever without anyone going bankrupt;
    * rare, small proposals: only when nobody has proposed yet this turn.
    """

    name = "random"
    free_per_turn = 3
    propose_chance = 0.03

    def __init__(self, max_bids: bool = False) -> None:
        self._turn: Any = None
        self._free = 0
        # Maximum bids (RULES.md 15) only when asked: the bots' games stay as they were.
        self.max_bids = max_bids

    def choose(self, state: GameState, seat: int, rng) -> dict:
        st = state
        key = _turn_key(st)
        if key != self._turn:
            self._turn, self._free = key, 0
        acts = legal_actions(st, seat)
        top = st.stack[-1] if st.stack else None
        in_debt = top is not None and top["k"] == "debt" and top["p"] == seat
        main, free = [], []
        can_propose = False
        # When the bank has run out of houses or hotels nobody can build: selling is then the
        # only way the board can change, and without it a game can stall for ever.
        shortage = st.bank_houses == 0 or st.bank_hotels == 0
        for a in acts:
            t = a["type"]
            if t == "propose":
                can_propose = True
            elif t == "surrender" or (t == "max_bid" and not self.max_bids):
                continue
            elif t not in FREE_TYPES:
                main.append(a)
            elif in_debt:
                if t in RAISE_TYPES:
                    free.append(a)
            elif self._free < self.free_per_turn and (
                t not in RAISE_TYPES or (t != "mortgage" and shortage)
            ):
                free.append(a)
        if (
            can_propose
            and not in_debt
            and st.turn["proposals"] == 0
            and rng.random() < self.propose_chance
        ):
            offer = self._offer(st, seat, rng)
            if offer is not None:
                return offer
        if free and (in_debt or not main or rng.random() < 0.5):
            options = free if in_debt or not main else main + free
        else:
            options = main
        if not options:
            # Only surrender (or a proposal) is left: a debt nothing can pay.
            return {"type": "surrender", "player": seat}
        a = dict(options[rng.randrange(len(options))])
        t = a["type"]
        if t in FREE_TYPES and not in_debt:
            self._free += 1
        if t == "bid":
            lo, hi = a.pop("min"), a.pop("max")
            # Biased low: most random bids stay near the minimum.
            a["amount"] = lo + int((hi - lo) * rng.random() ** 4)
        elif t == "max_bid":
            lo, hi, held = a.pop("min"), a.pop("max"), a.pop("held")
            # Withdraw a standing maximum now and then; else leave one within the range.
            a["amount"] = 0 if held and (lo > hi or rng.random() < 0.2) else lo + int((hi - lo) * rng.random() ** 2)
        elif t == "casino":
            a["numbers"] = rng.sample(range(1, 7), rng.randint(1, 3))
        return a

    def _offer(self, st: GameState, seat: int, rng) -> dict | None:
        """A small random trade: maybe a deed each way and a little cash."""
        others = [q for q in st.active() if q != seat]
        if not others:
            return None
        to = rng.choice(others)
        mine = tradeable_deeds(st, seat)
        theirs = tradeable_deeds(st, to)
        give = {"cash": 0, "squares": [], "cards": 0}
        take = {"cash": 0, "squares": [], "cards": 0}
        if mine and rng.random() < 0.5:
            give["squares"] = [rng.choice(mine)]
        if theirs and rng.random() < 0.6:
            take["squares"] = [rng.choice(theirs)]
        cash = st.players[seat].cash
        if cash > 0 and rng.random() < 0.5:
            give["cash"] = rng.randint(0, max(1, cash // 10))
        if not (give["squares"] or take["squares"] or give["cash"]):
            return None
        t = {"from": seat, "to": to, "give": give, "take": take}
        if _trade_error(st, t) is not None:
            return None
        return {"type": "propose", "player": seat, "to": to, "give": give, "take": take}


def _raise_options(st: GameState, p: int, view: Ownership) -> tuple[list[int], list[int]]:
    """What p may do to raise money around its own debt, as ``legal_actions`` would list it:
    the deeds with buildings (each a sale if ``_sell_error`` allows, and the first of each group
    a sale of the whole group) and the mortgages, found with the engine's own checks square by
    square (the sales are checked by the debt decision, only those it would choose): much
    cheaper than the full list, and the debt decision needs nothing else."""
    built: list[int] = []
    mortgages: list[int] = []
    if _money_timing_error(st, p) is not None:
        return built, mortgages
    group_of = st.board.group_of
    level, mortgaged = st.level, st.mortgaged
    for sq in view.own_of(p):
        if level[sq]:
            built.append(sq)
        elif not mortgaged[sq]:
            for x in group_of[sq]:  # (a loop: cheaper than any() over a generator)
                if level[x]:
                    break
            else:
                mortgages.append(sq)
    return built, mortgages


def _confirm(st: GameState, p: int, kind: str, sq: int) -> dict | None:
    """The action ``kind`` on square sq if the engine accepts it now, asked of the very checks
    ``apply`` runs for it: far cheaper than listing every legal action to find one. Only for
    the free actions the strategy bot takes in its own turn (nothing stacked)."""
    if kind == "build":
        err = _build_timing_error(st, p) or _build_error(st, p, sq)
    elif kind == "sell":
        err = _money_timing_error(st, p) or _sell_error(st, p, sq)
    elif kind == "unmortgage":
        err = _money_timing_error(st, p)
        if err is None and not (
            st.owner[sq] == p and st.mortgaged[sq] and st.players[p].cash >= unmortgage_cost(st, sq)
        ):
            err = "cannot lift that mortgage"
    else:
        raise ValueError(kind)
    return None if err else {"type": kind, "player": p, "square": sq}
