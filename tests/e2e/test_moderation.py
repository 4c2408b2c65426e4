"""A player reports a chat message from the game page and a moderator mutes the sender from the
queue, in real browser windows (desktop for the player, a phone for the moderator, then the
other way round for the screenshots): sign in through the form, the chat panel htmx loads beside
the game, the message's menu, the report form, the header's badge, the queue, the report page's
action form; then the muted player's own chat panel says so. Screenshots land in
test-artifacts/e2e/moderation-*.png."""

from __future__ import annotations

import pytest
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.contrib.auth.models import Group

from accounts.models import User
from moderation import services
from moderation.models import AuditEntry, Report, Sanction
from moderation.roles import MODERATORS_GROUP
from tests.factories import DEFAULT_PASSWORD, UserFactory, add_totp, totp_code
from tests.games.play_helpers import start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def sign_in(page, base: str, username: str, code: str | None = None) -> None:
    page.goto(f"{base}/accounts/login/")
    form = page.locator("main form").first
    form.locator("input[name=login]").fill(username)
    form.locator("input[name=password]").fill(DEFAULT_PASSWORD)
    form.locator("button[type=submit]").click()
    if code is not None:
        # A moderator has a second factor (issue 31): sign-in asks for its code.
        page.wait_for_url(f"{base}/accounts/2fa/authenticate/")
        page.locator("main form input[name=code]").fill(code)
        page.locator("main form button[type=submit]").first.click()
    page.wait_for_url(f"{base}/")


def test_a_player_reports_a_chat_message_and_a_moderator_mutes_the_sender(browser, site, artifacts):
    alice = UserFactory(username="alice", display_name="Alice")
    bob = UserFactory(username="bob", display_name="Bob")
    mona = UserFactory(username="mona", display_name="Mona")
    secret = add_totp(mona)
    recovery = RecoveryCodes.activate(mona).get_unused_codes()
    mona.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    game = start_game(alice, bob, pace="correspondence", name="Friday table")
    services.chat_post(user=alice, game=game, text="Good luck, have fun!", is_player=True)
    services.chat_post(user=bob, game=game, text="You play like a <b>donkey</b>, idiot", is_player=True)

    player = browser.new_context(viewport=DESKTOP)
    moderator = browser.new_context(viewport=PHONE)
    try:
        page = player.new_page()
        sign_in(page, site, "alice")
        page.goto(f"{site}/games/{game.pk}/")
        lines = page.locator("#chat .chat-line")
        lines.first.wait_for()
        assert lines.count() == 2
        rude = lines.nth(1)
        # Escaped: the markup is shown as typed, never rendered.
        assert rude.locator(".chat-text").inner_text() == "You play like a <b>donkey</b>, idiot"
        assert page.locator("#chat b").count() == 0
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "moderation-game-chat-desktop.png"))

        rude.locator("summary").click()
        rude.get_by_role("link", name="Report").click()
        page.wait_for_url("**/report/?message=*")
        page.select_option("select[name=reason]", "abuse")
        page.fill("textarea[name=text]", "Insults after I bought the Boardwalk.")
        page.screenshot(path=str(artifacts / "moderation-report-form-desktop.png"))
        page.get_by_role("button", name="Send the report").click()
        page.wait_for_url(f"{site}/games/{game.pk}/")
        assert "the moderators have your report" in page.locator(".messages").inner_text()
        report = Report.objects.get()
        assert report.message.author == bob and report.reason == "abuse"

        mod_page = moderator.new_page()
        sign_in(mod_page, site, "mona", totp_code(secret))
        badge = mod_page.locator("header .nav-badge")
        assert badge.inner_text() == "1"
        mod_page.locator("header a.nav-link", has_text="Moderation").click()
        mod_page.wait_for_url(f"{site}/moderation/")
        item = mod_page.locator(".mod-item").first
        assert "Insults or harassment" in item.inner_text() and "donkey" in item.inner_text()
        mod_page.screenshot(path=str(artifacts / "moderation-queue-phone.png"), full_page=True)

        item.locator("a.mod-item-link").click()
        mod_page.wait_for_url(f"{site}/moderation/reports/{report.pk}/")
        mod_page.get_by_role("button", name="Claim").click()
        mod_page.wait_for_load_state()
        form = mod_page.locator("form[data-testid=account-action]")
        form.locator("select[name=action]").select_option("mute")
        form.locator("select[name=duration]").select_option("7d")
        form.locator("textarea[name=reason]").fill("Insults in the game chat.")
        mod_page.screenshot(path=str(artifacts / "moderation-report-phone.png"), full_page=True)
        form.get_by_role("button", name="Apply").click()
        mod_page.wait_for_load_state()
        assert "Done: Mute in chat (Bob)." in mod_page.locator(".messages").inner_text()
        assert "Player muted" in mod_page.locator("main").inner_text()

        sanction = Sanction.objects.get(user=bob)
        report.refresh_from_db()
        assert sanction.kind == "mute" and sanction.is_active() and sanction.created_by == User.objects.get(
            username="mona")
        assert report.state == "resolved" and report.outcome == "muted"
        assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == ["claim", "mute"]

        # The muted player sees why in the chat panel, and no longer a box to write in.
        bob_page = moderator.new_page()
        moderator.clear_cookies()
        sign_in(bob_page, site, "bob")
        bob_page.goto(f"{site}/games/{game.pk}/")
        bob_page.locator("#chat .chat-refusal").wait_for()
        assert "You are muted in chat until" in bob_page.locator("#chat .chat-refusal").inner_text()
        assert bob_page.locator("#chat-text").count() == 0
        bob_page.locator("#chat").scroll_into_view_if_needed()
        bob_page.screenshot(path=str(artifacts / "moderation-muted-chat-phone.png"))

        # The other widths, for the record: the report page on a desktop, the chat on a phone.
        page.goto(f"{site}/games/{game.pk}/")
        page.set_viewport_size(PHONE)
        page.locator("#chat .chat-line").first.wait_for()
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "moderation-game-chat-phone.png"))
        desk = player.new_page()
        player.clear_cookies()
        sign_in(desk, site, "mona", recovery[0])  # the app's code of a moment ago is spent
        desk.set_viewport_size(DESKTOP)
        desk.goto(f"{site}/moderation/reports/{report.pk}/")
        desk.screenshot(path=str(artifacts / "moderation-report-desktop.png"), full_page=True)
        desk.goto(f"{site}/moderation/users/{bob.pk}/")
        desk.screenshot(path=str(artifacts / "moderation-account-desktop.png"), full_page=True)
    finally:
        player.close()
        moderator.close()
