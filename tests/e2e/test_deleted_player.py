"""What the other players see once a player has deleted their account, and the table option
that decides what becomes of such a seat (RULES.md 15, absent_seat), in Debian's Chromium at
desktop and phone widths. Screenshots land in test-artifacts/e2e/."""

from __future__ import annotations

import pytest

from accounts import services as accounts
from tests.e2e import pages
from tests.games.play_helpers import autoplay, no_auto_vacation, start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def signed_in(browser, site: str, user, viewport: dict):
    return pages.signed_in(browser, site, user, viewport=viewport, is_mobile=viewport["width"] < 600, has_touch=True)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_others_see_a_deleted_player_forfeited_and_the_game_going_on(
    browser, site, artifacts, alice, bob, charlie, password, width
):
    game = autoplay(start_game(alice, bob, charlie, name="Goes on"), 12)
    accounts.user_delete(user=charlie, password=password)
    context, page = signed_in(browser, site, bob, WIDTHS[width])
    try:
        page.goto(f"{site}/games/{game.pk}/")
        panel = page.locator(".player", has_text="Deleted player")
        panel.wait_for()
        assert "is-bankrupt" in panel.get_attribute("class")
        assert page.get_by_text("Charlie").count() == 0
        assert page.get_by_text("The player deleted their account: the seat is forfeited.").first.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts / f"deleted-player-game-{width}.png", full_page=True)

        page.goto(f"{site}/me/games/")
        page.get_by_text("Deleted player").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts / f"deleted-player-my-games-{width}.png", full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_the_host_picks_a_bot_for_absent_players_and_the_lobby_says_so(browser, site, artifacts, alice, width):
    context, page = signed_in(browser, site, alice, WIDTHS[width])
    try:
        page.goto(f"{site}/tables/new/")
        out = page.get_by_label("They leave the game")
        bot = page.get_by_label("A bot plays their seat")
        assert out.is_checked() and not bot.is_checked()
        bot.check()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.locator("fieldset").first.screenshot(path=artifacts / f"absent-seat-form-{width}.png")
        page.get_by_role("button", name="Open the table").click()
        page.get_by_text("A bot plays their seat").wait_for()
        page.screenshot(path=artifacts / f"absent-seat-table-{width}.png", full_page=True)

        page.goto(f"{site}/")
        card = page.locator(".table-card").first
        assert card.get_by_text("A bot plays the seat of a player who leaves for good.").is_visible()
        card.screenshot(path=artifacts / f"absent-seat-card-{width}.png")
    finally:
        context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_player_whose_seat_a_bot_took_watches_without_moves(browser, site, artifacts, alice, bob, width):
    from django.utils import timezone

    from games import services, tasks
    from games.models import Game, Table
    from tests.games.play_helpers import users_by_seat

    table = services.table_create(host=alice, name="Stand-in", preset="classic", pace=Table.Pace.LIVE,
                                  seat_count=2, absent_seat=Table.AbsentSeat.BOT)
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    no_auto_vacation(game)  # the third miss forfeits (no day of vacation instead)
    absent = game.current_seat
    state = dict(game.state)
    state["players"] = [dict(p, missed=2 if i == absent else 0) for i, p in enumerate(state["players"])]
    Game.objects.filter(pk=game.pk).update(state=state, deadline=timezone.now().replace(year=2000))
    tasks.process_deadlines()
    context, page = signed_in(browser, site, users_by_seat(game)[absent], WIDTHS[width])
    try:
        page.goto(f"{site}/games/{game.pk}/")
        page.locator("#game .board").wait_for()
        assert page.get_by_text("A bot plays your seat since your third missed turn.", exact=True).is_visible()
        assert page.locator("button[name=type][value=roll]").count() == 0
        assert page.locator("button[name=type][value=end_turn]").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts / f"bot-took-seat-{width}.png", full_page=True)
    finally:
        context.close()
