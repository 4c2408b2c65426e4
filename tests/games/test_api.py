"""The JSON view of a game's legal actions (games/views/api.py) and the benchmark's minimal
endpoint: who may read what, and that the minimal endpoint does not exist unless switched on."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine import GameState, legal_actions
from games.models import Game
from tests.games.play_helpers import autoplay, start_game, users_by_seat

pytestmark = pytest.mark.django_db


def legal_url(game: Game) -> str:
    return reverse("games:game_legal", args=[game.pk])


def bench_url(game: Game) -> str:
    return reverse("games:game_bench_lock", args=[game.pk])


def test_the_player_to_move_gets_the_engines_legal_actions_without_the_seat(client, alice, bob):
    game = autoplay(start_game(alice, bob), 3)
    state = GameState.from_json(game.state)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])

    data = client.get(legal_url(game)).json()

    assert data["seat"] == seat
    assert data["version"] == game.version
    assert data["status"] == "active"
    assert data["waiting"] == game.waiting_seats
    assert data["pending"] == state.pending()
    expected = [{k: v for k, v in a.items() if k != "player"} for a in legal_actions(state, seat)]
    assert data["actions"] == expected
    assert expected and all("player" not in a for a in data["actions"])


def test_a_listed_action_posted_to_the_act_endpoint_is_applied(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(users_by_seat(game)[game.waiting_seats[0]])
    data = client.get(legal_url(game)).json()
    move = next(a for a in data["actions"] if a["type"] == "roll")

    response = client.post(
        reverse("games:game_act", args=[game.pk]), {"version": data["version"], **move}
    )

    assert response.status_code == 302
    assert client.get(legal_url(game)).json()["version"] == data["version"] + 1


def test_the_other_player_sees_the_position_but_only_their_own_actions(client, alice, bob):
    game = start_game(alice, bob)
    waiting = game.waiting_seats[0]
    other = 1 - waiting
    client.force_login(users_by_seat(game)[other])
    state = GameState.from_json(game.state)

    data = client.get(legal_url(game)).json()

    assert data["seat"] == other
    assert data["waiting"] == [waiting]
    assert data["actions"] == [
        {k: v for k, v in a.items() if k != "player"} for a in legal_actions(state, other)
    ]
    assert all(a["type"] != "roll" for a in data["actions"])


def test_a_spectator_of_a_public_game_gets_no_actions(client, alice, bob, charlie):
    game = start_game(alice, bob)
    client.force_login(charlie)

    data = client.get(legal_url(game)).json()

    assert data["seat"] is None
    assert data["actions"] == []
    assert data["version"] == game.version


def test_an_anonymous_visitor_may_watch_a_public_game(client, alice, bob):
    game = start_game(alice, bob)

    response = client.get(legal_url(game))

    assert response.status_code == 200
    assert response.json()["seat"] is None
    assert response.json()["actions"] == []


def test_a_private_game_does_not_exist_for_outsiders(client, alice, bob, charlie):
    game = start_game(alice, bob, private=True)

    assert client.get(legal_url(game)).status_code == 404
    client.force_login(charlie)
    assert client.get(legal_url(game)).status_code == 404
    client.force_login(bob)
    assert client.get(legal_url(game)).status_code == 200


def test_an_unknown_game_is_404_and_the_view_only_answers_get(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)

    assert client.get(reverse("games:game_legal", args=[game.pk + 1000])).status_code == 404
    assert client.post(legal_url(game)).status_code == 405


def test_a_finished_game_lists_no_actions(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    client.post(
        reverse("games:game_act", args=[game.pk]),
        {"version": game.version, "type": "surrender", "confirm": "yes"},
    )

    data = client.get(legal_url(game)).json()

    assert data["status"] == "finished"
    assert data["actions"] == []


def test_reading_the_legal_actions_takes_a_few_queries(
    client, alice, bob, django_assert_max_num_queries
):
    game = autoplay(start_game(alice, bob), 40)
    client.force_login(alice)
    client.get(legal_url(game))

    # The session, the user, the game with its table, the viewer's seat.
    with django_assert_max_num_queries(4):
        assert client.get(legal_url(game)).status_code == 200


def test_the_bench_endpoint_is_404_unless_switched_on(client, alice, bob, settings):
    assert settings.BENCH_ENDPOINTS is False
    game = start_game(alice, bob)
    client.force_login(alice)

    assert client.post(bench_url(game)).status_code == 404
    game.refresh_from_db()
    assert game.version == 1


def test_the_bench_endpoint_locks_and_touches_the_players_game(client, alice, bob, settings):
    settings.BENCH_ENDPOINTS = True
    game = start_game(alice, bob)
    before = game.updated_at
    client.force_login(bob)

    response = client.post(bench_url(game))

    assert response.status_code == 204
    game.refresh_from_db()
    assert game.updated_at > before
    assert game.version == 1  # the position is untouched


def test_the_bench_endpoint_refuses_outsiders_visitors_and_get(
    client, alice, bob, charlie, settings
):
    settings.BENCH_ENDPOINTS = True
    game = start_game(alice, bob)

    assert client.post(bench_url(game)).status_code == 404
    client.force_login(charlie)
    assert client.post(bench_url(game)).status_code == 404
    client.force_login(alice)
    assert client.get(bench_url(game)).status_code == 405
