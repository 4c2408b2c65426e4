"""The owner's letter on an owned square (its badge, game.css ``.sq.is-owned::after``) and the
jail's bars leave the squares' words readable: issue 26 item 30, the badges covered the first
letters of the top row's names at 1280 px ("entucky Avenue"), in the replay too, and the bars
covered "IN JAIL"."""

from __future__ import annotations

import pytest

from games.engine import GameState
from games.models import GameAction
from tests.e2e.layout_helpers import set_state
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Each owned square's badge (its ::after box, from the square's box and the pseudo-element's
# computed offsets and size) and the boxes of its words (the name, the price), and the jail's
# "In jail" words with the bars' stripes around them.
OVERLAP_JS = """() => {
  const out = [];
  for (const sq of document.querySelectorAll('.board .sq.is-owned')) {
    const box = sq.getBoundingClientRect();
    const st = getComputedStyle(sq, '::after');
    const w = parseFloat(st.width), h = parseFloat(st.height);
    let left = st.left !== 'auto' ? box.left + parseFloat(st.left) : box.right - parseFloat(st.right) - w;
    let top = st.top !== 'auto' ? box.top + parseFloat(st.top) : box.bottom - parseFloat(st.bottom) - h;
    // (Its padding: width and height are the content box's.)
    const pw = parseFloat(st.paddingLeft) + parseFloat(st.paddingRight);
    const ph = parseFloat(st.paddingTop) + parseFloat(st.paddingBottom);
    if (st.right !== 'auto' && st.left === 'auto') left -= pw;
    if (st.bottom !== 'auto' && st.top === 'auto') top -= ph;
    const badge = {left, top, right: left + w + pw, bottom: top + h + ph};
    const words = [];
    for (const el of sq.querySelectorAll('.sq-name, .sq-price')) {
      if (getComputedStyle(el).display === 'none') continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      for (const r of range.getClientRects()) words.push({text: el.textContent.trim(), left: r.left, top: r.top,
                                                          right: r.right, bottom: r.bottom});
    }
    const hit = words.filter(r => r.left < badge.right - .5 && badge.left < r.right - .5
                                  && r.top < badge.bottom - .5 && badge.top < r.bottom - .5);
    out.push({name: sq.title.split(' · ')[0], side: [...sq.classList].find(c => /^sq-(top|bottom|left|right)$/.test(c)),
              badge, hit: hit.map(r => r.text)});
  }
  return out;
}"""

JAIL_JS = """() => {
  const cell = document.querySelector('.board .jail-cell');
  const words = cell.querySelector('span');
  const range = document.createRange();
  range.selectNodeContents(words);
  const text = range.getBoundingClientRect();
  const c = cell.getBoundingClientRect();
  const tokens = [...document.querySelectorAll('.board .tokens-jailed .token')].map(t => t.getBoundingClientRect());
  return {inside: text.left >= c.left - .5 && text.right <= c.right + .5 && text.top >= c.top - .5,
          covered: tokens.some(t => t.left < text.right && text.left < t.right
                                    && t.top < text.bottom && text.top < t.bottom),
          plate: getComputedStyle(words).backgroundColor, cell: getComputedStyle(cell).backgroundColor};
}"""


def owned_everywhere(alice, bob):
    """A game where every deed is owned (the players' letters alternate) and a player is in jail."""
    game = autoplay(start_game(alice, bob), 6)
    state = GameState.from_json(game.state)
    for k, sq in enumerate(state.board.deeds):
        state.owner[sq] = k % 2
    state.players[1].pos, state.players[1].in_jail = 10, True
    set_state(game, state)
    return game


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 1440, "height": 1000}],
                         ids=lambda v: str(v["width"]))
def test_owner_badges_and_jail_bars_leave_the_words_readable(browser, site, artifacts, alice, bob, viewport,
                                                             language):
    game = owned_everywhere(alice, bob)
    alice.language = language
    alice.save(update_fields=["language"])
    context, page = open_game(browser, site, alice, game, viewport)
    try:
        name = f"{viewport['width']}-{language}"
        page.locator("#game .board").screenshot(path=str(artifacts / f"badges-{name}.png"))
        page.locator("#game .board .corner-jail").screenshot(path=str(artifacts / f"jail-{name}.png"))
        squares = page.evaluate(OVERLAP_JS)
        assert len(squares) == 28
        covered = [(s["name"], s["side"], s["hit"]) for s in squares if s["hit"]]
        assert not covered, covered
        jail = page.evaluate(JAIL_JS)
        # The words inside the cell, on a plate of another colour than the cell's (the bars run
        # over the cell), and no jailed token over them.
        assert jail["inside"] and not jail["covered"], jail
        assert jail["plate"] != jail["cell"], jail
    finally:
        context.close()


def test_the_replay_board_keeps_the_names_clear_of_the_badges(browser, site, artifacts, alice, bob):
    """The replay draws the same board (its squares' template and game.css)."""
    game = autoplay(start_game(alice, bob), 300)
    step = GameAction.objects.filter(game=game).count() - 1  # (the position before the surrenders)
    state = GameState.from_json(game.state)
    top = [sq for sq in range(21, 30) if state.owner[sq] >= 0] if state.board.name == "classic" else []
    game = end_by_surrenders(game)
    context, page = open_game(browser, site, alice, game, {"width": 1280, "height": 900})
    try:
        page.goto(f"{site}/games/{game.pk}/replay/?step={step}")
        page.locator(".board").wait_for()
        page.locator(".board").screenshot(path=str(artifacts / "badges-replay-1280.png"))
        squares = page.evaluate(OVERLAP_JS)
        assert top and sum(1 for s in squares if s["side"] == "sq-top") == len(top)
        covered = [(s["name"], s["side"], s["hit"]) for s in squares if s["hit"]]
        assert not covered, covered
    finally:
        context.close()
