"""The JSON view of a game's legal actions (games/views/api.py) and the web benchmark's minimal
endpoint (bench/web/endpoints.py): who may read what, and that the site's own urls have no such
endpoint."""

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
    return f"/games/{game.pk}/bench-lock/"


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


def test_the_sites_urls_have_no_bench_endpoint(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)

    assert client.post(bench_url(game)).status_code == 404
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.urls("bench.web.urls")
def test_the_bench_endpoint_locks_and_touches_the_players_game(client, alice, bob):
    game = start_game(alice, bob)
    before = game.updated_at
    client.force_login(bob)

    response = client.post(bench_url(game))

    assert response.status_code == 204
    game.refresh_from_db()
    assert game.updated_at > before
    assert game.version == 1  # the position is untouched


@pytest.mark.urls("bench.web.urls")
def test_the_bench_endpoint_refuses_outsiders_visitors_and_get(client, alice, bob, charlie):
    game = start_game(alice, bob)

    assert client.post(bench_url(game)).status_code == 404
    client.force_login(charlie)
    assert client.post(bench_url(game)).status_code == 404
    client.force_login(alice)
    assert client.get(bench_url(game)).status_code == 405


# ---------------------------------------------------------------------------------------------
# The act endpoint's JSON answer, for programs
# ---------------------------------------------------------------------------------------------

JSON = {"HTTP_ACCEPT": "application/json"}


def act_url(game: Game) -> str:
    return reverse("games:game_act", args=[game.pk])


def test_a_json_move_answers_the_new_version_and_the_next_legal_actions(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(users_by_seat(game)[game.waiting_seats[0]])

    response = client.post(act_url(game), {"version": game.version, "type": "roll"}, **JSON)

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = response.json()
    after = client.get(legal_url(game)).json()
    assert data == {
        "version": game.version + 1,
        "pending": after["pending"],
        "waiting": after["waiting"],
        "legal": after["actions"],
        "over": False,
    }
    assert after["version"] == data["version"]


def test_json_moves_chain_without_reading_legal_json(client, alice, bob):
    """A program plays on from the answers alone while the game waits on it."""
    game = start_game(alice, bob)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])
    data = {"version": game.version, "waiting": [seat], "legal": [{"type": "roll"}]}
    moves = 0
    while data["waiting"] == [seat] and moves < 10:
        kinds = {a["type"]: a for a in data["legal"]}
        kind = next(k for k in ("roll", "buy", "end_turn") if k in kinds)
        response = client.post(act_url(game), {"version": data["version"], "type": kind}, **JSON)
        assert response.status_code == 200, response.content
        data = response.json()
        moves += 1
    game.refresh_from_db()
    assert moves >= 2
    assert data["version"] == game.version
    assert data["waiting"] == game.waiting_seats


def test_a_stale_json_move_is_409_with_the_current_version_and_changes_nothing(client, alice, bob):
    game = autoplay(start_game(alice, bob), 3)
    client.force_login(users_by_seat(game)[game.waiting_seats[0]])
    before = client.get(legal_url(game)).json()

    response = client.post(act_url(game), {"version": game.version - 1, "type": "roll"}, **JSON)

    assert response.status_code == 409
    assert response.json()["version"] == game.version
    assert response.json()["error"]
    assert client.get(legal_url(game)).json() == before


@pytest.mark.parametrize(
    "fields",
    [{"type": "buy"}, {"type": "no_such_move"}, {"type": "build", "square": "x"}],
    ids=["illegal", "unknown type", "malformed"],
)
def test_an_illegal_or_malformed_json_move_is_400_and_changes_nothing(client, alice, bob, fields):
    game = start_game(alice, bob)
    client.force_login(users_by_seat(game)[game.waiting_seats[0]])
    before = client.get(legal_url(game)).json()

    response = client.post(act_url(game), {"version": game.version, **fields}, **JSON)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]
    assert client.get(legal_url(game)).json() == before


def test_a_json_move_by_a_non_player_is_refused(client, alice, bob, charlie):
    game = start_game(alice, bob)
    private = start_game(alice, bob, private=True, name="Private table")
    client.force_login(charlie)

    response = client.post(act_url(game), {"version": game.version, "type": "roll"}, **JSON)
    assert response.status_code == 403
    assert response.json()["error"]
    assert client.post(act_url(private), {"version": private.version, "type": "roll"}, **JSON).status_code == 404
    client.logout()
    assert client.post(act_url(game), {"version": game.version, "type": "roll"}, **JSON).status_code == 403
    game.refresh_from_db()
    assert game.version == 1


def test_browsers_and_htmx_still_get_html_from_the_act_endpoint(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(users_by_seat(game)[game.waiting_seats[0]])
    browser = {"HTTP_ACCEPT": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}

    assert client.post(act_url(game), {"version": 1, "type": "roll"}, **browser).status_code == 302
    response = client.post(act_url(game), {"version": 1, "type": "roll"}, HTTP_HX_REQUEST="true", **JSON)
    assert response.status_code == 409
    assert response["Content-Type"].startswith("text/html")


def test_a_json_move_takes_a_bounded_number_of_queries(
    client, alice, bob, django_assert_max_num_queries
):
    game = autoplay(start_game(alice, bob), 40)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])
    data = client.get(legal_url(game)).json()
    move = next(a for a in data["actions"] if a["type"] in ("roll", "end_turn", "decline", "pass"))

    # The session, the user, the game with its table, the seats; in the service's transaction
    # (savepoint and release) the locked game, the log row, the game row (a move that changes
    # deeds or players writes their mirrored rows too). Nothing is read again for the answer.
    with django_assert_max_num_queries(11):
        response = client.post(act_url(game), {"version": data["version"], **move}, **JSON)
    assert response.status_code == 200
