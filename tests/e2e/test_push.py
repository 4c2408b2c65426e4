"""Push in a real browser (issue 12): two players' pages of one game, served by uvicorn (ASGI) as
bin/run serves the site, with the real Redis of the run. A move on one page reaches the other
through the event stream, with no poll in between; the mover's page applies the parts its move
changed; after a series of moves both pages read as a fresh render of the game.

Skipped, saying why, without Redis (the pages then poll: the other e2e tests, on Django's WSGI
test server, play that way) or on SQLite's in-memory test database (the server's threads would
need the test's own connection); CI runs PostgreSQL and Redis.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.db import connection, connections

from games.models import Game
from tests.e2e.test_phone_board import open_game
from tests.games.live_helpers import redis_url_or_skip
from tests.games.play_helpers import start_game, users_by_seat
from tests.processes import free_port

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
MOVE_BUTTON = "#game .choices form[hx-post] button[type=submit]"


@pytest.fixture
def asgi_site(settings, transactional_db):
    """uvicorn in a thread of this process, on the test database, as bin/run's web server."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from config.asgi import get_asgi_application

    if connection.vendor == "sqlite":
        pytest.skip("push in the browser needs PostgreSQL (CI): SQLite's test database is in memory")
    settings.LIVE_REDIS_URL = redis_url_or_skip()
    settings.LIVE_CHANNEL_PREFIX = f"test-{uuid.uuid4().hex}"
    port = free_port()
    settings.SITE_URL = f"http://127.0.0.1:{port}"
    # Each request runs in a thread of its own under ASGI: its connection closes when it ends
    # (production lends them from a pool, DATABASE_POOL), none is left when the test database goes.
    db = connections.settings["default"]
    max_age, db["CONN_MAX_AGE"] = db["CONN_MAX_AGE"], 0
    server = uvicorn.Server(uvicorn.Config(ASGIStaticFilesHandler(get_asgi_application()), host="127.0.0.1",
                                           port=port, log_level="warning", lifespan="off"))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(server.serve(),), daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        # The server's database connections (its sync thread's) close before the test database goes.
        asyncio.run_coroutine_threadsafe(sync_to_async(connections.close_all)(), loop).result(10)
        server.should_exit = True
        thread.join(15)
        db["CONN_MAX_AGE"] = max_age


def _version(page) -> int:
    return int(page.locator("#game").get_attribute("data-version"))


def _wait_version(page, version: int) -> None:
    page.wait_for_function(
        "v => parseInt(document.getElementById('game').getAttribute('data-version'), 10) >= v", arg=version
    )


def _shown(page) -> dict[str, str]:
    """The game as the page shows it, part by part: the text, and which buttons (the countdowns'
    seconds left out, they tick; of the closed trade builder only its summary: a move does not
    redraw its contents, which are fetched afresh when it is opened, test_trade_builder.py)."""
    return page.evaluate("""() => {
      const game = document.getElementById("game").cloneNode(true);
      game.querySelectorAll("time[data-deadline]").forEach(t => t.textContent = "");
      game.querySelectorAll("details#trade:not([open]) > :not(summary)").forEach(e => e.remove());
      const out = {};
      for (const sel of [".centre", ".players", ".log-list", "#game-tools", "#game-surrender"]) {
        const el = game.querySelector(sel);
        out[sel] = el ? el.textContent.replace(/\\s+/g, " ").trim() : null;
      }
      out.squares = [...game.querySelectorAll(".board > .sq")].map(
        sq => sq.className + "|" + sq.getAttribute("style") + "|" + sq.textContent.replace(/\\s+/g, " ").trim());
      out.forms = [...game.querySelectorAll("form input[name=version]")].length;
      return out;
    }""")


def players_pages(browser, site: str, game) -> tuple[list, dict]:
    """Each player's page of ``game`` (their browser contexts, and the pages by seat), its event
    stream open."""
    contexts, pages = [], {}
    for seat, user in users_by_seat(game).items():
        context, page = open_game(browser, site, user, game, DESKTOP)
        contexts.append(context)
        pages[seat] = page
    for page in pages.values():
        page.locator("#game-live[data-push=open]").wait_for()
    return contexts, pages


def mover_of(pages: dict):
    """The seat whose page offers a move (asserted: one of them does)."""
    mover = next((s for s, p in pages.items() if p.locator(MOVE_BUTTON).count()), None)
    assert mover is not None, "neither page offers a move"
    return mover


