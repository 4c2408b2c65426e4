"""The game page's permissions and refusals: who may watch, who may move, and that every
refused move (out of turn, forged, stale, submitted twice) leaves the game exactly as it was."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import GameAction
from tests.games.play_helpers import start_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def snapshot(game):
    game.refresh_from_db()
    return game.version, game.state, GameAction.objects.filter(game=game).count()


def act(client, game, *, version=None, htmx=True, **fields):
    data = {"version": game.version if version is None else version, **fields}
    return client.post(reverse("games:game_act", args=[game.pk]), data, **(HTMX if htmx else {}))


def seat_users(game, *users):
    """(the user to move, the other one) for a two-player game."""
    game.refresh_from_db()
    by_seat = {s.position: s.user for s in game.table.seats.all()}
    mover = by_seat[game.current_seat]
    return mover, next(u for u in users if u.pk != mover.pk)


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob)


@pytest.fixture
def private_game(alice, bob):
    return start_game(alice, bob, private=True)


def test_anonymous_spectator_sees_the_board_of_a_public_game_but_no_forms(client, game):
    response = client.get(reverse("games:game", args=[game.pk]))

    html = response.content.decode()
    assert response.status_code == 200
    assert 'class="board board-classic"' in html
    assert html.count('class="sq ') == 40
    assert reverse("games:game_act", args=[game.pk]) not in html
    fragment = client.get(reverse("games:game", args=[game.pk]), **HTMX).content.decode()
    assert fragment.startswith('<div id="game"') or 'id="game"' in fragment[:200]
    assert "<form" not in fragment


def test_logged_in_outsider_watches_a_public_game_read_only(client, charlie, game):
    client.force_login(charlie)

    response = client.get(reverse("games:game", args=[game.pk]))

    assert response.status_code == 200
    assert response.context["is_player"] is False
    assert reverse("games:game_act", args=[game.pk]) not in response.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "charlie"])
def test_private_game_is_not_found_for_outsiders(client, charlie, private_game, who):
    if who == "charlie":
        client.force_login(charlie)

    for name in ("games:game", "games:game_poll", "games:game_log"):
        assert client.get(reverse(name, args=[private_game.pk])).status_code == 404
    assert act(client, private_game, type="roll").status_code == 404


def test_private_game_is_shown_to_its_players(client, bob, private_game):
    client.force_login(bob)

    assert client.get(reverse("games:game", args=[private_game.pk])).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "charlie"])
def test_outsider_move_on_a_public_game_is_forbidden_and_changes_nothing(client, charlie, game, who):
    if who == "charlie":
        client.force_login(charlie)
    before = snapshot(game)

    response = act(client, game, type="roll")

    assert response.status_code == 403
    assert snapshot(game) == before


@pytest.mark.parametrize("who", ["anonymous", "charlie"])
def test_a_spectators_move_without_javascript_gets_the_sites_403_page(client, charlie, game, who):
    if who == "charlie":
        client.force_login(charlie)
    before = snapshot(game)

    response = act(client, game, type="roll", htmx=False)

    html = response.content.decode()
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert 'class="site-header"' in html and "<h1>Not allowed</h1>" in html
    assert "Only the players of this game may make moves." in html
    assert f'href="{reverse("games:game", args=[game.pk])}">Back to the game</a>' in html
    assert snapshot(game) == before


def test_a_spectators_move_with_htmx_redraws_the_game_with_the_message(client, charlie, game):
    client.force_login(charlie)
    before = snapshot(game)

    response = act(client, game, type="roll")

    assert response.status_code == 403
    assert response["HX-Retarget"] == "#game"
    html = response.content.decode()
    assert 'id="game"' in html and "Only the players of this game may make moves." in html
    assert snapshot(game) == before


def test_a_spectators_program_still_gets_json(client, charlie, game):
    client.force_login(charlie)

    response = client.post(reverse("games:game_act", args=[game.pk]), {"version": game.version, "type": "roll"},
                           HTTP_ACCEPT="application/json")

    assert response.status_code == 403
    assert response.json()["error"] == "Only the players of this game may make moves."


def test_a_form_from_an_out_of_date_session_gets_the_sites_403_page(alice, bob, game):
    from django.test import Client

    mover, _ = seat_users(game, alice, bob)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(mover)
    before = snapshot(game)

    page = reverse("games:game", args=[game.pk])
    response = browser.post(reverse("games:game_act", args=[game.pk]), {"version": game.version, "type": "roll"},
                            HTTP_REFERER=f"http://testserver{page}")

    html = response.content.decode()
    assert response.status_code == 403
    assert 'class="site-header"' in html and "<h1>Not allowed</h1>" in html
    assert "Reload the page and try again." in html
    assert "CSRF verification failed" not in html
    assert f'href="http://testserver{page}">Reload that page</a>' in html
    assert snapshot(game) == before


def test_a_form_too_large_to_read_gets_the_sites_400_page(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    before = snapshot(game)
    fields = {f"f{i}": "1" for i in range(1100)}  # past DATA_UPLOAD_MAX_NUMBER_FIELDS

    response = act(client, game, type="roll", htmx=False, **fields)

    html = response.content.decode()
    assert response.status_code == 400
    assert 'class="site-header"' in html and "<h1>Request not understood</h1>" in html
    assert snapshot(game) == before


def test_player_sees_exactly_the_legal_buttons(client, alice, bob, game):
    mover, waiter = seat_users(game, alice, bob)

    client.force_login(mover)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'name="type" value="roll"' in html
    for absent in ("end_turn", "buy", "decline", "bid", "pay_fine", "use_card", "accept"):
        assert f'value="{absent}"' not in html, absent

    client.force_login(waiter)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert 'value="roll"' not in html
    # Classic trades are open at any time, so the other player may still propose or surrender.
    assert 'name="type" value="propose"' in html
    assert 'name="type" value="surrender"' in html


def test_out_of_turn_move_gets_the_engines_message_and_changes_nothing(client, alice, bob, game):
    mover, waiter = seat_users(game, alice, bob)
    client.force_login(waiter)
    before = snapshot(game)

    response = act(client, game, type="roll")

    assert response.status_code == 400
    html = response.content.decode()
    # The name isolated (<bdi>: issue 26, item 30), the rest escaped.
    assert f"it is <bdi>{mover.display_name}</bdi>&#39;s turn" in html
    assert 'id="game"' in html  # the refreshed fragment, swapped in place of the game
    assert response["HX-Retarget"] == "#game"
    assert snapshot(game) == before


def test_out_of_turn_move_without_javascript_redirects_with_the_message(client, alice, bob, game):
    mover, waiter = seat_users(game, alice, bob)
    client.force_login(waiter)
    before = snapshot(game)

    response = act(client, game, type="roll", htmx=False)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    page = client.get(response["Location"]).content.decode()
    assert f"it is {mover.display_name}&#x27;s turn" in page
    assert snapshot(game) == before


@pytest.mark.parametrize("fields, message", [
    ({"type": "teleport_to_boardwalk"}, "Unknown action"),
    ({"type": "timeout"}, "Unknown action"),
    ({"type": ""}, "Unknown action"),
    ({"type": "mortgage", "square": "40"}, "There is no square 40"),
    ({"type": "mortgage", "square": "-1"}, "must be a whole number"),
    ({"type": "mortgage", "square": "Boardwalk"}, "must be a whole number"),
    ({"type": "mortgage"}, "is missing"),
    ({"type": "bid", "amount": "lots"}, "must be a whole number"),
    ({"type": "bid", "amount": "1e3"}, "must be a whole number"),
    ({"type": "roll", "player": "1"}, "Unexpected field"),
    ({"type": "roll", "player": "0"}, "Unexpected field"),
    ({"type": "casino", "numbers": ["7"]}, "Pick different numbers"),
    ({"type": "income_tax", "choice": "nothing"}, "Choose the flat amount"),
    ({"type": "surrender"}, "Tick the box"),
    ({"type": "propose", "to": "1", "give_cash": "-5"}, "must be a whole number"),
    ({"type": "propose", "to": "1", "give_squares": ["1", "1"]}, "listed twice"),
])
def test_forged_or_malformed_form_is_refused_with_a_clear_message_and_changes_nothing(
        client, alice, bob, game, fields, message):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    before = snapshot(game)

    response = act(client, game, **fields)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert snapshot(game) == before


def test_version_that_is_not_a_number_is_refused(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    before = snapshot(game)

    response = act(client, game, version="latest", type="roll")

    assert response.status_code == 400
    assert snapshot(game) == before


def test_player_field_cannot_make_a_move_for_the_other_seat(client, alice, bob, game):
    _mover, waiter = seat_users(game, alice, bob)
    client.force_login(waiter)
    before = snapshot(game)

    response = act(client, game, type="roll", player=str(game.current_seat))

    assert response.status_code == 400
    assert snapshot(game) == before


def test_stale_version_gets_409_with_a_fresh_board_and_changes_nothing(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    before = snapshot(game)

    response = act(client, game, version=game.version - 1, type="roll")

    assert response.status_code == 409
    html = response.content.decode()
    assert "the game has moved on" in html.lower()
    assert f'data-version="{game.version}"' in html
    assert response["HX-Retarget"] == "#game"
    assert response["HX-Reswap"] == "outerHTML"
    assert snapshot(game) == before


def test_stale_version_without_javascript_redirects_with_a_message(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    before = snapshot(game)

    response = act(client, game, version=game.version + 5, type="roll", htmx=False)

    assert response.status_code == 302
    assert "moved on" in client.get(response["Location"]).content.decode()
    assert snapshot(game) == before


def test_double_submission_applies_once(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    version, _state, actions = snapshot(game)

    first = act(client, game, version=version, type="roll")
    second = act(client, game, version=version, type="roll")

    assert first.status_code == 200
    assert second.status_code == 409
    game.refresh_from_db()
    assert game.version == version + 1
    assert GameAction.objects.filter(game=game).count() == actions + 1


def test_a_move_without_javascript_redirects_to_the_game(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    version = game.version

    response = act(client, game, type="roll", htmx=False)

    assert response.status_code == 302
    assert response["Location"] == reverse("games:game", args=[game.pk])
    game.refresh_from_db()
    assert game.version == version + 1


def test_act_refuses_get(client, alice, game):
    client.force_login(alice)

    assert client.get(reverse("games:game_act", args=[game.pk])).status_code == 405


def test_a_move_on_a_finished_game_is_refused(client, alice, bob, game):
    mover, _ = seat_users(game, alice, bob)
    client.force_login(mover)
    assert act(client, game, type="surrender", confirm="yes").status_code == 200
    before = snapshot(game)

    response = act(client, game, type="roll")

    assert response.status_code == 400
    assert "this game is over" in response.content.decode()
    assert snapshot(game) == before
