"""The "next game waiting" control and My games' waiting times (issue 29): since when each game
waits on each seat, written by the move; one query for the control whatever the number of games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.engine import waiting_on
from games.links import game_path
from reach.models import Wait
from tests.games.play_helpers import autoplay, play_until, users_by_seat
from tests.reach.conftest import waited_since


def _waiting_on(user, make_game, other, n):
    """``n`` games whose first decision waits on ``user``, each with its own wait's age."""
    games = []
    for i in range(n):
        game = make_game(user, other, name=f"G{i}")
        mine = next(p for p, u in users_by_seat(game).items() if u == user)
        game = play_until(game, lambda state, mine=mine: waiting_on(state) == [mine])
        game.refresh_from_db()
        games.append(game)
    return games


@pytest.mark.django_db
def test_a_move_records_the_wait_it_begins_and_ends(alice, bob, make_game):
    game = make_game(alice, bob)
    game.refresh_from_db()
    assert list(Wait.objects.filter(game=game).values_list("seat", flat=True)) == game.waiting_seats
    first = Wait.objects.get(game=game)
    game = autoplay(game, 30)
    game.refresh_from_db()
    rows = dict(Wait.objects.filter(game=game).values_list("seat", "since"))
    assert set(rows) == set(game.waiting_seats)
    if game.waiting_seats != [first.seat]:
        assert first.seat not in rows or rows[first.seat] > first.since


@pytest.mark.django_db
def test_next_goes_to_the_longest_wait_then_the_next_and_round_again(alice, bob, make_game, client):
    a, b, c = _waiting_on(alice, make_game, bob, 3)
    waited_since(a, timedelta(hours=5))
    waited_since(b, timedelta(hours=30))
    waited_since(c, timedelta(hours=1))
    client.force_login(alice)
    url = reverse("reach:next")
    assert client.get(url)["Location"] == game_path(b.pk)
    assert client.get(url, {"after": b.pk})["Location"] == game_path(a.pk)
    assert client.get(url, {"after": a.pk})["Location"] == game_path(c.pk)
    assert client.get(url, {"after": c.pk})["Location"] == game_path(b.pk)
    # Junk in the query: the longest wait, as without it.
    assert client.get(url, {"after": "x" * 5000})["Location"] == game_path(b.pk)

    # Bob is waited on by none of them: My games, saying so.
    client.force_login(bob)
    response = client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:my_games")
    assert "No game is waiting on you." in response.content.decode()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 302
    return len(ctx.captured_queries)


@pytest.mark.django_db
def test_the_control_costs_the_same_queries_for_one_game_and_for_five(alice, bob, make_game, client):
    client.force_login(alice)
    url = reverse("reach:next")
    _waiting_on(alice, make_game, bob, 1)
    one = _queries(client, url)
    _waiting_on(alice, make_game, bob, 4)
    five = _queries(client, url)
    assert one == five
    # And every page carries the control, keyboard-reachable, without a query of its own.
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'id="next-game-waiting"' in page and 'accesskey="n"' in page


@pytest.mark.django_db
def test_my_games_says_how_long_each_game_has_waited(alice, bob, make_game, client):
    (game,) = _waiting_on(alice, make_game, bob, 1)
    waited_since(game, timedelta(hours=3, minutes=5))
    client.force_login(alice)
    page = client.get(reverse("games:my_games")).content.decode()
    assert "waiting on you for 3\xa0hours" in page
    on_page = client.get(game_path(game.pk)).content.decode()
    assert f'href="{reverse("reach:next")}?after={game.pk}"' in on_page


@pytest.mark.django_db
def test_a_finished_game_waits_on_nobody(alice, bob, make_game):
    from tests.games.play_helpers import end_by_surrenders

    game = make_game(alice, bob)
    game = end_by_surrenders(game, 1)
    game.refresh_from_db()
    assert game.status != "active"
    assert not Wait.objects.filter(game=game).exists()
    assert timezone.now()  # (nothing else to it)


@pytest.mark.django_db
def test_a_bot_is_never_waited_on_in_the_rows(alice, make_game):
    game = make_game(alice, bots=("strategy", "strategy"))
    game = autoplay(game, 40)
    humans = {s.position for s in game.table.seats.all() if not s.bot}
    assert set(Wait.objects.filter(game=game).values_list("seat", flat=True)) <= humans
