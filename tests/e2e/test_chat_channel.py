"""The host connects a group chat from the table page and sends a test message; the status
post, as the fake Discord shows it, changes as the game moves (issue 29). Desktop and phone."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.test import Client

from chats.models import Channel
from games import services as game_services
from games.links import table_path
from tests.chats import fakes
from tests.chats.fakes import FakeChats

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fake(settings):
    """The fake chat services, the site pointed at them (tests only: chats.safety)."""
    with FakeChats() as server:
        for name, value in server.settings().items():
            setattr(settings, name, value)
        yield server
    assert server.problems == [], server.problems


def _table(host, name):
    return game_services.table_create(host=host, name=name, preset="classic", seat_count=4)


def _signed_in(browser, site, user, width):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value}])
    return context


@pytest.mark.parametrize("width", [1280, 390])
def test_the_host_connects_a_discord_webhook_and_sends_a_test_message(
        browser, site, artifacts, fake, alice, bob, width):
    table = _table(alice, "Sunday league")
    game_services.table_join(table=table, user=bob)
    context = _signed_in(browser, site, alice, width)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + table_path(table.pk))
        page.get_by_role("heading", name="Group chat").wait_for()
        page.screenshot(path=str(artifacts / f"chat-table-page-{width}.png"), full_page=True)
        # Only the chosen provider's fields show (CSS :has, no script).
        assert page.get_by_label("Slack bot token").is_hidden()
        page.get_by_role("radio", name="Telegram bot").check()
        assert page.get_by_label("Telegram bot token").is_visible()
        assert page.get_by_label("Discord webhook URL").is_hidden()
        page.get_by_role("radio", name="Discord webhook").check()
        page.get_by_label("Discord webhook URL").fill("http://discord.com/api/webhooks/1/2")
        page.get_by_role("button", name="Connect", exact=True).click()
        page.get_by_text("This is not a Discord webhook address").wait_for()
        assert not Channel.objects.exists()
        page.get_by_role("radio", name="Discord webhook").check()
        page.get_by_label("Discord webhook URL").fill(
            f"https://discord.com/api/webhooks/{fakes.DISCORD_ID}/{fakes.DISCORD_TOKEN}")
        page.get_by_role("button", name="Connect", exact=True).click()
        page.get_by_text("Connected. Send a test message to check it.").wait_for()
        assert fakes.DISCORD_TOKEN not in page.content()
        page.screenshot(path=str(artifacts / f"chat-channel-connected-{width}.png"), full_page=True)
        page.get_by_role("button", name="Send a test message").click()
        page.get_by_text("The test message was sent.").wait_for()
        page.screenshot(path=str(artifacts / f"chat-channel-tested-{width}.png"), full_page=True)
        sent = fake.of("discord")
        assert len(sent) == 1 and "Sunday league" in sent[0].text
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_the_fake_discord_shows_the_status_post_change(browser, site, artifacts, fake, alice, bob,
                                                      settings):
    from celery import current_app

    from chats import services
    from games.engine import GameState, waiting_on
    from tests.games.play_helpers import choose, users_by_seat

    services.identity_set(user=bob, discord_id="100000000000000002", slack_id="", telegram_username="")
    table = _table(alice, "Sunday league")
    game_services.table_join(table=table, user=bob)
    for position in (2, 3):
        game_services.table_set_seat(table=table, by=alice, position=position, bot="strategy")
    services.channel_connect(table=table, by=alice, provider="discord",
                             credentials={"id": fakes.DISCORD_ID, "token": fakes.DISCORD_TOKEN}, label="Discord")
    eager, current_app.conf.task_always_eager = current_app.conf.task_always_eager, True
    try:
        game = game_services.table_start(table=table, by=alice)
        context = browser.new_context(viewport={"width": 600, "height": 700})
        page = context.new_page()
        names = {"100000000000000002": bob.public_name}
        page.set_content(fakes.channel_view_html(fake, "discord", names))
        page.screenshot(path=str(artifacts / "chat-status-post-start.png"), full_page=True)
        first = fake.messages["discord"].copy()
        # (Every move shown, for the picture; the fixture restores them.)
        settings.CHATS_EDIT_INTERVAL = settings.CHATS_SETTLE_SECONDS = 0
        for _ in range(8):
            game.refresh_from_db()
            state = GameState.from_json(game.state)
            seat = next(p for p in waiting_on(state) if choose(state, p) is not None)
            game_services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=choose(state, seat),
                                             expected_version=game.version)
        page.set_content(fakes.channel_view_html(fake, "discord", names))
        page.screenshot(path=str(artifacts / "chat-status-post-later.png"), full_page=True)
        assert fake.messages["discord"].keys() == first.keys() and fake.messages["discord"] != first
        assert page.get_by_text("edited").count() == 1
        context.close()
    finally:
        current_app.conf.task_always_eager = eager


@pytest.mark.parametrize("width", [1280, 390])
def test_a_player_links_their_chat_names(browser, site, artifacts, alice, width):
    context = _signed_in(browser, site, alice, width)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + "/chats/me/")
        page.get_by_role("heading", name="Chat names").wait_for()
        page.get_by_label("Discord user id").fill("12345")
        page.get_by_role("button", name="Save").click()
        page.get_by_text("A Discord user id is 15 to 20 digits.").wait_for()
        page.get_by_label("Discord user id").fill("100000000000000001")
        page.get_by_label("Telegram username").fill("@alice_plays")
        page.get_by_role("button", name="Save").click()
        page.get_by_text("Your chat names are saved.").wait_for()
        page.screenshot(path=str(artifacts / f"chat-names-{width}.png"), full_page=True)
        alice.refresh_from_db()
        assert alice.chat_identity.telegram_username == "alice_plays"
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_host_is_told_on_the_game_and_channel_pages_when_delivery_stopped(browser, site, artifacts, alice, bob,
                                                                               width):
    from django.utils import timezone

    from chats import services

    table = _table(alice, "Sunday league")
    game_services.table_join(table=table, user=bob)
    for position in (2, 3):
        game_services.table_set_seat(table=table, by=alice, position=position, bot="strategy")
    services.channel_connect(table=table, by=alice, provider="telegram",
                             credentials={"token": fakes.TELEGRAM_TOKEN, "chat": fakes.TELEGRAM_CHAT},
                             label="Telegram chat -1001234567890")
    game = game_services.table_start(table=table, by=alice)
    now = timezone.now()
    Channel.objects.filter(table=table).update(failing_since=now - timezone.timedelta(hours=3), gave_up_at=now,
                                               last_error="the service refused the message (401)")
    context = _signed_in(browser, site, alice, width)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + f"/games/{game.pk}/")
        page.get_by_text("Delivery to the group chat stopped.").wait_for()
        page.screenshot(path=str(artifacts / f"chat-game-line-{width}.png"))
        page.get_by_role("link", name="Group chat settings").click()
        page.get_by_text("Delivery to this channel stopped").wait_for()
        page.screenshot(path=str(artifacts / f"chat-channel-stopped-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
