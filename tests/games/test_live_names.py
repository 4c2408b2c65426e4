"""A player who changes their display name is shown by the new one wherever the site shows a
game (My games, the game page and its log, the replay, refusals, the game-over e-mail), though
the engine's state keeps the names given at the start. Bots are shown by their seat's label,
in the reader's language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from games.selectors import live_names
from notifications import tasks as notification_tasks
from notifications.models import Kind
from tests.games.play_helpers import start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _rename(user, name: str) -> None:
    user.display_name = name
    user.save(update_fields=["display_name"])


def _finish(game: Game, loser) -> Game:
    """The loser surrenders: a two-player game is over."""
    game.refresh_from_db()
    services.game_submit_action(game=game, user=loser, action={"type": "surrender"},
                                expected_version=game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def _seat(position: int, *, user=None, bot: str = "", label: str = "") -> SimpleNamespace:
    return SimpleNamespace(position=position, user=user, user_id=user and 1, bot=bot, account_deleted=False,
                           label=label)


def test_live_names_follow_users_and_keep_departed_players():
    seats = [_seat(0, user=SimpleNamespace(public_name="Robert")), _seat(1)]

    assert live_names(["Bob", "Dora"], seats) == ["Robert", "Dora"]


def test_live_names_show_a_bot_by_its_seats_label_in_the_readers_language():
    """The state keeps the host's words ("Random bot 2"); the seat's label is translated."""
    seats = [_seat(0, user=SimpleNamespace(public_name="Ann")), _seat(1, bot="random", label="Bot aleatorio 2")]

    assert live_names(["Ann", "Random bot 2"], seats) == ["Ann", "Bot aleatorio 2"]


def test_names_that_now_coincide_get_their_seat_number():
    seats = [_seat(0, user=SimpleNamespace(public_name="Sam")), _seat(1, user=SimpleNamespace(public_name="Sam")),
             _seat(2, user=SimpleNamespace(public_name="Dora"))]

    assert live_names(["Ann", "Sam", "Dora"], seats) == ["Sam (1)", "Sam (2)", "Dora"]


def test_my_games_names_the_winner_by_the_current_display_name(client, alice, bob):
    game = start_game(alice, bob)
    _finish(game, bob)
    _rename(alice, "Alicia")
    client.force_login(bob)

    html = client.get(reverse("games:my_games")).content.decode()

    assert "Winner: <bdi>Alicia</bdi>" in html
    assert "Alice" not in html


def test_the_game_page_and_its_log_show_the_current_names(client, alice, bob, charlie):
    game = start_game(alice, bob)
    _rename(bob, "Robert")
    client.force_login(alice)

    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    log = client.get(reverse("games:game_log", args=[game.pk])).content.decode()

    assert "Robert" in page and "Robert" in log
    assert "Bob" not in page and "Bob" not in log
    # The stored position keeps the start's names (a record replays with them).
    game.refresh_from_db()
    assert "Bob" in [p["name"] for p in game.state["players"]]


def test_a_refusal_names_the_player_to_move_by_the_current_name(client, alice, bob):
    game = start_game(alice, bob)
    users = users_by_seat(game)
    mover, waiter = users[game.current_seat], users[1 - game.current_seat]
    _rename(mover, "Newname")
    client.force_login(waiter)

    response = client.post(reverse("games:game_act", args=[game.pk]),
                           {"version": game.version, "type": "roll"}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 400
    assert "Refused: it is <bdi>Newname</bdi>&#39;s turn." in html


def test_the_replay_and_the_game_over_email_use_the_current_names(client, alice, bob, mailoutbox):
    game = start_game(alice, bob, pace="correspondence")
    game = _finish(game, bob)
    _rename(alice, "Alicia")
    _rename(bob, "Robert")
    client.force_login(bob)

    replay = client.get(reverse("games:game_replay", args=[game.pk])).content.decode()
    notification_tasks.notify(game.pk, [[Kind.GAME_OVER, bob.pk, f"g{game.pk}:over", None, {}]])

    assert "Alicia" in replay and "Robert" in replay
    assert "Alice" not in replay and "Bob" not in replay
    over = next(m for m in mailoutbox if m.to == [bob.email])
    assert "The winner: Alicia." in over.body
    # The downloadable record keeps the names the game was played with.
    record = client.get(reverse("games:game_record", args=[game.pk])).json()
    assert sorted(record["names"]) == ["Alice", "Bob"]
