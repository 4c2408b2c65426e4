"""Bankruptcy (RULES.md 10): a player who cannot pay leaves the game; their assets go to the
creditor, a teammate or the bank (which may auction them).
"""

from __future__ import annotations

from ..state import BANK, NO_OWNER
from .auctions import _drop_bidder, _start_auction
from .buildings import _sell_levels
from .context import Ctx
from .squares import _return_jail_card
from .turns import _check_end


def _bankrupt(ctx: Ctx, p: int, creditor: int) -> None:
    """RULES.md 10."""
    st = ctx.state
    pl = st.players[p]
    if pl.bankrupt:
        return
    board = ctx.board
    if creditor != BANK and st.players[creditor].bankrupt:
        creditor = BANK
    ctx.ev("bankrupt", p=p, to=creditor)
    # Buildings go back to the bank at the sell-back rate.
    for sq in board.streets:
        if st.owner[sq] == p and st.level[sq]:
            _sell_levels(ctx, p, sq, all_levels=True)
    pl.bankrupt = True
    st.bankrupt_order.append(p)
    deeds = [sq for sq in board.deeds if st.owner[sq] == p]
    cards, pl.jail_cards = pl.jail_cards, []
    cash, pl.cash = pl.cash, 0
    new_frames: list[dict] = []
    if creditor != BANK:
        cr = st.players[creditor]
        cr.cash += cash
        cr.jail_cards.extend(cards)
        for sq in deeds:
            st.owner[sq] = creditor
            st.board_log.append(sq)
            if st.mortgaged[sq] and ctx.rules.trade_mortgaged == "yes":
                new_frames.append({"k": "mortgage_transfer", "p": creditor, "sq": sq})
    else:
        st.bank += cash
        for cid in cards:
            _return_jail_card(st, cid)
        mate = None
        if st.teams:
            mate = next((i for i in st.teams[pl.team] if i != p and not st.players[i].bankrupt), None)
        for sq in deeds:
            if mate is not None:
                st.owner[sq] = mate
                st.board_log.append(sq)
                continue
            st.owner[sq] = NO_OWNER
            st.board_log.append(sq)
            st.mortgaged[sq] = False
            st.mround[sq] = None
        if mate is None and ctx.rules.bank_bankruptcy == "auction":
            new_frames.extend({"k": "_auction", "sq": sq} for sq in deeds)
    _purge(ctx, p)
    for t in [tid for tid, t in st.trades.items() if p in (t["from"], t["to"])]:
        del st.trades[t]
    st.rejected = [r for r in st.rejected if p not in (r["from"], r["to"])]
    if _check_end(ctx):
        return
    for f in reversed(new_frames):
        if f["k"] == "_auction":
            _start_auction(ctx, "deed", f["sq"], start=st.current, include_start=True)
        else:
            st.stack.append(f)


def _purge(ctx: Ctx, p: int) -> None:
    """Drop every frame that waits on or works for a bankrupt player."""
    st = ctx.state
    kept = []
    for f in st.stack:
        k = f["k"]
        if k == "trade_response":
            t = st.trades.get(str(f["trade"]))
            if t is None or p in (t["from"], t["to"]):
                continue
        elif k == "auction":
            if f["what"] == "own" and f["seller"] == p:
                continue
            _drop_bidder(f, p)
        elif f.get("p") == p or f.get("to") == p:
            # Its decisions and work go; so do payments owed to a player who left the game.
            continue
        kept.append(f)
    st.stack[:] = kept
    if p == st.current and not any(f["k"] == "next_turn" for f in kept):
        st.stack.insert(0, {"k": "next_turn"})
