"""Game records for the ratings tests, played with the engine's public door and a simple
greedy policy (buy, build, pay; in debt sell and mortgage, else give up), so that games end."""

from __future__ import annotations

from typing import Any

from games.engine import GameState, RuleSet, apply, legal_actions, new_game, waiting_on

PREFERENCE = ("build", "buy", "decline", "roll", "end_turn", "pay_fine", "keep_mortgaged", "income_tax", "casino_skip",
              "bus", "teleport", "destroy", "reject", "pass", "sell", "sell_all", "mortgage")


def choose(state: GameState, seat: int) -> dict[str, Any]:
    legal = legal_actions(state, seat)
    top = state.pending_frame()
    in_debt = top is not None and top["k"] == "debt" and top["p"] == seat
    for kind in PREFERENCE:
        for a in legal:
            if a["type"] != kind:
                continue
            if kind in ("sell", "sell_all", "mortgage") and not in_debt:
                continue
            if kind == "build" and state.players[seat].cash < 400:
                continue
            return {k: v for k, v in a.items() if k not in ("min", "max")}
    return {"type": "surrender", "player": seat}


def play_record(preset: str = "classic", players: int = 3, seed: int = 7, *, options: dict | None = None,
                teams: list[list[int]] | None = None, max_actions: int = 20000, stop=None) -> dict[str, Any]:
    """A whole game's record (rules, seed, names, teams, actions). ``stop(state)`` may return an
    action to apply instead of the policy's (a surrender, say), or None."""
    rules = RuleSet.build(preset, options or {})
    names = [f"P{i + 1}" for i in range(players)]
    state, _events = new_game(rules, names, seed, teams=teams)
    actions: list[dict] = []
    for _ in range(max_actions):
        if state.over:
            break
        seat = waiting_on(state)[0]
        action = (stop(state) if stop else None) or choose(state, seat)
        if state.round > 150 and action["type"] != "surrender":
            # A game that stalls (greedy players rarely lose) ends by the next decider giving up.
            action = {"type": "surrender", "player": seat}
        apply(state, action)
        actions.append(action)
    assert state.over, "the game did not end"
    return {"rules": rules.to_json(), "seed": seed, "names": names, "teams": teams, "actions": actions}