def test_a_move_reaches_the_other_page_without_polling(browser, asgi_site, artifacts, alice, bob):
    game = start_game(alice, bob)
    contexts, pages = players_pages(browser, asgi_site, game)
    requests: dict[int, list[str]] = {seat: [] for seat in pages}
    for seat, page in pages.items():
        page.on("request", lambda r, seat=seat: requests[seat].append(r.url))
    try:
        # Idle open pages ask the server nothing: a poll would have gone every 2 s.
        pages[0].wait_for_timeout(5000)
        assert [u for s in requests.values() for u in u_list(s)] == []

        moves = 0
        while moves < 8:
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            mover = mover_of(pages)
            other = 1 - mover
            for s in requests:
                requests[s].clear()
            with pages[mover].expect_response(re.compile(r"/act/$")) as answer:
                pages[mover].locator(MOVE_BUTTON).first.click()
            assert "hx-swap-oob" in answer.value.text()  # the mover's page got the parts only
            version = Game.objects.get(pk=game.pk).version
            _wait_version(pages[mover], version)
            _wait_version(pages[other], version)
            for page in pages.values():
                page.wait_for_function("() => !document.querySelector('.htmx-settling, .htmx-swapping, .htmx-added')")
            # The other page fetched the game once, told by the stream; the mover's not at all.
            assert len([u for u in requests[other] if "/poll/" in u]) == 1, requests[other]
            assert [u for u in requests[mover] if "/poll/" in u] == [], requests[mover]
            moves += 1
        assert moves >= 4

        pages[0].screenshot(path=str(artifacts / "push-after-moves-desktop.png"), full_page=True)
        # Each page reads as a fresh render of the position.
        for seat, page in pages.items():
            fresh = page.context.new_page()
            fresh.goto(f"{asgi_site}/games/{game.pk}/")
            fresh.locator("#game .board").wait_for()
            assert _version(fresh) == _version(page)
            assert _shown(page) == _shown(fresh), f"seat {seat}'s page differs from a fresh render"
            fresh.close()
        phone = contexts[0].browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone.add_cookies(contexts[0].cookies())
        shot = phone.new_page()
        shot.goto(f"{asgi_site}/games/{game.pk}/")
        shot.locator("#game-live[data-push=open]").wait_for()
        shot.screenshot(path=str(artifacts / "push-after-moves-phone.png"), full_page=True)
        phone.close()
    finally:
        for context in contexts:
            context.close()


def u_list(urls: list[str]) -> list[str]:
    """The requests an idle page made about its game (the event stream itself aside; the
    header's bell has a timer of its own, once a minute)."""
    return [u for u in urls if "/games/" in u and "/events/" not in u]


def test_without_redis_the_page_polls(browser, asgi_site, settings, alice, bob):
    settings.LIVE_REDIS_URL = ""
    game = start_game(alice, bob)
    context, page = open_game(browser, asgi_site, alice, game, DESKTOP)
    try:
        assert page.locator("#game-live[sse-connect]").count() == 0
        with page.expect_request(re.compile(r"/poll/\?v=\d+$")):
            pass
    finally:
        context.close()




def test_a_dropped_stream_falls_back_to_polling_and_reconnects(browser, asgi_site, alice, bob):
    import os

    import redis

    from games import services
    from tests.games.play_helpers import next_move

    game = start_game(alice, bob)
    context, page = open_game(browser, asgi_site, alice, game, DESKTOP)
    try:
        page.locator("#game-live[data-push=open]").wait_for()
        shown = _version(page)
        # The server loses its subscription (Redis restarted, say): every stream ends.
        admin = redis.Redis.from_url(django_settings.LIVE_REDIS_URL)
        ours = [c for c in admin.client_list() if c["name"].startswith(f"monopoly-live-{os.getpid()}-")]
        assert ours, "the server holds no subscription"
        for c in ours:
            admin.client_kill_filter(_id=c["id"])
        page.locator("#game-live[data-push=closed]").wait_for()
        # A move meanwhile reaches the page all the same (by the poll, or the stream once back).
        seat, move = next_move(game)
        services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=move,
                                    expected_version=game.version)
        _wait_version(page, shown + 1)
        # And the page listens again.
        page.locator("#game-live[data-push=open]").wait_for(timeout=30000)
    finally:
        context.close()
