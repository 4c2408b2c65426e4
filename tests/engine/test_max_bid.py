"""Maximum bids (RULES.md 15) beyond what the scenario files can state: a maximum is secret
(other seats' legal actions, the events described to others), the engine's bids and passes for a
holder say so in the log, and a game with maxima replays exactly from its actions."""

from __future__ import annotations

import json

from games.engine import (
    GameState,
    RuleSet,
    apply,
    describe,
    legal_actions,
    new_game,
    standing_maximum,
    visible_to,
    waiting_on,
)
from games.engine.dice import ScriptedRng
from games.engine.invariants import check


def _auction(preset: str, names=("ann", "bob", "cy", "dee")):
    """A fresh game of ``preset`` where ann has declined Oriental Avenue (6): an auction."""
    state, _ = new_game(RuleSet.build(preset), list(names), seed=5, roll_for_first=False)
    actions = [{"type": "roll", "player": 0}, {"type": "decline", "player": 0}]
    apply(state, actions[0], ScriptedRng([2, 4]))
    apply(state, actions[1])
    assert state.pending() == "auction"
    return state, actions


def test_a_maximum_left_out_of_turn_changes_no_other_seats_legal_actions_and_no_public_event():
    state, _ = _auction("world-classic")
    others_before = {p: legal_actions(state, p) for p in (0, 1, 3)}
    waiting_before = state.to_json()["stack"][-1]["turn"]

    _, events = apply(state, {"type": "max_bid", "player": 2, "amount": 1700})

    assert {p: legal_actions(state, p) for p in (0, 1, 3)} == others_before
    assert state.stack[-1]["turn"] == waiting_before  # bob is still the one asked
    assert [e["e"] for e in events] == ["max_bid"]
    assert not any(visible_to(e, seat) for e in events for seat in (0, 1, 3, None))
    assert all(visible_to(e, 2) for e in events)
    # Only cy's own list tells her maximum.
    mine = next(a for a in legal_actions(state, 2) if a["type"] == "max_bid")
    assert mine["held"] == 1700 and standing_maximum(state, 2) == 1700
    assert standing_maximum(state, 1) is None
    assert all("1700" not in repr(a) for p in (0, 1, 3) for a in legal_actions(state, p))
    assert check(state) == []


def test_the_engines_bids_and_passes_for_a_holder_are_marked_by_maximum_in_the_log():
    state, _ = _auction("world-classic", names=("ann", "bob", "cy"))
    apply(state, {"type": "max_bid", "player": 2, "amount": 1150})
    _, events = apply(state, {"type": "bid", "player": 1, "amount": 1000})
    names = [p.name for p in state.players]
    lines = [describe(e, names, state.board) for e in events if visible_to(e, 0)]

    assert "bob bids $1,000." in lines
    assert "cy bids $1,100 (by maximum)." in lines
    _, events = apply(state, {"type": "bid", "player": 1, "amount": 1200})
    lines = [describe(e, names, state.board) for e in events]
    assert "cy passes (by maximum)." in lines
    assert state.pending() == "end_turn" and state.owner[6] == 1
    assert check(state) == []


def test_a_maximum_is_described_to_its_own_player_only():
    state, _ = _auction("classic")
    _, events = apply(state, {"type": "max_bid", "player": 3, "amount": 90})
    _, withdrawn = apply(state, {"type": "max_bid", "player": 3, "amount": 0})
    names = [p.name for p in state.players]

    assert describe(events[0], names, state.board) == "dee leaves a maximum bid of $90."
    assert describe(withdrawn[0], names, state.board) == "dee withdraws their maximum bid."
    assert visible_to(events[0], 3) and not visible_to(events[0], 0) and not visible_to(events[0], None)


def test_maxima_survive_a_json_round_trip_and_play_on_identically():
    state, _ = _auction("classic")
    apply(state, {"type": "max_bid", "player": 1, "amount": 120})
    apply(state, {"type": "max_bid", "player": 2, "amount": 95})
    copy = GameState.from_json(json.loads(json.dumps(state.to_json())))
    rest = [{"type": "bid", "player": 3, "amount": 100}, {"type": "pass", "player": 0},
            {"type": "pass", "player": 3}]
    for a in rest:
        apply(state, a)
        apply(copy, a)

    assert copy.to_json() == state.to_json()
    # bob (120) answered dee's 100 with 101; cy (95) passed for her maximum; nothing is left of
    # the maxima once the auction is over.
    assert state.owner[6] == 1 and state.players[1].cash == 1500 - 101
    assert state.pending() == "end_turn" and "max" not in json.dumps(state.to_json()["stack"])


