"""Deadlines (RULES.md 11): every decision newly waited on gets a fresh deadline and its e-mail,
nothing else moves the deadline, and a sweep never times out a decision a player has just taken."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, tasks
from games.engine import GameState, waiting_on
from games.models import Game, GameAction, Table
from notifications.models import Notification
from tests.games.play_helpers import no_auto_vacation, play_until, rig_doubles, start_game, users_by_seat

PAST = timedelta(seconds=30)


def expire(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - PAST)
    game.refresh_from_db()


def current_user(game: Game):
    return game.table.seats.get(position=game.current_seat).user


@pytest.mark.django_db
def test_a_roll_of_doubles_is_a_new_decision_with_a_fresh_deadline(alice, bob, make_game):
    game = make_game(alice, bob, pace=Table.Pace.LIVE)
    rig_doubles(game)
    expire(game)
    seat, old_deadline = game.current_seat, game.deadline

    services.game_submit_action(game=game, user=current_user(game), action={"type": "roll"},
                                expected_version=game.version)

    game.refresh_from_db()
    assert game.current_seat == seat and game.pending == "roll"
    assert game.deadline > old_deadline
    # The sweep that follows finds nothing due: the player who just moved is not timed out.
    assert tasks.process_deadlines() == 0
    assert not GameAction.objects.filter(game=game, source="timeout").exists()
    assert game.state["players"][seat]["missed"] == 0


@pytest.mark.django_db
def test_the_turn_email_goes_out_after_a_timed_out_doubles_roll(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob, name="Postal")
    no_auto_vacation(game)
    rig_doubles(game)
    expire(game)
    user = current_user(game)
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.process_deadlines() >= 1

    game.refresh_from_db()
    # The timeout rolled for the player, doubles: they roll again, a decision of its own.
    assert game.current_seat == game.table.seats.get(user=user).position and game.pending == "roll"
    assert game.deadline > timezone.now()
    assert [m.to for m in mailoutbox] == [[user.email]]
    assert mailoutbox[0].subject == "[Monopoly] Your turn in “Postal”"
    assert Notification.objects.filter(user=user, key=f"g{game.pk}:v{game.version}", status="sent").exists()


@pytest.mark.django_db
def test_a_move_that_leaves_the_same_decision_keeps_its_deadline(alice, bob):
    game = start_game(alice, bob, pace="live")

    def can_mortgage(state: GameState) -> bool:
        p = state.current
        return not state.stack and any(state.owner[sq] == p and not state.mortgaged[sq] for sq in state.board.deeds)

    game = play_until(game, can_mortgage)
    state = GameState.from_json(game.state)
    sq = next(sq for sq in state.board.deeds if state.owner[sq] == state.current and not state.mortgaged[sq])
    marked = timezone.now() + timedelta(seconds=7)
    Game.objects.filter(pk=game.pk).update(deadline=marked)
    game.refresh_from_db()

    services.game_submit_action(game=game, user=users_by_seat(game)[state.current],
                                action={"type": "mortgage", "square": sq}, expected_version=game.version)

    game.refresh_from_db()
    assert game.state["mortgaged"][sq]
    assert game.deadline == marked


def _open_auction(alice, bob, charlie) -> Game:
    """A classic (open auction) live game between three people, at a deed's auction."""
    game = start_game(alice, bob, charlie, pace="live")
    game = play_until(game, lambda s: s.pending() == "buy")
    users = users_by_seat(game)
    services.game_submit_action(game=game, user=users[game.current_seat], action={"type": "decline"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.pending == "auction" and len(game.waiting_seats) == 3
    return game


@pytest.mark.django_db
def test_a_new_bid_is_a_new_decision_for_the_other_bidders_and_a_pass_is_not(alice, bob, charlie):
    game = _open_auction(alice, bob, charlie)
    users = users_by_seat(game)
    bidder, passer, third = game.waiting_seats
    expire(game)
    bid_at = game.deadline

    services.game_submit_action(game=game, user=users[bidder], action={"type": "bid", "amount": 5},
                                expected_version=game.version)

    game.refresh_from_db()
    assert sorted(game.waiting_seats) == sorted([passer, third])
    assert game.deadline > bid_at
    marked = timezone.now() + timedelta(seconds=9)
    Game.objects.filter(pk=game.pk).update(deadline=marked)
    game.refresh_from_db()

    services.game_submit_action(game=game, user=users[passer], action={"type": "pass"},
                                expected_version=game.version)

    game.refresh_from_db()
    assert game.waiting_seats == [third]
    assert game.deadline == marked


@pytest.mark.django_db
def test_a_trade_offer_and_its_answer_are_new_decisions(alice, bob):
    game = start_game(alice, bob, pace="live")
    users = users_by_seat(game)
    me = game.current_seat
    other = 1 - me
    for who, action in ((me, {"type": "propose", "to": other, "give": {"cash": 10}, "take": {}}),
                        (other, {"type": "reject", "trade": 1})):
        expire(game)
        old = game.deadline
        services.game_submit_action(game=game, user=users[who], action=action, expected_version=game.version)
        game.refresh_from_db()
        assert game.deadline > old, action
    assert game.waiting_seats == [me] and game.pending == "roll"


@pytest.mark.django_db
def test_a_sweep_leaves_alone_a_game_a_player_moved_after_the_sweep_read_it(alice, bob, monkeypatch):
    """The sweep reads the due games, then claims each: a move committed in between wins, even
    one that leaves the same decision (and so the same, passed, deadline)."""
    game = start_game(alice, bob, pace="live")
    game = play_until(game, lambda s: not s.stack and any(
        s.owner[sq] == s.current and not s.mortgaged[sq] for sq in s.board.deeds))
    state = GameState.from_json(game.state)
    sq = next(sq for sq in state.board.deeds if state.owner[sq] == state.current and not state.mortgaged[sq])
    expire(game)
    user = users_by_seat(game)[state.current]
    real = services.game_timeout

    def move_first(**kwargs):
        # The player's move lands between the sweep's read and its lock.
        services.game_submit_action(game=game, user=user, action={"type": "mortgage", "square": sq},
                                    expected_version=game.version)
        return real(**kwargs)

    monkeypatch.setattr(tasks.services, "game_timeout", move_first)

    assert tasks.process_deadlines() == 0

    game.refresh_from_db()
    assert not GameAction.objects.filter(game=game, source="timeout").exists()
    assert game.state["players"][state.current]["missed"] == 0
    # The next sweep finds the same decision still due, at the new version, and times it out.
    monkeypatch.setattr(tasks.services, "game_timeout", real)
    assert tasks.process_deadlines() >= 1
    assert GameAction.objects.filter(game=game, source="timeout").exists()


@pytest.mark.django_db
def test_a_move_that_loses_to_the_timeout_gets_the_stale_version_answer(alice, bob, make_game):
    game = make_game(alice, bob, pace=Table.Pace.LIVE)
    expire(game)
    seen = game.version

    assert services.game_timeout(game_id=game.pk, seen_version=seen) >= 1

    with pytest.raises(services.StaleVersion):
        services.game_submit_action(game=game, user=current_user(game), action={"type": "roll"},
                                    expected_version=seen)
    state = GameState.from_json(Game.objects.get(pk=game.pk).state)
    assert waiting_on(state)


@pytest.mark.django_db
def test_in_a_rotating_auction_each_bidder_asked_gets_a_fresh_deadline(alice, bob, charlie):
    game = start_game(alice, bob, charlie, preset="world-classic", pace="live")
    game = play_until(game, lambda s: s.pending() == "buy")
    users = users_by_seat(game)
    services.game_submit_action(game=game, user=users[game.current_seat], action={"type": "decline"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.pending == "auction" and len(game.waiting_seats) == 1
    asked = game.waiting_seats[0]
    expire(game)
    old = game.deadline

    services.game_submit_action(game=game, user=users[asked], action={"type": "pass"},
                                expected_version=game.version)

    game.refresh_from_db()
    assert game.waiting_seats and game.waiting_seats != [asked]
    assert game.deadline > old
    assert tasks.process_deadlines() == 0


@pytest.mark.django_db
def test_a_debtor_raising_money_keeps_the_debts_deadline(alice, bob):
    """A debt is one decision however many sales and mortgages it takes (RULES.md 10)."""
    game = start_game(alice, bob, pace="live")
    game = play_until(game, lambda s: not s.stack and sum(s.owner[sq] == s.current for sq in s.board.deeds) >= 1)
    state = GameState.from_json(game.state)
    p = state.current
    deed = next(sq for sq in state.board.deeds if state.owner[sq] == p)
    # Owed more than the cash: a debt resolution waits on the player.
    state.stack.append({"k": "debt", "p": p, "to": -1, "amt": state.players[p].cash + 10_000, "why": "tax",
                        "pot": False, "cut": 0})
    marked = timezone.now() + timedelta(seconds=11)
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), deadline=marked, pending="debt")
    game.refresh_from_db()

    services.game_submit_action(game=game, user=users_by_seat(game)[p], action={"type": "mortgage", "square": deed},
                                expected_version=game.version)

    game.refresh_from_db()
    assert game.state["mortgaged"][deed] and game.pending == "debt"
    assert game.deadline == marked
