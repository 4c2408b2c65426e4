"""Standing orders (RULES.md 15, site level): answers a player gives in advance, per game, that
the site plays as that player's own actions the moment the game waits on them for that
decision.

``order_action`` is the rule: a pure function of the position, the seat and its orders, which
names the one action to play or None. It answers only the decisions an order names, and only
with an action the engine lists as legal, so a standing order never answers anything else.
``play`` is the hook the services call wherever the game advances (next to the bots); the rows
live in ``games.models.StandingOrder`` and are written by ``aids.standing_orders_set``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import GameState, legal_actions, standing_maximum, waiting_on
from games.errors import GameError

JAIL_CHOICES = ("pay_fine", "use_card", "roll")
INCOME_TAX_CHOICES = ("flat", "percent")
# The largest percentage of the printed price a standing maximum may name: a deed is rarely
# worth more than three times its price, and the engine caps every maximum at the cash anyway.
MAX_AUCTION_PERCENT = 300
# The largest cash a "buy when it leaves me at least N" order may name: more than any game holds.
MAX_BUY_KEEP = 100_000


@dataclass(frozen=True)
class Orders:
    """One player's standing orders in one game; each field empty/None/False means no order."""

    end_turn: bool = False
    jail: str = ""  # one of JAIL_CHOICES
    income_tax: str = ""  # one of INCOME_TAX_CHOICES
    casino_skip: bool = False
    reject_bot_trades: bool = False
    auction_percent: int | None = None  # 0: pass
    roll: bool = False  # roll when my turn begins
    buy_keep: int | None = None  # buy a deed I land on when it leaves me at least this in cash

    @property
    def any(self) -> bool:
        return bool(self.end_turn or self.jail or self.income_tax or self.casino_skip or self.roll
                    or self.reject_bot_trades or self.auction_percent is not None or self.buy_keep is not None)


def _listed(state: GameState, p: int, kind: str, **params) -> dict | None:
    """The engine's listing of the action ``kind`` (with ``params``) for ``p`` now, or None."""
    for a in legal_actions(state, p):
        if a["type"] == kind and all(a.get(k) == v for k, v in params.items()):
            return a
    return None


def _legal(state: GameState, p: int, kind: str, **params) -> dict | None:
    """The action ``kind`` (with ``params``) if the engine lists it for ``p`` now."""
    if _listed(state, p, kind, **params) is None:
        return None
    return {"type": kind, "player": p, **params}


def printed_price(state: GameState, frame: dict) -> int:
    """What "the printed price" of an auction's lot is: the deed's price, or for a building
    auction (RULES.md 8, shortage) the building's cost."""
    sq = frame["sq"]
    if frame["what"] == "building":
        return state.board[sq].build_cost
    return state.board.price[sq]


