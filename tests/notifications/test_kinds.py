"""The other kinds through the same path: a trade offered, the start, the end, a forfeit by
missed turns, an invitation; each once, each with the one-click unsubscribe headers."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django.utils.html import escape

from games import services
from games import tasks as game_tasks
from games.models import Game
from notifications.models import Kind, Mode, Notification
from notifications.services import preference_set
from tests.games.play_helpers import users_by_seat


def _has_unsubscribe_headers(mail) -> bool:
    value = mail.extra_headers.get("List-Unsubscribe", "")
    return (value.startswith(f"<{settings.SITE_URL}/notifications/unsubscribe/")
            and mail.extra_headers.get("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")


@pytest.mark.django_db
def test_a_trade_offered_to_you_is_told_as_a_trade(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Barter")
    users = users_by_seat(game)
    mover = game.waiting_seats[0]
    other = 1 - mover
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users[mover], expected_version=game.version,
                                    action={"type": "propose", "to": other, "give": {"cash": 10}, "take": {}})

    assert [m.to for m in mailoutbox] == [[users[other].email]]
    mail = mailoutbox[0]
    assert mail.subject == "[Monopoly] A trade is offered to you in “Barter”"
    assert "offers you a trade" in mail.body
    assert _has_unsubscribe_headers(mail)


@pytest.mark.django_db
def test_the_start_is_told_to_the_players_the_game_does_not_wait_on(
    alice, bob, charlie, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, charlie, name="Three")
    users = users_by_seat(game)
    first = users[game.waiting_seats[0]]

    by_user = {m.to[0]: m.subject for m in mailoutbox}
    assert by_user[first.email] == "[Monopoly] Your turn in “Three”"
    # The host started it (and saw it start); the third player hears that it has begun.
    started = {u.email for u in (bob, charlie) if u != first}
    assert {email for email, subject in by_user.items() if subject == "[Monopoly] “Three” has started"} == started
    assert len(mailoutbox) == 1 + len(started)
    assert all(_has_unsubscribe_headers(m) for m in mailoutbox)


@pytest.mark.django_db
def test_the_end_is_told_to_every_player_once(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    from notifications import tasks

    game = make_game(alice, bob, name="Final")
    loser = users_by_seat(game)[game.waiting_seats[0]]
    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=loser, action={"type": "surrender"},
                                    expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    winner = users_by_seat(game)[game.winner_seat]

    subjects = {m.to[0]: m.subject for m in mailoutbox}
    assert subjects == {winner.email: "[Monopoly] You won “Final”!", loser.email: "[Monopoly] “Final” is over"}
    items = [[Kind.GAME_OVER, loser.pk, f"g{game.pk}:over", None, {}]]
    assert tasks.notify(game.pk, items) == 0
    assert len(mailoutbox) == 2


@pytest.mark.django_db
def test_a_forfeit_by_missed_turns_is_told_to_the_player(
    alice, bob, charlie, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks, monkeypatch
):
    # A fixed seed: with some dice a player goes bankrupt paying what timeouts make them pay
    # before anyone misses three turns, and no forfeit happens at all.
    monkeypatch.setattr("secrets.randbits", lambda bits: 1)
    game = make_game(alice, bob, charlie, name="Absent")
    for _ in range(40):
        game.refresh_from_db()
        if Notification.objects.filter(kind=Kind.FORFEITED).exists() or game.status != Game.Status.ACTIVE:
            break
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        with django_capture_on_commit_callbacks(execute=True):
            game_tasks.process_deadlines()

    forfeits = [m for m in mailoutbox if m.subject.startswith("[Monopoly] You are out of")]
    assert len(forfeits) == 1
    out = Notification.objects.get(kind=Kind.FORFEITED)
    assert forfeits[0].to == [out.user.email]
    assert game.state["players"][out.seat]["bankrupt"]


@pytest.mark.django_db
def test_an_invitation_to_a_member_follows_their_preferences(alice, bob, make_table, mailoutbox):
    table = make_table(alice, name="Private", is_private=True)
    invitation = services.invitation_create(table=table, by=alice, email=bob.email).invitation

    game_tasks.send_invitation(invitation.pk)
    game_tasks.send_invitation(invitation.pk)

    assert len(mailoutbox) == 1
    assert _has_unsubscribe_headers(mailoutbox[0])

    other = make_table(alice, name="Another", is_private=True)
    preference_set(user=bob, kind=Kind.INVITATION, mode=Mode.OFF)
    later = services.invitation_create(table=other, by=alice, email=bob.email.upper()).invitation
    game_tasks.send_invitation(later.pk)
    assert len(mailoutbox) == 1


@pytest.mark.django_db
def test_an_invitation_to_an_unknown_address_has_no_unsubscribe_link(alice, make_table, mailoutbox):
    table = make_table(alice, name="Open")
    invitation = services.invitation_create(table=table, by=alice, email="new@example.com").invitation

    game_tasks.send_invitation(invitation.pk)

    assert len(mailoutbox) == 1
    assert "List-Unsubscribe" not in mailoutbox[0].extra_headers


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "subject", "footer"), [
    ("es", "[Monopoly] Te ofrecen un intercambio en «Barter»", "No más correos de «Te ofrecen un intercambio»"),
    ("ca", "[Monopoly] T'ofereixen un intercanvi a «Barter»", "No més correus de «T'ofereixen un intercanvi»"),
])
def test_a_notification_speaks_the_recipients_language(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks, language, subject, footer
):
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Barter")
    users = users_by_seat(game)
    mover = game.waiting_seats[0]
    other = users[1 - mover]
    type(other).objects.filter(pk=other.pk).update(language=language)
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users[mover], expected_version=game.version,
                                    action={"type": "propose", "to": 1 - mover, "give": {"cash": 10}, "take": {}})

    assert mailoutbox[0].subject == subject
    assert footer in mailoutbox[0].body
    assert escape(footer) in mailoutbox[0].alternatives[0][0]
