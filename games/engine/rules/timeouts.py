"""Timeouts (RULES.md 11): who the game waits on, and what happens when that player lets the time
run out (missed turns count, the default choice is made for them).
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..state import BANK, GameState
from .auctions import _do_pass, auction_askee
from .buildings import _place_building, _placements, _sell_error, _sell_levels
from .context import Ctx
from .debt import _bankrupt
from .money import _bank_pays, _charge
from .queries import _eff, _group_has_buildings, transfer_fee
from .squares import _advance, _destroy_targets, _land
from .trades import _remember_rejection
from .turns import _act_roll, _decline, _destroy, _next_turn, _pay_income_tax, _teleport


def waiting_on(st: GameState) -> list[int]:
    """The players the game waits on now (an open auction waits on every bidder who may pass)."""
    if st.over:
        return []
    if not st.stack:
        return [st.current]
    f = st.stack[-1]
    if f["k"] == "auction":
        if f["stage"] == "place":
            return [f["winner"]]
        if f["style"] == "rotating":
            return [auction_askee(f)]
        # (the play loop asks after every bid and pass: a plain loop, cheaper than a comprehension)
        passed = f["passed"]
        leader = f["leader"]
        out = []
        for b in f["bidders"]:
            if b != leader and b not in passed:
                out.append(b)
        return out
    return [f["p"]]


def _act_timeout(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    if p not in waiting_on(st):
        raise IllegalAction("not_waiting_for_player")
    pl = st.players[p]
    timed = st.turn["timed_out"]
    if p not in timed:
        timed.append(p)
        pl.missed += 1
        ctx.ev("missed", p=p, count=pl.missed)
        if pl.missed >= ctx.rules.missed_turns_limit:
            # RULES.md 11: the third miss in a row is bankruptcy to the bank.
            _bankrupt(ctx, p, BANK)
            return
    f = st.stack[-1] if st.stack else None
    ctx.ev("timeout", p=p, decision=st.pending())
    if f is None:
        if st.phase == "roll":
            _act_roll(ctx, p, a)  # (its checks pass: p is the current player, nothing is stacked)
        else:
            _next_turn(ctx)
        return
    k = f["k"]
    if k == "buy":
        st.stack.pop()
        _decline(ctx, p, f["sq"])
    elif k == "auction":
        if f["stage"] == "place":
            sq = _placements(st, p, f["building"])[0]
            _place_building(ctx, p, sq)
            f["stage"] = "done"
        else:
            _do_pass(ctx, f, p)
    elif k == "debt":
        _auto_raise(ctx, p, f["amt"])
        if st.players[p].cash < f["amt"]:
            st.stack.pop()
            _bankrupt(ctx, p, f["to"])
    elif k == "casino":
        st.stack.pop()
        ctx.ev("casino_skip", p=p)
    elif k == "income_tax":
        st.stack.pop()
        _pay_income_tax(ctx, p, "flat")
    elif k == "bus":
        st.stack.pop()
        d1, d2 = f["dice"]
        _advance(ctx, p, d1 + d2)
        _land(ctx, p, None)
    elif k == "teleport":
        st.stack.pop()
        _teleport(ctx, p, f["default"])
    elif k == "destroy":
        st.stack.pop()
        _destroy(ctx, p, _destroy_targets(st, p)[0])
    elif k == "mortgage_transfer":
        st.stack.pop()
        fee = transfer_fee(st, f["sq"])
        ctx.ev("keep_mortgaged", p=p, sq=f["sq"], amount=fee)
        _charge(ctx, p, BANK, fee, "transfer fee")
    elif k == "trade_response":
        st.stack.pop()
        _remember_rejection(st, st.trades.pop(str(f["trade"])))
        ctx.ev("trade_rejected", trade=f["trade"], p=p)


def _auto_raise(ctx: Ctx, p: int, amount: int) -> None:
    """Raise cash by mortgaging deeds without buildings first (cheapest first), then selling
    buildings evenly (the highest level first) and mortgaging what they stood on."""
    st = ctx.state
    board = st.board
    pl = st.players[p]

    def mortgage_free() -> None:
        for sq in sorted((s for s in board.deeds if st.owner[s] == p), key=lambda s: board.price[s]):
            if pl.cash >= amount:
                return
            if not st.mortgaged[sq] and not _group_has_buildings(st, sq):
                st.mortgaged[sq] = True
                st.board_log.append(sq)
                st.mround[sq] = st.round
                _bank_pays(ctx, p, board[sq].mortgage)
                ctx.ev("mortgage", p=p, sq=sq, amount=board[sq].mortgage)

    mortgage_free()
    while pl.cash < amount:
        built = [sq for sq in board.streets if st.owner[sq] == p and st.level[sq]]
        if not built:
            break
        sq = max(built, key=lambda s: (_eff(st, st.level[s]), board[s].build_cost))
        if _sell_error(st, p, sq) is None:
            _sell_levels(ctx, p, sq)
        else:
            for x in board.group_of[sq]:
                if st.level[x]:
                    _sell_levels(ctx, p, x, all_levels=True)
    mortgage_free()
