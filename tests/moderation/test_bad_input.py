"""Harmless bad input on the moderation and player forms (issue 26, item 14): each is a 400 (or a
404) read before anything is written, never a 500 after the write. Once, ``next=abc`` saved the
block, the report or the sanction and then failed in redirect(), so that a retry duplicated it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from moderation import services
from moderation.models import AuditEntry, Block, ChatMessage, Report, Sanction

pytestmark = pytest.mark.django_db

BAD_NEXTS = ["abc", "https://evil.example/", "//evil.example/x", "javascript:alert(1)"]


def _nothing_written(message) -> None:
    assert not Block.objects.exists()
    assert not Report.objects.exists()
    assert not Sanction.objects.exists()
    assert not AuditEntry.objects.exists()
    message.refresh_from_db()
    assert message.hidden_at is None


@pytest.mark.parametrize("bad_next", BAD_NEXTS)
def test_a_next_that_is_not_a_path_of_the_site_is_a_400_and_writes_nothing(client, mod, alice, bob, game, say,
                                                                           bad_next):
    message = say(bob, "you are terrible")

    client.force_login(alice)
    posts = [
        (reverse("moderation:block", args=[bob.pk]), {}),
        (reverse("moderation:report_new"), {"target": bob.pk, "reason": "abuse"}),
    ]
    for url, data in posts:
        assert client.post(url, {**data, "next": bad_next}).status_code == 400, url
    assert client.get(reverse("moderation:report_new"), {"target": bob.pk, "next": bad_next}).status_code == 400

    client.force_login(mod)
    posts = [
        (reverse("moderation:account_act", args=[bob.pk]), {"action": "mute", "duration": "1d", "reason": "x"}),
        (reverse("moderation:game_act", args=[game.pk]), {"action": "close", "reason": "abandoned"}),
        (reverse("moderation:message_hide", args=[message.pk]), {"reason": "insult"}),
    ]
    for url, data in posts:
        assert client.post(url, {**data, "next": bad_next}).status_code == 400, url

    _nothing_written(message)
    game.refresh_from_db()
    assert game.status == "active"


def test_a_next_that_is_a_path_of_the_site_is_followed(client, alice, bob):
    client.force_login(alice)
    response = client.post(reverse("moderation:block", args=[bob.pk]), {"next": "/me/standing/"})
    assert response.status_code == 302 and response["Location"] == "/me/standing/"
    assert Block.objects.filter(blocker=alice, blocked=bob).count() == 1


def test_a_report_that_is_not_a_number_is_a_400_and_one_that_does_not_exist_a_404(client, mod, bob, say):
    message = say(bob, "you are terrible")
    client.force_login(mod)
    url = reverse("moderation:message_hide", args=[message.pk])

    assert client.post(url, {"reason": "insult", "report": "abc"}).status_code == 400
    assert client.post(url, {"reason": "insult", "report": "1.5"}).status_code == 400
    assert client.post(url, {"reason": "insult", "report": "999999"}).status_code == 404
    _nothing_written(message)


def test_a_nul_byte_or_another_control_character_in_chat_is_refused_and_nothing_is_stored(client, alice, game):
    client.force_login(alice)
    url = reverse("moderation:chat_post", args=[game.pk])

    for text in ["hi\x00there", "\x00", "ring\x07", "esc\x1b[31mred"]:
        response = client.post(url, {"text": text}, HTTP_HX_REQUEST="true")
        assert response.status_code == 400, repr(text)
        assert "control characters" in response.content.decode()
    assert not ChatMessage.objects.exists()
    # Newlines and tabs are still only spaces between words.
    assert client.post(url, {"text": "hi\n\tthere"}, HTTP_HX_REQUEST="true").status_code == 200
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["hi there"]


def test_a_nul_byte_in_a_moderators_reason_is_refused(mod, bob, say):
    message = say(bob, "you are terrible")
    with pytest.raises(services.ModerationError, match="control character"):
        services.message_set_hidden(moderator=mod, message=message, hidden=True, reason="insult\x00")
    _nothing_written(message)
