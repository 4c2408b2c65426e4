"""Issue 29 in a real browser, desktop and phone: a player types private notes (saved as typed,
never shown to the other player), nudges the player the game has waited on for 13 hours (the
panel and the game's log, on both open pages, then say who nudged whom, and a second nudge is
refused), and "n" takes the waited-on player
to the game; the settings page and My games are drawn too."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.engine import waiting_on
from reach.models import NOTE_MAX, Note, Nudge
from tests.e2e.layout_helpers import DESKTOP, PHONE, page_width, reload
from tests.e2e.test_phone_board import open_game
from tests.games.play_helpers import play_until, start_game, users_by_seat
from tests.reach.conftest import waited_since

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Screenshots for a person to look at: the run's artifacts, and REACH_SHOTS when set.
SHOTS = os.environ.get("REACH_SHOTS", "")


def _shot(target, artifacts: Path, name: str, **kwargs) -> None:
    target.screenshot(path=str(artifacts / name), **kwargs)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(SHOTS) / name), **kwargs)


def _open(browser, site, user, path, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, is_mobile=viewport["width"] < 600, has_touch=True)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": site,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{site}{path}")
    return context, page


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: str(v["width"]))
def test_notes_and_a_nudge_on_the_game_page(browser, site, artifacts, alice, bob, viewport):
    game = start_game(alice, bob, pace="correspondence")
    users = users_by_seat(game)
    waited_seat = next(p for p, u in users.items() if u == alice)
    game = play_until(game, lambda s: waiting_on(s) == [waited_seat])
    waited_since(game, timedelta(hours=13))
    width = viewport["width"]
    context, page = open_game(browser, site, bob, game, viewport)
    other_context, other_page = open_game(browser, site, alice, game, viewport)
    try:
        # Bob's notes, saved as he types (no button), markup kept as text.
        notes = page.locator("#note-text")
        notes.click()
        notes.press_sequentially("Alice needs cash <b>soon</b>", delay=10)
        page.locator("#note-status", has_text="Saved at").wait_for()
        assert Note.objects.get(game=game).text == "Alice needs cash <b>soon</b>"
        _shot(page.locator("#reach-panel"), artifacts, f"reach-notes-{width}.png")

        # Too long: a clear error, the saved text kept.
        notes.fill("x" * (NOTE_MAX + 1))
        notes.press("End")
        notes.press_sequentially("y", delay=10)
        page.locator("#note-status", has_text="too long").wait_for()
        assert Note.objects.get(game=game).text == "Alice needs cash <b>soon</b>"
        notes.fill("Alice needs cash <b>soon</b>")
        notes.press_sequentially("!", delay=10)
        page.locator("#note-status", has_text="Saved at").wait_for()

        # The nudge: after 13 hours of waiting, once.
        page.locator("#reach-panel button", has_text=f"Nudge {alice.public_name}").click()
        page.locator("#reach-panel .message-success", has_text="You nudged").wait_for()
        assert f"{bob.public_name} nudged {alice.public_name}" in page.locator(".reach-nudge-log").text_content()
        _shot(page, artifacts, f"reach-game-page-{width}.png", full_page=True)
        assert page_width(page) <= width
        # (Marked aria-disabled with the time it becomes possible; a click still asks the server.)
        again = page.locator("#reach-panel button", has_text=f"Nudge {alice.public_name}")
        assert again.get_attribute("aria-disabled") == "true"
        again.click(force=True)
        page.locator("#reach-panel .message-error", has_text="less than a day ago").wait_for()
        assert Nudge.objects.count() == 1

        # The game's own log says it on both open pages, without a reload (a new version: pushed,
        # or polled every 15 s on a correspondence table).
        line = f"{bob.public_name} nudged {alice.public_name}."
        for seen in (page, other_page):
            seen.locator("#log-list li", has_text=line).first.wait_for(timeout=40000)

        # Alice sees the nudge, not Bob's notes; "n" takes her to the game waiting on her.
        reload(other_page)
        assert f"{bob.public_name} nudged {alice.public_name}" in other_page.locator("#reach-panel").text_content()
        assert "needs cash" not in other_page.content()
        other_page.goto(f"{site}/")
        other_page.keyboard.press("n")
        other_page.wait_for_url(f"{site}/games/{game.pk}/")
        other_page.locator("#game .board").wait_for()
    finally:
        context.close()
        other_context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=lambda v: str(v["width"]))
def test_the_settings_page_and_my_games(browser, site, artifacts, alice, bob, viewport):
    game = start_game(alice, bob, pace="correspondence")
    waited_seat = next(p for p, u in users_by_seat(game).items() if u == alice)
    game = play_until(game, lambda s: waiting_on(s) == [waited_seat])
    waited_since(game, timedelta(hours=5))
    width = viewport["width"]
    context, page = _open(browser, site, alice, "/reach/settings/", viewport)
    try:
        page.locator("input[name=warnings][value='8']").check()
        page.locator("input[name=warnings][value='1']").check()
        page.locator("#id_quiet_start").fill("23:00")
        page.locator("#id_quiet_end").fill("08:00")
        page.locator(".reach-settings button[type=submit]", has_text="Save").click()
        page.locator(".message-success", has_text="saved").wait_for()
        page.locator(".reach-calendar button").click()
        page.locator("#feed-url").wait_for()
        assert "/reach/calendar/" in page.locator("#feed-url").input_value()
        _shot(page, artifacts, f"reach-settings-{width}.png", full_page=True)
        assert page_width(page) <= width

        from django.urls import reverse

        page.goto(f"{site}{reverse('games:my_games')}")
        page.locator(".waited", has_text="waiting on you for 5").wait_for()
        _shot(page, artifacts, f"reach-my-games-{width}.png", full_page=True)
        assert page_width(page) <= width
        # The header's control, by keyboard: Tab reaches it, Enter follows it.
        link = page.locator("#next-game-waiting")
        assert link.get_attribute("accesskey") == "n"
        link.focus()
        page.keyboard.press("Enter")
        page.wait_for_url(f"{site}/games/{game.pk}/")
    finally:
        context.close()
