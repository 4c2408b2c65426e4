"""Where a player is signed in (issue 31, allauth.usersessions): the list with browser and
device from the user agent and an approximate last use, "sign out everywhere else", a password
change that ends the other sessions, an e-mail change confirmed by the new address and told to the
old one; and sign-in, sign-up and password reset answering alike for known and unknown
addresses."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.usersessions.models import UserSession
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.middleware import SEEN_KEY

pytestmark = pytest.mark.django_db

FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
NEW_PASSWORD = "another-long-passw0rd-entirely"


def _signed_in(user_agent: str, password: str, login: str = "alice") -> Client:
    client = Client(HTTP_USER_AGENT=user_agent)
    response = client.post(reverse("account_login"), {"login": login, "password": password})
    assert response.status_code == 302 and "_auth_user_id" in client.session
    return client


def _is_signed_in(client: Client) -> bool:
    return client.get(reverse("accounts:profile")).status_code == 200


def test_the_sessions_page_lists_each_browser_and_signs_out_the_others(alice, password):
    desk = _signed_in(FIREFOX, password)
    phone = _signed_in(IPHONE, password)

    html = desk.get(reverse("usersessions_list")).content.decode()
    assert "Firefox on Windows" in html and "iPhone iOS" in html
    assert "This browser" in html and "Sign out everywhere else" in html

    response = desk.post(reverse("usersessions_list"))

    assert response.status_code == 302
    assert _is_signed_in(desk) and not _is_signed_in(phone)
    assert list(UserSession.objects.filter(user=alice).values_list("user_agent", flat=True)) == [FIREFOX]


def test_the_last_use_is_written_again_only_once_it_is_old(alice, password):
    desk = _signed_in(FIREFOX, password)
    row = UserSession.objects.get(user=alice)
    long_ago = timezone.now() - timezone.timedelta(days=3)
    UserSession.objects.filter(pk=row.pk).update(last_seen_at=long_ago)

    desk.get(reverse("accounts:profile"))  # the stamp is fresh: nothing written
    assert UserSession.objects.get(pk=row.pk).last_seen_at == long_ago

    session = desk.session
    session[SEEN_KEY] = 0  # the stamp is old now
    session.save()
    desk.get(reverse("accounts:profile"))
    assert UserSession.objects.get(pk=row.pk).last_seen_at > long_ago


def test_a_password_change_signs_out_every_other_session(alice, password):
    desk = _signed_in(FIREFOX, password)
    phone = _signed_in(IPHONE, password)

    response = desk.post(
        reverse("account_change_password"),
        {"oldpassword": password, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    assert _is_signed_in(desk) and not _is_signed_in(phone)


def test_an_email_change_waits_for_the_new_address_and_tells_the_old_one(client, alice, mailoutbox):
    client.force_login(alice)

    client.post(reverse("account_email"), {"action_add": "", "email": "alice.new@example.com"})

    # Until the new address is confirmed the old one stays the account's address.
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
    confirm = [m for m in mailoutbox if m.to == ["alice.new@example.com"]]
    assert len(confirm) == 1
    path = re.search(r"https?://testserver(/accounts/confirm-email/\S+/)", confirm[0].body).group(1)
    mailoutbox.clear()

    client.post(path)

    alice.refresh_from_db()
    assert alice.email == "alice.new@example.com"
    assert EmailAddress.objects.get(user=alice, primary=True).email == "alice.new@example.com"
    told = [m for m in mailoutbox if m.to == ["alice@example.com"]]
    assert len(told) == 1 and "alice.new@example.com" in told[0].body


def test_sign_in_answers_alike_for_an_unknown_account_and_a_wrong_password(client, alice):
    unknown = client.post(reverse("account_login"), {"login": "nobody@example.com", "password": "x-y-z-w"})
    wrong = client.post(reverse("account_login"), {"login": "alice@example.com", "password": "x-y-z-w"})

    assert unknown.status_code == wrong.status_code == 200
    error = re.compile(r'<ul class="errorlist[^"]*"[^>]*>.*?</ul>', re.S)
    assert error.findall(unknown.content.decode()) == error.findall(wrong.content.decode()) != []


def test_sign_up_with_a_taken_address_answers_as_a_new_one_and_mails_the_owner(client, alice, mailoutbox):
    def sign_up(email: str, username: str):
        return Client().post(
            reverse("account_signup"),
            {"email": email, "username": username, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
        )

    taken = sign_up("alice@example.com", "mallory")
    fresh = sign_up("dora@example.com", "dora")

    assert taken.status_code == fresh.status_code == 302
    assert taken["Location"] == fresh["Location"] == reverse("account_email_verification_sent")
    to_alice = [m for m in mailoutbox if m.to == ["alice@example.com"]]
    assert len(to_alice) == 1 and "/accounts/confirm-email/" not in to_alice[0].body


def test_password_reset_answers_alike_for_known_and_unknown_addresses(client, alice, mailoutbox):
    known = Client().post(reverse("account_reset_password"), {"email": "alice@example.com"})
    unknown = Client().post(reverse("account_reset_password"), {"email": "nobody@example.com"})

    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("account_reset_password_done")
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.com", "nobody@example.com"]


def test_a_session_signed_in_before_the_list_existed_appears_on_it(client, alice):
    client.force_login(alice)  # no row in allauth.usersessions, as for sessions older than it
    assert not UserSession.objects.filter(user=alice).exists()

    html = client.get(reverse("usersessions_list"), HTTP_USER_AGENT=FIREFOX).content.decode()

    assert "Firefox on Windows" in html and "This browser" in html
    assert UserSession.objects.get(user=alice).session_key == client.session.session_key


def test_the_list_gives_approximate_times_in_words(alice, password):
    desk = _signed_in(FIREFOX, password)
    _signed_in(IPHONE, password)
    UserSession.objects.filter(user_agent=IPHONE).update(
        created_at=timezone.now() - timezone.timedelta(days=5, hours=2),
        last_seen_at=timezone.now() - timezone.timedelta(days=3, hours=2))

    html = desk.get(reverse("usersessions_list")).content.decode()

    assert "signed in 5\xa0days, 2\xa0hours ago" in html and "last used 3\xa0days, 2\xa0hours ago" in html
    assert "in use now" in html


def test_time_ago_says_just_now_under_a_minute(monkeypatch):
    from accounts.templatetags import account_tags

    moment = timezone.now()
    monkeypatch.setattr(account_tags.timezone, "now", lambda: moment + timezone.timedelta(seconds=59))
    assert account_tags.time_ago(moment) == "just now"
    monkeypatch.setattr(account_tags.timezone, "now", lambda: moment + timezone.timedelta(minutes=2))
    assert account_tags.time_ago(moment) == "2\xa0minutes ago"
