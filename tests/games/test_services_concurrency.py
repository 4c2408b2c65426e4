"""Two workers at once, for real: threads with their own connections (PostgreSQL only, where
select_for_update locks rows; SQLite serialises whole transactions instead)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import services
from games.models import Game, GameAction
from tests.games.play_helpers import no_auto_vacation

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
    no_auto_vacation(game)  # the timeout applies its default (not a day of vacation instead)
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


def test_a_timeout_racing_a_doubles_roll_never_applies_with_it(alice, bob, make_game):
    """The sweep and the player's roll of doubles at the same moment, many times over: either
    the roll applies and the sweep leaves the game alone, or the timeout applies and the roll
    gets the stale-version answer; never both (the player would be timed out for a decision
    they had just taken, and counted a miss)."""
    from games import tasks
    from games.models import Table
    from tests.games.play_helpers import rig_doubles

    for round_ in range(12):
        game = make_game(alice, bob, pace=Table.Pace.LIVE, name=f"Race {round_}")
        rig_doubles(game)
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        game.refresh_from_db()
        user = game.table.seats.get(position=game.current_seat).user
        version = game.version

        def roll(game=game, user=user, version=version, late=round_ % 2 == 0):
            if late:
                time.sleep(0.02)
            return services.game_submit_action(game=game, user=user, action={"type": "roll"},
                                               expected_version=version)

        def sweep(late=round_ % 2 == 1):
            if late:
                time.sleep(0.02)
            return tasks.process_deadlines()

        # Each side gets a head start in turn, so that both orders happen (a nudge, not a
        # promise: the assertions hold whichever order the scheduler picks).
        move, swept = _run_together(roll, sweep)

        game.refresh_from_db()
        timeouts = GameAction.objects.filter(game=game, source="timeout").count()
        players = game.state["players"]
        if isinstance(move, services.Submission):
            assert swept == 0 and timeouts == 0, (round_, swept, timeouts)
            assert all(p["missed"] == 0 for p in players)
        else:
            assert isinstance(move, services.StaleVersion), (round_, move)
            assert swept >= 1 and timeouts >= 1, (round_, swept, timeouts)
        assert game.version == version + 1


def test_an_account_deleted_while_another_player_moves_forfeits_its_seat_either_way(password):
    """The deletion and the other player's move at once, a few times over: whichever takes the
    game first, the seat ends up forfeited, a move that finds the game moved on is told so, and
    the two never deadlock (both take the game's row before its table's)."""
    from accounts import services as accounts
    from games.engine import GameState
    from tests.factories import UserFactory
    from tests.games.play_helpers import start_game, users_by_seat

    for round_ in range(6):
        people = [UserFactory(username=f"p{round_}{i}") for i in range(3)]
        game = start_game(*people, pace="correspondence", name=f"Race {round_}")
        users = users_by_seat(game)
        mover = game.current_seat
        gone = next(p for p in range(3) if p != mover)
        version = game.version

        move, deleted = _run_together(
            lambda game=game, user=users[mover], version=version: services.game_submit_action(
                game=game, user=user, action={"type": "roll"}, expected_version=version),
            lambda user=users[gone]: accounts.user_delete(user=user, password=password),
        )

        assert deleted is None, (round_, deleted)
        game.refresh_from_db()
        assert GameState.from_json(game.state).players[gone].bankrupt
        assert GameAction.objects.filter(game=game, source="system", seat=gone).count() == 1
        if isinstance(move, services.Submission):
            assert game.version == version + 2
        else:
            assert isinstance(move, services.StaleVersion), (round_, move)
            assert game.version == version + 1
