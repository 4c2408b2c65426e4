"""Every user-written name on a page is isolated from the text beside it (issue 26, item 29):
a <bdi> around the name (the HTML isolate), so that a name written right to left, or one holding
a direction mark from before the names were checked, cannot reorder the words around it. And a
table's name loses its invisible characters."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.names import isolated
from games import services
from moderation import services as moderation_services
from moderation.models import ChatMessage
from notifications.models import Kind, Notification
from tests.games.play_helpers import start_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ARABIC = "\u0623\u0644\u064a\u0633"  # "Alice" in Arabic letters: written right to left


def test_a_tables_name_loses_its_direction_marks_and_invisible_characters(alice):
    table = services.table_create(host=alice, name="Evil\u202e elbat \u2066x\u2069\u200b", preset="classic")
    assert table.name == "Evil elbat x"


def test_the_lobby_and_my_games_isolate_table_and_player_names(client, alice, bob):
    alice.display_name = ARABIC
    alice.save(update_fields=["display_name"])
    table = services.table_create(host=alice, name=f"{ARABIC} 1", preset="classic")
    client.force_login(bob)

    lobby = client.get(reverse("games:lobby")).content.decode()
    assert f"<bdi>{ARABIC} 1</bdi>" in lobby
    assert f"Host: <bdi>{ARABIC}</bdi>" in lobby
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert f"<bdi>{ARABIC}</bdi>" in page

    game = start_game(alice, bob, name="Duel")
    watch = client.get(reverse("games:lobby")).content.decode()
    assert f"<bdi>{ARABIC}</bdi>, <bdi>Bob</bdi>" in watch  # the game in progress's players
    services.game_submit_action(game=game, user=bob, action={"type": "surrender"}, expected_version=game.version)
    mine = client.get(reverse("games:my_games")).content.decode()
    assert "<bdi>Duel</bdi>" in mine and f"Winner: <bdi>{ARABIC}</bdi>" in mine


def test_the_game_page_isolates_the_players_names_in_their_cards_and_the_log(client, alice, bob):
    alice.display_name = ARABIC
    alice.save(update_fields=["display_name"])
    game = start_game(alice, bob, pace="correspondence")
    client.force_login(bob)

    page = client.get(reverse("games:game", args=[game.pk])).content.decode()

    assert f"Waiting on <bdi>{ARABIC}</bdi> ·" in page

    assert f'<span class="player-name"><bdi>{ARABIC}</bdi>' in page
    assert '<span class="player-name"><bdi>Bob</bdi>' in page
    log = page.split('class="log-entry"', 1)[1]
    assert "<bdi>" in log.split("</li>", 1)[0]


def test_chat_lines_isolate_the_author_and_the_text(client, alice, bob):
    game = start_game(alice, bob, pace="correspondence")
    moderation_services.chat_post(user=alice, game=game, text="hi, it's me", is_player=True)
    # A line written before the names were checked, with a right-to-left override in the name.
    ChatMessage.objects.create(game=game, author=bob, author_name="np3\u202ebob", text="123 abc")
    client.force_login(alice)

    lines = client.get(reverse("moderation:chat", args=[game.pk]), **HTMX).content.decode()

    assert '<bdi class="chat-author">Alice</bdi>' in lines
    assert '<bdi class="chat-text">hi, it&#x27;s me</bdi>' in lines
    assert '<bdi class="chat-author">np3\u202ebob</bdi>' in lines
    assert "Block <bdi>np3\u202ebob</bdi>" in lines


def test_the_bell_isolates_the_tables_name(client, alice, bob):
    game = start_game(alice, bob, pace="correspondence", name=f"{ARABIC} 2")
    Notification.objects.create(user=bob, kind=Kind.YOUR_TURN, key="k", game=game)
    client.force_login(bob)

    inbox = client.get(reverse("notifications:inbox")).content.decode()

    assert f'<bdi class="inbox-table">{ARABIC} 2</bdi>' in inbox


def test_isolated_wraps_each_name_once_longest_first_and_escapes_the_rest():
    text = "Bobby pays $50 to Bob <b>"
    assert str(isolated(text, ["Bob", "Bobby", ""])) == (
        "<bdi>Bobby</bdi> pays $50 to <bdi>Bob</bdi> &lt;b&gt;")
    assert str(isolated("<Ann> & co", ["<Ann>"])) == "<bdi>&lt;Ann&gt;</bdi> &amp; co"
    assert str(isolated("nobody", ["Ann"])) == "nobody"


def test_the_profile_and_the_moderators_pages_isolate_names(client, alice, bob):
    from tests.moderation.conftest import make_moderator

    alice.display_name = ARABIC
    alice.save(update_fields=["display_name"])
    client.force_login(bob)
    profile = client.get(reverse("ratings:profile", args=[alice.username])).content.decode()
    assert f"<h1><bdi>{ARABIC}</bdi></h1>" in profile

    moderation_services.report_create(reporter=bob, reason="name", target=alice)
    client.force_login(make_moderator("mona"))
    queue = client.get(reverse("moderation:queue")).content.decode()
    assert f"· <bdi>{ARABIC}</bdi>" in queue and "by <bdi>Bob</bdi>" in queue
    account = client.get(reverse("moderation:account", args=[alice.pk])).content.decode()
    assert f"<h1><bdi>{ARABIC}</bdi> <span" in account
