"""Private notes (issue 29): saved as typed, escaped, shown to their player alone (not the other
players, not spectators), kept with the game, shown in the replay once the game is over if the
player chose so; too long is refused with a clear error and saves nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from reach.models import NOTE_MAX, Note
from tests.games.play_helpers import end_by_surrenders, users_by_seat

SECRET = "Bob is short of cash <script>alert(1)</script> & will sell Park Place"


def _save(client, game, text, htmx=True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("reach:note_save", args=[game.pk]), {"text": text}, **headers)


@pytest.mark.django_db
def test_notes_are_saved_and_shown_to_their_player_alone(alice, bob, charlie, make_game, client):
    game = make_game(alice, bob, name="Notes")
    client.force_login(alice)
    r = _save(client, game, SECRET)
    assert r.status_code == 200 and "Saved at" in r.content.decode()
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    # Escaped: the markup is shown as text, never run.
    assert "Bob is short of cash &lt;script&gt;alert(1)&lt;/script&gt; &amp; will sell" in page
    assert "<script>alert(1)" not in page

    for other in (bob, charlie):
        client.force_login(other)
        page = client.get(reverse("games:game", args=[game.pk])).content.decode()
        assert "short of cash" not in page
        poll = client.get(reverse("games:game", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode()
        assert "short of cash" not in poll
    # Bob writes his own: Alice's is untouched.
    client.force_login(bob)
    assert _save(client, game, "mine").status_code == 200
    assert Note.objects.get(game=game, seat=_seat(game, alice)).text == SECRET
    # A spectator has no notes to write.
    client.force_login(charlie)
    r = _save(client, game, "hello")
    assert r.status_code == 403
    assert Note.objects.count() == 2


def _seat(game, user) -> int:
    return next(p for p, u in users_by_seat(game).items() if u == user)


@pytest.mark.django_db
def test_too_long_a_note_is_refused_and_the_saved_one_kept(alice, bob, make_game, client):
    game = make_game(alice, bob)
    client.force_login(alice)
    assert _save(client, game, "first").status_code == 200
    r = _save(client, game, "x" * (NOTE_MAX + 1))
    assert r.status_code == 400
    assert f"at most {NOTE_MAX}" in r.content.decode() and "Nothing was saved." in r.content.decode()
    assert Note.objects.get().text == "first"
    assert _save(client, game, "a\x00b").status_code == 400
    assert Note.objects.get().text == "first"
    # Without JavaScript: back to the page, with the message.
    r = _save(client, game, "x" * (NOTE_MAX + 1), htmx=False)
    assert r.status_code == 302


@pytest.mark.django_db
def test_revealed_notes_appear_in_the_replay_once_the_game_is_over(alice, bob, charlie, make_game, client,
                                                                   password):
    game = make_game(alice, bob, name="Reveal")
    client.force_login(alice)
    _save(client, game, SECRET)
    r = client.post(reverse("reach:note_reveal", args=[game.pk]), {"reveal": "1"}, HTTP_HX_REQUEST="true")
    assert r.status_code == 200 and "shown in the replay" in r.content.decode()
    assert client.post(reverse("reach:note_reveal", args=[game.pk]), {"reveal": "maybe"},
                       HTTP_HX_REQUEST="true").status_code == 400
    client.force_login(bob)
    _save(client, game, "Bob's secret plan")
    # Before the end: no replay, and the game page shows the notes to nobody else.
    game = end_by_surrenders(game, 1)

    # Alice's account goes; her notes stay with the game.
    from accounts import services as account_services

    account_services.user_delete(user=alice, password=password)
    assert Note.objects.filter(game=game, text=SECRET).exists()
    client.force_login(charlie)
    replay = client.get(reverse("games:game_replay", args=[game.pk])).content.decode()
    assert "The players&#x27; notes" in replay or "The players' notes" in replay
    assert "Bob is short of cash &lt;script&gt;" in replay
    assert "Bob's secret plan" not in replay and "Bob&#x27;s secret plan" not in replay