def _events_of(state, action, rng=None):
    _, events = apply(state, action, rng)
    return events


def test_a_bidder_who_passed_may_bid_by_hand_in_an_open_auction_but_not_in_a_rotating_one():
    # Open (RULES.md 4, 15): a pass, by hand or by the engine for a maximum, is not final.
    state, _ = _auction("classic", names=("ann", "bob", "cy"))
    apply(state, {"type": "max_bid", "player": 1, "amount": 60})
    apply(state, {"type": "bid", "player": 2, "amount": 80})
    assert 1 in state.stack[-1]["passed"]  # the engine passed for bob's maximum
    assert any(a["type"] == "bid" and a["min"] == 81 for a in legal_actions(state, 1))
    apply(state, {"type": "bid", "player": 1, "amount": 85})
    assert state.stack[-1]["leader"] == 1 and state.stack[-1]["high"] == 85
    apply(state, {"type": "pass", "player": 0})
    assert any(a["type"] == "bid" for a in legal_actions(state, 0))
    apply(state, {"type": "bid", "player": 0, "amount": 90})
    assert state.stack[-1]["leader"] == 0
    # Rotating: a pass is final.
    state, _ = _auction("world-classic", names=("ann", "bob", "cy"))
    apply(state, {"type": "pass", "player": 1})
    assert not any(a["type"] == "bid" for a in legal_actions(state, 1))
    try:
        apply(state, {"type": "bid", "player": 1, "amount": 1000})
    except ValueError as e:
        assert e.code == "passed"
    else:
        raise AssertionError("a rotating auction took a bid after a pass")


def test_a_holder_passed_for_their_maximum_is_passed_once_however_many_bids_follow():
    state, _ = _auction("classic")
    apply(state, {"type": "max_bid", "player": 1, "amount": 60})
    passes = []
    for seat, amount in ((2, 80), (3, 90), (2, 100), (3, 110), (2, 120)):
        events = _events_of(state, {"type": "bid", "player": seat, "amount": amount})
        passes += [e["p"] for e in events if e["e"] == "pass"]
    assert passes == [1]  # after the first bid only
    assert 1 in state.stack[-1]["passed"] and 1 not in waiting_on(state)
    assert sorted(waiting_on(state)) == [0, 3]
    assert check(state) == []


def test_the_favourite_is_priced_above_every_other_holder_also_one_passed_before():
    """RULES.md 15: cy's maximum was passed when bob's was higher; dee's new maximum is priced
    above every other holder's, cy's included, and neither bob nor cy is waited on after it."""
    state, _ = _auction("classic")
    apply(state, {"type": "max_bid", "player": 2, "amount": 181})
    apply(state, {"type": "max_bid", "player": 1, "amount": 200})
    f = state.stack[-1]
    assert (f["leader"], f["high"], f["passed"]) == (1, 182, [2])
    apply(state, {"type": "max_bid", "player": 3, "amount": 300})
    assert (f["leader"], f["high"]) == (3, 201)
    assert sorted(f["passed"]) == [1, 2]
    # Only ann, who has no maximum, is waited on; a timeout on a holder is refused.
    assert waiting_on(state) == [0]
    for seat in (1, 2):
        try:
            apply(state, {"type": "timeout", "player": seat})
        except ValueError:
            pass
        else:
            raise AssertionError(f"a timeout fell on holder {seat}")
    assert check(state) == []


def test_a_maximum_left_while_a_trade_offer_waits_acts_when_the_auction_goes_on():
    state, _ = _auction("classic", names=("ann", "bob", "cy"))
    apply(state, {"type": "bid", "player": 2, "amount": 50})
    side = {"cash": 0, "squares": [], "cards": 0}
    apply(state, {"type": "propose", "player": 1, "to": 2, "give": dict(side, cash=10), "take": side})
    assert state.pending() == "trade_response"
    listed = [a for a in legal_actions(state, 1) if a["type"] == "max_bid"]
    assert listed == [{"type": "max_bid", "player": 1, "min": 51, "max": 1500, "held": 0}]
    assert not any(a["type"] == "bid" for a in legal_actions(state, 1))

    events = _events_of(state, {"type": "max_bid", "player": 1, "amount": 120})

    assert [e["e"] for e in events] == ["max_bid"]
    assert standing_maximum(state, 1) == 120 and state.stack[-2]["leader"] == 2
    assert standing_maximum(state, 0) is None
    events = _events_of(state, {"type": "reject", "player": 2, "trade": 1})
    assert ("bid", 1, 51, "max") in [(e["e"], e.get("p"), e.get("amount"), e.get("by")) for e in events]
    assert check(state) == []


