"""Web benchmark: many concurrent games of bots played through the site's real HTTP endpoints.

    .venv/bin/python -m bench.web [--games 50] [--seconds 15] [--think 1] [--workers 3]
    .venv/bin/python -m bench.web --profile 300

Runs the site with gunicorn on 127.0.0.1 against PostgreSQL (DATABASE_URL, by default
postgres://postgres@127.0.0.1:5432/monopoly_bench, created and migrated here), with
DEBUG=false as in production: uvicorn's workers (ASGI, a connection pool each, push through the
Redis of LIVE_REDIS_URL or CACHE_URL), or with ``--server wsgi`` sync workers that poll (the
site before issue 12). It makes 2 x N users and N two-player live classic games, then
drives them from one asyncio process with httpx, the players signed in with their own session
cookies. The bots see only what a player sees: the game page once (version, CSRF cookie), then
``games:game_legal`` (the viewer's legal actions, as JSON), and they post the chosen move to
``games:game_act`` with the page's form fields. Phases, each measured for the same time:

- minimal: ``bench-lock/`` (endpoints.py, the bench's urls only) (one transaction that locks the player's game row and
  updates it, through the same middleware), every client posting back to back;
- legal.json alone, back to back;
- moves posted with ``HX-Request`` (answered with the refreshed game fragment, as htmx gets it),
  back to back, then as a plain form post (answered with a redirect): what a browser pays, a
  legal.json read after every move;
- moves posted with ``Accept: application/json``, as a program would: the answer holds the new
  version and the player's next legal actions, so the bot reads legal.json only when it has
  nothing fresh (at the start, after a refusal) or when the game waits on the other player;
- with ``--think`` > 0, the minimal endpoint and htmx moves again, each player pausing about
  that many seconds between requests: latency at a pace people could keep;
- push (ASGI): ``--idle-pages`` open pages (event streams: the players', then spectators')
  while nothing moves, the server's CPU over ``--idle-seconds`` (from a few seconds after the
  last one opened: IDLE_SETTLE_SECONDS); then the players move again
  while one other page per game listens: the time from a move's request to that page's
  version event, and to the game fetched on it (p50/p99), and the mean size of what it fetched
  (only the parts changed since the version it shows, as the page's script asks).

In the move phases the bots' legal.json reads go to a second gunicorn (``--readers`` workers,
the same settings, database and cache), whose CPU is shown apart: the measured server's CPU
per move is then the moves' own, read off directly (with ``--readers 0`` the reads go to the
measured server, and a move's CPU is the phase's less the reads' at the cost a read has in the
"legal.json alone" phase: a figure that two runs gave 0.25x apart). A page in a browser never
reads legal.json; its move's answer carries the next decision.

The phases are cut into ``--rounds`` slices taken in turn, so that other work on the machine
weighs on all of them alike; the CPU that gunicorn, PostgreSQL, the client and everything else
used is printed with the figures. Then the number of queries the game page makes after 10 and
200 actions (in-process, Django's CaptureQueriesContext). ``--profile N`` instead profiles N
moves in-process and prints where their time goes; ``--render N`` times N renders of the game
page, its fragment and its board, players, log, centre and slots partials, in-process (the
partials also right after other requests, as a move draws them: cold).

Everything listens on and talks to loopback only; each slice is bounded in time and requests;
gunicorn runs in its own process group and is stopped on exit. Figures, never assertions.

The parts: ``server`` (environment, users, games, gunicorn, CPU), ``bots`` (the players and the
phases), ``report`` (the figures), ``inprocess`` (queries, profile, render times); ``urls`` adds
the minimal endpoint (``endpoints``) to the site's own urls, for the bench's settings only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

from .bots import drive
from .inprocess import page_queries, profile_moves, render_times
from .report import print_report
from .server import (
    configure_environment,
    create_database,
    free_port,
    make_game,
    make_users,
    session_cookie,
    setup_django,
    start_gunicorn,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--games", type=int, default=50, help="concurrent two-player games (default 50)"
    )
    ap.add_argument(
        "--seconds", type=float, default=15, help="length of each measured phase (default 15)"
    )
    ap.add_argument(
        "--workers",
        type=int,
        default=3,
        help="gunicorn workers (default 3: on 2 cores more of them only take turns on the "
        "CPU, and latency grows)",
    )
    ap.add_argument(
        "--readers",
        type=int,
        default=1,
        help="workers of the second gunicorn, which serves the reads between moves in the move "
        "phases (default 1; 0: none, the reads go to the measured server and are subtracted)",
    )
    ap.add_argument(
        "--threads", type=int, default=1, help="threads per worker (>1: gthread workers)"
    )
    ap.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a player thinks between moves in the paced phases (0: none)",
    )
    ap.add_argument(
        "--rounds", type=int, default=3, help="slices each phase is cut into, taken in turn"
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (default: a free one)")
    ap.add_argument(
        "--server",
        choices=["asgi", "wsgi"],
        default="asgi",
        help="asgi (default): gunicorn with uvicorn workers, as in production, with push; "
        "wsgi: sync workers, polling (the figures before issue 12)",
    )
    ap.add_argument(
        "--idle-pages", type=int, default=500, help="open pages for the idle figure (asgi; 0: skip)"
    )
    ap.add_argument(
        "--idle-seconds", type=float, default=60, help="length of the idle measurement (default 60)"
    )
    ap.add_argument(
        "--profile",
        type=int,
        metavar="MOVES",
        default=0,
        help="instead: profile this many moves in-process and print where time goes",
    )
    ap.add_argument(
        "--render",
        type=int,
        metavar="N",
        default=0,
        help="instead: time N renders of the game page and its partials in-process",
    )
    args = ap.parse_args(argv)
    if not (
        1 <= args.games <= 500
        and 1 <= args.seconds <= 300
        and 0 <= args.think <= 30
        and 1 <= args.rounds <= 20
        and 0 <= args.readers <= 8
    ):
        ap.error("--games must be 1-500, --seconds 1-300, --think 0-30, --rounds 1-20 and --readers 0-8")

    database_url = args.database_url = configure_environment()
    if args.server == "asgi" and not any(
        os.environ.get(n, "").startswith("redis") for n in ("LIVE_REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL")
    ):
        ap.error("--server asgi pushes through Redis: set LIVE_REDIS_URL (or CACHE_URL, CELERY_BROKER_URL)")
    create_database(database_url)
    setup_django()
    if args.profile:
        profile_moves(args.profile)
        return 0
    if args.render:
        make_users(0)
        render_times(args.render)
        return 0

    from django.db import connections

    t = time.perf_counter()
    users = make_users(2 * args.games)
    games = []
    for i in range(args.games):
        host, guest = users[2 * i], users[2 * i + 1]
        game = make_game(host, guest, pace="live", name=f"Bench {i}")
        games.append((game.pk, [session_cookie(host), session_cookie(guest)]))
    queries = page_queries((10, 200))
    print(f"set up {len(users)} users and {len(games)} games in {time.perf_counter() - t:.1f} s")
    connections.close_all()

    port = args.port or free_port()
    proc = start_gunicorn(port, args.workers, args.threads, args.server)
    reader = None
    if args.readers:
        reader_port = free_port()
        reader = (f"http://127.0.0.1:{reader_port}",
                  start_gunicorn(reader_port, args.readers, args.threads, args.server))
    try:
        phases, push = asyncio.run(drive(f"http://127.0.0.1:{port}", games, args, proc, reader))
    finally:
        proc.stop()
        if reader is not None:
            reader[1].stop()

    print_report(args, phases, push, queries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
