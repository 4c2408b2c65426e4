"""Standing orders (RULES.md 15, site level): answers a player gives in advance, per game, that
the site plays as that player's own actions the moment the game waits on them for that
decision.

``order_action`` is the rule: a pure function of the position, the seat and its orders, which
names the one action to play or None. It answers only the decisions an order names, and only
with an action the engine lists as legal, so a standing order never answers anything else.
``play`` is the hook the services call wherever the game advances (next to the bots); the rows
live in ``games.models.StandingOrder`` and are written by ``services.standing_orders_set``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import GameState, legal_actions, standing_maximum, waiting_on

JAIL_CHOICES = ("pay_fine", "use_card", "roll")
INCOME_TAX_CHOICES = ("flat", "percent")
# The largest percentage of the printed price a standing maximum may name: a deed is rarely
# worth more than three times its price, and the engine caps every maximum at the cash anyway.
MAX_AUCTION_PERCENT = 300


@dataclass(frozen=True)
class Orders:
    """One player's standing orders in one game; each field empty/None/False means no order."""

    end_turn: bool = False
    jail: str = ""  # one of JAIL_CHOICES
    income_tax: str = ""  # one of INCOME_TAX_CHOICES
    casino_skip: bool = False
    reject_bot_trades: bool = False
    auction_percent: int | None = None  # 0: pass

    @property
    def any(self) -> bool:
        return bool(self.end_turn or self.jail or self.income_tax or self.casino_skip
                    or self.reject_bot_trades or self.auction_percent is not None)


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
        if state.phase == "roll" and orders.jail and state.players[p].in_jail:
            # "In jail, at the start of my turn": before the roll; try for doubles is the roll.
            return _legal(state, p, orders.jail)
        return None
    k = top["k"]
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
                  reject_bot_trades=row.reject_bot_trades, auction_percent=row.auction_percent)


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

    from games.services import GameError

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


def standing_orders_set(*, game, user, orders: Orders):
    """Set (or change) ``user``'s standing orders in ``game``; orders with nothing in them cancel
    them. Refused (GameError, nothing written) for someone without a seat, a seat a bot plays,
    a finished game and orders that name no decision of this game. The orders apply at once if
    the game already waits on the player for a decision they name. Returns the Submission of
    what they played (``actions`` 0 if nothing)."""
    from django.db import transaction
    from django.utils.translation import gettext_lazy as _

    from games import pause, services
    from games.models import Game, StandingOrder

    with transaction.atomic():
        # The game row first, as a move takes it: orders and moves of one game are serialised.
        game = services._locked_game(game.pk)
        if game.status != Game.Status.ACTIVE:
            raise services.GameError(_("this game is over"))
        seats = list(game.table.seats.select_related("user"))
        seat = services._seat_of(seats, user)
        if seat is None:
            raise services.NotAllowed(_("you are not playing in this game"))
        if seat.bot:
            raise services.NotAllowed(_("a bot plays your seat since your third missed turn"))
        before = game.state
        state = GameState.from_json(before)
        if state.players[seat.position].bankrupt:
            raise services.GameError(_("you are out of this game"))
        validate(state=state, orders=orders)
        if orders.any:
            StandingOrder.objects.update_or_create(
                game=game, seat=seat.position,
                defaults={"end_turn": orders.end_turn, "jail": orders.jail, "income_tax": orders.income_tax,
                          "casino_skip": orders.casino_skip, "reject_bot_trades": orders.reject_bot_trades,
                          "auction_percent": orders.auction_percent})
        else:
            StandingOrder.objects.filter(game=game, seat=seat.position).delete()
        with_orders = set(game.aids.get("orders", ()))
        with_orders = with_orders | {seat.position} if orders.any else with_orders - {seat.position}
        game.aids = {**game.aids, "orders": sorted(with_orders)}
        game.save(update_fields=["aids"])
        # "The moment the game waits on them": it may already.
        services._clock(game, state, services.timezone.now())
        sub = services.Submission(game=game, state=state)
        if not pause.is_paused(game):  # (a paused game plays them when it resumes)
            services._advance(sub, seats)
        if sub.actions:
            services._write(sub, seats, before=before)
        elif not pause.is_paused(game):
            services.queue_site_action(game)  # (played by the bots' task when not inline)
        return sub


def standing_orders_cancel(*, game, user):
    """Cancel every standing order of ``user`` in ``game``."""
    return standing_orders_set(game=game, user=user, orders=Orders())


def orders_for_seat(game, seat: int) -> Orders:
    from games.models import StandingOrder

    row = StandingOrder.objects.filter(game_id=game.pk, seat=seat).first()
    return orders_from_row(row) if row is not None else Orders()
