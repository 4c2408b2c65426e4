"""A decision a standing order answers is never waited on (RULES.md 15, issue 26 items 22 and 8):
the order is played in the transaction that made the decision, as the site runs (bots in
tasks), so it costs no wait, no e-mail and no deadline; and the deadline sweep plays an order
that names a due decision instead of timing its player out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.engine import GameState, apply, waiting_on
from games.engine.dice import ScriptedRng
from games.models import Game, GameAction, StandingOrder
from notifications import tasks as notification_tasks
from notifications.models import Kind, Notification
from tests.factories import UserFactory
from tests.games.play_helpers import users_by_seat

pytestmark = pytest.mark.django_db


def _on_a_deed(game: Game) -> GameState:
    """The current player rolls 2 + 4 from Go onto Oriental Avenue and has to buy or decline it
    (written as the game's state, as if the roll had been played)."""
    state = GameState.from_json(game.state)
    apply(state, {"type": "roll", "player": state.current}, ScriptedRng([2, 4]))
    assert state.pending() == "buy"
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), waiting_seats=waiting_on(state),
                                           pending=state.pending(), current_seat=state.current)
    game.refresh_from_db()
    return state


def _orders(game: Game, seat: int, **fields) -> None:
    """A standing order written as the aids' service writes it, without playing it."""
    StandingOrder.objects.create(game=game, seat=seat, **fields)
    game.aids = {**(game.aids or {}), "orders": sorted({*game.aids.get("orders", ()), seat})}
    Game.objects.filter(pk=game.pk).update(aids=game.aids)


@pytest.fixture
def as_the_site_runs(settings, monkeypatch):
    """Bots in tasks (a delay, no eager Celery), as in production; the bots' tasks are recorded,
    not run, and the notifications' task runs at the commit, as a worker would run it."""
    settings.BOT_DELAY_SECONDS = 1
    queued: list[tuple] = []
    monkeypatch.setattr(tasks.play_site_action, "apply_async", lambda args, **kw: queued.append(tuple(args)))
    monkeypatch.setattr(notification_tasks.notify, "delay", lambda *args: notification_tasks.notify(*args))
    return queued


def test_an_auction_answered_by_standing_orders_waits_on_nobody_who_left_them_and_mails_them_nothing(
    alice, bob, charlie, make_game, mailoutbox, as_the_site_runs, django_capture_on_commit_callbacks
):
    dave = UserFactory(username="dave", display_name="Dave")
    game = make_game(alice, bob, charlie, dave, name="Gavel")
    state = _on_a_deed(game)
    users = users_by_seat(game)
    decliner = state.current
    passer, holder, free = [(decliner + k) % 4 for k in (1, 2, 3)]
    _orders(game, passer, auction_percent=0)  # "every auction: 0% (pass)"
    _orders(game, holder, auction_percent=50)  # a maximum of half the printed price
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        sub = services.game_submit_action(game=game, user=users[decliner], action={"type": "decline"},
                                          expected_version=game.version)

    game.refresh_from_db()
    # Both orders were played within the decline's own write, as their players' actions (the
    # 0% order passes again after the maximum's bid: a bid asks everyone again, RULES.md 4).
    rows = GameAction.objects.filter(game=game, source="standing").order_by("seq")
    assert [(r.seat, r.action["type"]) for r in rows] == [(passer, "pass"), (holder, "max_bid"),
                                                          (passer, "pass")]
    assert all(r in sub.rows for r in rows)
    assert game.version == sub.game.version
    # The game waits on the two without orders only; no task was queued to play an order.
    assert sorted(game.waiting_seats) == sorted([decliner, free])
    assert as_the_site_runs == []
    # Nobody whose order answered the auction hears of it; the one who may bid does.
    told = Notification.objects.filter(kind__in=[Kind.YOUR_TURN, Kind.AUCTION_OPEN])
    assert [(n.user_id, n.kind) for n in told] == [(users[free].pk, Kind.AUCTION_OPEN)]
    assert [m.to for m in mailoutbox] == [[users[free].email]]


