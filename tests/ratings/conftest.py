"""Fixtures of the ratings tests: finished games built from a record, as the site stores them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from games import services
from games.engine import GameState, RuleSet, apply, new_game
from games.models import Game, GameAction, Table
from tests.ratings.helpers import play_record


def store_finished(record: dict[str, Any], seats: list[User | str], *, preset: str, options: dict | None = None,
                   pace: str = Table.Pace.LIVE, minutes: float = 30, is_private: bool = False,
                   finished_at=None) -> Game:
    """A finished game as games.services leaves one: its table and seats (a user, or a bot's
    name), the start row and one GameAction per action of ``record``, the last ``minutes`` after the first."""
    host = next(s for s in seats if isinstance(s, User))
    table = services.table_create(host=host, name="Rated table", preset=preset, options=options or {}, pace=pace,
                                  turn_hours=24, seat_count=len(seats), is_private=is_private)
    for position, who in enumerate(seats):
        if isinstance(who, User):
            if who.pk != host.pk:
                services.table_join(table=table, user=who, position=position)
        else:
            services.table_set_seat(table=table, by=host, position=position, bot=who)
    if seats[0] is not host:
        raise ValueError("the host sits in seat 0")
    rules = RuleSet.from_json(record["rules"])
    state, events = new_game(rules, record["names"], record["seed"], teams=record.get("teams"))
    finished_at = finished_at or timezone.now()
    started = finished_at - timedelta(minutes=minutes)
    game = Game.objects.create(table=table, seed=record["seed"], state={})
    rows = [GameAction(game=game, seq=0, action={"type": "start", "seed": record["seed"], "rules": record["rules"],
                                                  "names": record["names"], "teams": record.get("teams")},
                       events=events, source="system")]
    bots = {i for i, who in enumerate(seats) if not isinstance(who, User)}
    for i, action in enumerate(record["actions"], start=1):
        state, events = apply(state, dict(action))
        p = action.get("player")
        rows.append(GameAction(game=game, seq=i, seat=p, action=action, events=events,
                               source="bot" if p in bots else "player"))
    GameAction.objects.bulk_create(rows)
    # The record's play time runs from the start row to the last action.
    GameAction.objects.filter(game=game).update(created_at=finished_at)
    GameAction.objects.filter(game=game, seq=0).update(created_at=started)
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), status=Game.Status.FINISHED, round=state.round,
                                           winner_seat=state.winner, finished_at=finished_at, started_at=started)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    game.refresh_from_db()
    assert isinstance(GameState.from_json(game.state), GameState)
    return game


@pytest.fixture
def finished_game(db: None) -> Callable[..., Game]:
    def make(seats: list[User | str], *, preset: str = "classic", seed: int = 7, options: dict | None = None,
             teams: list[list[int]] | None = None, stop=None, **kwargs: Any) -> Game:
        record = play_record(preset, len(seats), seed, options=options, teams=teams, stop=stop)
        return store_finished(record, seats, preset=preset, options=options, **kwargs)

    return make
