"""The dice in the board's centre show their pips, and the speed die its BUS and M1 faces, at
every width, with two dice and with three (the world variant's speed die)."""

from __future__ import annotations

import pytest

from games.engine import GameState
from tests.e2e.layout_helpers import (
    DESKTOP,
    PHONE,
    SMALL_PHONE,
    page_width,
    reload,
    set_state,
    speed_die_game,
    width_id,
)
from tests.e2e.test_phone_board import open_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Each die's box, its pips' boxes, and for a word face whether the word fits the die.
DICE_JS = """() => [...document.querySelectorAll('#game .dice .die')].map(d => {
  const box = d.getBoundingClientRect();
  const pips = [...d.querySelectorAll('i')].map(i => {
    const b = i.getBoundingClientRect();
    return {w: b.width, h: b.height,
            inside: b.left >= box.left && b.right <= box.right && b.top >= box.top
              && b.bottom <= box.bottom};
  });
  const text = d.classList.contains('die-word') ? d.textContent.trim() : null;
  let inside = null;
  if (text) {
    const range = document.createRange();
    range.selectNodeContents(d);
    const r = range.getBoundingClientRect();
    inside = r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
  }
  return {w: box.width, h: box.height, pips, text, inside,
          clipped: d.scrollWidth > d.clientWidth + 1 || d.scrollHeight > d.clientHeight + 1};
})"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE, SMALL_PHONE], ids=width_id)
def test_dice_show_their_pips_and_words_in_a_speed_die_round(browser, site, artifacts, alice, bob,
                                                             viewport):
    game = speed_die_game(alice, bob)
    width = viewport["width"]
    context, page = open_game(browser, site, alice, game, viewport)
    try:
        state = GameState.from_json(game.state)
        # The roll the dice gave, then every face the dice have: 1 to 6 and the speed die's
        # BUS and M1 (set by hand: the dice would take long to show them all), and two dice.
        rolls = [list(state.last_dice), [1, 2, "bus"], [3, 4, "m1"], [5, 6, 3], [6, 6]]
        for n, faces in enumerate(rolls):
            state.last_dice = faces
            set_state(game, state)
            reload(page)
            dice = page.evaluate(DICE_JS)
            assert len(dice) == len(faces), (faces, dice)
            for face, die in zip(faces, dice, strict=True):
                assert die["w"] >= 24 and die["h"] >= 24, (face, die)
                if isinstance(face, int):
                    assert len(die["pips"]) == face, (face, die)
                    for pip in die["pips"]:
                        # A pip a person can see: a tenth of the die across at least.
                        assert pip["w"] >= die["w"] * 0.1 and pip["h"] >= die["h"] * 0.1, (face, die)
                        assert pip["inside"], (face, die)
                else:
                    assert die["text"] == ("BUS" if face == "bus" else "M1"), die
                    assert die["inside"] and not die["clipped"], (face, die)
            assert page_width(page) <= width
            if n < 3:
                shot = artifacts / f"dice-{width}-{'-'.join(map(str, faces))}.png"
                page.locator("#game .dice").screenshot(path=str(shot))
        page.locator("#game .board").screenshot(path=str(artifacts / f"dice-board-{width}.png"))
    finally:
        context.close()
