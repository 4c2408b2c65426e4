"""A game's record replayed by the engine, to hold the site to "the game replays exactly from its
record" (RULES.md 16 and every site action)."""

from __future__ import annotations

from games import records
from games.engine import GameState, RuleSet, apply, new_game, set_clock
from games.models import Game


def replayed(game: Game) -> tuple[GameState, list[dict]]:
    """The position the game's record replays to, and every event on the way."""
    record = records.game_record(game)
    state, events = new_game(RuleSet.from_json(record["rules"]), record["names"], record["seed"],
                             teams=record.get("teams"))
    for action in record["actions"]:
        if action.get("clock") is not None:
            set_clock(state, action["clock"])
        state, more = apply(state, {k: v for k, v in action.items() if k != "clock"})
        events.extend(more)
    return state, events


def replays_exactly(game: Game) -> list[dict]:
    """Assert the record replays to the game's stored position; returns the replay's events."""
    game.refresh_from_db()
    state, events = replayed(game)
    assert state.to_json() == GameState.from_json(game.state).to_json()
    return events
