"""The poll (a 204 while nothing moved) and the number of queries the game page, the poll and a
move take, whatever the game's length."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import GameAction
from tests.games.play_helpers import autoplay, end_by_surrenders, next_move, play_until, start_game, users_by_seat

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def test_poll_returns_204_while_the_version_is_unchanged(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)

    response = client.get(reverse("games:game_poll", args=[game.pk]), {"v": game.version}, **HTMX)

    assert response.status_code == 204
    assert response.content == b""


def test_poll_returns_the_fresh_game_after_a_move(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    shown = game.version
    autoplay(game, 1)

    response = client.get(reverse("games:game_poll", args=[game.pk]), {"v": shown}, **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="game"')
    assert f'data-version="{game.version}"' in html
    assert f"?v={game.version}" in html  # the next poll asks about the new version


def test_poll_of_a_spectator_on_a_public_game(client, alice, bob):
    game = start_game(alice, bob)

    assert client.get(reverse("games:game_poll", args=[game.pk]), {"v": game.version}).status_code == 204
    assert client.get(reverse("games:game_poll", args=[game.pk]), {"v": 0}).status_code == 200


def test_page_polls_every_2_s_live_and_every_15_s_by_correspondence(client, alice, bob, charlie):
    live = start_game(alice, bob, pace="live")
    slow = start_game(alice, charlie, pace="correspondence")
    client.force_login(alice)

    assert 'hx-trigger="every 2s" data-poll' in client.get(reverse("games:game", args=[live.pk])).content.decode()
    assert 'hx-trigger="every 15s" data-poll' in client.get(reverse("games:game", args=[slow.pk])).content.decode()


def test_unchanged_poll_is_one_query_besides_the_user(client, alice, bob, settings):
    game = start_game(alice, bob)
    client.force_login(alice)
    url = reverse("games:game_poll", args=[game.pk])
    client.get(url, {"v": game.version})  # warm up

    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, {"v": game.version}, **HTMX).status_code == 204

    sql = [q["sql"] for q in ctx.captured_queries]
    # The user and the game with its seats; the session comes from the cache (cached_db), which is a
    # table only on the embedded defaults (no CACHE_URL).
    on_table = [q for q in sql if "django_cache" in q]
    assert not [q for q in sql if "django_session" in q], sql
    assert len(sql) - len(on_table) == 2, sql


def test_unchanged_poll_of_an_anonymous_spectator_is_one_query(client, alice, bob, django_assert_num_queries):
    game = start_game(alice, bob)
    url = reverse("games:game_poll", args=[game.pk])

    with django_assert_num_queries(1):
        assert client.get(url, {"v": game.version}).status_code == 204


@pytest.mark.parametrize("length", [10, 200])
def test_game_page_queries_do_not_grow_with_the_game(client, alice, bob, charlie, length,
                                                     django_assert_max_num_queries):
    game = start_game(alice, bob, charlie)
    game = autoplay(game, length)
    assert GameAction.objects.filter(game=game).count() >= min(length, 150)
    client.force_login(alice)
    url = reverse("games:game", args=[game.pk])

    with django_assert_max_num_queries(19) as captured:
        assert client.get(url).status_code == 200
    with django_assert_max_num_queries(19):
        assert client.get(url, **HTMX).status_code == 200
    print(f"game page after {length} actions: {len(captured.captured_queries)} queries")


def test_a_move_takes_a_bounded_number_of_queries(client, alice, bob, charlie, django_assert_max_num_queries):
    game = autoplay(start_game(alice, bob, charlie), 60)
    users = users_by_seat(game)
    seat, move = next_move(game)
    client.force_login(users[seat])
    data = {"version": game.version, **{k: v for k, v in move.items() if k not in ("player",)}}
    if move["type"] == "surrender":
        data["confirm"] = "yes"

    with django_assert_max_num_queries(25) as captured:
        response = client.post(reverse("games:game_act", args=[game.pk]), data, **HTMX)
    assert response.status_code == 200, response.content.decode()[:500]
    print(f"one move ({move['type']}) with the refreshed fragment: {len(captured.captured_queries)} queries")


@pytest.mark.parametrize(("pace", "over", "most"), [("live", False, 5), ("correspondence", False, 7),
                                                    ("correspondence", True, 7)])
def test_the_panels_read_no_seats_of_their_own(client, alice, bob, pace, over, most):
    """The aids, ending early and the game-over summary (games/views/page/panels.py) are drawn
    from the seats read with the game, not read again: the fragment's queries are the user, the
    game with its seats, the log, and what only the panels show (standing orders, vacation or
    the pause; the result and the rematch of a finished game). Each read the table's seats once
    more when Django templates drew them: 7, 8 and 8 queries before, 5, 7 and 7 now. The page
    around it read them a third time for the notes and nudges."""
    from ratings import services as ratings_services

    game = play_until(start_game(alice, bob, pace=pace), lambda s: s.round >= 2)
    if over:
        game = end_by_surrenders(game)
        ratings_services.game_result_record(game_id=game.pk)
    client.force_login(alice)
    url = reverse("games:game", args=[game.pk])
    client.get(url, **HTMX)  # warm up

    with CaptureQueriesContext(connection) as ctx:
        html = client.get(url, **HTMX).content.decode()

    sql = [q["sql"] for q in ctx.captured_queries if "django_cache" not in q["sql"]]
    assert ('id="game-summary"' in html) is over
    assert ('id="end-early"' in html) is not over
    assert ('id="pause"' in html) is (pace == "live" and not over)
    assert len([q for q in sql if "games_seat" in q]) == 1, sql
    assert len(sql) <= most, sql

    # The whole page: its notes and nudges (reach) read no seats either.
    with CaptureQueriesContext(connection) as ctx:
        assert 'id="reach-panel"' in client.get(url).content.decode()
    sql = [q["sql"] for q in ctx.captured_queries if "django_cache" not in q["sql"]]
    assert len([q for q in sql if "games_seat" in q]) == 1, sql
