"""Mortgages (RULES.md 9): taking and lifting them, the decision on a transferred mortgage, and
auctioning one's own mortgaged deed.
"""

from __future__ import annotations

from ..errors import IllegalAction
from ..refusals import Refusal
from ..state import BANK, GameState
from .auctions import _start_auction
from .buildings import DEBT_ONLY, _in_debt, _money_timing_error
from .context import Ctx, _square_param
from .money import _bank_pays, _charge, _pay_bank
from .queries import _group_has_buildings, transfer_fee, unmortgage_cost


def _mortgage_error(st: GameState, p: int, sq: int) -> Refusal | None:
    s = st.board.squares[sq]
    if not st.board.is_deed[sq] or st.owner[sq] != p:
        return Refusal("not_owner", square=s.name)
    if st.mortgaged[sq]:
        return Refusal("already_mortgaged", square=s.name)
    if _group_has_buildings(st, sq):
        return Refusal("sell_buildings_first")
    return None


def _act_mortgage(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _money_timing_error(st, p) or _mortgage_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    st.mortgaged[sq] = True
    st.board_log.append(sq)
    st.mround[sq] = st.round
    amount = st.board.squares[sq].mortgage
    _bank_pays(ctx, p, amount)
    if ctx.events is not None:
        ctx.ev("mortgage", p=p, sq=sq, amount=amount)


def _transfer_frame(st: GameState, p: int, sq: int) -> int | None:
    """Index of a pending classic-transfer decision of p on sq among the frames on top."""
    for i in range(len(st.stack) - 1, -1, -1):
        f = st.stack[i]
        if f["k"] != "mortgage_transfer" or f["p"] != p:
            return None
        if f["sq"] == sq:
            return i
    return None


def _unmortgage_error(st: GameState, p: int, sq: int) -> Refusal | None:
    """Lifting a mortgage: p's own mortgaged deed, paid for in cash, when money may move
    (RULES.md 9) and not in debt (10); or the decision on a transferred mortgage (9)."""
    s = st.board.squares[sq]
    idx = _transfer_frame(st, p, sq)
    err = None if idx is not None else _money_timing_error(st, p)
    if err is None and idx is None and _in_debt(st, p):
        err = DEBT_ONLY  # RULES.md 10
    if err is None and (not st.board.is_deed[sq] or st.owner[sq] != p):
        err = Refusal("not_owner", square=s.name)
    if err is None and not st.mortgaged[sq]:
        err = Refusal("not_mortgaged", square=s.name)
    cost = unmortgage_cost(st, sq)
    if err is None and st.players[p].cash < cost:
        err = Refusal("unmortgage_unaffordable", cost=cost)
    return err


def _act_unmortgage(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _unmortgage_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    idx = _transfer_frame(st, p, sq)
    cost = unmortgage_cost(st, sq)
    if idx is not None:
        st.stack.pop(idx)
    _pay_bank(ctx, p, cost)
    st.mortgaged[sq] = False
    st.board_log.append(sq)
    st.mround[sq] = None
    ctx.ev("unmortgage", p=p, sq=sq, amount=cost)


def _keep_mortgaged_error(st: GameState, p: int, sq: int) -> Refusal | None:
    if _transfer_frame(st, p, sq) is None:
        return Refusal("no_transferred_mortgage")
    return None


def _act_keep_mortgaged(ctx: Ctx, p: int, a: dict) -> None:
    st = ctx.state
    sq = _square_param(a)
    err = _keep_mortgaged_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    st.stack.pop(_transfer_frame(st, p, sq))
    fee = transfer_fee(st, sq)
    ctx.ev("keep_mortgaged", p=p, sq=sq, amount=fee)
    _charge(ctx, p, BANK, fee, "transfer fee")


def _auction_own_error(st: GameState, p: int, sq: int) -> Refusal | None:
    """RULES.md 11, duel: the owner auctions a mortgaged deed of theirs in their own turn."""
    s = st.board[sq]
    if not st.rules.auction_own:
        return Refusal("auction_own_not_allowed")
    if p != st.current or st.stack:
        return Refusal("auction_own_timing")
    if not s.is_deed or st.owner[sq] != p:
        return Refusal("not_owner", square=s.name)
    if not st.mortgaged[sq]:
        return Refusal("not_mortgaged", square=s.name)
    return None


def _act_auction_own(ctx: Ctx, p: int, a: dict) -> None:
    """RULES.md 11, duel: the owner auctions a mortgaged deed of theirs; others bid."""
    st = ctx.state
    sq = _square_param(a)
    s = st.board[sq]
    err = _auction_own_error(st, p, sq)
    if err:
        raise IllegalAction(err)
    _start_auction(ctx, "own", sq, style="rotating", opening=s.price, start=p, include_start=False,
                   exclude=p, seller=p)
