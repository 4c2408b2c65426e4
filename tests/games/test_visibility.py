"""Who may see a table and its game is decided once (games.selectors._seen_by): the table page,
the game page, its poll, its log and the programs' legal.json all answer alike, and the
selectors answer None (the views say 404) rather than raising."""

from __future__ import annotations

import inspect

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games import selectors, services
from games.models import Invitation
from tests.factories import UserFactory
from tests.games.play_helpers import start_game

pytestmark = pytest.mark.django_db


def pages(game):
    return [
        reverse("games:table", args=[game.table_id]),
        reverse("games:game", args=[game.pk]),
        reverse("games:game_poll", args=[game.pk]),
        reverse("games:game_log", args=[game.pk]),
        reverse("games:game_legal", args=[game.pk]),
    ]


@pytest.fixture
def private_game(alice, bob):
    return start_game(alice, bob, private=True)


@pytest.fixture
def invitee(private_game, alice):
    user = UserFactory(username="dora", display_name="Dora", email="dora@example.com")
    Invitation.objects.create(table=private_game.table, email="DORA@example.com", invited_by=alice)
    return user


def test_a_private_game_and_its_table_are_404_on_every_page_for_an_outsider(client, charlie,
                                                                             private_game):
    for signed_in in (False, True):
        if signed_in:
            client.force_login(charlie)
        for url in pages(private_game):
            assert client.get(url).status_code == 404, url
    assert selectors.visible_game(game_id=private_game.pk, user=charlie) is None
    assert selectors.visible_game(game_id=private_game.pk, user=AnonymousUser()) is None
    assert selectors.table_page(table_id=private_game.table_id, user=charlie) is None


def test_the_players_and_the_invited_see_every_page_of_a_private_game(client, bob, invitee,
                                                                      private_game):
    for user in (bob, invitee):
        client.force_login(user)
        for url in pages(private_game):
            # (A started game's table page sends its viewers on to the game.)
            assert client.get(url).status_code in (200, 302), (user, url)

    seen = selectors.visible_game(game_id=private_game.pk, user=invitee)
    assert seen is not None and seen.me is None  # invited, not seated: a spectator
    assert selectors.visible_game(game_id=private_game.pk, user=bob).me.user == bob
    # (What the poll compares with the page's version: one read, play.poll.)
    assert selectors.visible_game(game_id=private_game.pk, user=bob).game.version == private_game.version


def test_an_invited_spectator_of_a_private_game_may_not_move(client, invitee, private_game):
    client.force_login(invitee)

    response = client.post(reverse("games:game_act", args=[private_game.pk]),
                           {"version": private_game.version, "type": "roll"},
                           HTTP_ACCEPT="application/json")

    assert response.status_code == 403
    assert client.get(reverse("games:game_legal", args=[private_game.pk])).json()["actions"] == []


def test_a_public_game_is_seen_by_anyone(client, alice, bob):
    game = start_game(alice, bob)

    for url in pages(game):
        assert client.get(url).status_code in (200, 302), url
    seen = selectors.visible_game(game_id=game.pk, user=AnonymousUser())
    assert seen is not None and seen.me is None and len(seen.seats) == 2


def test_the_invitation_code_opens_a_private_table_and_nothing_else(alice, charlie, private_game):
    table = private_game.table

    assert selectors.visible_table(table_id=table.pk, user=charlie) is None
    assert selectors.visible_table(table_id=table.pk, user=charlie, code="wrong") is None
    assert selectors.visible_table(table_id=table.pk, user=charlie, code=table.invite_code) == table
    assert selectors.table_page(table_id=table.pk, user=charlie, code=table.invite_code).table == table


def test_selectors_answer_none_for_what_does_not_exist(alice):
    assert selectors.visible_game(game_id=10**9, user=alice) is None
    assert selectors.table_page(table_id=10**9, user=alice) is None
    assert selectors.table_by_invite_code(code="no-such-code") is None
    assert selectors.table_by_invite_code(code="") is None


def test_no_selector_of_the_games_app_raises_http404():
    assert "Http404" not in inspect.getsource(selectors)


def test_leaving_a_private_table_one_came_to_by_its_link_goes_back_to_the_lobby(client, alice, charlie):
    table = services.table_create(host=alice, name="Secret", preset="classic", pace="live",
                                  turn_hours=24, seat_count=3, is_private=True)
    client.force_login(charlie)
    join = client.post(reverse("games:table_join", args=[table.pk]), {"code": table.invite_code})
    assert join.status_code == 302 and table.seats.filter(user=charlie).exists()

    left = client.post(reverse("games:table_leave", args=[table.pk]), HTTP_HX_REQUEST="true")

    assert left.status_code == 200 and left["HX-Redirect"] == reverse("games:lobby")
    assert not table.seats.filter(user=charlie).exists()
    assert client.get(reverse("games:table", args=[table.pk])).status_code == 404


def test_the_rule_decided_on_a_games_seats_is_the_rule_of_the_filter(alice, bob, charlie, invitee,
                                                                       private_game):
    """visible_game decides on the seats it reads (selectors._sees); table lists filter with
    _seen_by: both say the same for every kind of viewer of a public and a private game."""
    from games.models import Game, Seat

    public_game = start_game(charlie, bob, name="Public")
    host_only = UserFactory(username="erin", display_name="Erin", email="")
    private_game.table.host = host_only  # a host without a seat (left the table, say)
    private_game.table.save(update_fields=["host"])
    viewers = [AnonymousUser(), alice, bob, charlie, invitee, host_only,
               UserFactory(username="frank", display_name="Frank", email="frank@example.com")]
    for game in (public_game, private_game):
        seats = list(Seat.objects.filter(table_id=game.table_id))
        for user in viewers:
            by_filter = Game.objects.filter(selectors._seen_by(user, table="table__"), pk=game.pk).exists()
            game.table.refresh_from_db()
            assert selectors._sees(user, game.table, seats) == by_filter, (game.table.name, user)
            assert (selectors.visible_game(game_id=game.pk, user=user) is not None) == by_filter
