"""The game chat: on the game page for players and spectators, plain text only (escaped, no
markup), at most 500 characters, at most 5 messages a minute per user, spectators read-only
where the host says so, hidden messages kept but shown to moderators only, private games'
chat as private as the game."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation import services
from moderation.models import ChatMessage

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _post(client, game, text):
    return client.post(reverse("moderation:chat_post", args=[game.pk]), {"text": text}, **HTMX)


def _panel(client, game) -> str:
    return client.get(reverse("moderation:chat", args=[game.pk]), **HTMX).content.decode()


def test_the_game_page_mounts_the_chat_outside_the_refreshed_game(client, alice, game):
    client.force_login(alice)

    html = client.get(reverse("games:game", args=[game.pk])).content.decode()

    mount = f'hx-get="{reverse("moderation:chat", args=[game.pk])}" hx-trigger="load"'
    assert mount in html
    # A link for browsers without JavaScript, to the chat's own page.
    assert f'<a href="{reverse("moderation:chat", args=[game.pk])}">' in html
    assert client.get(reverse("moderation:chat", args=[game.pk])).status_code == 200


def test_a_player_posts_and_everyone_reads_it_escaped(client, alice, bob, game):
    client.force_login(alice)

    response = _post(client, game, '<script>alert("x")</script> <b>bold</b> & co')

    assert response.status_code == 200
    message = ChatMessage.objects.get()
    assert message.text == '<script>alert("x")</script> <b>bold</b> & co'  # stored as typed
    client.logout()
    html = _panel(client, game)  # an anonymous spectator of a public game
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;b&gt;bold&lt;/b&gt; &amp; co" in html
    assert "<script>alert" not in html and "<b>bold" not in html


def test_messages_are_one_line_and_at_most_500_characters(client, alice, game):
    client.force_login(alice)

    too_long = _post(client, game, "x" * 501)
    empty = _post(client, game, "   \n  ")
    just_right = _post(client, game, "y" * 500)
    folded = _post(client, game, "two\nlines   here")

    assert too_long.status_code == 400 and "at most 500 characters" in too_long.content.decode()
    assert empty.status_code == 400 and "Write something first" in empty.content.decode()
    assert just_right.status_code == 200 and folded.status_code == 200
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["y" * 500, "two lines here"]


def test_at_most_five_messages_a_minute_per_user(client, alice, bob, game):
    client.force_login(alice)
    for i in range(5):
        assert _post(client, game, f"message {i}").status_code == 200

    sixth = _post(client, game, "one too many")

    assert sixth.status_code == 400 and "writing too fast" in sixth.content.decode()
    assert ChatMessage.objects.count() == 5
    # Another user is not slowed by alice; and once her messages are older than the window she
    # writes again (the limit is counted from the rows, not from a clock in the test).
    services.chat_post(user=bob, game=game, text="me too", is_player=True)
    ChatMessage.objects.filter(author=alice).update(created_at=timezone.now() - timedelta(minutes=2))
    assert _post(client, game, "again").status_code == 200


def test_spectators_write_unless_the_host_makes_them_read_only(client, alice, bob, charlie, game):
    client.force_login(charlie)
    assert _post(client, game, "good luck both").status_code == 200

    client.force_login(bob)  # not the host: refused
    assert client.post(reverse("moderation:chat_settings", args=[game.pk]), {"read_only": "1"},
                       **HTMX).status_code == 403
    client.force_login(alice)
    assert client.post(reverse("moderation:chat_settings", args=[game.pk]), {"read_only": "1"},
                       **HTMX).status_code == 200

    client.force_login(charlie)
    refused = _post(client, game, "still here")
    assert refused.status_code == 403 and "spectators read the chat" in refused.content.decode()
    assert "good luck both" in _panel(client, game)
    client.force_login(bob)
    assert _post(client, game, "players still write").status_code == 200


def test_a_hidden_message_is_gone_for_players_but_kept_and_marked_for_moderators(client, mod, alice, bob, game, say):
    message = say(bob, "rude words")
    services.message_set_hidden(moderator=mod, message=message, hidden=True, reason="Insult")

    client.force_login(alice)
    assert "rude words" not in _panel(client, game)
    client.force_login(mod)
    html = _panel(client, game)
    assert "rude words" in html and "chat-line-hidden" in html
    assert ChatMessage.objects.filter(pk=message.pk).exists()


def test_a_moderator_hides_from_the_chat_panel(client, mod, bob, game, say):
    message = say(bob, "rude words")
    client.force_login(mod)
    assert f'action="{reverse("moderation:message_hide", args=[message.pk])}"' in _panel(client, game)

    response = client.post(reverse("moderation:message_hide", args=[message.pk]), {"reason": "Insult"}, **HTMX)

    assert response.status_code == 200 and "chat-line-hidden" in response.content.decode()
    message.refresh_from_db()
    assert message.hidden_by == mod


def test_hiding_needs_a_reason(client, mod, bob, game, say):
    message = say(bob, "rude words")

    with pytest.raises(services.ModerationError, match="Give a reason"):
        services.message_set_hidden(moderator=mod, message=message, hidden=True, reason=" ")
    message.refresh_from_db()
    assert message.hidden_at is None


def test_the_private_games_chat_is_for_its_players_only(client, alice, bob, charlie):
    from tests.games.play_helpers import start_game

    private = start_game(alice, bob, private=True)
    client.force_login(charlie)

    assert client.get(reverse("moderation:chat", args=[private.pk]), **HTMX).status_code == 404
    assert _post(client, private, "let me in").status_code == 404
    assert ChatMessage.objects.count() == 0


def test_the_poll_answers_204_until_something_changes(client, alice, bob, game, say):
    say(bob, "first")
    client.force_login(alice)
    url = reverse("moderation:chat", args=[game.pk])
    lines = client.get(url, {"part": "lines", "stamp": "0-0"}, **HTMX)
    assert lines.status_code == 200 and "first" in lines.content.decode()
    stamp = lines.context["stamp"]

    assert client.get(url, {"part": "lines", "stamp": stamp}, **HTMX).status_code == 204
    say(bob, "second")
    again = client.get(url, {"part": "lines", "stamp": stamp}, **HTMX)
    assert again.status_code == 200 and "second" in again.content.decode()


def test_without_javascript_the_chat_page_posts_and_redirects(client, alice, game):
    client.force_login(alice)

    response = client.post(reverse("moderation:chat_post", args=[game.pk]), {"text": "plain form"}, follow=True)

    assert response.redirect_chain[-1][0] == reverse("moderation:chat", args=[game.pk])
    assert "plain form" in response.content.decode()


def test_visitors_read_but_cannot_post(client, game, say, bob):
    say(bob, "hello")

    assert "Sign in to write in the chat." in _panel(client, game)
    assert _post(client, game, "anon").status_code == 302


@pytest.mark.parametrize("count", [3, 50])
def test_the_panel_and_its_poll_take_a_fixed_number_of_queries(client, mod, mod2, alice, bob, game, count,
                                                               django_assert_max_num_queries):
    from tests.factories import UserFactory

    authors = [bob, mod, mod2] + [UserFactory(username=f"talker{i}") for i in range(count // 2)]
    ChatMessage.objects.bulk_create([ChatMessage(game=game, author=authors[i % len(authors)], author_name="x",
                                                 text=f"line {i}") for i in range(count)])
    url = reverse("moderation:chat", args=[game.pk])
    for viewer in (alice, mod):
        client.force_login(viewer)
        with django_assert_max_num_queries(13):
            panel = client.get(url, HTTP_HX_REQUEST="true")
        assert panel.content.decode().count('<li class="chat-line') == count
        with django_assert_max_num_queries(5):
            assert client.get(url, {"part": "lines", "stamp": panel.context["stamp"]},
                              HTTP_HX_REQUEST="true").status_code == 204
    # The moderator may hide every message but their own and another moderator's.
    assert len(panel.context["can_hide"]) == len([i for i in range(count) if i % len(authors) not in (1, 2)])
