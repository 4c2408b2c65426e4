"""Trades (RULES.md 9, 11): proposing, accepting, rejecting and cancelling offers, and the game's
memory of past offers (when each player last proposed to each other, the offers rejected).
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalAction
from ..refusals import Refusal
from ..state import GameState
from .context import JAIL_CARD_VALUE, Ctx

_SIDE_KEYS = frozenset({"cash", "squares", "cards"})


def _not_int(v: Any) -> bool:
    """Not a whole number (a bool is not one); callers test ``type(v) is int`` first, cheaper."""
    return isinstance(v, bool) or not isinstance(v, int)


def _parse_side(st: GameState, side: Any, who: str) -> dict:
    # (The bots propose often: ``type(x) is int`` settles the common case of each number check,
    # and plain loops replace set differences and any() over generators.)
    if side is None:
        side = {}
    if not isinstance(side, dict):
        raise IllegalAction("bad_trade_side", side=who)
    if not _SIDE_KEYS.issuperset(side):
        unknown = set(side) - _SIDE_KEYS
        raise IllegalAction("trade_side_unknown_keys", side=who, keys=", ".join(sorted(unknown)))
    cash = side.get("cash", 0) or 0
    squares = side.get("squares", []) or []
    cards = side.get("cards", 0) or 0
    if (type(cash) is not int and _not_int(cash)) or cash < 0:
        raise IllegalAction("bad_trade_cash", side=who)
    if not isinstance(squares, list):
        raise IllegalAction("bad_trade_squares", side=who)
    for x in squares:
        if (type(x) is not int and _not_int(x)) or not 0 <= x < 40:
            raise IllegalAction("bad_trade_squares", side=who)
    if len(set(squares)) != len(squares):
        raise IllegalAction("trade_square_twice", side=who)
    if isinstance(cards, list):
        cards = len(cards)
    if (type(cards) is not int and _not_int(cards)) or cards < 0:
        raise IllegalAction("bad_trade_cards", side=who)
    return {"cash": cash, "squares": sorted(squares), "cards": cards}


def _deed_trade_error(st: GameState, giver: int, sq: int, mates: bool) -> Refusal | None:
    """Why ``giver`` may not put square sq into a trade (None: it may). RULES.md 9: a building
    anywhere in the group locks its deeds out of trades; mortgaged deeds change hands only where
    the rule set lets them (``trade_mortgaged``; ``mates``: the trade is between teammates)."""
    board = st.board
    s = board.squares[sq]
    if not board.is_deed[sq]:
        return Refusal("not_a_deed", square=s.name)
    if st.owner[sq] != giver:
        return Refusal("player_not_owner", player=st.players[giver].name, square=s.name)
    level = st.level
    for x in board.group_of[sq]:  # (a loop: cheaper than any() over the group's levels)
        if level[x]:
            return Refusal("group_has_buildings", square=s.name)
    if st.mortgaged[sq]:
        tm = st.rules.trade_mortgaged
        if tm == "no" or (tm == "teammates" and not mates):
            return Refusal("mortgaged_not_tradeable", square=s.name)
    return None


def tradeable_deeds(st: GameState, giver: int, receiver: int | None = None, own: list[int] | None = None) -> list[int]:
    """The deeds ``giver`` may put into a trade with ``receiver`` (None: with any opponent, not a
    teammate), in board order, by the trade check itself. ``own``: the deeds the giver holds,
    in board order, when the caller has them."""
    mates = receiver is not None and st.teammates(giver, receiver)
    owner = st.owner
    out = []
    for sq in st.board.deeds if own is None else own:
        if owner[sq] == giver and _deed_trade_error(st, giver, sq, mates) is None:
            out.append(sq)
    return out


def _trade_side_error(st: GameState, giver: int, side: dict, mates: bool) -> Refusal | None:
    pl = st.players[giver]
    for sq in side["squares"]:
        err = _deed_trade_error(st, giver, sq, mates)
        if err is not None:
            return err
    if side["cash"] > pl.cash:
        return Refusal("trade_cash_short", player=pl.name, cash=pl.cash)
    if side["cards"] > len(pl.jail_cards):
        return Refusal("trade_cards_short", player=pl.name, n=len(pl.jail_cards))
    return None


def _side_value(st: GameState, side: dict) -> int:
    return side["cash"] + sum(st.board.price[sq] for sq in side["squares"]) + JAIL_CARD_VALUE * side["cards"]


def trade_side_value(st: GameState, side: dict) -> int:
    """RULES.md 9, world balance: a side's value, cash + printed prices (a mortgaged deed's too)
    + JAIL_CARD_VALUE per jail card. ``side`` as in a proposal (cash, squares, cards)."""
    return _side_value(st, {"cash": side.get("cash") or 0, "squares": side.get("squares") or [],
                            "cards": side.get("cards") or 0})


def trade_balanced(st: GameState, a: int, b: int, give: dict, take: dict) -> bool:
    """Whether the balance rule lets ``a`` give ``give`` to ``b`` for ``take`` (RULES.md 9): always
    where the rule set has no balance check or between teammates (15), else when the larger
    side is at most twice the smaller. The trade check itself asks this."""
    if not st.rules.trade_balance or st.teammates(a, b):
        return True
    va, vb = trade_side_value(st, give), trade_side_value(st, take)
    return max(va, vb) <= 2 * min(va, vb)


def _trade_error(st: GameState, t: dict) -> Refusal | None:
    a, b = t["from"], t["to"]
    mates = st.teammates(a, b)
    err = _trade_side_error(st, a, t["give"], mates) or _trade_side_error(st, b, t["take"], mates)
    if err:
        return err
    if not trade_balanced(st, a, b, t["give"], t["take"]):
        # RULES.md 9, world balance: the larger side may be at most twice the smaller.
        va, vb = _side_value(st, t["give"]), _side_value(st, t["take"])
        return Refusal("unbalanced_trade", give=va, take=vb)
    return None


def _trade_window_error(st: GameState, p: int) -> Refusal | None:
    top = st.stack[-1] if st.stack else None
    if top is not None and top["k"] == "trade_response":
        return Refusal("offer_waiting")
    if top is not None and top["k"] == "mortgage_transfer":
        # RULES.md 9: the receiver decides "at once"; a trade in between could move the deed
        # away and leave the decision about a deed its holder no longer owns.
        return Refusal("transfer_first")
    rules = st.rules
    if rules.trade_windows == "own_turn":
        # RULES.md 9: before rolling, while deciding a purchase, while a rent or tax payment is
        # pending, or during one's own debt resolution.
        if p != st.current:
            return Refusal("trade_not_your_turn")
        if top is None:
            if st.phase != "roll":
                return Refusal("trade_before_roll")
        elif not (top["k"] in ("buy", "income_tax", "debt") and top["p"] == p):
            return Refusal("trade_not_now")
    if rules.trades_per_turn is not None and st.turn["proposals"] >= rules.trades_per_turn:
        return Refusal("trade_limit", n=rules.trades_per_turn)
    return None


def _act_propose(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    to = a.get("to")
    if (type(to) is not int and _not_int(to)) or not 0 <= to < len(st.players):
        raise IllegalAction("bad_trade_partner")
    if to == p or st.players[to].bankrupt:
        raise IllegalAction("trade_partner_out")
    err = _trade_window_error(st, p)
    if err:
        raise IllegalAction(err)
    give = _parse_side(st, a.get("give"), "give")
    take = _parse_side(st, a.get("take"), "take")
    if not (give["cash"] or give["squares"] or give["cards"] or take["cash"] or take["squares"] or take["cards"]):
        raise IllegalAction("empty_trade")
    t = {"id": st.next_trade, "from": p, "to": to, "give": give, "take": take}
    err = _trade_error(st, t)
    if err:
        raise IllegalAction(err)
    st.next_trade += 1
    st.trades[str(t["id"])] = t
    st.turn["proposals"] += 1
    st.proposed[p][to] = st.round
    st.stack.append({"k": "trade_response", "p": to, "trade": t["id"]})
    if ctx.events is not None:
        ctx.ev("trade_proposed", p=p, to=to, trade=t["id"], give=give, take=take)


def _answer_error(st: GameState, p: int, tid: Any, answer: str) -> Refusal | None:
    """Answering the offer waiting for an answer (``tid``: its id, or None for whichever it is):
    accept or reject by its receiver, cancel by its proposer. RULES.md 9: a trade is checked
    again when accepted."""
    top = st.stack[-1] if st.stack else None
    if top is None or top["k"] != "trade_response":
        return Refusal("no_offer")
    if tid is not None and tid != top["trade"]:
        return Refusal("not_the_offer", trade=str(tid))
    t = st.trades[str(top["trade"])]
    if answer == "accept":
        if t["to"] != p:
            return Refusal("accept_not_yours")
        err = _trade_error(st, t)
        if err:
            return Refusal("trade_no_longer_possible", reason=err)
    elif answer == "reject":
        if t["to"] != p:
            return Refusal("reject_not_yours")
    elif t["from"] != p:
        return Refusal("cancel_not_yours")
    return None


def _trade_frame(st: GameState, p: int, a: dict, answer: str) -> dict:
    err = _answer_error(st, p, a.get("trade"), answer)
    if err:
        raise IllegalAction(err)
    return st.trades[str(st.stack[-1]["trade"])]


def _act_accept(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    t = _trade_frame(st, p, a, "accept")
    st.stack.pop()
    del st.trades[str(t["id"])]
    a_, b_ = t["from"], t["to"]
    transfers = []
    for giver, receiver, side in ((a_, b_, t["give"]), (b_, a_, t["take"])):
        gp, rp = st.players[giver], st.players[receiver]
        gp.cash -= side["cash"]
        rp.cash += side["cash"]
        for _ in range(side["cards"]):
            rp.jail_cards.append(gp.jail_cards.pop(0))
        for sq in side["squares"]:
            st.owner[sq] = receiver
            st.board_log.append(sq)
            if st.mortgaged[sq] and st.rules.trade_mortgaged == "yes":
                transfers.append({"k": "mortgage_transfer", "p": receiver, "sq": sq})
    if ctx.events is not None:
        # The contents too, so that the log says what changed hands (the offer may be long gone).
        ctx.ev("trade_accepted", trade=t["id"], p=p, proposer=a_, give=t["give"], take=t["take"])
    for f in reversed(transfers):
        st.stack.append(f)


def _act_reject(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    t = _trade_frame(st, p, a, "reject")
    st.stack.pop()
    _remember_rejection(st, st.trades.pop(str(t["id"])))
    ctx.ev("trade_rejected", trade=t["id"], p=p)


def _no_better_for_receiver(t: dict, than: dict) -> bool:
    """Trade t offers its receiver nothing more than ``than`` (between the same two players):
    no more cash, cards or deeds given, no less of each asked for."""
    g, tg = t["give"], than["give"]
    k, tk = t["take"], than["take"]
    return (
        g["cash"] <= tg["cash"] and g["cards"] <= tg["cards"] and set(g["squares"]) <= set(tg["squares"])
        and k["cash"] >= tk["cash"] and k["cards"] >= tk["cards"] and set(k["squares"]) >= set(tk["squares"])
    )


def _remember_rejection(st: GameState, t: dict) -> None:
    # An offer the new one covers (no better for the receiver) says nothing more: dropped, so the
    # record stays as short as the offers that matter.
    a, b = t["from"], t["to"]
    st.rejected = [
        r for r in st.rejected if not (r["from"] == a and r["to"] == b and _no_better_for_receiver(r, t))
    ]
    st.rejected.append({"from": a, "to": b, "give": t["give"], "take": t["take"], "round": st.round})


def offer_refused(st: GameState, p: int, to: int, give: dict, take: dict) -> bool:
    """``to`` already rejected an offer from p at least as good for ``to`` as this one (give and
    take as in a proposal, with all three keys)."""
    t = {"give": give, "take": take}
    return any(r["from"] == p and r["to"] == to and _no_better_for_receiver(t, r) for r in st.rejected)


def last_proposal_round(st: GameState, p: int, to: int) -> int:
    """The round of p's last trade proposal to ``to`` (0: none yet)."""
    return st.proposed[p][to]


def _act_cancel(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    t = _trade_frame(st, p, a, "cancel")
    st.stack.pop()
    del st.trades[str(t["id"])]
    ctx.ev("trade_cancelled", trade=t["id"], p=p)
