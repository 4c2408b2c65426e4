"""A real Celery worker and beat on Redis play a correspondence game (issue 10): the beat's
deadline sweep times out the human who never moves (deadlines made due by the test), the
worker's tasks play the bots; and a worker SIGKILLed mid-sweep loses nothing and doubles
nothing once a new one (two, in fact) takes over."""

from __future__ import annotations

import contextlib
from collections import Counter
from datetime import timedelta
from unittest import mock

import pytest
from django.db.models import Count
from django.utils import timezone

from games import records, services
from games.engine import GameState
from games.models import Game, GameAction, Table
from tests.factories import UserFactory
from tests.games.play_helpers import choose
from tests.workers.conftest import wait_for

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _game(host, *others, bots: int, seed: int, name: str = "Worker") -> Game:
    table = services.table_create(host=host, name=name, preset="classic", pace=Table.Pace.CORRESPONDENCE,
                                  turn_hours=24, seat_count=1 + len(others) + bots,
                                  vacation_days=0)  # (timeouts, not RULES.md 16's automatic days)
    for user in others:
        services.table_join(table=table, user=user)
    for position in range(1 + len(others), table.seat_count):
        services.table_set_seat(table=table, by=host, position=position, bot="strategy")
    with mock.patch("secrets.randbits", return_value=seed):
        return services.table_start(table=table, by=host)


def _one_row_per_version(game: Game, since: tuple[int, int] = (0, 0)) -> None:
    """Since ``since`` (version, log rows), the log has exactly one action for each version
    written: no action applied twice (the unique seq would refuse a second row anyway), none
    lost, no write without its action. From the start: the start's row (seq 0) and one a version."""
    # (One statement, so both come from one snapshot of the database.)
    version, rows = Game.objects.filter(pk=game.pk).annotate(rows=Count("actions")).values_list(
        "version", "rows").get()
    assert rows - since[1] == version - since[0], (rows, version, since)


def _replays_exactly(game: Game) -> None:
    """Item 4 of issue 10: the game replays from its record (every action, whoever took it) to
    exactly its state."""
    game.refresh_from_db()
    last = records.checkpoints(records.game_record(game))[-1]
    state = GameState.from_json(last.state)
    for n, action in enumerate(last.actions, start=last.index * records.CHECKPOINT_EVERY + 1):
        records._apply(state, n, action, events=False)
    assert state.to_json() == GameState.from_json(game.state).to_json()


def test_the_worker_times_out_the_absent_human_and_plays_the_bots(celery_processes):
    alice = UserFactory(username="alice", display_name="Alice")
    game = _game(alice, bots=2, seed=20240601)
    procs = celery_processes
    procs.worker()
    procs.beat()

    timeouts = 0
    end = timezone.now() + timedelta(seconds=300)
    while timeouts < 6:
        assert timezone.now() < end, f"the game stalled at {game.waiting_seats}\n{procs.logs()}"

        def waits_on_alice():
            game.refresh_from_db()
            return game.status != Game.Status.ACTIVE or 0 in game.waiting_seats

        # The bots play in the worker, one task per action, until the game waits on alice.
        wait_for(waits_on_alice, timeout=120, what="the bots to play up to alice", procs=procs)
        assert game.status == Game.Status.ACTIVE
        version = game.version
        if game.round % 2 == 0 or game.current_seat != 0:
            # Alice is away on her turns of every other round only (three missed turns in a row
            # would forfeit her, RULES.md 11): she plays the rest herself.
            move = choose(GameState.from_json(game.state), 0)
            with contextlib.suppress(services.StaleVersion):  # (a bot's bid came first: she looks again)
                services.game_submit_action(game=game, user=alice, action=move, expected_version=version)
            continue
        # Alice is away: her 24 hours are over at once, and the beat's sweep applies the default.
        if not Game.objects.filter(pk=game.pk, version=version).update(deadline=timezone.now() - timedelta(seconds=1)):
            continue
        wait_for(lambda v=version: Game.objects.filter(pk=game.pk, version__gt=v).exists(), timeout=60,
                 what="the sweep to time alice out", procs=procs)
        timeouts = GameAction.objects.filter(game=game, source="timeout").count()

    # Once the bots have played up to alice again, and the game waits on her alone, nothing the
    # worker holds can move the game. (A game may wait on her and bots at once, in an auction:
    # the bots' bids go on meanwhile, and a count of the log read between the game's refresh and
    # their commit would find a row more than the version it read.)
    def waits_on_alice_alone():
        game.refresh_from_db()
        return game.status != Game.Status.ACTIVE or game.waiting_seats == [0]

    wait_for(waits_on_alice_alone, timeout=120, what="the bots to play up to alice", procs=procs)
    sources = Counter(GameAction.objects.filter(game=game).values_list("source", flat=True))
    assert sources["timeout"] >= 6 and sources["player"] >= 3
    assert sources["bot"] > 10
    assert not GameAction.objects.filter(game=game, source="timeout").exclude(seat=0).exists()
    assert not GameAction.objects.filter(game=game, source="bot", seat=0).exists()
    _one_row_per_version(game)
    _replays_exactly(game)


