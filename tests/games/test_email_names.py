"""Every e-mail the site sends, with names full of markup characters: the subject and the text
body carry the name as it was typed, the HTML body escapes it, and none of them double-escapes.

The kinds: the games' own (your turn, game over, invitation) and allauth's (sign-up
confirmation, a new address's confirmation, password reset, an unknown address's reset, a
sign-up with an address already in use).
"""

from __future__ import annotations

import html

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import services, tasks
from notifications import tasks as notification_tasks
from notifications.models import Kind

NAME = "Bob's <b>table</b> & \"co\""
ESCAPED = html.escape(NAME)  # Bob&#x27;s &lt;b&gt;table&lt;/b&gt; &amp; &quot;co&quot;
ENTITIES = ("&#x27;", "&#39;", "&lt;", "&gt;", "&amp;", "&quot;")
PASSWORD = "a-long-and-unusual-passw0rd"


@pytest.fixture
def nasty_site(settings):
    """The site's name too is full of markup characters (it is in allauth's subjects). allauth
    sends an address at most one confirmation in a few minutes, counted in the cache: other
    tests' e-mails to the same addresses must not count here."""
    settings.SITE_NAME = NAME
    settings.ACCOUNT_EMAIL_SUBJECT_PREFIX = f"[{NAME}] "
    cache.clear()
    yield
    cache.clear()


def _check(mail, *, in_subject: bool = True, in_text: bool = True) -> None:
    html_body, mimetype = mail.alternatives[0] if mail.alternatives else ("", "")
    if in_subject:
        assert NAME in mail.subject, mail.subject
    for entity in ENTITIES:
        assert entity not in mail.subject, mail.subject
        assert entity not in mail.body, mail.body
    if in_text:
        assert NAME in mail.body, mail.body
    if html_body:
        assert mimetype == "text/html"
        assert ESCAPED in html_body
        assert "<b>table</b>" not in html_body
        assert html.escape(ESCAPED) not in html_body  # escaped once, not twice


@pytest.mark.django_db
def test_your_turn_email_names_are_plain_in_subject_and_text(alice, bob, make_game, mailoutbox):
    # (Two display names, as two accounts may not share one: accounts/names.py.)
    alice.display_name, bob.display_name = NAME, NAME[:-1]
    alice.save()
    bob.save()
    game = make_game(alice, bob, name=NAME)
    seat = game.waiting_seats[0]
    user = game.table.seats.get(position=seat).user

    assert notification_tasks.notify(game.pk, [[Kind.YOUR_TURN, user.pk, "v1", seat, {}]]) == 1

    _check(mailoutbox[0])


@pytest.mark.django_db
def test_game_over_email_names_are_plain_in_subject_and_text(alice, bob, make_game, mailoutbox):
    game = make_game(alice, bob, name=NAME)
    loser = game.table.seats.get(position=game.waiting_seats[0]).user
    services.game_submit_action(game=game, user=loser, action={"type": "surrender"}, expected_version=game.version)

    items = [[Kind.GAME_OVER, user.pk, "over", None, {}] for user in (alice, bob)]
    assert notification_tasks.notify(game.pk, items) == 2

    for mail in mailoutbox:
        _check(mail)


@pytest.mark.django_db
def test_invitation_email_names_are_plain_in_subject_and_text(alice, make_table, mailoutbox):
    alice.display_name = NAME
    alice.save()
    table = make_table(alice, name=NAME)
    invitation = services.invitation_create(table=table, by=alice, email="dave@example.com").invitation

    tasks.send_invitation(invitation.pk)

    _check(mailoutbox[0])


@pytest.mark.django_db
def test_signup_confirmation_email_is_plain_in_subject_and_text(client, nasty_site, mailoutbox):
    client.post(reverse("account_signup"), {"email": "dora@example.com", "username": "dora",
                                            "password1": PASSWORD, "password2": PASSWORD})

    assert [m.to for m in mailoutbox] == [["dora@example.com"]]
    _check(mailoutbox[0])


@pytest.mark.django_db
def test_new_address_confirmation_email_is_plain_in_text(client, alice, nasty_site, mailoutbox):
    alice.display_name = NAME
    alice.save()
    client.force_login(alice)

    client.post(reverse("account_email"), {"action_add": "", "email": "al@example.org"})

    assert [m.to for m in mailoutbox] == [["al@example.org"]]
    _check(mailoutbox[0])


@pytest.mark.django_db
def test_password_reset_email_is_plain_in_subject_and_text(client, alice, nasty_site, mailoutbox):
    client.post(reverse("account_reset_password"), {"email": alice.email})

    assert [m.to for m in mailoutbox] == [[alice.email]]
    _check(mailoutbox[0])


@pytest.mark.django_db
def test_unknown_account_email_is_plain_in_subject_and_text(client, alice, nasty_site, mailoutbox):
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})

    assert [m.to for m in mailoutbox] == [["nobody@example.com"]]
    _check(mailoutbox[0])


@pytest.mark.django_db
def test_account_already_exists_email_is_plain_in_subject_and_text(client, alice, nasty_site, mailoutbox):
    client.post(reverse("account_signup"), {"email": alice.email, "username": "alice2",
                                            "password1": PASSWORD, "password2": PASSWORD})

    assert [m.to for m in mailoutbox] == [[alice.email]]
    _check(mailoutbox[0])
