"""The squares a triple lets a player jump to (and those a building can be knocked off) are
marked without hiding who owns them and what stands on them: the colour band with its houses
and the owner's strip look as they do without the prompt, and yet each square is marked."""

from __future__ import annotations

import pytest

from games.engine import HOTEL, GameState
from tests.e2e.layout_helpers import (
    DESKTOP,
    PHONE,
    changed_share,
    mean_colour,
    reload,
    speed_die_game,
    width_id,
)
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Regions of a bottom-row street: the middle of its colour band (the houses), its owner's strip
# along the outer edge, and the whole square.
MARKS_JS = """(index) => {
  const sq = document.querySelectorAll('#game .board .sq')[index];
  const box = sq.getBoundingClientRect();
  const band = sq.querySelector('.band').getBoundingClientRect();
  return {
    band: {x: band.left + band.width * .25, y: band.top + band.height * .4,
           width: band.width * .5, height: band.height * .4},
    owner: {x: box.left + box.width * .3, y: box.bottom - 3, width: box.width * .4, height: 2},
    square: {x: box.left, y: box.top, width: box.width, height: box.height},
    target: sq.classList.contains('is-target'),
  };
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_jump_targets_keep_owners_and_buildings_in_sight(browser, site, artifacts, alice, bob, viewport):
    game = speed_die_game(alice, bob)
    state = GameState.from_json(game.state)
    bottom = [s.index for s in state.board.squares if s.kind == "street" and 0 < s.index < 10]
    # A deed of each player on the bottom row, with houses and with a hotel.
    for sq, owner, level in ((bottom[0], 1, 2), (bottom[-1], 0, HOTEL)):
        state.owner[sq], state.level[sq] = owner, level
    plain = state.to_json()
    # A triple: the player may jump to any square (RULES.md 11, the speed die).
    me = state.current
    state.stack.append({"k": "teleport", "p": me, "default": state.players[me].pos})
    jumping = state.to_json()
    width = viewport["width"]
    context, page = open_game(browser, site, users_by_seat(game)[me], game, viewport)
    try:
        seen = {}
        for name, position in (("plain", plain), ("jumping", jumping)):
            game.state = position
            game.save(update_fields=["state"])
            reload(page)
            page.mouse.move(0, 0)
            page.locator("#game .board").screenshot(path=str(artifacts / f"jump-{name}-{width}.png"))
            for sq in (bottom[0], bottom[-1]):
                marks = page.evaluate(MARKS_JS, sq)
                assert marks["target"] == (name == "jumping")
                for part in ("band", "owner", "square"):
                    seen[name, sq, part] = page.screenshot(clip=marks[part])
        assert page.locator("#game .board .sq.is-target").count() == 40
        for sq in (bottom[0], bottom[-1]):
            for part in ("band", "owner"):
                before = mean_colour(seen["plain", sq, part])
                after = mean_colour(seen["jumping", sq, part])
                assert max(abs(a - b) for a, b in zip(before, after, strict=True)) <= 8, (sq, part, before, after)
            # ...and yet the square is marked: a clear part of it looks different.
            share = changed_share(seen["plain", sq, "square"], seen["jumping", sq, "square"])
            assert share >= 0.04, (sq, share)
    finally:
        context.close()
