"""The replay's turn and round controls and its slider, the Watch page, and the Spanish and
Catalan pages, in Debian's Chromium at desktop (1280 px) and phone (390 px) widths. Screenshots
go to test-artifacts/e2e/."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game, Seat
from tests.e2e.pages import at_width, signed_in
from tests.games.play_helpers import autoplay, end_by_surrenders, start_game

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def _finished(alice, bob, charlie) -> Game:
    return end_by_surrenders(autoplay(start_game(alice, bob, charlie, name="Replayed"), 150))


def _page(browser, site, user, width, *, javascript=True):
    return signed_in(browser, site, user, **at_width(width), java_script_enabled=javascript)


def _until(page, expression: str) -> None:
    """Wait until ``expression`` is true in the page (polled with page.evaluate: Playwright's
    wait_for_function evaluates strings, which the site's CSP forbids)."""
    for _ in range(300):
        if page.evaluate(expression):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {expression}")


def _settled(page) -> None:
    """Wait until htmx has finished its request, swap and settle (a key pressed before then
    would reach the replaced controls)."""
    _until(page, "!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


@pytest.mark.parametrize("width", [1280, 390])
def test_replay_steps_by_turn_and_round_and_by_its_slider(browser, site, artifacts, alice, bob, charlie, width):
    game = _finished(alice, bob, charlie)
    replay = services.game_replay(game=game)
    starts = [t[0] for t in replay.turns]
    second_round = next(t[0] for t in replay.turns if t[1] == 2)
    context, page = _page(browser, site, alice, width)
    try:
        page.goto(f"{site}/games/{game.pk}/replay/?step=0")
        turn = page.locator(".replay-turn")
        assert turn.inner_text().startswith("Round 1 · ")
        assert f"(1 of {len(starts)})" in turn.inner_text()

        # Page Down: the next turn (htmx swaps the replay and pushes the address).
        page.keyboard.press("PageDown")
        page.wait_for_url(f"**step={starts[1]}")
        _settled(page)
        assert f"(2 of {len(starts)})" in turn.inner_text()
        page.get_by_role("link", name="Next round", exact=True).click()
        page.wait_for_url(f"**step={second_round}")
        _settled(page)
        assert page.locator(".replay-turn").inner_text().startswith("Round 2 · ")
        page.keyboard.press("PageUp")
        page.wait_for_url(f"**step={max(s for s in starts if s < second_round)}")
        _settled(page)  # (the new slider is in: a key pressed on the one swapped out is lost)

        # The slider by keyboard: End goes to the last move, and focus stays on the slider.
        slider = page.locator("#replay-step")
        slider.focus()
        page.keyboard.press("End")
        page.wait_for_url(f"**step={replay.steps}")
        _settled(page)
        assert page.locator(".replay-step").inner_text() == f"Move {replay.steps} of {replay.steps}"
        # (The new slider, in the page: htmx gives focus back to the element of the same id.)
        _until(page, "document.activeElement && document.activeElement.id === 'replay-step'"
                     " && document.activeElement.isConnected")
        page.keyboard.press("Home")
        page.wait_for_url("**step=0")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.goto(f"{site}/games/{game.pk}/replay/?step={second_round}")
        page.screenshot(path=str(artifacts / f"replay-turns-{width}.png"), full_page=True)
    finally:
        context.close()


def test_replay_controls_work_without_javascript(browser, site, alice, bob, charlie):
    game = _finished(alice, bob, charlie)
    replay = services.game_replay(game=game)
    starts = [t[0] for t in replay.turns]
    context, page = _page(browser, site, alice, 1280, javascript=False)
    try:
        page.goto(f"{site}/games/{game.pk}/replay/?step=0")
        page.locator('[data-replay="next-turn"]').click()
        page.wait_for_url(f"**step={starts[1]}")
        _settled(page)
        page.locator("#replay-step").fill("7")
        page.get_by_role("button", name="Go").click()
        page.wait_for_url("**step=7")
        assert page.locator(".replay-step").inner_text() == f"Move 7 of {replay.steps}"
    finally:
        context.close()


ENGLISH = ("Community Chest", "Free Parking", "Go to Jail", "Income Tax", "Strategy bot", "Light blue",
           "Electric Company")


@pytest.mark.parametrize("language", ["es", "ca"])
@pytest.mark.parametrize("width", [1280, 390])
def test_pages_in_spanish_and_catalan(browser, site, artifacts, alice, bob, charlie, language, width):
    for user in (alice, bob, charlie):
        user.language = language
        user.save(update_fields=["language"])
    finished = _finished(alice, bob, charlie)
    table = services.table_create(host=bob, name="Mesa en juego", preset="classic", seat_count=3)
    services.table_join(table=table, user=alice)
    services.table_set_seat(table=table, by=bob, position=2, bot=Seat.Bot.STRATEGY)
    live = autoplay(services.table_start(table=table, by=bob), 60)
    services.table_create(host=charlie, name="Mesa abierta", preset="world-classic")
    context, page = _page(browser, site, charlie, width)
    watch = {"es": "Mirar", "ca": "Mirar"}[language]
    try:
        page.goto(f"{site}/")
        page.locator(".lobby-watch").wait_for()
        page.screenshot(path=str(artifacts / f"i18n-lobby-{language}-{width}.png"), full_page=True)
        # One click from the lobby to watching the game.
        page.locator(".lobby-watch").get_by_role("link", name=re.compile(watch)).first.click()
        page.wait_for_url(f"**/games/{live.pk}/")
        page.locator("#game").wait_for()
        text = page.locator("body").inner_text()
        html = page.content()
        for word in ENGLISH:
            assert word not in text and word not in html, word
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(artifacts / f"i18n-game-{language}-{width}.png"), full_page=True)

        page.goto(f"{site}/watch/")
        page.locator(".watch-card").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=str(artifacts / f"i18n-watch-{language}-{width}.png"), full_page=True)

        page.goto(f"{site}/games/{finished.pk}/replay/?step=40")
        assert "Strategy bot" not in page.content()
        page.screenshot(path=str(artifacts / f"i18n-replay-{language}-{width}.png"), full_page=True)
    finally:
        context.close()


