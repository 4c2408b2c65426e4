"""Where a channel may send, what it stores and shows, and who may change it (issue 29)."""

from __future__ import annotations

import logging
import socket
from unittest import mock

import pytest

from chats import crypto, providers, safety, services
from chats.models import Channel
from games.links import table_path
from tests.chats import fakes


@pytest.mark.parametrize("url", [
    "http://hooks.example.com/x",  # not https
    "https://user:pass@hooks.example.com/x",  # credentials in the URL
    "https://token@hooks.example.com/x",
    "https://127.0.0.1/x", "https://[::1]/x", "https://10.1.2.3/x", "https://192.168.1.1/x",
    "https://169.254.169.254/latest/meta-data/", "https://[::ffff:127.0.0.1]/x", "https://0.0.0.0/x",
    "https://100.64.0.1/x",  # shared address space
    "https://localhost/x", "https://printer.local/x",
    "https://discord.com/api/webhooks/1/abc",  # a named provider's host: choose that provider
    "ftp://hooks.example.com/", "https:///x", "not a url", "https://hooks.example.com:99999/",
])
def test_webhook_addresses_refused(url, settings):
    settings.CHATS_TEST_OPEN_HOSTS = []
    with pytest.raises(safety.Refused):
        safety.check_webhook_url(url)


def test_a_public_https_address_is_accepted():
    assert safety.check_webhook_url(" https://hooks.example.com/monopoly?x=1 ") == "https://hooks.example.com/monopoly?x=1"


@pytest.mark.parametrize("address", ["127.0.0.1", "10.0.0.7", "169.254.169.254", "::1", "fd00::1"])
def test_a_name_that_resolves_to_a_private_address_is_refused_before_connecting(address, settings):
    """Resolved at the send itself (a DNS answer that changed since the host saved the address)."""
    settings.CHATS_TEST_OPEN_HOSTS = []
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    answer = [(family, socket.SOCK_STREAM, 6, "", (address, 443))]
    with (mock.patch("chats.safety.socket.getaddrinfo", return_value=answer),
          mock.patch("httpcore.SyncBackend.connect_tcp") as connect, pytest.raises(providers.Refusal)):
        providers._webhook({"url": "https://hooks.example.com/x", "secret": "x" * 20}, {"text": "hi"})
    connect.assert_not_called()


def test_only_the_named_test_host_may_reach_loopback(settings):
    settings.CHATS_TEST_OPEN_HOSTS = ["localhost"]
    assert safety.allowed_address("localhost", "127.0.0.1")
    assert not safety.allowed_address("localhost", "10.0.0.1")
    assert not safety.allowed_address("evil.example", "127.0.0.1")
    settings.CHATS_TEST_OPEN_HOSTS = None  # production: no exception at all
    assert not safety.allowed_address("localhost", "127.0.0.1")


@pytest.mark.django_db
def test_the_webhook_is_signed_and_the_fake_checks_it(fake):
    providers.send_test("webhook", {"url": fake.webhook_url, "secret": fakes.WEBHOOK_SECRET}, "hello")
    assert [r.kind for r in fake.of("webhook")] == ["test"]
    with pytest.raises(providers.Refusal):  # a wrong secret: the receiver refuses it (401)
        providers.send_test("webhook", {"url": fake.webhook_url, "secret": "another-secret-0123456"}, "x")
    fake.problems.clear()  # (the bad signature was the point)


def test_discord_addresses():
    good = f"https://discord.com/api/webhooks/{fakes.DISCORD_ID}/{fakes.DISCORD_TOKEN}"
    assert providers.discord_parse(good) == {"id": fakes.DISCORD_ID, "token": fakes.DISCORD_TOKEN}
    assert providers.discord_parse(good.replace("/api/", "/api/v10/"))["id"] == fakes.DISCORD_ID
    for bad in (good.replace("https", "http"), good.replace("discord.com", "discord.com.evil.example"),
                good.replace("discord.com", "user:pw@discord.com"), good + "/../../x", "https://evil.example/api/webhooks/1/2"):
        with pytest.raises(safety.Refused):
            providers.discord_parse(bad)


def test_credentials_are_encrypted_and_unreadable_under_another_key(settings):
    token = crypto.seal({"token": fakes.TELEGRAM_TOKEN})
    assert fakes.TELEGRAM_TOKEN not in token
    assert crypto.unseal(token) == {"token": fakes.TELEGRAM_TOKEN}
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "another key " * 4
    assert crypto.unseal(token) == {"token": fakes.TELEGRAM_TOKEN}  # (a rotated key still reads)
    settings.SECRET_KEY_FALLBACKS = []
    assert crypto.unseal(token) == {}


def test_tokens_never_reach_the_logs(caplog):
    from chats.safety import install_log_redaction

    install_log_redaction()
    with caplog.at_level(logging.INFO, logger="httpx"):
        logging.getLogger("httpx").info('HTTP Request: POST https://api.telegram.org/bot%s/sendMessage "200"',
                                        fakes.TELEGRAM_TOKEN)
        logging.getLogger("httpx").info("HTTP Request: PATCH https://discord.com/api/webhooks/%s/%s/messages/1",
                                        fakes.DISCORD_ID, fakes.DISCORD_TOKEN)
    text = caplog.text
    assert fakes.TELEGRAM_TOKEN.split(":")[1] not in text and fakes.DISCORD_TOKEN not in text
    assert "[redacted]" in text


