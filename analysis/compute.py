"""The whole-game analysis of a finished game's record, without Django's database: the positions
as each round began, the turning points and each player's luck with the dice.

``round_starts`` replays the record once (about 650 games a second) and keeps a copy of the
position at each round's start with the cards every player had seen drawn by then; the caller
estimates each (analysis/estimate.py), a round at a time, storing as it goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import GameState, RuleSet, apply, new_game, rent_of, set_clock
from games.engine.analysis import seen_cards
from games.engine.markov import landings_per_turn

# Which actions may explain a swing, and how much each kind of event weighs (a tie goes to the
# later action): a trade or a bankruptcy decides more than a rent.
_WEIGHT = {"trade_accepted": 5000, "bankrupt": 4000, "auction_won": 1500, "buy": 1000, "build": 800,
           "mortgage": 300, "unmortgage": 300, "card": 200}


@dataclass
class RoundStart:
    round: int
    step: int  # actions applied before it (the replay's step)
    state: GameState
    seen: dict[str, int]


@dataclass
class Replayed:
    starts: list[RoundStart]
    final: GameState
    events: list[list[dict]]  # per action (index step - 1), the events it produced
    sides: list[list[int]]


def sides_of(state: GameState) -> list[list[int]]:
    if state.teams:
        return [list(t) for t in state.teams]
    return [[i] for i in range(len(state.players))]


def replay(record: dict[str, Any]) -> Replayed:
    """Replay ``record`` (games.records.game_record's shape) once, keeping each round's start."""
    rules = RuleSet.from_json(record["rules"])
    state, start_events = new_game(rules, [str(n) for n in record["names"]], record["seed"],
                                   teams=record.get("teams"))
    all_events: list[dict] = list(start_events)
    per_action: list[list[dict]] = []
    starts = [RoundStart(state.round, 0, state.copy(), {})]
    for n, action in enumerate(record["actions"], start=1):
        if action.get("clock") is not None:
            set_clock(state, action["clock"])
        state, events = apply(state, {k: v for k, v in action.items() if k != "clock"})
        per_action.append(events)
        all_events.extend(events)
        if state.round > starts[-1].round and not state.over:
            starts.append(RoundStart(state.round, n, state.copy(), seen_cards(all_events)))
    return Replayed(starts, state, per_action, sides_of(state))


def end_point(final: GameState, sides: list[list[int]], step: int) -> dict:
    """The game's result as the chart's last point: the winner's side 1, the others 0."""
    p = [1.0 if final.winner in seats else 0.0 for seats in sides]
    return {"round": final.round, "step": step, "p": p, "low": p, "high": p, "playouts": 0, "end": True}


def turning_points(points: list[dict], events: list[list[dict]], sides: list[list[int]],
                   count: int = 3) -> list[dict]:
    """The ``count`` largest swings between consecutive points, largest first: for each, the side
    whose chance moved most, from and to, and the action that best explains it (an index into
    the record's actions, 1-based, and the event in it): the one of most weight among the
    actions between the two points, those touching that side's players weighing double."""
    swings = []
    for i in range(1, len(points)):
        a, b = points[i - 1], points[i]
        deltas = [y - x for x, y in zip(a["p"], b["p"], strict=True)]
        # The side that moved most; of equal moves (two players: always), the one that gained.
        side = max(range(len(deltas)), key=lambda s: (round(abs(deltas[s]), 6), deltas[s] > 0, -s))
        swings.append((abs(deltas[side]), i, side))
    swings.sort(key=lambda t: (-round(t[0], 6), t[1]))
    out = []
    for size, i, side in swings[:count]:
        if size <= 0:
            break
        a, b = points[i - 1], points[i]
        step, index = _explaining_action(events, a["step"], b["step"], set(sides[side]))
        out.append({"side": side, "from": a["p"][side], "to": b["p"][side], "round": a["round"],
                    "to_round": b["round"], "end": bool(b.get("end")), "step": step, "event": index})
    return out


def _explaining_action(events: list[list[dict]], first: int, last: int, seats: set[int]) -> tuple[int, int]:
    best = (-1.0, 0, 0)
    for step in range(first + 1, last + 1):
        for index, e in enumerate(events[step - 1]):
            kind = e.get("e")
            weight = _WEIGHT.get(kind, 0)
            if kind == "rent":
                weight = int(e.get("amount", 0) or 0)
            elif kind == "trade_accepted":
                weight += 1  # (its players are in the proposal, not the event)
            if weight <= 0:
                continue
            touched = {e.get("p"), e.get("owner"), e.get("to")} & seats
            if touched or kind == "trade_accepted":
                weight *= 2
            if weight >= best[0]:
                best = (weight, step, index)
    return best[1], best[2]


def luck(record: dict[str, Any], events: list[list[dict]]) -> list[dict] | None:
    """Per player, the rent paid and received against what the dice would give on average: at
    the start of each of a player's turns, every rent they could owe, times the chance of landing
    there in one turn (games/engine/markov.py, the classic board's exact chain; a utility's rent
    at the dice's mean, 7); the same amounts are what the owners could expect. Classic board only
    (the chain is the classic board's): None otherwise."""
    rules = RuleSet.from_json(record["rules"])
    state, _ = new_game(rules, [str(n) for n in record["names"]], record["seed"], teams=record.get("teams"))
    if state.board.name != "classic":
        return None
    land = landings_per_turn("long")
    n = len(state.players)
    team = {p: set(t) for t in (state.teams or []) for p in t}
    paid, received = [0] * n, [0] * n
    exp_paid, exp_received = [0.0] * n, [0.0] * n
    deeds = list(state.board.deeds)

    def turn_begins(st: GameState) -> None:
        p = st.current
        if st.players[p].bankrupt:
            return
        mates = team.get(p, {p})
        for sq in deeds:
            owner = st.owner[sq]
            if owner < 0 or owner in mates or st.mortgaged[sq] or st.players[owner].bankrupt:
                continue
            expected = land[sq] * rent_of(st, sq, dice_total=7)
            exp_paid[p] += expected
            exp_received[owner] += expected

    turn = (state.round, state.current)
    turn_begins(state)
    for n_action, action in enumerate(record["actions"], start=1):
        if action.get("clock") is not None:
            set_clock(state, action["clock"])
        state, _ev = apply(state, {k: v for k, v in action.items() if k != "clock"}, events=False)
        for e in events[n_action - 1]:
            if e.get("e") == "rent" and e.get("owner") is not None and e["owner"] >= 0:
                amount = int(e.get("amount", 0)) - int(e.get("tax", 0) or 0)
                paid[e["p"]] += amount
                received[e["owner"]] += amount
        if not state.over and (state.round, state.current) != turn:
            turn = (state.round, state.current)
            turn_begins(state)
    return [{"paid": paid[p], "expected_paid": round(exp_paid[p]), "received": received[p],
             "expected_received": round(exp_received[p])} for p in range(n)]
