"""Bots play in Celery tasks, one action at a time (issue 10): a person's move returns at once,
each bot action is a task queued on commit for the version it follows, a stale or duplicate task
does nothing, and a lost task is made good by the deadline sweep. The tasks are run here by
calling them (the real worker's tests are in tests/workers/)."""

from __future__ import annotations

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import services, tasks
from games.engine import GameState
from games.models import Game, GameAction, Table
from tests.factories import UserFactory
from tests.games.play_helpers import choose, no_auto_vacation

pytestmark = pytest.mark.django_db

SEED = 20240601
HTMX = {"HTTP_HX_REQUEST": "true"}


def _bot_game(host, *others, bots=3, pace=Table.Pace.CORRESPONDENCE, seed=SEED, capture=None) -> Game:
    table = services.table_create(host=host, name="Bots", preset="classic", pace=pace, turn_hours=24,
                                  seat_count=1 + len(others) + bots)
    for user in others:
        services.table_join(table=table, user=user)
    for position in range(1 + len(others), 1 + len(others) + bots):
        services.table_set_seat(table=table, by=host, position=position, bot="strategy")
    with mock.patch("secrets.randbits", return_value=seed):
        if capture is None:
            return services.table_start(table=table, by=host)
        with capture(execute=True):
            return services.table_start(table=table, by=host)


class Queue:
    """The bot tasks the writes queue on commit (apply_async's arguments), run by hand."""

    def __init__(self, monkeypatch):
        self.queued: list[tuple[tuple, dict]] = []
        monkeypatch.setattr(tasks.play_site_action, "apply_async",
                            lambda args, **kw: self.queued.append((tuple(args), kw)))

    def run_next(self, capture) -> int:
        (game_id, version), _options = self.queued.pop(0)
        with capture(execute=True):
            return tasks.play_site_action(game_id, version)


def _move_to_end_of_turn(game: Game, user, capture, queue: Queue | None = None) -> Game:
    """Play the human's turn (roll, buy or decline, ...) up to the point where ending it is left;
    bots' decisions meanwhile (an auction) by their queued tasks."""
    for _ in range(200):
        game.refresh_from_db()
        state = GameState.from_json(game.state)
        move = choose(state, 0) if 0 in game.waiting_seats else None
        if move is None:
            queue.run_next(capture)
            continue
        if move["type"] == "end_turn":
            return game
        with capture(execute=True):
            services.game_submit_action(game=game, user=user, action=move, expected_version=game.version)
    raise AssertionError("the turn never came to its end")


def _human_move_queries(game: Game, user, capture, queue: Queue | None, moves: int) -> list[int]:
    """Play ``moves`` moves of the human (seat 0), the bots' tasks in between; the queries of each
    of the human's moves."""
    counts = []
    while len(counts) < moves:
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        if 0 not in game.waiting_seats:
            queue.run_next(capture)
            continue
        move = choose(GameState.from_json(game.state), 0)
        with CaptureQueriesContext(connection) as ctx, capture(execute=True):
            services.game_submit_action(game=game, user=user, action=move, expected_version=game.version)
        counts.append(len(ctx))
    return counts


def test_a_move_leaves_the_bots_to_tasks_and_returns_with_a_fraction_of_the_queries(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    # The same game twice (same seed): bots within the move, then in tasks.
    inline = _human_move_queries(_bot_game(alice), alice, django_capture_on_commit_callbacks, None, 60)

    settings.BOT_DELAY_SECONDS = 1.5
    queue = Queue(monkeypatch)
    game = _bot_game(alice, capture=django_capture_on_commit_callbacks)
    tasked = _human_move_queries(game, alice, django_capture_on_commit_callbacks, queue, 60)

    print(f"queries of a human's move, 60 moves against three strategy bots: bots inline max {max(inline)} "
          f"mean {sum(inline) / 60:.1f}; bots in tasks max {max(tasked)} mean {sum(tasked) / 60:.1f}")
    # (Within one move the bots' log rows are one INSERT with the player's, services.moves._write: what
    # the inline bots add is the rest of their writes, the deeds, decks and auctions they change.)
    # (9: the move's own statements, and since issue 29 one more when a person's wait ends: the
    # row reach/waits.py keeps of since when the game waits on them, deleted in the move.)
    assert max(tasked) <= 9 < max(inline)
    # After the human's last move the game waits on a bot whose task is queued, with the delay,
    # for the version just written; nothing of the bots' was played within the move.
    game = _move_to_end_of_turn(game, alice, django_capture_on_commit_callbacks, queue)
    bot_rows = GameAction.objects.filter(game=game, source="bot").count()
    queue.queued.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=alice, action={"type": "end_turn"},
                                    expected_version=game.version)
    game.refresh_from_db()
    assert GameAction.objects.filter(game=game, source="bot").count() == bot_rows
    assert game.waiting_seats == [1]
    assert queue.queued == [((game.pk, game.version), {"countdown": 1.5})]


