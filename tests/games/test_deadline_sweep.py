"""The deadline sweep under concurrency (issue 10), on PostgreSQL's row locks: it skips a game a
player's move holds (SKIP LOCKED) instead of waiting for it, and overlapping sweeps apply every
due timeout exactly once. And every action the site takes for a player is in the game's log
with its source, the game replaying exactly from its record."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from games import records, services, tasks
from games.engine import GameState, legal_actions
from games.models import Game, GameAction, Seat, Table
from tests.factories import UserFactory
from tests.games.play_helpers import choose, no_auto_vacation

postgres_only = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="row locks and SKIP LOCKED are PostgreSQL's (SQLite has neither)")


def _two_player_games(n: int) -> list[Game]:
    a = UserFactory(username="sweep-a")
    b = UserFactory(username="sweep-b")
    games = []
    for i in range(n):
        table = services.table_create(host=a, name=f"S{i}", preset="classic", seat_count=2)
        services.table_join(table=table, user=b)
        games.append(services.table_start(table=table, by=a))
        no_auto_vacation(games[-1])  # each due timeout applies (not a day of vacation instead)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(deadline=timezone.now() - timedelta(seconds=1))
    return games


def _in_thread(target, *args):
    """Run ``target`` in a thread with a database connection of its own; returns (thread, box)."""
    box: dict = {}

    def run():
        try:
            box["result"] = target(*args)
        except BaseException as e:
            box["error"] = e
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_the_sweep_skips_a_game_a_move_holds_and_never_waits_for_it():
    held, other = _two_player_games(2)
    locked, release = threading.Event(), threading.Event()

    def a_slow_move():
        # A player's move in progress: the game row locked, as game_submit_actions locks it.
        with transaction.atomic():
            Game.objects.select_for_update().get(pk=held.pk)
            locked.set()
            release.wait(60)

    mover, _ = _in_thread(a_slow_move)
    assert locked.wait(30)
    sweep, box = _in_thread(tasks.process_deadlines)
    sweep.join(30)
    finished_while_held = not sweep.is_alive()
    release.set()
    mover.join(30)
    sweep.join(30)

    assert finished_while_held, "the sweep waited for the player's lock"
    assert "error" not in box and box["result"] == 1
    assert GameAction.objects.filter(game=other, source="timeout").count() == 1
    assert not GameAction.objects.filter(game=held, source="timeout").exists()
    # The next run finds it free and still due.
    assert tasks.process_deadlines() == 1
    assert GameAction.objects.filter(game=held, source="timeout").count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_overlapping_sweeps_apply_each_due_timeout_once():
    games = _two_player_games(30)
    start = threading.Barrier(3)

    def sweep():
        start.wait(30)
        return tasks.process_deadlines()

    runs = [_in_thread(sweep) for _ in range(3)]
    for thread, _box in runs:
        thread.join(120)
    assert all("error" not in box for _t, box in runs)
    assert sum(box["result"] for _t, box in runs) == 30
    per_game = Counter(GameAction.objects.filter(source="timeout").values_list("game_id", flat=True))
    assert per_game == Counter({g.pk: 1 for g in games})


@pytest.mark.django_db
def test_every_action_the_site_takes_is_logged_with_its_source_and_the_game_replays_exactly(
    alice, bob, django_capture_on_commit_callbacks
):
    """Bots, a maximum bid answering for its player, timeouts and a bot's takeover of a seat at a
    third missed turn (RULES.md 11, 15): each in the log, told apart by its source."""
    table = services.table_create(host=alice, name="Sources", preset="classic", seat_count=3,
                                  absent_seat=Table.AbsentSeat.BOT)
    services.table_join(table=table, user=bob)
    services.table_set_seat(table=table, by=alice, position=2, bot="strategy")
    with mock.patch("secrets.randbits", return_value=20240601):
        game = services.table_start(table=table, by=alice)
    users = {0: alice, 1: bob}
    maximum_left = False
    for _ in range(600):
        game.refresh_from_db()
        seat = Seat.objects.get(table=table, position=1)
        if seat.bot:
            break
        state = GameState.from_json(game.state)
        waiting = [p for p in game.waiting_seats if p in users]
        if 1 in waiting and not (state.stack and state.stack[-1]["k"] == "auction"):
            # Bob is away whenever a decision of his own turn waits: three missed turns in a row.
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
            tasks.process_deadlines()
            continue
        p = 0 if 0 in waiting else waiting[0]
        legal = legal_actions(state, p)
        if not maximum_left and any(a["type"] == "max_bid" for a in legal):
            # Alice leaves a maximum: the engine bids for her, by it, as the others bid.
            move = {"type": "max_bid", "amount": next(a for a in legal if a["type"] == "max_bid")["max"]}
            maximum_left = True
        else:
            move = choose(state, p)
        services.game_submit_action(game=game, user=users[p], action=move, expected_version=game.version)
    assert Seat.objects.get(table=table, position=1).bot == Seat.Bot.STRATEGY

    rows = list(GameAction.objects.filter(game=game))
    sources = Counter(r.source for r in rows)
    assert {"system", "player", "bot", "timeout", "takeover"} <= set(sources), sources
    assert sources["takeover"] == 1 and sources["system"] == 1  # the start
    assert {r.seat for r in rows if r.source == "timeout"} == {1}
    assert {r.seat for r in rows if r.source == "bot"} == {1, 2}  # the bots' seat and bob's after it
    assert all(r.user_id is None for r in rows if r.source != "player")
    assert all(r.user_id == users[r.seat].pk for r in rows if r.source == "player")
    assert maximum_left
    assert any(e.get("by") == "max" for r in rows for e in r.events), "no bid by maximum"
    # Replayed from its record (every action, whatever its source), the game is where it is.
    record = records.game_record(game)
    last = records.checkpoints(record)[-1]
    state = GameState.from_json(last.state)
    for n, action in enumerate(last.actions, start=last.index * records.CHECKPOINT_EVERY + 1):
        records._apply(state, n, action, events=False)
    game.refresh_from_db()
    assert state.to_json() == GameState.from_json(game.state).to_json()
