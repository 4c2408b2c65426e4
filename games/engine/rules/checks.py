"""``legal_actions``: every action a player may take now, listed from the same predicates the
handlers check.
"""

from __future__ import annotations

from ..state import GameState
from .auctions import auction_min_bid
from .buildings import _build_error, _build_timing_error, _in_debt, _money_timing_error, _placements, _sell_error
from .context import CASINO_STAKE
from .queries import unmortgage_cost
from .squares import _destroy_targets
from .timeouts import waiting_on
from .trades import _trade_error, _trade_window_error


def legal_actions(state: GameState, p: int) -> list[dict]:
    """Every action ``p`` may take now. Actions with a free parameter come as templates:
    ``bid`` carries ``min``/``max``, ``casino`` stands for any 1-3 numbers, ``propose`` for any
    valid trade. ``timeout`` is not listed: it is the site's (or a scenario's) to apply."""
    st = state
    if st.over or not 0 <= p < len(st.players) or st.players[p].bankrupt:
        return []
    out: list[dict] = []
    pl = st.players[p]
    top = st.stack[-1] if st.stack else None
    if top is None:
        if p == st.current:
            if st.phase == "roll":
                out.append({"type": "roll", "player": p})
                if pl.in_jail and not st.turn["rolled"]:
                    if pl.cash >= st.rules.jail_fine:
                        out.append({"type": "pay_fine", "player": p})
                    if pl.jail_cards:
                        out.append({"type": "use_card", "player": p})
            else:
                out.append({"type": "end_turn", "player": p})
    else:
        k = top["k"]
        if k == "auction":
            if top["stage"] == "place":
                if top["winner"] == p:
                    out.extend({"type": "build", "player": p, "square": sq}
                               for sq in _placements(st, p, top["building"]))
            elif p in waiting_on(st):
                low = auction_min_bid(top)
                if pl.cash >= low:
                    out.append({"type": "bid", "player": p, "min": low, "max": pl.cash})
                out.append({"type": "pass", "player": p})
        elif k == "trade_response":
            t = st.trades[str(top["trade"])]
            if t["to"] == p:
                if _trade_error(st, t) is None:
                    out.append({"type": "accept", "player": p, "trade": t["id"]})
                out.append({"type": "reject", "player": p, "trade": t["id"]})
            elif t["from"] == p:
                out.append({"type": "cancel", "player": p, "trade": t["id"]})
        elif top.get("p") == p:
            if k == "buy":
                if pl.cash >= st.board.price[top["sq"]]:
                    out.append({"type": "buy", "player": p})
                out.append({"type": "decline", "player": p})
            elif k == "casino":
                if pl.cash >= CASINO_STAKE:
                    out.append({"type": "casino", "player": p})
                out.append({"type": "casino_skip", "player": p})
            elif k == "income_tax":
                out.append({"type": "income_tax", "player": p, "choice": "flat"})
                out.append({"type": "income_tax", "player": p, "choice": "percent"})
            elif k == "bus":
                out.extend({"type": "bus", "player": p, "choice": c} for c in ("first", "second", "sum"))
            elif k == "teleport":
                out.extend({"type": "teleport", "player": p, "square": sq} for sq in range(40))
            elif k == "destroy":
                out.extend({"type": "destroy", "player": p, "square": sq} for sq in _destroy_targets(st, p))
            elif k == "mortgage_transfer":
                for i in range(len(st.stack) - 1, -1, -1):
                    f = st.stack[i]
                    if f["k"] != "mortgage_transfer" or f["p"] != p:
                        break
                    if pl.cash >= unmortgage_cost(st, f["sq"]):
                        out.append({"type": "unmortgage", "player": p, "square": f["sq"]})
                    out.append({"type": "keep_mortgaged", "player": p, "square": f["sq"]})
    out.extend(_free_actions(st, p, top))
    return out


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
        lift_ok = not (st.stack and _in_debt(st, p))
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
                if g not in seen_groups:
                    seen_groups.add(g)
                    out.append({"type": "sell_all", "player": p, "square": sq})
            elif st.mortgaged[sq]:
                if lift_ok and st.players[p].cash >= unmortgage_cost(st, sq):
                    out.append({"type": "unmortgage", "player": p, "square": sq})
                if st.rules.auction_own and p == st.current and not st.stack:
                    out.append({"type": "auction_own", "player": p, "square": sq})
            elif not any(level[x] for x in group):
                out.append({"type": "mortgage", "player": p, "square": sq})
    if _trade_window_error(st, p) is None and len(st.active()) > 1:
        out.append({"type": "propose", "player": p})
    out.append({"type": "surrender", "player": p})
    return out
