"""Money: every movement goes through these, so the bank's balance is always known. A charge
the payer's cash cannot cover opens debt resolution (RULES.md 10); one that even liquidation
cannot cover leaves a bankruptcy on the stack, which the run loop settles at once
(core's ``bankrupt`` task: this module sits below the rules that bankruptcy goes through).
"""

from __future__ import annotations

from ..state import BANK
from .context import Ctx
from .queries import liquidation_value


def _pay_bank(ctx: Ctx, p: int, amount: int, pot: bool = False) -> None:
    st = ctx.state
    st.players[p].cash -= amount
    if pot and ctx.rules.free_parking_jackpot:
        # RULES.md 6: taxes, jail fines and card payments to the bank feed the pot.
        st.free_parking += amount
    else:
        st.bank += amount


def _bank_pays(ctx: Ctx, p: int, amount: int) -> None:
    st = ctx.state
    st.players[p].cash += amount
    st.bank -= amount


def _charge(ctx: Ctx, payer: int, to: int, amount: int, why: str, pot: bool = False, cut: int = 0) -> None:
    """``payer`` owes ``amount`` to player ``to`` or the bank. Pays at once if the cash covers it,
    else opens debt resolution (RULES.md 10), or, if even liquidation can't, stacks the payer's
    bankruptcy for the run loop (the caller adds nothing above it: each call is its last step)."""
    if amount <= 0:
        return
    st = ctx.state
    players = st.players
    if to != BANK and players[to].bankrupt:
        to = BANK
    if players[payer].cash >= amount:
        _settle(ctx, payer, to, amount, why, pot, cut)
        return
    if liquidation_value(st, payer) < amount:
        ctx.ev("cannot_pay", p=payer, to=to, amount=amount, why=why)
        st.stack.append({"k": "bankrupt", "p": payer, "to": to})
        return
    st.stack.append({"k": "debt", "p": payer, "to": to, "amt": amount, "why": why, "pot": pot, "cut": cut})
    ctx.ev("debt", p=payer, to=to, amount=amount, why=why)


def _settle(ctx: Ctx, payer: int, to: int, amount: int, why: str, pot: bool, cut: int) -> None:
    st = ctx.state
    if to == BANK:
        _pay_bank(ctx, payer, amount, pot)
    else:
        st.players[payer].cash -= amount
        st.players[to].cash += amount - cut
        st.bank += cut
    if ctx.events is not None:
        ctx.ev("pay", p=payer, to=to, amount=amount, why=why, tax=cut)
