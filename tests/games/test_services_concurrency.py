"""Two workers at once, for real: threads with their own connections (PostgreSQL only, where
select_for_update locks rows; SQLite serialises whole transactions instead)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import services
from games.models import Game, GameAction

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


def _run_together(*calls):
    """Run the callables in threads started at the same moment; return their results or errors."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as e:  # (any: the test inspects what each thread got)
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_two_submissions_of_the_same_version_at_once_apply_exactly_one(alice, bob, make_game):
    game = make_game(alice, bob)
    seat = game.waiting_seats[0]
    user = game.table.seats.get(position=seat).user
    version = game.version
    actions_before = GameAction.objects.filter(game=game).count()

    def submit():
        return services.game_submit_action(
            game=game, user=user, action={"type": "roll"}, expected_version=version
        )

    results = _run_together(submit, submit)

    stale = [r for r in results if isinstance(r, services.StaleVersion)]
    applied = [r for r in results if isinstance(r, services.Submission)]
    assert len(applied) == 1 and len(stale) == 1, results
    game.refresh_from_db()
    assert game.version == version + 1
    assert GameAction.objects.filter(game=game).count() == actions_before + applied[0].actions


def test_two_workers_timing_out_the_same_game_apply_the_default_once(alice, bob, make_game):
    game = make_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version = game.version

    results = _run_together(
        lambda: services.game_timeout(game_id=game.pk),
        lambda: services.game_timeout(game_id=game.pk),
    )

    assert sorted(r > 0 for r in results) == [False, True], results
    game.refresh_from_db()
    assert game.version == version + 1
    assert GameAction.objects.filter(game=game, source="timeout").count() == 1
