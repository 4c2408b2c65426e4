"""The trade builder: what each side may trade, the builder's view for a partner (prefilled for
a counter-offer), and whom a player may trade with. Reads a ``GameState``, never writes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine import (
    JAIL_CARD_VALUE,
    GameState,
    tradeable_deeds,
)
from games.views.page.players import PLAYER_COLOURS
from games.views.trade_values import completes_alone, trade_summary

if TYPE_CHECKING:
    from games.views.page.decision import Choices

# ---------------------------------------------------------------------------------------------
# The trade builder
# ---------------------------------------------------------------------------------------------

def tradeable(st: GameState, giver: int, receiver: int) -> list[dict[str, Any]]:
    """The deeds ``giver`` may put in a trade with ``receiver`` (RULES.md 9), as the engine's
    trade check decides (``tradeable_deeds``), with what the trade builder shows of each."""
    board = st.board
    out = []
    for sq in tradeable_deeds(st, giver, receiver):
        s = board[sq]
        info = board.group_info.get(s.group or "", {})
        out.append({"sq": sq, "name": s.name, "price": s.price, "mortgaged": st.mortgaged[sq],
                    "colour": info.get("color", "#999")})
    return out


def builder_view(st: GameState, me: int, other: int, *, prefill: dict | None = None,
                 counter: int | None = None) -> dict[str, Any]:
    prefill = prefill or {}
    give = prefill.get("give") or {}
    take = prefill.get("take") or {}
    mine, theirs = st.players[me], st.players[other]

    def side(p, pl, chosen, receiver):
        deeds = tradeable(st, p, receiver)
        picked = set(chosen.get("squares") or [])
        for d in deeds:
            d["checked"] = d["sq"] in picked
            # (issue 12) The deed alone would complete its group for whoever receives it.
            d["completes"] = completes_alone(st, receiver, d["sq"])
        return {"cash_max": pl.cash, "cash": chosen.get("cash") or 0, "cards_max": len(pl.jail_cards),
                "cards": chosen.get("cards") or 0, "deeds": deeds}

    give_side, take_side = side(me, mine, give, other), side(other, theirs, take, me)
    picked = {k: [d["sq"] for d in s["deeds"] if d["checked"]] for k, s in (("give", give_side), ("take", take_side))}
    return {
        # Each side's value and the balance rule's verdict, as the form stands (trade_values.py).
        "summary": trade_summary(st, me, other, {"cash": give_side["cash"], "squares": picked["give"],
                                                 "cards": give_side["cards"]},
                                 {"cash": take_side["cash"], "squares": picked["take"], "cards": take_side["cards"]}),
        "to": other, "to_name": theirs.name, "counter": counter,
        "give": give_side, "take": take_side,
        "balance": st.rules.trade_balance and not st.teammates(me, other),
        "card_value": JAIL_CARD_VALUE,
        "mortgage_fee": st.rules.trade_mortgaged == "yes",
    }


def default_builder(st: GameState, acting: int | None, choices: Choices, *,
                    partner: int | None = None) -> dict[str, Any] | None:
    """The trade builder as the page draws it when no offer is countered and no form refused:
    with the opponent ``partner`` (the tab the player picked: ``?trade_with=``), else the first,
    the others as tabs; None when the viewer may not propose now."""
    if acting is None or "propose" not in choices.types:
        return None
    others = opponents(st, acting)
    if not others:
        return None
    pick = next((o for o in others if o["seat"] == partner), others[0])
    builder = builder_view(st, acting, pick["seat"])
    builder["others"] = others
    return builder


def opponents(st: GameState, me: int) -> list[dict[str, Any]]:
    return [{"seat": i, "name": p.name, "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)]}
            for i, p in enumerate(st.players) if i != me and not p.bankrupt]
