"""``legal_actions``: every action a player may take now, listed from the same predicates the
handlers check.
"""

from __future__ import annotations

from ..state import GameState
from .auctions import (
    _bid_error,
    _max_bid_error,
    _pass_error,
    auction_min_bid,
    auction_under_way,
    standing_maximum,
)
from .buildings import _build_error, _build_timing_error, _money_timing_error, _placements, _sell_all_error, _sell_error
from .mortgages import _auction_own_error, _keep_mortgaged_error, _mortgage_error, _unmortgage_error
from .trades import _answer_error, _trade_window_error
from .turns import (
    BUS_CHOICES,
    _bus_error,
    _buy_error,
    _casino_error,
    _destroy_error,
    _income_tax_error,
    _pay_fine_error,
    _teleport_error,
    _turn_error,
    _use_card_error,
)


def legal_actions(state: GameState, p: int) -> list[dict]:
    """Every action ``p`` may take now. Actions with a free parameter come as templates:
    ``bid`` carries ``min``/``max``, ``casino`` stands for any 1-3 numbers, ``propose`` for any
    valid trade. ``timeout`` is not listed: it is the site's (or a scenario's) to apply.

    Each action is listed when its handler's own predicate (``_<action>_error``) finds nothing
    against it, so the list and ``apply`` cannot disagree."""
    st = state
    if st.over or not 0 <= p < len(st.players) or st.players[p].bankrupt:
        return []
    out: list[dict] = []
    top = st.stack[-1] if st.stack else None
    if top is None:
        if _turn_error(st, p, "roll") is None:
            out.append({"type": "roll", "player": p})
            if _pay_fine_error(st, p) is None:
                out.append({"type": "pay_fine", "player": p})
            if _use_card_error(st, p) is None:
                out.append({"type": "use_card", "player": p})
        elif _turn_error(st, p, "end_turn") is None:
            out.append({"type": "end_turn", "player": p})
    else:
        k = top["k"]
        if k == "auction":
            if top["stage"] == "place":
                if top["winner"] == p:
                    out.extend({"type": "build", "player": p, "square": sq}
                               for sq in _placements(st, p, top["building"]))
            else:
                if _bid_error(st, p) is None:
                    out.append({"type": "bid", "player": p, "min": auction_min_bid(top), "max": st.players[p].cash})
                if _pass_error(st, p) is None:
                    out.append({"type": "pass", "player": p})
                if _max_bid_error(st, p) is None:
                    out.append(_max_bid_template(st, p, top))
        elif k == "trade_response":
            for answer in ("accept", "reject", "cancel"):
                if _answer_error(st, p, None, answer) is None:
                    out.append({"type": answer, "player": p, "trade": top["trade"]})
        elif top.get("p") == p:
            if k == "buy":
                if _buy_error(st, p) is None:
                    out.append({"type": "buy", "player": p})
                out.append({"type": "decline", "player": p})
            elif k == "casino":
                if _casino_error(st, p) is None:
                    out.append({"type": "casino", "player": p})
                out.append({"type": "casino_skip", "player": p})
            elif k == "income_tax":
                out.extend({"type": "income_tax", "player": p, "choice": c}
                           for c in ("flat", "percent") if _income_tax_error(st, p, c) is None)
            elif k == "bus":
                out.extend({"type": "bus", "player": p, "choice": c}
                           for c in BUS_CHOICES if _bus_error(st, p, c) is None)
            elif k == "teleport":
                out.extend({"type": "teleport", "player": p, "square": sq}
                           for sq in range(40) if _teleport_error(st, p, sq) is None)
            elif k == "destroy":
                out.extend({"type": "destroy", "player": p, "square": sq}
                           for sq in range(40) if _destroy_error(st, p, sq) is None)
            elif k == "mortgage_transfer":
                # The transferred mortgages p decides on, on top of the stack, in that order.
                for i in range(len(st.stack) - 1, -1, -1):
                    f = st.stack[i]
                    if f["k"] != "mortgage_transfer" or f["p"] != p:
                        break
                    if _unmortgage_error(st, p, f["sq"]) is None:
                        out.append({"type": "unmortgage", "player": p, "square": f["sq"]})
                    if _keep_mortgaged_error(st, p, f["sq"]) is None:
                        out.append({"type": "keep_mortgaged", "player": p, "square": f["sq"]})
        if k != "auction" and len(st.stack) > 1:
            # RULES.md 15: a maximum may be left while the game waits on another answer above
            # the auction (a trade offer, say); it acts when the auction goes on.
            f = auction_under_way(st)
            if f is not None and _max_bid_error(st, p) is None:
                out.append(_max_bid_template(st, p, f))
    out.extend(_free_actions(st, p, top))
    return out


def _max_bid_template(st: GameState, p: int, f: dict) -> dict:
    """RULES.md 15: ``held`` is p's own maximum (0: none); no seat's list ever tells another's."""
    return {"type": "max_bid", "player": p, "min": auction_min_bid(f), "max": st.players[p].cash,
            "held": standing_maximum(st, p) or 0}


def _free_actions(st: GameState, p: int, top: dict | None) -> list[dict]:
    """Building, mortgages and trades, allowed around the pending decision by the rule set."""
    out: list[dict] = []
    board = st.board
    owner, level = st.owner, st.level
    owned = [sq for sq in board.deeds if owner[sq] == p]
    in_transfer = top is not None and top["k"] == "mortgage_transfer" and top["p"] == p
    if owned and not in_transfer:
        build_ok = _build_timing_error(st, p) is None
        money_ok = _money_timing_error(st, p) is None
        seen_groups = set()
        # Only a player holding the whole group may build on it (RULES.md 8): whether p does is
        # worked out once per group, and the full check runs only for those deeds.
        whole: dict[tuple, bool] = {}
        for sq in owned:
            group = board.group_of[sq]
            if build_ok:
                held = whole.get(group)
                if held is None:
                    held = whole[group] = all(owner[x] == p for x in group)
                if held and _build_error(st, p, sq) is None:
                    out.append({"type": "build", "player": p, "square": sq})
            if not money_ok:
                continue
            if level[sq]:
                if _sell_error(st, p, sq) is None:
                    out.append({"type": "sell", "player": p, "square": sq})
                g = board[sq].group
                if g not in seen_groups and _sell_all_error(st, p, sq) is None:
                    seen_groups.add(g)
                    out.append({"type": "sell_all", "player": p, "square": sq})
            elif st.mortgaged[sq]:
                if _unmortgage_error(st, p, sq) is None:
                    out.append({"type": "unmortgage", "player": p, "square": sq})
                if _auction_own_error(st, p, sq) is None:
                    out.append({"type": "auction_own", "player": p, "square": sq})
            elif _mortgage_error(st, p, sq) is None:
                out.append({"type": "mortgage", "player": p, "square": sq})
    if _trade_window_error(st, p) is None and len(st.active()) > 1:
        out.append({"type": "propose", "player": p})
    out.append({"type": "surrender", "player": p})
    return out
