"""The words of the game's e-mails (issue 26, item 26): every subject begins with the site's name
in brackets, as allauth's do; "An auction is open" names the deed; a deadline names the time
zone it is given in (the recipient's)."""

from __future__ import annotations

import re

import pytest

from games import services
from games.engine import GameState, apply, waiting_on
from games.engine.dice import ScriptedRng
from games.models import Game
from notifications import reminders
from tests.games.play_helpers import users_by_seat

pytestmark = pytest.mark.django_db


def test_your_turn_has_the_sites_prefix_and_names_the_deadlines_time_zone(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    type(alice).objects.filter(pk__in=[alice.pk, bob.pk]).update(time_zone="Asia/Tokyo")
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(alice, bob, name="Postal")
    users = users_by_seat(game)
    mover = game.waiting_seats[0]
    mail = next(m for m in mailoutbox if m.to == [users[mover].email])

    assert mail.subject == "[Monopoly] Your turn in “Postal”"
    text, html = mail.body, mail.alternatives[0][0]
    assert re.search(r"Play before [^\n]+ Asia/Tokyo \(in 2[34] h\)", text), text
    assert "Asia/Tokyo</strong>" in html


def test_a_deadline_without_a_chosen_time_zone_is_named_utc(alice, bob, make_game, mailoutbox, celery_eager):
    game = make_game(alice, bob, name="Slow")
    mailoutbox.clear()
    seats = list(game.table.seats.all())
    from notifications.services import notify

    notify(game_id=game.pk, items=reminders.plan_reminders(game=game, seats=seats, now=game.deadline))
    assert mailoutbox[0].subject == "[Monopoly] Reminder: “Slow” is waiting for you"
    assert " UTC (" in mailoutbox[0].body


def test_an_auction_opening_names_the_deed(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game = make_game(alice, bob, name="Gavel")
    state = GameState.from_json(game.state)
    apply(state, {"type": "roll", "player": state.current}, ScriptedRng([2, 4]))
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), waiting_seats=waiting_on(state),
                                           pending=state.pending(), current_seat=state.current)
    game.refresh_from_db()
    users = users_by_seat(game)
    mailoutbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        services.game_submit_action(game=game, user=users[state.current], action={"type": "decline"},
                                    expected_version=game.version)

    [mail] = mailoutbox
    assert mail.to == [users[1 - state.current].email]
    assert mail.subject == "[Monopoly] Oriental Avenue is up for auction in “Gavel”"
    assert "Oriental Avenue is up for auction and you may bid." in mail.body
