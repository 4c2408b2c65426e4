"""Moderation speaks the reader's language: the refusals a sanctioned player reads, the chat
panel and the moderators' pages, in Spanish and Catalan (locale/*/LC_MESSAGES/django.po)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from accounts.models import User
from moderation import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "muted", "reason", "chat"), [
    ("es", "Estás silenciado en el chat hasta el", "motivo: Spam", "Chat"),
    ("ca", "Estàs silenciat al xat fins al", "motiu: Spam", "Xat"),
])
def test_a_muted_player_reads_why_in_their_language(client, mod, alice, game, language, muted, reason, chat):
    User.objects.filter(pk=alice.pk).update(language=language)
    services.sanction_create(moderator=mod, user=alice, kind="mute", reason="Spam", duration=timedelta(days=1))
    client.force_login(alice)

    html = client.get(reverse("moderation:chat", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()

    assert muted in html and reason in html
    assert f">{chat}</h2>" in html


@pytest.mark.parametrize(("language", "title", "empty"), [
    ("es", "Cola de moderación", "Nada por aquí: la cola está vacía."),
    ("ca", "Cua de moderació", "Res per aquí: la cua és buida."),
])
def test_the_queue_in_spanish_and_catalan(client, mod, language, title, empty):
    User.objects.filter(pk=mod.pk).update(language=language)
    client.force_login(mod)

    html = client.get(reverse("moderation:queue")).content.decode()

    assert title in html and empty in html