# ---------------------------------------------------------------------------------------------
# The pages
# ---------------------------------------------------------------------------------------------

def _form(**fields) -> dict:
    return {"provider": "discord", "back": "page", **fields}


@pytest.mark.django_db
def test_only_the_host_sees_or_changes_the_channel(client, alice, bob, make_table):
    table = make_table(alice)
    client.force_login(bob)
    assert client.get(f"/chats/tables/{table.pk}/").status_code == 404
    url = f"https://discord.com/api/webhooks/{fakes.DISCORD_ID}/{fakes.DISCORD_TOKEN}"
    assert client.post(f"/chats/tables/{table.pk}/connect/", _form(discord_url=url)).status_code == 404
    assert client.post(f"/chats/tables/{table.pk}/test/").status_code == 404
    assert not Channel.objects.exists()
    assert client.get(f"/chats/tables/{table.pk + 999}/").status_code == 404


@pytest.mark.django_db
def test_the_host_connects_and_the_secret_is_never_shown_again(client, alice, make_table):
    table = make_table(alice)
    client.force_login(alice)
    url = f"https://discord.com/api/webhooks/{fakes.DISCORD_ID}/{fakes.DISCORD_TOKEN}"
    answer = client.post(f"/chats/tables/{table.pk}/connect/", _form(discord_url=url), follow=True)
    assert answer.status_code == 200
    channel = Channel.objects.get(table=table)
    assert fakes.DISCORD_TOKEN not in channel.secret and fakes.DISCORD_TOKEN not in channel.label
    table_page = client.get(table_path(table.pk))
    assert table_page.status_code == 200 and "Send a test message" in table_page.content.decode()
    for page in (answer.content.decode(), table_page.content.decode()):
        assert fakes.DISCORD_TOKEN not in page
    assert "Discord webhook ending …8899" in answer.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("fields", [
    {"provider": "discord", "discord_url": "http://discord.com/api/webhooks/1234567/abcdefghijklmnopqrstuvwxyz"},
    {"provider": "discord", "discord_url": "https://evil.example/api/webhooks/1234567/abcdefghijklmnopqrstuvwxyz"},
    {"provider": "slack", "slack_token": "xoxp-user-token-12345", "slack_channel": "C0123ABCD"},
    {"provider": "slack", "slack_token": fakes.SLACK_TOKEN, "slack_channel": "#general"},
    {"provider": "telegram", "telegram_token": "nope", "telegram_chat": "-100123"},
    {"provider": "telegram", "telegram_token": fakes.TELEGRAM_TOKEN, "telegram_chat": "chat; drop"},
    {"provider": "webhook", "webhook_url": "https://10.0.0.1/hook"},
    {"provider": "webhook", "webhook_url": "https://a:b@hooks.example.com/"},
    {"provider": "webhook", "webhook_url": "https://hooks.example.com/", "webhook_secret": "short"},
    {"provider": "smoke-signals"},
    {"provider": "discord", "discord_url": "x" * 5000},
])
def test_bad_channel_forms_change_nothing(client, alice, make_table, fields):
    table = make_table(alice)
    client.force_login(alice)
    answer = client.post(f"/chats/tables/{table.pk}/connect/", {"back": "page", **fields})
    assert answer.status_code == 400
    assert 'class="errorlist' in answer.content.decode()
    assert not Channel.objects.exists()


@pytest.mark.django_db
def test_a_generated_webhook_secret_is_shown_once(client, alice, make_table):
    table = make_table(alice)
    client.force_login(alice)
    answer = client.post(f"/chats/tables/{table.pk}/connect/",
                         {"provider": "webhook", "webhook_url": "https://hooks.example.com/m", "back": "page"},
                         follow=True)
    secret = crypto.unseal(Channel.objects.get(table=table).secret)["secret"]
    assert secret in answer.content.decode()
    assert secret not in client.get(f"/chats/tables/{table.pk}/").content.decode()


@pytest.mark.django_db
def test_chat_names_are_checked(client, alice):
    client.force_login(alice)
    bad = client.post("/chats/me/", {"discord_id": "abc", "slack_id": "nope", "telegram_username": "a b"})
    assert bad.status_code == 400
    good = client.post("/chats/me/", {"discord_id": "100000000000000001", "slack_id": "u0123abcd",
                                      "telegram_username": "@alice_plays"}, follow=True)
    assert "Your chat names are saved." in good.content.decode()
    identity = alice.chat_identity
    assert (identity.discord_id, identity.slack_id, identity.telegram_username) == (
        "100000000000000001", "U0123ABCD", "alice_plays")


@pytest.mark.django_db
def test_a_channel_connected_during_a_game_posts_its_status(fake, alice, bob, make_game, celery_eager,
                                                            django_capture_on_commit_callbacks):
    game = make_game(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        services.channel_connect(table=game.table, by=alice, provider="slack",
                                 credentials={"token": fakes.SLACK_TOKEN, "channel": fakes.SLACK_CHANNEL},
                                 label="Slack")
    assert [r.kind for r in fake.of("slack")] == ["create"]
