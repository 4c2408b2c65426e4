"""The whole-game analysis of a finished game's record, without Django's database: the positions
as each round began, the turning points and each player's luck with the dice.

``round_starts`` replays the record once (about 650 games a second) and keeps a copy of the
position at each round's start with the cards every player had seen drawn by then; the caller
estimates each (analysis/estimate.py), a round at a time, storing as it goes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import chain
from typing import Any

from games.engine import GameState, RuleSet, apply, new_game, rent_of, set_clock
from games.engine.analysis import seen_cards
from games.engine.markov import landings_per_turn

# Which actions may explain a swing, and how much each kind of event weighs (a tie goes to the
# later action): a trade or a bankruptcy decides more than a rent. With a ``swing`` estimate
# (turning_points), the weights only pick the SWING_CANDIDATES actions whose swing is measured.
SWING_CANDIDATES = 5
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
        state, events = _apply_recorded(state, action)
        per_action.append(events)
        all_events.extend(events)
        if state.round > starts[-1].round and not state.over:
            starts.append(RoundStart(state.round, n, state.copy(), seen_cards(all_events)))
    return Replayed(starts, state, per_action, sides_of(state))


def _apply_recorded(state: GameState, action: dict, events: bool = True) -> tuple[GameState, list[dict]]:
    """Apply one action of a record (its ``clock``, when it has one, set first)."""
    if action.get("clock") is not None:
        set_clock(state, action["clock"])
    return apply(state, {k: v for k, v in action.items() if k != "clock"}, events=events)


def around(record: dict[str, Any], replayed: Replayed, step: int) -> tuple[GameState, GameState, dict[str, int]]:
    """The positions just before and just after the record's action ``step`` (1-based), and the
    cards every player had seen drawn before it (``seen`` for both: the estimate of the action's
    swing knows nothing it revealed), replayed from the last round start before it."""
    if not 1 <= step <= len(record["actions"]):
        raise ValueError(f"the record has no action {step}")
    start = max((s for s in replayed.starts if s.step < step), key=lambda s: s.step)
    state = start.state.copy()
    for action in record["actions"][start.step : step - 1]:
        _apply_recorded(state, action, events=False)
    before = state.copy()
    _apply_recorded(state, record["actions"][step - 1], events=False)
    return before, state, seen_cards(chain.from_iterable(replayed.events[: step - 1]))


def end_point(final: GameState, sides: list[list[int]], step: int) -> dict:
    """The game's result as the chart's last point: the winner's side 1, the others 0."""
    p = [1.0 if final.winner in seats else 0.0 for seats in sides]
    return {"round": final.round, "step": step, "p": p, "low": p, "high": p, "playouts": 0, "end": True}


def turning_points(points: list[dict], events: list[list[dict]], sides: list[list[int]],
                   count: int = 3, swing: Callable[[int], list[float]] | None = None) -> list[dict]:
    """The ``count`` largest swings between consecutive points, largest first: for each, the side
    whose chance moved most, from and to, and the action that best explains it (an index into
    the record's actions, 1-based, and the event in it).

    Without ``swing``, the action is the one of most weight among those between the two points
    (those touching that side's players weighing double). With it, ``swing(step)`` estimates how
    much action ``step`` itself moved each side's chance (the positions just before and after it,
    with common random numbers: analysis/estimate.py), asked of the SWING_CANDIDATES actions of
    most weight; the one that moved the side most the way its chance went is named, and its
    estimate kept (``swing``: the side's change in points of chance; None when not measured)."""
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
        candidates = _candidates(events, a["step"], b["step"], set(sides[side]))
        step, index = candidates[0][1:] if candidates else (0, 0)
        moved = None
        if swing is not None and len(candidates) > 1:
            sign = 1.0 if b["p"][side] >= a["p"][side] else -1.0
            best = None
            for _weight, cand_step, cand_index in candidates[:SWING_CANDIDATES]:
                delta = swing(cand_step)[side]
                if best is None or sign * delta > sign * best:  # (a tie: the one of more weight)
                    best, step, index = delta, cand_step, cand_index
            moved = round(best, 4)
        out.append({"side": side, "from": a["p"][side], "to": b["p"][side], "round": a["round"],
                    "to_round": b["round"], "end": bool(b.get("end")), "step": step, "event": index,
                    "swing": moved})
    return out


def _candidates(events: list[list[dict]], first: int, last: int, seats: set[int]) -> list[tuple[float, int, int]]:
    """The actions between steps ``first`` (excluded) and ``last`` that may explain a swing, as
    (weight, step, event index: its event of most weight), the most weight first (a tie: the
    later action first)."""
    out = []
    for step in range(first + 1, last + 1):
        best = (-1.0, 0, 0)
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
        if best[0] > 0:
            out.append(best)
    out.sort(key=lambda c: (-c[0], -c[1]))
    return out


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
