"""Preferences in the account settings, and the one-click unsubscribe of RFC 8058: a signed
URL whose GET only shows a page and whose POST, with no login, turns that kind off."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from notifications import tasks
from notifications.models import Kind, Mode, Notification, Preference
from notifications.services import unsubscribe_token
from notifications.tokens import unsubscribe_target
from tests.games.play_helpers import users_by_seat


def _first_mail(make_game, alice, bob, capture):
    with capture(execute=True):
        game = make_game(alice, bob, name="Mailed")
    return game, users_by_seat(game)[game.waiting_seats[0]]


@pytest.mark.django_db
def test_every_notification_carries_the_one_click_headers_and_footer_links(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    _game, user = _first_mail(make_game, alice, bob, django_capture_on_commit_callbacks)

    mail = mailoutbox[0]
    url = re.fullmatch(r"<(.+)>", mail.extra_headers["List-Unsubscribe"]).group(1)
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The link's token names this user and this kind (its signature's time is the sending's, so
    # it is read back rather than signed again here: a second may have passed).
    token = re.fullmatch(r".*/([^/]+)/?", url).group(1)
    assert url.endswith(reverse("notifications:unsubscribe", args=[token]))
    assert unsubscribe_target(token) == (user.pk, Kind.YOUR_TURN)
    preferences = reverse("notifications:preferences")
    html = mail.alternatives[0][0]
    assert url in mail.body and url in html
    assert preferences in mail.body and preferences in html
    # The message as it goes on the wire carries both headers.
    raw = mail.message().as_string()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in raw


@pytest.mark.django_db
def test_get_shows_a_confirmation_and_changes_nothing(alice, bob, make_game, django_capture_on_commit_callbacks):
    _game, user = _first_mail(make_game, alice, bob, django_capture_on_commit_callbacks)
    url = reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id=user.pk, kind=Kind.YOUR_TURN)])

    response = Client().get(url)

    assert response.status_code == 200
    assert b"<form method=\"post\"" in response.content
    assert not Preference.objects.exists()


@pytest.mark.django_db
def test_one_click_post_without_login_turns_that_kind_off(
    alice, bob, make_game, mailoutbox, celery_eager, django_capture_on_commit_callbacks
):
    game, user = _first_mail(make_game, alice, bob, django_capture_on_commit_callbacks)
    url = reverse("notifications:unsubscribe", args=[unsubscribe_token(user_id=user.pk, kind=Kind.YOUR_TURN)])
    mailoutbox.clear()

    # As a mail program posts it (RFC 8058): no session, no CSRF token.
    response = Client(enforce_csrf_checks=True).post(url, {"List-Unsubscribe": "One-Click"})

    assert response.status_code == 200
    assert Preference.objects.get(user=user, kind=Kind.YOUR_TURN).mode == Mode.OFF
    # The next wait on that player is kept (for the site) and not e-mailed.
    seat = game.waiting_seats[0]
    assert tasks.notify(game.pk, [[Kind.YOUR_TURN, user.pk, "g-next", seat, {}]]) == 0
    assert mailoutbox == []
    assert Notification.objects.get(key="g-next").status == "off"
    # Other kinds stay on.
    assert not Preference.objects.filter(user=user).exclude(kind=Kind.YOUR_TURN).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["garbage", "WzEsInlvdXJfdHVybiJd:forged:signature"])
def test_a_forged_unsubscribe_link_is_refused_and_changes_nothing(alice, token):
    response = Client().post(reverse("notifications:unsubscribe", args=[token]))

    assert response.status_code == 404
    assert not Preference.objects.exists()


@pytest.mark.django_db
def test_a_link_for_an_unknown_kind_is_refused(alice):
    from django.core import signing

    from notifications.tokens import UNSUBSCRIBE_SALT

    token = signing.dumps([alice.pk, "everything"], salt=UNSUBSCRIBE_SALT)
    assert Client().post(reverse("notifications:unsubscribe", args=[token])).status_code == 404
    assert not Preference.objects.exists()


@pytest.mark.django_db
def test_preferences_are_set_per_kind_in_the_account_settings(client, alice):
    client.force_login(alice)
    url = reverse("notifications:preferences")
    page = client.get(url)
    assert page.status_code == 200
    assert page.content.count(b'type="radio"') == len(Kind.values) * len(Mode.values)

    choices = {kind: Mode.IMMEDIATELY for kind in Kind.values}
    choices[Kind.YOUR_TURN] = Mode.DIGEST
    choices[Kind.GAME_STARTED] = Mode.OFF
    response = client.post(url, choices)

    assert response.status_code == 302
    assert dict(Preference.objects.filter(user=alice).values_list("kind", "mode")) == {
        Kind.YOUR_TURN: Mode.DIGEST, Kind.GAME_STARTED: Mode.OFF}


@pytest.mark.django_db
def test_a_forged_preferences_form_changes_nothing(client, alice):
    client.force_login(alice)
    choices = {kind: Mode.OFF for kind in Kind.values}
    choices[Kind.GAME_OVER] = "sometimes"

    response = client.post(reverse("notifications:preferences"), choices, follow=True)

    assert response.status_code == 200
    assert b"Choose immediately, daily digest or off" in response.content
    assert not Preference.objects.exists()


@pytest.mark.django_db
def test_preferences_need_a_login(client):
    response = client.get(reverse("notifications:preferences"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_digest_mode_keeps_the_notification_instead_of_mailing_it(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name="Digest")
    seat = game.waiting_seats[0]
    user = users_by_seat(game)[seat]
    Preference.objects.create(user=user, kind=Kind.YOUR_TURN, mode=Mode.DIGEST)

    assert tasks.notify(game.pk, [[Kind.YOUR_TURN, user.pk, f"g{game.pk}:v{game.version}", seat, {}]]) == 0

    assert mailoutbox == []
    assert Notification.objects.get(user=user).status == "digest"
