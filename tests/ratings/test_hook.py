"""A game played through games.services records its result when it finishes: the task is queued
on commit (never before), and two workers running it at once record it once (PostgreSQL)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections

from games import services as game_services
from games.engine import GameState, waiting_on
from games.models import Game, GameAction
from ratings import services
from ratings.models import GameResult, PlayerResult, Rating
from tests.ratings.helpers import choose


def _play_to_round(game: Game, users: dict, round_no: int) -> Game:
    for _ in range(2000):
        game.refresh_from_db()
        state = GameState.from_json(game.state)
        if state.round >= round_no and state.current == 1 and state.pending() == "roll":
            return game
        seat = waiting_on(state)[0]
        move = {k: v for k, v in choose(state, seat).items() if k != "player"}
        game_services.game_submit_action(game=game, user=users[seat], action=move, expected_version=game.version)
    raise AssertionError("round never came")


def _start(alice, bob) -> tuple[Game, dict]:
    table = game_services.table_create(host=alice, name="Hooked", preset="classic", pace="live", seat_count=2)
    game_services.table_join(table=table, user=bob)
    game = game_services.table_start(table=table, by=alice)
    return game, {s.position: s.user for s in table.seats.select_related("user")}


@pytest.mark.django_db
def test_the_last_move_queues_the_result_on_commit(alice, bob, celery_eager, django_capture_on_commit_callbacks):
    game, users = _start(alice, bob)
    game = _play_to_round(game, users, 11)
    # Ten minutes of play, as far as the record says (no test waits for the clock).
    GameAction.objects.filter(game=game, seq=0).update(created_at=game.started_at - timedelta(hours=1))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_services.game_submit_action(game=game, user=users[1], action={"type": "surrender"},
                                         expected_version=game.version)
    assert not GameResult.objects.exists()  # nothing before the commit
    for callback in callbacks:
        callback()

    result = GameResult.objects.get(game=game)
    assert result.rated and result.summary["ranks"] == [1, 2] and result.summary["forfeited"] == [1]
    assert PlayerResult.objects.get(game=game, user=bob).forfeited
    assert Rating.objects.get(user=alice).value > Rating.objects.get(user=bob).value


def _together(*calls):
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as e:  # (the test looks at what each thread got)
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_two_workers_recording_the_same_game_at_once_count_it_once(alice, bob, finished_game):
    game = finished_game([alice, bob], seed=1)

    results = _together(lambda: services.game_result_record(game_id=game.pk),
                        lambda: services.game_result_record(game_id=game.pk))

    assert all(isinstance(r, GameResult) for r in results), results
    assert results[0].pk == results[1].pk
    assert GameResult.objects.count() == 1 and PlayerResult.objects.count() == 2
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]
