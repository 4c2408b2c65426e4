"""The bell in a browser: the header shows the unread count, the list opens each game, and
"mark all read" empties the count without reloading the page (desktop and phone)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games import services
from notifications.models import Notification

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1280, 390])
def test_the_bell_counts_lists_and_marks_read_without_reload(browser, site, artifacts, alice, bob, charlie, width):
    from notifications import services as notification_services

    table = services.table_create(host=alice, name="Bell table", preset="classic", seat_count=3)
    services.table_join(table=table, user=bob)
    services.table_join(table=table, user=charlie)
    game = services.table_start(table=table, by=alice)
    # What the start's task writes for bob (on commit, in a worker), written here directly.
    notification_services.notification_create(user_id=bob.pk, kind="game_started", key=f"g{game.pk}:start",
                                              game_id=game.pk)
    notification_services.notification_create(user_id=bob.pk, kind="your_turn", key=f"g{game.pk}:v9",
                                              game_id=game.pk)
    client = Client()
    client.force_login(bob)
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(site + "/")
        page.locator(".nav-bell .bell-count").wait_for()
        # Two items of one game fold into one line (issue 26).
        assert page.locator(".nav-bell .bell-count").inner_text() == "1"
        # Its accessible name says the count once (issue 26 item 20: "Notifications 2 2 unread").
        snapshot = page.locator(".nav-bell").aria_snapshot()
        assert 'link "Notifications 1 unread' in snapshot and "1 1" not in snapshot, snapshot
        page.screenshot(path=str(artifacts / f"bell-header-{width}.png"))

        page.locator(".nav-bell").click()
        page.get_by_role("heading", name="Notifications").wait_for()
        assert page.locator(".inbox-item.is-unread").count() == 1
        assert "2 notices" in page.locator(".inbox-item.is-unread").inner_text()
        page.screenshot(path=str(artifacts / f"bell-inbox-{width}.png"), full_page=True)

        page.evaluate("window.__same_page = true")
        page.get_by_role("button", name="Mark all read").click()
        page.locator(".inbox-item.is-unread").first.wait_for(state="detached")
        page.locator(".nav-bell .bell-count").wait_for(state="detached")
        assert page.evaluate("window.__same_page") is True  # no reload
        page.screenshot(path=str(artifacts / f"bell-read-{width}.png"), full_page=True)
        assert not Notification.objects.filter(user=bob, read_at__isnull=True).exists()

        page.locator(".inbox-link").first.click()
        page.wait_for_url(f"{site}/games/{game.pk}/")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
