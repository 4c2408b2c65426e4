"""The tables' pages in a browser: on the table page the host sees the invitation form and the
addresses invited, a player who sat down at the public table sees neither; My games names the
players by their current display names. Screenshots at desktop and phone widths land in
test-artifacts/e2e/."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games import services

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _page(browser, site: str, user, path: str, width: int):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=width < 600)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site, "value": session}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(site + path)
    page.locator("main").wait_for()
    return context, page


@pytest.mark.parametrize("width", [1280, 390])
def test_only_the_host_sees_invitations_in_the_browser(browser, site, artifacts, alice, bob, width):
    table = services.table_create(host=alice, name="Friday night", preset="classic", seat_count=3)
    services.invitation_create(table=table, by=alice, email="dana@example.com")
    services.table_join(table=table, user=bob)
    path = f"/tables/{table.pk}/"

    host, host_page = _page(browser, site, alice, path, width)
    player, player_page = _page(browser, site, bob, path, width)
    try:
        host_page.screenshot(path=str(artifacts / f"table-host-{width}.png"), full_page=True)
        player_page.screenshot(path=str(artifacts / f"table-player-{width}.png"), full_page=True)

        assert host_page.locator("#invite-email").is_visible()
        assert host_page.get_by_text("dana@example.com").is_visible()
        assert player_page.locator("#invite-title").count() == 0
        assert player_page.locator("#invite-email").count() == 0
        assert "dana@example.com" not in player_page.content()
        assert player_page.get_by_role("button", name="Leave the table").is_visible()
        # Nothing runs off the side of a phone.
        for page in (host_page, player_page):
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        host.close()
        player.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_my_games_names_players_by_their_current_names(browser, site, artifacts, alice, bob, width):
    from tests.games.play_helpers import start_game

    game = start_game(alice, bob)
    services.game_submit_action(game=game, user=bob, action={"type": "surrender"},
                                expected_version=game.version)
    alice.display_name = "Alicia"
    alice.save()
    start_game(bob, alice, name="Second game")

    context, page = _page(browser, site, bob, "/me/games/", width)
    try:
        page.screenshot(path=str(artifacts / f"my-games-names-{width}.png"), full_page=True)
        text = page.locator("main").inner_text()
        assert "Winner: Alicia" in text and "with Alicia" in text
        assert "Alice" not in text
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