def test_the_sweep_plays_a_standing_order_for_a_due_decision_instead_of_timing_its_player_out(
    alice, bob, make_game, as_the_site_runs, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob, name="Late order")
    state = _on_a_deed(game)
    users = users_by_seat(game)
    decliner = state.current
    other = 1 - decliner
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users[decliner], action={"type": "decline"},
                                    expected_version=game.version)
    game.refresh_from_db()
    assert other in game.waiting_seats
    # An order whose play was lost (left while the game was paused, or by an older site): the
    # game waits on its player and the decision falls due.
    _orders(game, other, auction_percent=0)
    due = game.deadline + timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.process_deadlines() >= 1
    assert due  # (the decision had a deadline of its own)

    game.refresh_from_db()
    state = GameState.from_json(game.state)
    assert state.players[other].missed == 0
    assert GameAction.objects.filter(game=game, seat=other, source="standing", action__type="pass").exists()
    assert not GameAction.objects.filter(game=game, seat=other, source="timeout").exists()


def _rig_a_deed_for_the_next_player(game: Game) -> tuple[int, int, int]:
    """The game's dice set so that, once the current player ends their turn, the next one rolls
    onto an unowned deed they can pay (and no doubles): returns (next seat, the deed's square,
    the cash buying it would leave them)."""
    game.refresh_from_db()
    for candidate in range(1, 10_000):
        state = GameState.from_json(game.state)
        state.rng = candidate
        apply(state, {"type": "end_turn", "player": state.current})
        nxt = state.current
        if state.players[nxt].in_jail:
            return pytest.skip("the next player is in jail")
        apply(state, {"type": "roll", "player": nxt})
        if state.pending() == "buy" and waiting_on(state) == [nxt] and state.turn["doubles"] == 0:
            sq = state.stack[-1]["sq"]
            left = state.players[nxt].cash - state.board.price[sq]
            if left >= 0:
                Game.objects.filter(pk=game.pk).update(state=dict(game.state, rng=candidate))
                game.refresh_from_db()
                return nxt, sq, left
    raise AssertionError("no generator state lands the next player on a deed")


def test_roll_and_buy_orders_are_played_in_the_write_that_begins_the_turn(
    alice, bob, make_game, as_the_site_runs, django_capture_on_commit_callbacks
):
    """RULES.md 15: "roll when my turn begins" and "buy a deed I land on when it leaves me at
    least N in cash" answer within the end of the turn before (no wait, no deadline, no task)."""
    from tests.games.play_helpers import play_until

    game = play_until(make_game(alice, bob, name="Quick hands"), lambda s: not s.stack and s.phase == "end_turn"
                      and not s.players[1 - s.current].in_jail)
    users = users_by_seat(game)
    ender = game.current_seat
    nxt, sq, left = _rig_a_deed_for_the_next_player(game)
    _orders(game, nxt, roll=True, buy_keep=left)  # (exactly what it leaves: enough)

    with django_capture_on_commit_callbacks(execute=True):
        sub = services.game_submit_action(game=game, user=users[ender], action={"type": "end_turn"},
                                          expected_version=game.version)

    game.refresh_from_db()
    rows = [r for r in sub.rows if r.source == "standing"]
    assert [(r.seat, r.action["type"], r.user_id) for r in rows] == [(nxt, "roll", users[nxt].pk),
                                                                      (nxt, "buy", users[nxt].pk)]
    assert GameState.from_json(game.state).owner[sq] == nxt
    # The game waits on them for what no order names (the end of their turn), not to roll or buy.
    assert game.pending == "end_turn" and game.waiting_seats == [nxt]
    assert as_the_site_runs == []


def test_a_buy_order_that_would_leave_too_little_cash_waits_for_the_player(
    alice, bob, make_game, as_the_site_runs, django_capture_on_commit_callbacks
):
    from tests.games.play_helpers import play_until

    game = play_until(make_game(alice, bob, name="Careful"), lambda s: not s.stack and s.phase == "end_turn"
                      and not s.players[1 - s.current].in_jail)
    users = users_by_seat(game)
    ender = game.current_seat
    nxt, sq, left = _rig_a_deed_for_the_next_player(game)
    _orders(game, nxt, roll=True, buy_keep=left + 1)  # (a dollar short)

    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users[ender], action={"type": "end_turn"},
                                    expected_version=game.version)

    game.refresh_from_db()
    assert game.pending == "buy" and game.waiting_seats == [nxt] and game.deadline is not None
    assert GameState.from_json(game.state).owner[sq] != nxt
    assert list(GameAction.objects.filter(game=game, source="standing").values_list("action__type", flat=True)) == [
        "roll"]
