"""Back from the bot (RULES.md 16) in a real browser, desktop and phone: the panel offers the
seat back, and after the click the player plays again."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width
from tests.e2e.test_phone_board import open_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_a_player_takes_their_seat_back_from_the_bot(browser, site, artifacts, alice, bob, viewport):
    from django.utils import timezone

    from games import services, tasks
    from games.models import Game, Seat
    from tests.games.play_helpers import no_auto_vacation, users_by_seat

    table = services.table_create(host=alice, name="Stand-in", preset="classic", seat_count=2, absent_seat="bot")
    services.table_join(table=table, user=bob)
    game = services.table_start(table=table, by=alice)
    no_auto_vacation(game)
    seat = game.waiting_seats[0]
    state = dict(game.state)
    state["players"] = [dict(p, missed=2 if i == seat else 0) for i, p in enumerate(state["players"])]
    Game.objects.filter(pk=game.pk).update(state=state, deadline=timezone.now() - timedelta(seconds=1))
    tasks.process_deadlines()
    context, page = open_game(browser, site, users_by_seat(game)[seat], game, viewport)
    try:
        panel = page.locator("#seat-back")
        panel.wait_for()
        panel.screenshot(path=str(artifacts / f"seat-back-{viewport['width']}.png"))
        assert page_width(page) <= viewport["width"]
        panel.locator("button").click()
        page.get_by_text("Welcome back: you play your seat again.").wait_for()
        assert Seat.objects.get(table=table, position=seat).bot == ""
    finally:
        context.close()