def test_a_worker_killed_mid_sweep_loses_no_deadline_and_applies_none_twice(celery_processes, settings):
    procs = celery_processes
    people = [UserFactory(username=f"p{i}") for i in range(4)]
    # Games of two humans (a timeout, then 24 hours to the next deadline) and games of a human
    # and two bots (the timeout hands the turn to the bots' tasks).
    games = []
    # (Made before any worker runs: bots that start a game play within its start.)
    bot_delay, settings.BOT_DELAY_SECONDS = settings.BOT_DELAY_SECONDS, 0
    for i in range(60):
        if i % 3:
            games.append(_game(people[i % 4], people[(i + 1) % 4], bots=0, seed=1000 + i, name=f"G{i}"))
        else:
            games.append(_game(people[i % 4], bots=2, seed=1000 + i, name=f"G{i}"))
    settings.BOT_DELAY_SECONDS = bot_delay
    # Every game waits on a human now.
    due = {g.pk: g.version for g in games}
    for g in games:
        bots = {s.position for s in g.table.seats.all() if s.bot}
        assert g.waiting_seats and not bots & set(g.waiting_seats)
    Game.objects.filter(pk__in=due).update(deadline=timezone.now() - timedelta(seconds=1))
    before = {g.pk: (g.version, GameAction.objects.filter(game=g).count()) for g in games}

    def timeouts() -> int:
        return GameAction.objects.filter(game_id__in=due, source="timeout").count()

    procs.beat()
    worker = procs.worker(concurrency=1)
    wait_for(lambda: timeouts() > 0, timeout=120, what="the first timeouts", procs=procs, every=0.02)
    procs.kill(worker)  # SIGKILL, mid-sweep: its transaction dies with it, its task is unacked
    at_kill = timeouts()
    assert 0 < at_kill < len(due), at_kill

    # Two workers take over (several workers, overlapping beats: the sweep runs every second).
    procs.worker("second")
    procs.worker("third")
    wait_for(lambda: timeouts() >= len(due), timeout=180, what="every due deadline", procs=procs)

    def settled() -> bool:
        # No game left waiting on a bot: every bot action the timeouts made due was played (a
        # game that waits on a human has 24 hours: nothing the workers hold can move it now).
        for game in Game.objects.filter(pk__in=due).select_related("table"):
            bots = {s.position for s in game.table.seats.all() if s.bot}
            if bots & set(game.waiting_seats):
                return False
        return True

    wait_for(settled, timeout=120, what="the bots to play up to a human", procs=procs, every=0.5)
    per_game = dict(GameAction.objects.filter(game_id__in=due, source="timeout").values("game_id")
                    .annotate(n=Count("pk")).values_list("game_id", "n"))
    # Every due deadline applied once, none twice.
    assert per_game == dict.fromkeys(due, 1)
    for game in Game.objects.filter(pk__in=due):
        assert game.version > before[game.pk][0]
        assert game.deadline > timezone.now() + timedelta(hours=23)
        _one_row_per_version(game, before[game.pk])
        _replays_exactly(game)