def test_replay_links_have_names_and_each_step_is_announced(browser, site, artifacts, alice, bob, charlie):
    """Issue 26 item 20: « and » read as quotation marks (their title is no name), and a step
    shown by htmx was not said; the log's dice read "4 5" unlabelled."""
    game = _finished(alice, bob, charlie)
    context, page = _page(browser, site, alice, 1280)
    try:
        page.goto(f"{site}/games/{game.pk}/replay/?step=3")
        nav = page.locator(".replay-centre, .centre-inner").first.aria_snapshot()
        for name in ("First move", "Previous", "Next", "Last move", "Previous round", "Previous turn", "Next turn",
                     "Next round"):
            assert f'link "{name}"' in nav, nav
        assert not set("\u00ab\u00bb\u2039\u203a") & set(nav), nav  # (no guillemet nor angle quote in a name)
        region = page.locator("#replay-announcer")
        assert region.get_attribute("aria-live") == "polite"
        page.keyboard.press("ArrowRight")
        page.wait_for_url("**step=4")
        _settled(page)
        _until(page, "document.getElementById('replay-announcer').textContent.length > 0")
        said = region.text_content()
        assert said.startswith("Move 4 of "), said
        assert page.locator(".replay-turn").inner_text().strip() in said
        assert ".." not in said, said
        # The game page's log: dice say what they are.
        page.goto(f"{site}/games/{game.pk}/")
        dice = page.locator(".log-list .mini-dice").first
        faces = [t.strip() for t in dice.locator("span").all_inner_texts()]
        assert dice.get_attribute("aria-label") == "Dice: " + ", ".join(faces)
    finally:
        context.close()
