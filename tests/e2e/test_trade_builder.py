"""The trade builder in a browser (issue 12): as the player ticks deeds and types cash, each
side's value and, on a world table, the balance rule's verdict change without sending anything;
a deed that would complete a group for its receiver is marked."""

from __future__ import annotations

import pytest

from games.engine import GameState, trade_balanced
from games.models import Game, GameAction
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, width_id
from tests.e2e.test_keyboard import open_page
from tests.games.play_helpers import autoplay, cheapest_deed, play_until, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_the_builder_shows_values_and_the_balance_verdict_as_it_changes(browser, site, artifacts, alice, bob,
                                                                        viewport):
    def both_own(state):
        return state.pending() == "roll" and cheapest_deed(state, state.current) is not None \
            and cheapest_deed(state, 1 - state.current) is not None

    game = play_until(start_game(alice, bob, preset="world-classic"), both_own)
    state = GameState.from_json(game.state)
    me = state.current
    mine, theirs = cheapest_deed(state, me), cheapest_deed(state, 1 - me)
    actions = GameAction.objects.filter(game=game).count()
    context, page = open_page(browser, site, users_by_seat(game)[me], game, viewport)
    try:
        page.locator("#trade summary").click()
        summary = page.locator("#trade-summary")
        summary.wait_for()
        assert "$0" in summary.inner_text()
        page.locator(f'input[name="give_squares"][value="{mine}"]').check()
        price = f"${state.board.price[mine]:,}"
        page.wait_for_function("p => document.querySelector('#trade-summary dd').textContent === p", arg=price)
        # One deed against nothing: unbalanced.
        assert "does not allow" in summary.inner_text()
        page.locator(f'input[name="take_squares"][value="{theirs}"]').check()
        expected = trade_balanced(state, me, 1 - me, {"squares": [mine]}, {"squares": [theirs]})
        word = "allows this trade" if expected else "does not allow"
        page.wait_for_function("w => document.querySelector('#trade-summary').textContent.includes(w)", arg=word)
        # Typed cash counts too, once the typing pauses.
        page.locator("#take-cash").fill("1")
        page.wait_for_function(
            "v => document.querySelectorAll('#trade-summary dd')[1].textContent === v",
            arg=f"${state.board.price[theirs] + 1:,}")
        page.screenshot(path=str(artifacts / f"trade-builder-{viewport['width']}.png"), full_page=True)
        assert page_width(page) <= viewport["width"]
        # Nothing was sent.
        assert GameAction.objects.filter(game=game).count() == actions
    finally:
        context.close()


def test_the_builder_opened_after_the_game_moved_on_is_drawn_afresh(browser, site, alice, bob):
    """A move's answer (or a poll's) does not redraw the closed builder when only its contents
    change; opened on a page that has moved on since, it is fetched afresh and stays open, the
    cash as it is now."""
    game = start_game(alice, bob)
    state = GameState.from_json(game.state)
    watcher = 1 - state.current  # (classic tables trade at any time: the builder is offered)
    context, page = open_page(browser, site, users_by_seat(game)[watcher], game)
    try:
        drawn = int(page.locator("#trade").get_attribute("data-version"))
        game = autoplay(game, 2)
        # The page hears of the moves (push or poll) and takes their parts.
        page.wait_for_function("v => +document.getElementById('game').dataset.version === v", arg=game.version)
        assert int(page.locator("#trade").get_attribute("data-version")) == drawn < game.version

        page.locator("#trade summary").click()

        page.wait_for_function("v => +document.getElementById('trade').dataset.version === v", arg=game.version)
        assert page.locator("#trade").evaluate("d => d.open")
        cash = GameState.from_json(Game.objects.get(pk=game.pk).state).players[watcher].cash
        assert page.locator("#give-cash").get_attribute("max") == str(cash)
        assert page.evaluate("() => document.activeElement.matches('#trade summary')")
    finally:
        context.close()
