""""Your turn": once per wait, never while the player is on the game page, never twice for the
same wait however often its task runs (issue 14)."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from games import services
from games.engine import GameState, waiting_on
from games.models import Game
from notifications import presence, tasks
from notifications.models import Kind, Notification
from tests.games.play_helpers import choose, users_by_seat


def _move(game: Game, capture) -> tuple[int, set[int], set[int]]:
    """One move of the simple player; the seat that moved, who was waited on before and after."""
    game.refresh_from_db()
    state = GameState.from_json(game.state)
    before = set(waiting_on(state))
    seat = next(p for p in waiting_on(state) if choose(state, p) is not None)
    user = users_by_seat(game)[seat]
    with capture(execute=True):
        services.game_submit_action(game=game, user=user, action=choose(state, seat),
                                    expected_version=game.version)
    game.refresh_from_db()
    return seat, before, set(game.waiting_seats)


@pytest.mark.django_db
def test_your_turn_goes_once_per_wait_not_once_per_decision(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Postal")
    users = users_by_seat(game)
    waits = Counter({users[game.waiting_seats[0]].email: 1})
    decisions: Counter[str] = Counter()
    for _ in range(120):
        if game.status != Game.Status.ACTIVE:
            break
        seat, before, after = _move(game, django_capture_on_commit_callbacks)
        decisions[users[seat].email] += 1
        for p in after - before:
            waits[users[p].email] += 1

    told = ("[Monopoly] Your turn", "[Monopoly] A trade", "[Monopoly] An auction")
    turn_mails = Counter(m.to[0] for m in mailoutbox
                         if m.subject.startswith(told) or " is up for auction in " in m.subject)
    assert turn_mails == waits
    # Each player decides more often than they are newly waited on: a roll, a purchase and the
    # end of a turn are one wait (the old way mailed every one of them).
    for email in (alice.email, bob.email):
        assert turn_mails[email] < decisions[email]


@pytest.mark.django_db
def test_no_email_while_the_player_polls_the_game_page(
    alice, bob, make_game, client, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Open tab")
    users = users_by_seat(game)
    for user in (alice, bob):
        client.force_login(user)
        assert client.get(reverse("games:game_poll", args=[game.pk]), {"v": game.version}).status_code == 204
    mailoutbox.clear()

    for _ in range(60):
        _move(game, django_capture_on_commit_callbacks)

    assert mailoutbox == []
    told = Notification.objects.filter(game=game, kind__in=[Kind.YOUR_TURN, Kind.TRADE_OFFERED, Kind.AUCTION_OPEN])
    # The waits are recorded (for the bell), only not e-mailed: the page showed them.
    assert told.exists()
    assert set(told.exclude(key=f"g{game.pk}:v1").values_list("status", flat=True)) == {"active"}
    assert {n.user_id for n in told} <= {u.pk for u in users.values()}


@pytest.mark.django_db
def test_a_player_away_longer_than_the_active_window_is_emailed(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    from datetime import timedelta

    from django.utils import timezone

    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Gone")
    waiting = users_by_seat(game)[game.waiting_seats[0]]
    other = alice if waiting == bob else bob
    presence.seen(user_id=other.pk, game_id=game.pk,
                  now=timezone.now() - timedelta(seconds=presence.ACTIVE_SECONDS + 5))
    mailoutbox.clear()

    for _ in range(60):
        _seat, before, after = _move(game, django_capture_on_commit_callbacks)
        if any(users_by_seat(game)[p] == other for p in after - before):
            break

    assert [m.to for m in mailoutbox] == [[other.email]]


@pytest.mark.django_db
def test_a_task_that_runs_twice_sends_once(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Twice")
    seat = game.waiting_seats[0]
    user = users_by_seat(game)[seat]
    items = [[Kind.YOUR_TURN, user.pk, f"g{game.pk}:v{game.version}", seat, {}]]

    assert tasks.notify(game.pk, items) == 1
    assert tasks.notify(game.pk, items) == 0

    assert len(mailoutbox) == 1
    assert Notification.objects.filter(user=user, kind=Kind.YOUR_TURN).count() == 1


@pytest.mark.django_db
def test_a_failed_email_is_sent_by_the_tasks_next_run(alice, bob, make_game, mailoutbox, monkeypatch):
    from notifications import emails

    game = make_game(alice, bob, name="Retry")
    seat = game.waiting_seats[0]
    user = users_by_seat(game)[seat]
    items = [[Kind.YOUR_TURN, user.pk, f"g{game.pk}:v{game.version}", seat, {}]]
    real = emails.send_notification

    def broken(**kwargs):
        raise ConnectionError("SMTP down")

    monkeypatch.setattr(emails, "send_notification", broken)
    with pytest.raises(ConnectionError):
        tasks.notify(game.pk, items)
    assert Notification.objects.get(user=user).status == "pending"
    monkeypatch.setattr(emails, "send_notification", real)

    assert tasks.notify(game.pk, items) == 1
    assert tasks.notify(game.pk, items) == 0
    assert len(mailoutbox) == 1


@pytest.mark.django_db
def test_a_wait_over_before_its_task_ran_is_not_emailed(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Late")
    seat = game.waiting_seats[0]
    user = users_by_seat(game)[seat]
    items = [[Kind.YOUR_TURN, user.pk, f"g{game.pk}:v{game.version}", seat, {}]]
    # The player answered (here: gave up) before the worker got to the e-mail.
    services.game_submit_action(game=game, user=user, action={"type": "surrender"}, expected_version=game.version)

    assert tasks.notify(game.pk, items) == 0
    assert mailoutbox == []
    assert Notification.objects.get(user=user).status == "stale"
