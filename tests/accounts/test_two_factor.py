"""Second factors (issue 31, allauth.mfa): any player may add one and is then asked for it at
sign-in; moderators and staff must have one, or the moderation pages and the admin answer with a
page that explains and links to the setup; turning a factor off or using a recovery code sends a
notice."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.contrib.auth.models import Group
from django.core import mail
from django.urls import reverse

from moderation.models import AuditEntry, Sanction
from moderation.roles import MODERATORS_GROUP
from tests.factories import UserFactory, add_totp, totp_code
from tests.moderation.conftest import make_moderator

pytestmark = pytest.mark.django_db
SETUP = reverse("mfa_index")


def _act(client, target):
    from moderation.forms import AccountActionForm

    key = AccountActionForm().initial["key"]  # each form acts once (issue 26, item 11)
    return client.post(reverse("moderation:account_act", args=[target.pk]),
                       {"action": "warn", "reason": "Be kind", "key": key})


def test_a_moderator_without_a_second_factor_is_shown_the_setup_and_cannot_act(client, bob):
    mona = make_moderator("mona", second_factor=False)
    client.force_login(mona)

    queue = client.get(reverse("moderation:queue"))
    acted = _act(client, bob)

    for response in (queue, acted):
        assert response.status_code == 403
        html = response.content.decode()
        assert "Set up a second factor first" in html
        assert f'href="{SETUP}"' in html
    assert Sanction.objects.count() == 0 and AuditEntry.objects.count() == 0


def test_the_same_moderator_with_a_second_factor_opens_the_queue_and_acts(client, bob):
    mona = make_moderator("mona", second_factor=False)
    add_totp(mona)
    client.force_login(mona)

    assert client.get(reverse("moderation:queue")).status_code == 200
    assert _act(client, bob).status_code == 302
    assert Sanction.objects.get().user == bob


def test_a_player_is_not_asked_for_a_second_factor_and_still_gets_a_plain_refusal(client, alice):
    client.force_login(alice)

    response = client.get(reverse("moderation:queue"))

    assert response.status_code == 403
    assert "Set up a second factor first" not in response.content.decode()


def test_staff_without_a_second_factor_get_the_setup_page_instead_of_the_admin(client):
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    client.force_login(root)

    before = client.get(reverse("admin:index"))
    add_totp(root)
    after = client.get(reverse("admin:index"))

    assert before.status_code == 403 and f'href="{SETUP}"' in before.content.decode()
    assert after.status_code == 200


def test_the_admin_signs_people_in_through_the_sites_form(client):
    response = client.get(reverse("admin:login"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_being_made_a_moderator_without_a_factor_mails_the_setup_link(alice):
    mail.outbox.clear()
    alice.groups.add(Group.objects.get(name=MODERATORS_GROUP))

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.com"]
    assert f"{SETUP}" in mail.outbox[0].body


def test_sign_in_asks_for_the_authenticator_code(client, alice, password):
    secret = add_totp(alice)

    first = client.post(reverse("account_login"), {"login": "alice", "password": password})
    assert first.status_code == 302 and first["Location"] == reverse("mfa_authenticate")
    assert "_auth_user_id" not in client.session

    bad = "000000" if totp_code(secret) != "000000" else "111111"
    wrong = client.post(reverse("mfa_authenticate"), {"code": bad})
    assert wrong.status_code == 200 and "_auth_user_id" not in client.session

    right = client.post(reverse("mfa_authenticate"), {"code": totp_code(secret)})
    assert right.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)


def test_a_recovery_code_signs_in_and_sends_a_notice(client, alice, password):
    add_totp(alice)
    codes = RecoveryCodes.activate(alice).get_unused_codes()
    client.post(reverse("account_login"), {"login": "alice", "password": password})
    mail.outbox.clear()

    response = client.post(reverse("mfa_authenticate"), {"code": codes[0]})

    assert response.status_code == 302 and client.session["_auth_user_id"] == str(alice.pk)
    notices = [m for m in mail.outbox if "recovery code" in m.subject.lower()]
    assert len(notices) == 1 and notices[0].to == ["alice@example.com"]
    assert "You have 9 codes left." in notices[0].body, notices[0].body


def test_turning_the_authenticator_app_off_sends_a_notice(client, alice, password):
    add_totp(alice)
    client.force_login(alice)
    mail.outbox.clear()

    # allauth asks for the password again before a factor is removed.
    client.post(reverse("account_reauthenticate"), {"password": password})
    response = client.post(reverse("mfa_deactivate_totp"))

    assert response.status_code == 302
    assert not Authenticator.objects.filter(user=alice, type=Authenticator.Type.TOTP).exists()
    assert any(m.to == ["alice@example.com"] and "deactivated" in m.body.lower() for m in mail.outbox)


def test_the_two_factor_page_offers_an_app_with_a_qr_code_and_security_keys(client, alice):
    client.force_login(alice)
    client.post(reverse("account_reauthenticate"), {"password": "correct-horse-battery-staple"})

    index = client.get(SETUP).content.decode()
    activate = client.get(reverse("mfa_activate_totp")).content.decode()

    assert reverse("mfa_activate_totp") in index and reverse("mfa_add_webauthn") in index
    assert "data:image/svg+xml;base64," in activate or "<svg" in activate


@pytest.mark.parametrize(("language", "tu", "formal"), [
    ("es", "Escribe el código de tu app de autenticación", "entre el código"),
    ("ca", "Escriu el codi de la teva app d'autenticació", "entreu el codi"),
])
def test_the_second_factor_pages_address_the_player_as_tu(client, alice, password, language, tu, formal):
    add_totp(alice)
    client.post(reverse("account_login"), {"login": "alice", "password": password}, HTTP_ACCEPT_LANGUAGE=language)

    html = client.get(reverse("mfa_authenticate"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert tu in html.replace("&#x27;", "'") and formal not in html


def test_recovery_codes_are_shown_once(client, alice, password):
    add_totp(alice)
    codes = RecoveryCodes.activate(alice).get_unused_codes()
    client.force_login(alice)
    client.post(reverse("account_reauthenticate"), {"password": password})

    first = client.get(reverse("mfa_view_recovery_codes")).content.decode()
    second = client.get(reverse("mfa_view_recovery_codes")).content.decode()

    assert all(code in first for code in codes)
    assert not any(code in second for code in codes)


def test_signing_in_sends_a_moderator_without_a_factor_to_its_setup(client, password):
    make_moderator("mona", second_factor=False)

    response = client.post(reverse("account_login"), {"login": "mona", "password": password})

    assert response.status_code == 302 and response["Location"] == SETUP


def test_signing_in_sends_a_player_to_the_lobby_as_before(client, alice, password):
    response = client.post(reverse("account_login"), {"login": "alice", "password": password})

    assert response["Location"] == reverse("games:lobby")
