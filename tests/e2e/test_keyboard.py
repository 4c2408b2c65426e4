"""The game page by keyboard and screen reader (issue 12): after a move focus lands on the next
decision's first button (not the page's top), the shortcut keys press the frequent buttons and
never fire while typing, "?" opens their list, a polite live region says the new decision and
log lines, and a deed's card opens on click or Enter and closes on Escape, focus going back."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games.engine import GameState, waiting_on
from games.models import Game
from tests.e2e.layout_helpers import DESKTOP, PHONE, width_id
from tests.games.play_helpers import autoplay, start_game, users_by_seat

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def open_page(browser, site, user, game, viewport=DESKTOP):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 600,
                                  has_touch=viewport["width"] < 600)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{site}/games/{game.pk}/")
    page.locator("#game .board").wait_for()
    return context, page


def current_user(game: Game):
    game.refresh_from_db()
    state = GameState.from_json(game.state)
    return users_by_seat(game)[waiting_on(state)[0]]


def focused(page) -> dict:
    return page.evaluate("""() => { const a = document.activeElement;
      return {tag: a.tagName, id: a.id, value: a.value || null, inGame: !!a.closest('#game'),
              text: (a.textContent || '').trim().slice(0, 40)}; }""")


def version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def test_after_a_roll_focus_goes_to_the_next_decision_and_the_region_says_it(browser, site, alice, bob):
    game = start_game(alice, bob)
    user = current_user(game)
    context, page = open_page(browser, site, user, game)
    try:
        roll = page.locator("#decision button[value=roll]")
        roll.focus()
        before = version(page)
        page.keyboard.press("Enter")
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before)
        page.wait_for_function("() => document.activeElement && document.activeElement.closest('#decision')")
        f = focused(page)
        assert f["inGame"], f
        # The first button of the new decision (buy, or end the turn), else the decision itself.
        first = page.evaluate("""() => { const b = document.querySelector('#decision .choices button');
          return b ? b.value : null; }""")
        if first is not None:
            assert f["tag"] == "BUTTON" and f["value"] == first, f
        else:
            assert f["id"] == "decision", f
        region = page.locator("#game-announcer")
        assert region.get_attribute("aria-live") == "polite"
        page.wait_for_function("() => document.getElementById('game-announcer').textContent.length > 0")
        said = region.text_content()
        decision = page.locator("#decision .decision-text").text_content().strip()
        assert decision in said
        # The newest log line is said too: the roll.
        newest = page.locator(".log-list .log-entry").first.locator(".log-text p").first.text_content().strip()
        assert newest in said
        assert ".." not in said, said  # (issue 26 item 20: sentences joined with "..")
        assert page.locator("#log").get_attribute("role") == "log"
    finally:
        context.close()


def test_a_poll_does_not_take_focus_from_outside_the_game(browser, site, alice, bob):
    game = start_game(alice, bob)
    user = current_user(game)
    other = bob if user == alice else alice
    context, page = open_page(browser, site, other, game)
    try:
        page.locator(".site-header .brand").focus()
        before = version(page)
        autoplay(game, 1)  # the other player moves: the poll brings it
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before,
                               timeout=20000)
        page.wait_for_timeout(300)
        assert page.evaluate("document.activeElement.classList.contains('brand')")
        page.wait_for_function("() => document.getElementById('game-announcer').textContent.length > 0")
    finally:
        context.close()


def test_shortcut_keys_press_the_buttons_and_not_while_typing(browser, site, alice, bob):
    game = start_game(alice, bob)
    user = current_user(game)
    context, page = open_page(browser, site, user, game)
    try:
        assert page.locator("#decision button[value=roll]").get_attribute("aria-keyshortcuts") == "r"
        # Typed into a field (the chat's, if shown, else the trade builder's cash), "r" is a letter.
        page.evaluate("""() => { const i = document.createElement('input'); i.id = 'scratch';
          document.querySelector('.game-header').append(i); }""")
        page.locator("#scratch").focus()
        before = version(page)
        page.keyboard.press("r")
        page.wait_for_timeout(500)
        assert version(page) == before
        assert page.locator("#scratch").input_value() == "r"
        # A key whose button is not offered says so and changes nothing.
        page.locator(".site-header .brand").focus()
        page.keyboard.press("e")
        page.wait_for_function("() => document.getElementById('game-announcer').textContent.length > 0")
        assert version(page) == before
        page.keyboard.press("r")
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before)
        game.refresh_from_db()
        assert game.version > before
        # (The answer's version comes before its parts are in and focus is set on the next
        # decision: wait for that, or it takes focus from the header below.)
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")
        # "?" opens the list of keys; Escape closes it and focus goes back.
        page.locator(".site-header .brand").focus()
        page.keyboard.press("?")
        help_ = page.locator("#shortcut-help")
        help_.wait_for(state="visible")
        assert page.evaluate("document.activeElement.closest('#shortcut-help') !== null")
        # A modal dialog: the keys do nothing behind it.
        v = version(page)
        page.keyboard.press("e")
        page.wait_for_timeout(300)
        assert version(page) == v
        page.keyboard.press("Escape")
        help_.wait_for(state="hidden")
        # (A dialog's "close" event, which puts focus back, comes in a task after it hides.)
        # (A function, not an expression: Playwright evaluates an expression with eval, which the
        # page's CSP refuses.)
        page.wait_for_function("() => document.activeElement.classList.contains('brand')", timeout=5000)
        # The button in the header opens it too.
        page.get_by_role("button", name="Keyboard shortcuts").click()
        help_.wait_for(state="visible")
        page.keyboard.press("Escape")
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=width_id)
def test_a_deed_card_opens_from_the_board_and_the_players_panel(browser, site, artifacts, alice, bob, viewport):
    game = autoplay(start_game(alice, bob), 40)
    state = GameState.from_json(game.state)
    owned = [sq for sq in state.board.deeds if state.owner[sq] >= 0]
    assert owned, "nobody bought a deed in 40 moves"
    sq = owned[0]
    name = state.board.squares[sq].name
    owner = state.players[state.owner[sq]].name
    context, page = open_page(browser, site, alice, game, viewport)
    try:
        dialog = page.locator("#deed-dialog")
        # From the board: a click (a tap on a phone) on the square.
        square = page.locator(f'.board .sq[data-deed="{sq}"]')
        if viewport["width"] < 600:
            square.tap()
        else:
            square.click()
        dialog.locator(".deed-card").wait_for()
        assert dialog.locator("#deed-card-title").text_content().strip() == name
        text = dialog.inner_text()
        assert owner in text and "Mortgage value" in text
        page.screenshot(path=str(artifacts / f"deed-card-{viewport['width']}.png"))
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        # A focused square (a tap focuses it): Enter opens the card too.
        square.focus()
        page.keyboard.press("Enter")
        dialog.locator(".deed-card").wait_for()
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        # (The close event puts focus back on the square in a task after the dialog hides: a
        # control focused before then would lose it to the square.)
        page.wait_for_function(f"() => document.activeElement.matches('.sq[data-deed=\"{sq}\"]')", timeout=5000)
        # From a player's panel, by keyboard: the chip is a link; Enter opens the card.
        chip = page.locator(f'.players a.deed[data-deed="{sq}"]')
        chip.focus()
        page.keyboard.press("Enter")
        dialog.locator(".deed-card").wait_for()
        assert page.evaluate("document.activeElement.closest('#deed-dialog') !== null")
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#deed-dialog') !== null")  # focus stays inside
        page.keyboard.press("Escape")
        dialog.wait_for(state="hidden")
        # (A dialog's "close" event, which puts focus back, comes in a task after it hides.)
        page.wait_for_function(f"() => document.activeElement.matches('a.deed[data-deed=\"{sq}\"]')", timeout=5000)
    finally:
        context.close()


def test_without_javascript_a_deed_chip_opens_the_card_page(browser, site, alice, bob):
    game = autoplay(start_game(alice, bob), 40)
    state = GameState.from_json(game.state)
    sq = next(sq for sq in state.board.deeds if state.owner[sq] >= 0)
    client = Client()
    client.force_login(alice)
    context = browser.new_context(java_script_enabled=False)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    try:
        page.goto(f"{site}/games/{game.pk}/")
        page.locator(f'.players a.deed[data-deed="{sq}"]').click()
        page.wait_for_url(f"{site}/games/{game.pk}/deeds/{sq}/")
        # (The page's own heading, h1: issue 26 item 19.)
        assert page.locator("h1#deed-card-title").text_content().strip() == state.board.squares[sq].name
        assert page.locator("h1").count() == 1
    finally:
        context.close()


def test_the_g_key_only_moves_focus_to_the_decision(browser, site, alice, bob):
    """Issue 26 item 17: "g" goes to the decision; it never presses its first button (one key
    accepted a trade and bought a deed). Enter then presses the focused button, as ever."""
    game = start_game(alice, bob)
    user = current_user(game)
    context, page = open_page(browser, site, user, game)
    try:
        page.locator(".site-header .brand").focus()
        before = version(page)
        page.keyboard.press("g")
        page.wait_for_function("() => document.activeElement.closest('#decision') !== null")
        page.wait_for_timeout(800)  # (a click would have posted the roll by now)
        assert page.evaluate("() => document.activeElement.value") == "roll"
        assert version(page) == before
        game.refresh_from_db()
        assert game.version == before
        page.keyboard.press("Enter")
        page.wait_for_function("v => +document.getElementById('game').dataset.version > v", arg=before)
    finally:
        context.close()
