"""Cheap moves (issue 12): the page's own move answer holds only what the move changed, as htmx
partials (games/views/move_parts.py), and HTML answers are compressed."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import GameState
from games.models import Game
from tests.games.play_helpers import autoplay, next_move, start_game, users_by_seat

pytestmark = pytest.mark.django_db
PARTS = {"HTTP_HX_REQUEST": "true", "HTTP_X_GAME_PARTS": "1"}
# Each out-of-band swap: (target, swap style).
TARGET = re.compile(r'hx-swap-oob="(\w+):([^"]+)"')


def _targets(html: str) -> list[tuple[str, str]]:
    return [(target, swap) for swap, target in TARGET.findall(html)]


def _login_mover(client, game: Game) -> None:
    client.force_login(users_by_seat(game)[next_move(game)[0]])


def _post_move(client, game: Game, **headers):
    _seat, move = next_move(game)
    fields = {"version": game.version, **{k: v for k, v in move.items() if k != "player"}}
    return client.post(reverse("games:game_act", args=[game.pk]), fields, **headers)


def test_a_roll_answers_with_the_changed_parts_only(client, alice, bob):
    game = start_game(alice, bob)
    before = GameState.from_json(game.state)
    mover = before.current
    _login_mover(client, game)
    full = client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true").content

    response = _post_move(client, game, **PARTS)

    assert response.status_code == 200
    html = response.content.decode()
    targets = _targets(html)
    # Everything is a partial: no #game, nothing for htmx's own swap.
    assert 'id="game"' not in html and response["HX-Reswap"] == "none"
    assert html.count("hx-swap-oob=") == len(targets)
    after = GameState.from_json(Game.objects.get(pk=game.pk).state)
    assert json.loads(response["HX-Trigger"]) == {"game:moved": {"version": game.version + 1}}
    squares = {t for t, _swap in targets if ".board .squares > .sq" in t}
    # The token left its square and arrived on another: those two squares (more only if the
    # landing square is offered to buy, or the pool changed), never the whole board.
    start, end = before.players[mover].pos, after.players[mover].pos
    assert f"#game .board .squares > .sq:nth-child({start + 1})" in squares
    assert f"#game .board .squares > .sq:nth-child({end + 1})" in squares
    assert len(squares) <= 4
    assert html.count('class="sq ') == len(squares)
    assert ("#game .centre", "innerHTML") in targets
    assert ("#game .log-list", "afterbegin") in targets
    # The mover's card (position, maybe cash) changed; the other player's did not.
    cards = [t for t, _swap in targets if ".players >" in t]
    assert cards == [f"#game .players > .player:nth-of-type({mover + 1})"]
    assert len(response.content) * 3 < len(full)


def test_without_the_page_script_the_move_answers_with_the_whole_fragment(client, alice, bob):
    game = start_game(alice, bob)
    _login_mover(client, game)

    response = _post_move(client, game, HTTP_HX_REQUEST="true")

    html = response.content.decode()
    assert html.lstrip().startswith('<div id="game"') and "hx-swap-oob" not in html


def test_a_move_that_ends_the_game_answers_with_the_whole_fragment(client, alice, bob):
    game = start_game(alice, bob)
    seat = game.waiting_seats[0]
    client.force_login(users_by_seat(game)[seat])

    response = client.post(reverse("games:game_act", args=[game.pk]),
                           {"version": game.version, "type": "surrender", "confirm": "yes"}, **PARTS)

    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game"' in html and "game-over-banner" in html and "hx-swap-oob" not in html


def test_the_log_keeps_its_first_page_after_a_move(client, alice, bob):
    game = autoplay(start_game(alice, bob), 30)
    assert game.state["seq"] + 1 > 20  # the page shows 20 entries and "Older moves"
    _login_mover(client, game)

    response = _post_move(client, game, **PARTS)

    targets = _targets(response.content.decode())
    added = Game.objects.get(pk=game.pk).state["seq"] - game.state["seq"]
    assert added >= 1
    assert ("#game .log-list", "afterbegin") in targets
    # The entries pushed past the first page go, and the link to older ones moves on.
    assert ("#game .log-list > .log-entry:nth-child(n+21)", "delete") in targets
    assert ("#game .log-list > .log-more", "outerHTML") in targets


def test_a_refused_move_still_answers_with_the_whole_fragment(client, alice, bob):
    game = start_game(alice, bob)
    seat, _move = next_move(game)
    client.force_login(users_by_seat(game)[seat])

    response = client.post(reverse("games:game_act", args=[game.pk]),
                           {"version": game.version - 1, "type": "roll"}, **PARTS)

    assert response.status_code == 409
    assert 'id="game"' in response.content.decode()


def test_a_cheap_move_reads_no_more_than_the_full_answer(client, alice, bob):
    game = start_game(alice, bob)
    _login_mover(client, game)
    with CaptureQueriesContext(connection) as cheap:
        assert _post_move(client, game, **PARTS).status_code == 200
    game = Game.objects.get(pk=game.pk)
    _login_mover(client, game)
    with CaptureQueriesContext(connection) as full:
        assert _post_move(client, game, HTTP_HX_REQUEST="true").status_code == 200

    assert len(cheap.captured_queries) <= len(full.captured_queries)


def test_html_answers_are_gzipped_and_event_streams_are_not(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)

    response = client.get(reverse("games:game", args=[game.pk]), HTTP_ACCEPT_ENCODING="gzip, br")

    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content).decode()
    assert 'id="game"' in html
    # The CSRF token in the forms differs in every answer (masked anew): BREACH learns nothing.
    again = gzip.decompress(client.get(reverse("games:game", args=[game.pk]),
                                       HTTP_ACCEPT_ENCODING="gzip").content).decode()
    token = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
    assert token.search(html).group(1) != token.search(again).group(1)
