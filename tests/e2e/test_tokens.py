"""Every player's token shows letters of its own: two bots of a kind, and two people whose names
start with the same letter, are told apart on the board and in the players' panels, and the
letters fit their tokens."""

from __future__ import annotations

import pytest

from games import services
from games.engine import GameState
from tests.e2e.layout_helpers import DESKTOP, PHONE, SMALL_PHONE, set_state, width_id
from tests.e2e.test_phone_board import open_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TOKENS_JS = """() => ({
  board: [...document.querySelectorAll('#game .board .token')].map(t => ({
    text: t.textContent.trim(), title: t.title,
    clipped: t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1})),
  panels: [...document.querySelectorAll('#game .player')].map(p => {
    const t = p.querySelector('.token');
    return {text: t.textContent.trim(), name: p.querySelector('.player-name').textContent.trim(),
            clipped: t.scrollWidth > t.clientWidth + 1 || t.scrollHeight > t.clientHeight + 1};
  }),
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, SMALL_PHONE], ids=width_id)
def test_every_player_has_a_token_of_their_own(browser, site, artifacts, alice, bob, viewport):
    bob.display_name = "Alba"  # (and alice is "Alice")
    bob.save(update_fields=["display_name"])
    table = services.table_create(host=alice, name="Bots", preset="classic", pace="live", seat_count=4)
    services.table_join(table=table, user=bob)
    for position in (2, 3):
        services.table_set_seat(table=table, by=alice, position=position, bot="strategy")
    game = services.table_start(table=table, by=alice)
    # Everyone on one street, where the board shows the tokens side by side.
    state = GameState.from_json(game.state)
    for pl in state.players:
        pl.pos = 6
    set_state(game, state)
    width = viewport["width"]
    context, page = open_game(browser, site, alice, game, viewport)
    try:
        page.locator("#game .board .sq").nth(6).screenshot(path=str(artifacts / f"tokens-{width}.png"))
        page.locator("#game .players").screenshot(path=str(artifacts / f"tokens-panels-{width}.png"))
        tokens = page.evaluate(TOKENS_JS)
        panels = tokens["panels"]
        assert len(panels) == 4
        letters = [p["text"] for p in panels]
        assert len(set(letters)) == 4, panels
        assert all(p["text"] and not p["clipped"] for p in panels), panels
        board = tokens["board"]
        assert sorted(t["text"] for t in board) == sorted(letters), board
        assert all(not t["clipped"] for t in board), board
        # Each token's title names its player, as the panel with the same letters does.
        by_letters = {p["text"]: p["name"] for p in panels}
        assert all(by_letters[t["text"]].startswith(t["title"]) for t in board), (board, panels)
    finally:
        context.close()