def test_the_tasks_play_the_bots_one_action_a_version_to_the_same_game_as_inline(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    inline = _move_to_end_of_turn(_bot_game(alice), alice, django_capture_on_commit_callbacks)
    services.game_submit_action(game=inline, user=alice, action={"type": "end_turn"},
                                expected_version=inline.version)
    inline.refresh_from_db()

    settings.BOT_DELAY_SECONDS = 0.5
    queue = Queue(monkeypatch)
    game = _move_to_end_of_turn(_bot_game(alice, capture=django_capture_on_commit_callbacks), alice,
                                django_capture_on_commit_callbacks, queue)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=alice, action={"type": "end_turn"},
                                    expected_version=game.version)
    steps = 0
    while queue.queued:
        version = queue.queued[0][0][1]
        rows = GameAction.objects.filter(game=game).count()
        assert queue.run_next(django_capture_on_commit_callbacks) == 1
        game.refresh_from_db()
        # One bot action, one version, one log row.
        assert game.version == version + 1
        assert GameAction.objects.filter(game=game).count() == rows + 1
        steps += 1
    assert steps > 3
    # The bots' seeded choices depend on the position only: the same game as within the move.
    assert game.state == inline.state and game.waiting_seats == [0]
    assert list(GameAction.objects.filter(game=game).values_list("seq", "source", "action")) == \
        list(GameAction.objects.filter(game=inline).values_list("seq", "source", "action"))


def test_a_stale_or_duplicated_bot_task_does_nothing(alice, settings, monkeypatch, django_capture_on_commit_callbacks):
    settings.BOT_DELAY_SECONDS = 1
    queue = Queue(monkeypatch)
    game = _move_to_end_of_turn(_bot_game(alice, capture=django_capture_on_commit_callbacks), alice,
                                django_capture_on_commit_callbacks, queue)
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=alice, action={"type": "end_turn"},
                                    expected_version=game.version)
    (game_id, version), _ = queue.queued[-1]
    assert tasks.play_site_action(game_id, version) == 1
    rows = GameAction.objects.filter(game=game).count()
    game.refresh_from_db()
    state = game.state

    # The same message delivered again (a redelivery after a worker died, a duplicate).
    assert tasks.play_site_action(game_id, version) == 0
    # A task for a version that never was, and one for a game that is over.
    assert tasks.play_site_action(game_id, version + 5) == 0
    game.refresh_from_db()
    assert (game.version, game.state) == (version + 1, state)
    assert GameAction.objects.filter(game=game).count() == rows
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert tasks.play_site_action(game_id, version + 1) == 0


def test_a_game_waiting_on_bots_whose_task_is_lost_is_played_on_by_the_deadline_sweep(
    alice, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.BOT_DELAY_SECONDS = 2
    queue = Queue(monkeypatch)
    game = _move_to_end_of_turn(_bot_game(alice, capture=django_capture_on_commit_callbacks), alice,
                                django_capture_on_commit_callbacks, queue)
    moved_at = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=alice, action={"type": "end_turn"},
                                    expected_version=game.version)
    game.refresh_from_db()
    # Waiting on a bot only: the deadline is the bot's delay and the backstop's, not 24 hours.
    assert game.waiting_seats == [1]
    assert moved_at + timedelta(seconds=2 + services.BOT_BACKSTOP_SECONDS) <= game.deadline \
        <= timezone.now() + timedelta(seconds=2 + services.BOT_BACKSTOP_SECONDS)
    queue.queued.clear()  # the task is lost (say the broker restarted without its queue)
    assert tasks.process_deadlines() == 0  # not due yet
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    version = game.version

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.process_deadlines() == 1

    game.refresh_from_db()
    assert game.version == version + 1
    # The bot's own move, as its task would have played it, and never a timeout of a bot.
    last = GameAction.objects.filter(game=game).order_by("-seq").first()
    assert (last.seat, last.source) == (1, "bot")
    assert not GameAction.objects.filter(game=game, source="timeout").exists()
    # The next bot action goes back to a task.
    assert [args for args, _kw in queue.queued] == [(game.pk, game.version)]


def test_a_move_that_loses_to_a_timeout_gets_a_clear_message_and_a_fresh_board(alice, client):
    bob = UserFactory(username="bob2", display_name="Bob")
    game = _bot_game(alice, bob, bots=0)
    no_auto_vacation(game)
    seat_user = {0: alice, 1: bob}[game.current_seat]
    seen = game.version  # the page the player has open
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.process_deadlines() == 1  # the timeout wins the race
    game.refresh_from_db()
    actions = GameAction.objects.filter(game=game).count()
    state = game.state

    client.force_login(seat_user)
    response = client.post(reverse("games:game_act", args=[game.pk]), {"version": seen, "type": "roll"}, **HTMX)

    assert response.status_code == 409
    html = response.content.decode()
    assert "the game has moved on since your page was drawn" in html.lower()
    # The board as it is now, with the version a next move quotes.
    assert f'data-version="{game.version}"' in html and game.version == seen + 1
    game.refresh_from_db()
    assert game.state == state and GameAction.objects.filter(game=game).count() == actions


def test_the_page_of_a_game_waiting_on_bots_follows_them_at_the_live_pace(
    alice, client, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.BOT_DELAY_SECONDS = 1
    queue = Queue(monkeypatch)
    game = _move_to_end_of_turn(_bot_game(alice, capture=django_capture_on_commit_callbacks), alice,
                                django_capture_on_commit_callbacks, queue)
    client.force_login(alice)
    mine = client.get(reverse("games:game", args=[game.pk])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=alice, action={"type": "end_turn"},
                                    expected_version=game.version)

    bots = client.get(reverse("games:game", args=[game.pk])).content.decode()

    # Waiting on alice: the correspondence pace and her clock; on a bot: every 2 s, no clock.
    assert 'hx-trigger="every 15s"' in mine and 'hx-trigger="every 2s"' not in mine
    assert 'hx-trigger="every 2s"' in bots and 'hx-trigger="every 15s"' not in bots
    assert "<time" in mine.split('id="game"', 1)[1] and "<time" not in bots.split('id="game"', 1)[1]