def order_action(state: GameState, p: int, orders: Orders, *, bot_seats: frozenset[int] = frozenset()) -> dict | None:
    """The action ``p``'s standing orders play now, or None: when the game waits on ``p`` for a
    decision an order names, and the order's answer is legal. ``bot_seats`` are the seats bots
    play (the order "reject trade offers from bots")."""
    if state.over or not orders.any or p not in waiting_on(state) or state.players[p].bankrupt:
        return None
    top = state.stack[-1] if state.stack else None
    if top is None:
        if p != state.current:
            return None
        if state.phase == "end_turn" and orders.end_turn:
            # "End my turn after my roll is resolved": nothing is stacked any more.
            return _legal(state, p, "end_turn")
        if state.phase == "roll" and state.players[p].in_jail:
            # "In jail, at the start of my turn": before the roll; try for doubles is the roll.
            # (Only the jail order answers there: "roll when my turn begins" names no jail
            # decision, and a roll in jail would give up paying or using a card.)
            return _legal(state, p, orders.jail) if orders.jail else None
        if state.phase == "roll" and orders.roll:
            # "Roll when my turn begins" (RULES.md 15): the turn's roll, and the one that doubles
            # give within it, which the player would otherwise come back for; what could be done
            # before it (building, unmortgaging, trading) stays possible after the last roll.
            return _legal(state, p, "roll")
        return None
    k = top["k"]
    if k == "buy" and orders.buy_keep is not None and top.get("p") == p:
        # "Buy a deed I land on when it leaves me at least N in cash"; otherwise it waits for me.
        if state.players[p].cash - state.board.price[top["sq"]] >= orders.buy_keep:
            return _legal(state, p, "buy")
        return None
    if k == "income_tax" and orders.income_tax and top.get("p") == p:
        return _legal(state, p, "income_tax", choice=orders.income_tax)
    if k == "casino" and orders.casino_skip and top.get("p") == p:
        return _legal(state, p, "casino_skip")
    if k == "trade_response" and orders.reject_bot_trades and top.get("p") == p:
        trade = state.trades.get(str(top["trade"]))
        if trade is not None and trade["from"] in bot_seats:
            return _legal(state, p, "reject", trade=top["trade"])
        return None
    if k == "auction" and orders.auction_percent is not None and top["stage"] == "bid":
        if p in top["passed"] or standing_maximum(state, p) is not None:
            # Answered already in this auction: the engine plays the maximum from here.
            return None
        amount = min(printed_price(state, top) * orders.auction_percent // 100, state.players[p].cash)
        # (The engine's listing of max_bid carries the lowest maximum it takes now: the minimum bid.)
        listed = _listed(state, p, "max_bid")
        if listed is not None and amount >= 1 and amount >= listed["min"]:
            return {"type": "max_bid", "player": p, "amount": amount}
        return _legal(state, p, "pass")
    return None


def orders_of(game, seats) -> dict[int, Orders]:
    """The standing orders of a game's players, by seat (one query). A seat a bot plays has none
    that count: the bot decides everything there."""
    from games.models import StandingOrder

    human = {s.position for s in seats if s.user_id is not None and not s.bot}
    human &= set((game.aids or {}).get("orders", ()))  # (no query for a game without orders)
    if not human:
        return {}
    out = {}
    for row in StandingOrder.objects.filter(game_id=game.pk, seat__in=human):
        orders = orders_from_row(row)
        if orders.any:
            out[row.seat] = orders
    return out


def orders_from_row(row) -> Orders:
    return Orders(end_turn=row.end_turn, jail=row.jail, income_tax=row.income_tax, casino_skip=row.casino_skip,
                  reject_bot_trades=row.reject_bot_trades, auction_percent=row.auction_percent, roll=row.roll,
                  buy_keep=row.buy_keep)


def next_action(state: GameState, orders: dict[int, Orders], bot_seats: frozenset[int], seats):
    """The first standing order that answers what the game now waits on, as (seat, action,
    "standing", user), or None: the services' ``_site_action`` asks this before the bots. The
    action is the player's own (their user on the log row), logged with source "standing"."""
    for p in waiting_on(state):
        mine = orders.get(p)
        if mine is None:
            continue
        action = order_action(state, p, mine, bot_seats=bot_seats)
        if action is not None:
            user = next((s.user for s in seats if s.position == p), None)
            return p, action, "standing", user
    return None


# ---------------------------------------------------------------------------------------------
# The service: set, change and cancel (HackSoft style, keyword-only)
# ---------------------------------------------------------------------------------------------

def validate(*, state: GameState, orders: Orders) -> None:
    """Refuse orders that name no decision of this game (GameError with the reason)."""
    from django.utils.translation import gettext_lazy as _


    if orders.jail not in ("", *JAIL_CHOICES):
        raise GameError(_("choose what to do in jail"))
    if orders.income_tax not in ("", *INCOME_TAX_CHOICES):
        raise GameError(_("choose how to pay income tax"))
    if orders.income_tax == "percent" and not state.rules.income_tax_choice:
        raise GameError(_("this table has no choice of income tax"))
    if orders.casino_skip and not state.rules.casino:
        raise GameError(_("this table has no casino"))
    pct = orders.auction_percent
    if pct is not None and (type(pct) is not int or not 0 <= pct <= MAX_AUCTION_PERCENT):
        raise GameError(_("an auction maximum is a percentage from 0 to %(n)s"), n=MAX_AUCTION_PERCENT)
    keep = orders.buy_keep
    if keep is not None and (type(keep) is not int or not 0 <= keep <= MAX_BUY_KEEP):
        raise GameError(_("the cash to keep after buying is a whole amount from 0 to %(n)s"), n=MAX_BUY_KEEP)
    if type(orders.roll) is not bool:
        raise GameError(_("choose whether to roll when your turn begins"))


def orders_for_seat(game, seat: int) -> Orders:
    from games.models import StandingOrder

    row = StandingOrder.objects.filter(game_id=game.pk, seat=seat).first()
    return orders_from_row(row) if row is not None else Orders()
