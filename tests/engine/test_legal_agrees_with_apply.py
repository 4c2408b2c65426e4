"""legal_actions and apply agree (issue 9: each action's legality is one predicate).

Through whole bot games, at many positions, every seat's listed actions apply, and every other
action of a wide set of candidates (each action type with each square, choice or answer it may
name) is refused with the state untouched.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, RuleSet, apply, legal_actions, make_bot
from games.engine.bots import RandomBot
from games.engine.simulate import play_game

SQUARE_TYPES = ("build", "sell", "sell_all", "mortgage", "unmortgage", "keep_mortgaged", "auction_own",
                "teleport", "destroy")


def _candidates(st, p):
    out = [{"type": t, "player": p} for t in
           ("roll", "end_turn", "pay_fine", "use_card", "buy", "decline", "pass", "casino_skip")]
    out += [{"type": "income_tax", "player": p, "choice": c} for c in ("flat", "percent")]
    out += [{"type": "bus", "player": p, "choice": c} for c in ("first", "second", "sum")]
    out += [{"type": t, "player": p, "square": sq} for t in SQUARE_TYPES for sq in range(40)]
    top = st.stack[-1] if st.stack else None
    if top is not None and top["k"] == "trade_response":
        out += [{"type": t, "player": p, "trade": top["trade"]} for t in ("accept", "reject", "cancel")]
    if top is not None and top["k"] == "auction" and top["stage"] == "bid":
        low = top["opening"] if top["leader"] == -1 else top["high"] + top["step"]
        out.append({"type": "bid", "player": p, "amount": low})
        # RULES.md 15: a maximum at the lowest bid, or (when that is above the cash) the
        # withdrawal of one already left.
        out.append({"type": "max_bid", "player": p, "amount": low if low <= st.players[p].cash else 0})
    out.append({"type": "casino", "player": p, "numbers": [3]})
    return out


def _key(st, a):
    if a["type"] == "sell_all":  # listed once per group: any deed of the group names it
        return ("sell_all", st.board.group_of[a["square"]], None)
    return (a["type"], a.get("square"), a.get("choice"))


def _check(st, counts):
    for p in range(len(st.players)):
        listed = legal_actions(st, p)
        keys = {_key(st, a) for a in listed}
        before = st.to_json()
        for a in _candidates(st, p):
            if _key(st, a) in keys:
                if a["type"] == "bid":
                    t = next(x for x in listed if x["type"] == "bid")
                    assert t["min"] == a["amount"] and t["max"] == st.players[p].cash
                if a["type"] == "max_bid":
                    t = next(x for x in listed if x["type"] == "max_bid")
                    assert t["max"] == st.players[p].cash and (a["amount"] in (0, t["min"]))
                apply(st.copy(), a, None, False)  # raises if listed but refused
                counts["applied"] += 1
            else:
                with pytest.raises(IllegalAction):
                    apply(st, a, None, False)
                counts["refused"] += 1
        assert st.to_json() == before  # every refusal left the state untouched


@pytest.mark.parametrize(
    ("preset", "kinds", "seed"),
    [("classic", ("random",), 3), ("world-duel", ("random", "strategy"), 4), ("world-quick", ("random",), 5),
     ("world-teams", ("strategy", "random"), 6), ("classic", ("random_max", "random"), 9),
     ("world-classic", ("random_max", "strategy"), 8)],
)
def test_what_legal_actions_lists_is_what_apply_accepts(preset, kinds, seed):
    rules = RuleSet.build(preset)
    lo, hi = rules.seats
    bots = [RandomBot(max_bids=True) if kinds[s % len(kinds)] == "random_max" else make_bot(kinds[s % len(kinds)])
            for s in range(min(max(4, lo), hi))]
    counts = {"applied": 0, "refused": 0, "seen": 0}

    def watch(st, action):
        counts["seen"] += 1
        if counts["seen"] % 13 == 0 and not st.over:
            _check(st, counts)

    play_game(rules, bots, seed, on_action=watch, max_actions=3000)
    assert counts["applied"] > 50 and counts["refused"] > 1000, counts


@pytest.mark.parametrize("seed", [7, 11])
def test_a_pending_transferred_mortgage_is_decided_before_anything_else(seed):
    """RULES.md 9, classic transfer: the receiver of a mortgaged deed decides on it at once.
    Checked at every position where one waits (these seeds reach several): apply refused the
    receiver's build and sell that legal_actions did not list."""
    rules = RuleSet.build("classic")
    bots = [make_bot("random") for _ in range(4)]
    counts = {"applied": 0, "refused": 0, "transfers": 0}

    def watch(st, action):
        top = st.stack[-1] if st.stack else None
        if top is not None and top["k"] == "mortgage_transfer" and not st.over:
            counts["transfers"] += 1
            _check(st, counts)
            p = top["p"]
            listed = {a["type"] for a in legal_actions(st, p)}
            assert listed <= {"unmortgage", "keep_mortgaged", "surrender"}, listed

    play_game(rules, bots, seed, on_action=watch, max_actions=20000)
    assert counts["transfers"] > 0, counts
