"""In-process measures (Django's test client, no gunicorn): the game page's queries as a game
grows, a profile of moves, and the render times of the page and its parts."""

from __future__ import annotations

import cProfile
import pstats
import random
import statistics
import time

from .bots import choose, marks_after
from .server import make_extra_users, make_game, make_users

# ---------------------------------------------------------------------------------------------
# In-process: queries of the game page, and a profile of moves
# ---------------------------------------------------------------------------------------------


def play_in_process(game, users: dict[int, object], until_actions: int, rng: random.Random) -> None:
    """Play on through services.game_submit_action (setup only) until the log holds
    ``until_actions`` actions."""
    from games import services
    from games.engine import GameState, legal_actions
    from games.models import GameAction

    while GameAction.objects.filter(game=game).count() < until_actions:
        game.refresh_from_db()
        if game.status != "active":
            return
        state = GameState.from_json(game.state)
        seat = game.waiting_seats[0]
        actions = [
            {k: v for k, v in a.items() if k != "player"} for a in legal_actions(state, seat)
        ]
        fields = choose(actions, game.pending, rng)
        action = {k: v for k, v in fields.items() if k != "confirm"}
        if "amount" in action:
            action["amount"] = int(action["amount"])
        services.game_submit_action(
            game=game, user=users[seat], action=action, expected_version=game.version
        )


def page_queries(lengths: tuple[int, ...], attempts: int = 5) -> list[str]:
    """Queries of the game page (full and htmx fragment) as a four-player game grows; a game
    that ends before the longest length is replaced by a new one."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.models import Game, GameAction

    users = make_extra_users("q", 4)
    client = Client()
    client.force_login(users[0])
    rng = random.Random(7)
    lines: list[str] = []
    for attempt in range(attempts):
        game = make_game(*users, pace="live", name=f"Query count {attempt}")
        lines = []
        for length in lengths:
            play_in_process(game, dict(enumerate(users)), length, rng)
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            actions = GameAction.objects.filter(game=game).count()
            client.get(f"/games/{game.pk}/")  # warm up
            counts = []
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                with CaptureQueriesContext(connection) as ctx:
                    assert client.get(f"/games/{game.pk}/", **headers).status_code == 200
                counts.append(len(ctx.captured_queries))
            lines.append(
                f"game page after {actions:>3} actions: {counts[0]} queries (full page), "
                f"{counts[1]} (htmx fragment)"
            )
        else:
            return lines
    return [*lines, f"(every game ended before {max(lengths)} actions, {attempts} tries)"]


def profile_moves(moves: int) -> None:
    """cProfile of ``moves`` moves posted in-process to the act endpoint (htmx), with the
    legal.json read between them: where a move's time goes, without gunicorn or the network."""
    from django.test import Client

    make_users(0)
    users = make_extra_users("p", 2)
    game = make_game(*users, pace="live", name="Profile")
    clients, marks = {}, {}
    for seat, user in enumerate(users):
        clients[seat] = Client()
        clients[seat].force_login(user)
        marks[seat] = marks_after(clients[seat].get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true"), "1")
    rng = random.Random(11)
    prof = cProfile.Profile()
    started = time.perf_counter()
    made = 0
    for _ in range(moves):
        seat = None
        info = clients[0].get(f"/games/{game.pk}/legal.json").json()
        if info["status"] != "active":
            break
        seat = info["waiting"][0]
        if seat != 0:
            info = clients[seat].get(f"/games/{game.pk}/legal.json").json()
        fields = choose(info["actions"], info["pending"], rng)
        prof.enable()
        response = clients[seat].post(
            f"/games/{game.pk}/act/", {"version": info["version"], **fields}, HTTP_HX_REQUEST="true",
            HTTP_X_GAME_PARTS=marks[seat],
        )
        prof.disable()
        marks[seat] = marks_after(response, marks[seat])
        assert response.status_code == 200, response.content[:300]
        made += 1
    print(
        f"{made} moves in {time.perf_counter() - started:.1f} s (wall, with the reads between them)"
    )
    stats = pstats.Stats(prof)
    stats.sort_stats("cumulative").print_stats(40)
    stats.sort_stats("tottime").print_stats(30)


def render_times(renders: int) -> None:
    """The game page's render cost, in-process (no gunicorn, no network): a four-player game
    after 200 actions, its full page and its htmx fragment fetched ``renders`` times each
    (Django's test client, so the queries and middleware are in), and the board, the players'
    panels, the log, the centre and the slots drawn alone (games/views/page/parts.py, from the
    page's own GamePage): back to back, and each right after other requests, as a move's answer
    draws them (the code that ran before leaves the processor's caches cold for the templates:
    the same partial then costs two to four times as much). CPU time, median."""
    from django.test import Client
    from django.test.utils import setup_test_environment, teardown_test_environment

    from games.models import Game, GameAction
    from games.views.page import parts

    users = make_extra_users("r", 4)
    rng = random.Random(7)
    for attempt in range(5):
        game = make_game(*users, pace="live", name=f"Render {attempt}")
        play_in_process(game, dict(enumerate(users)), 200, rng)
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            break
    client = Client()
    client.force_login(users[0])
    url = f"/games/{game.pk}/"
    # The page's context, caught once by Django's test instrumentation (which copies the context
    # at every template render: it is switched off again for the timings).
    setup_test_environment()
    response = client.get(url)
    teardown_test_environment()
    page = response.context["page"]
    game_id = game.pk

    legal_url = f"/games/{game_id}/legal.json"

    def other_requests() -> None:
        # What runs before a move's answer is drawn (the middleware, the ORM, the engine) leaves
        # the processor's caches full of itself: three legal.json reads stand in for it.
        for _ in range(3):
            client.get(legal_url)

    def median_ms(fn, before=None) -> float:
        fn()  # warm up
        times = []
        for _ in range(renders):
            if before is not None:
                before()
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        return 1000 * statistics.median(times)

    def row(label: str, fn) -> None:
        # Drawn back to back (warm), and each time right after other requests (cold): inside a
        # move it is drawn cold.
        print(f"  {label:<16} {median_ms(fn):7.2f} ms, after other requests {median_ms(fn, other_requests):7.2f} ms")

    actions = GameAction.objects.filter(game=game).count()
    print(f"game page render, in-process, a four-player game after {actions} actions "
          f"(median CPU of {renders}):")
    print(f"  full page        {median_ms(lambda: client.get(url)):7.2f} ms")
    print(f"  htmx fragment    {median_ms(lambda: client.get(url, HTTP_HX_REQUEST='true')):7.2f} ms")
    row("board (40 sq.)", lambda: parts._render("games/partials/board/squares.html", page.template_vars))
    row("players' panels", lambda: parts._render("games/partials/players/panels.html", page.template_vars))
    row("one player", lambda: parts.part_html(parts.PLAYERS[0], page, p=page.players[0]))
    row("log (20 entries)", lambda: parts._render(parts.LOG_ENTRIES, page.template_vars))
    # What a move's answer redraws besides the squares and players it changed (parts.py), for
    # the viewer (the first player: the tools slot holds their manage panel and builder).
    row("centre", lambda: parts.part_html(parts.CENTRE, page))
    row("tools slot", lambda: parts.part_html(parts.TOOLS, page))
    row("surrender slot", lambda: parts.part_html(parts.SURRENDER, page))