def test_random_auctions_with_maxima_leave_every_open_auction_settled():
    """Random bids, passes, maxima and withdrawals in open auctions: after every action
    the game waits on no holder and no holder but the leader could bid within its maximum
    (invariants._maxima), and no holder is passed twice without a bid of their own between."""
    import random

    for seed in range(150):
        rng = random.Random(seed)
        state, _ = _auction("classic")
        passed_by_max: set[int] = set()
        for _step in range(40):
            if state.pending() != "auction":
                break
            seat = rng.randrange(4)
            acts = [a for a in legal_actions(state, seat) if a["type"] in ("bid", "pass", "max_bid")]
            if not acts:
                continue
            a = dict(rng.choice(acts))
            if a["type"] == "bid":
                lo, hi = a.pop("min"), a.pop("max")
                a["amount"] = rng.randint(lo, max(lo, min(hi, 400)))
            elif a["type"] == "max_bid":
                lo, hi, held = a.pop("min"), a.pop("max"), a.pop("held")
                a["amount"] = 0 if held and rng.random() < 0.2 else rng.randint(lo, min(hi, max(lo, 400)))
            events = _events_of(state, a)
            for e in events:
                if e["e"] == "pass" and e.get("by") == "max":
                    assert e["p"] not in passed_by_max, (seed, e)
                    passed_by_max.add(e["p"])
                elif e["e"] in ("bid", "max_bid") and e.get("by") != "max":
                    passed_by_max.discard(e["p"])
            assert check(state) == [], (seed, a, check(state))


def test_a_maximum_nothing_came_of_is_not_counted_among_the_actions():
    """RULES.md 15 (issue 26, item 7): nobody learns that a maximum was left, changed or
    withdrawn, not even from the numbering of the actions: ``seq`` counts only the actions
    others may know of. A maximum the engine bids or passes for at once is counted."""
    state, _ = _auction("world-classic")
    seq = state.seq
    apply(state, {"type": "max_bid", "player": 2, "amount": 1700})  # out of turn: nothing acts
    apply(state, {"type": "max_bid", "player": 2, "amount": 1800})  # changed
    apply(state, {"type": "max_bid", "player": 2, "amount": 0})  # withdrawn
    assert state.seq == seq
    apply(state, {"type": "max_bid", "player": 1, "amount": 1200})  # bob is asked: he bids 1000
    assert state.seq == seq + 1 and state.stack[-1]["leader"] == 1

    state, _ = _auction("classic")
    apply(state, {"type": "max_bid", "player": 1, "amount": 200})
    seq = state.seq  # (bob leads at 1: counted)
    apply(state, {"type": "pass", "player": 2})
    apply(state, {"type": "max_bid", "player": 2, "amount": 150})  # bob leads at 151: counted
    assert state.seq == seq + 2 and state.stack[-1]["high"] == 151
    apply(state, {"type": "max_bid", "player": 1, "amount": 300})  # the leader raises his own
    apply(state, {"type": "max_bid", "player": 2, "amount": 0})  # cy, passed, withdraws hers
    assert state.seq == seq + 2 and state.stack[-1]["high"] == 151
    seq = state.seq
    side = {"cash": 0, "squares": [], "cards": 0}
    apply(state, {"type": "propose", "player": 3, "to": 0, "give": dict(side, cash=5), "take": side})
    assert state.seq == seq + 1
    apply(state, {"type": "max_bid", "player": 0, "amount": 250})  # an offer waits: nothing acts yet
    assert state.seq == seq + 1
    apply(state, {"type": "reject", "player": 0, "trade": 1})
    assert state.seq == seq + 2 and (state.stack[-1]["leader"], state.stack[-1]["high"]) == (1, 251)
