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
