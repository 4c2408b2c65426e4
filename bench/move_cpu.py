"""CPU per htmx move, in-process, and an A/B of a change within one run.

    .venv/bin/python bench/move_cpu.py [--moves 800] [--seed 5] [--stale] [--ab FILE]
        [--breakdown module:function,...]

bench.web measures gunicorn's CPU per move with 100 players at once: the right figure, but
on a shared machine two runs differ by 10% and more, too much to see a change of 3%. This plays
one two-player game of the cautious bot (bench/web/bots.py ``choose``) in-process, with the game's
seed fixed, so that every run plays the same moves: before each move the minimal endpoint
(``games:game_bench_lock``), then the move posted as the page's script posts it (htmx, the marks
of what the page shows, gzip); after it, unless ``--stale``, the other player's page fetches the
parts as its push would make it (the poll, with its marks). CPU is this process's
(``time.process_time``): the view, the middleware, the ORM and the drivers, not PostgreSQL's;
of it, the garbage collector's (``gc.callbacks``). A collection frees whatever cyclic garbage
earlier requests left, so in-process the move, which sets most of them off, also pays for the
garbage of the fetches and reads around it (under gunicorn each phase serves one kind of
request: there it pays for its own).

``--ab FILE``: a Python file defining ``on()`` and ``off()``, which switch a change on and off
(monkeypatching, within this process). Each move is made with one or the other, drawn at random
from a generator of its own: both sides get the same mix of moves, and the trimmed means (the
10% lowest and highest dropped) of the two are printed, with their difference. A file whose
two sides are the same prints a difference within about 0.1 ms: that is the noise.

``--breakdown``: the mean CPU per move of each function named (``games.services.moves:_write``,
``games.views.page.decision:choices_for``, a method as ``module:Class.method``), as called from
within the moves and the fetches; it counts whatever calls them.

Uses DATABASE_URL (PostgreSQL, by default the database of bench.web) and CACHE_URL (a Redis,
as production; without it the database cache). Figures, never assertions.
"""

from __future__ import annotations

import argparse
import collections
import functools
import gzip
import importlib
import os
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web import bots, server  # (bench/web/: its environment, users, games and bot)

WARM_UP = 40  # moves left out of the figures (templates compiled, caches filled)


def _wrap(spec: str, spent: dict[str, float], calls: collections.Counter) -> None:
    module, _, name = spec.partition(":")
    owner = importlib.import_module(module)
    *path, attr = name.split(".")
    for part in path:
        owner = getattr(owner, part)
    real = getattr(owner, attr)

    @functools.wraps(real)
    def timed(*args, **kwargs):
        t = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            spent[spec] += time.process_time() - t
            calls[spec] += 1

    setattr(owner, attr, timed)


def _signal_finalizers():
    """A function dropping the ``weakref.finalize`` records that Django's test client leaves.

    On every request the test client disconnects and reconnects ``close_old_connections`` and
    connects its own receivers to signals (``ClientHandler.__call__``, ``Client.request``); each
    weak ``Signal.connect`` registers a finalizer on the receiver, which its disconnect does not
    take back. Over 800 moves some 10,000 of them pile up (about 50,000 objects the garbage
    collector walks at each full collection, some 40 ms a time), which a server, with no test
    client, never has: left there they would charge the moves' CPU with a cost of the bench's
    own. The records made before the run (the site's own receivers) are kept."""
    import weakref

    from django.dispatch import Signal

    before = set(weakref.finalize._registry)

    def forget() -> None:
        for record, info in list(weakref.finalize._registry.items()):
            if record not in before and getattr(info.func, "__func__", None) is Signal._remove_receiver:
                record.detach()

    return forget


class _GcTime:
    """CPU the garbage collector takes (``gc.callbacks``), all generations together."""

    def __init__(self) -> None:
        import gc

        self.spent = 0.0
        self._started = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, _info: dict) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.spent += time.process_time() - self._started


def _trimmed(values: list[float]) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    cut = len(values) // 10
    return statistics.mean(values[cut:len(values) - cut] or values)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--moves", type=int, default=800)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--stale", action="store_true",
                    help="the other page does not fetch: each page's marks are its own last answer's")
    ap.add_argument("--ab", metavar="FILE", help="a file defining on() and off()")
    ap.add_argument("--breakdown", default="", metavar="SPECS", help="module:function,...")
    args = ap.parse_args(argv)
    if not WARM_UP < args.moves <= 20_000:
        ap.error(f"--moves must be {WARM_UP + 1}-20000")

    server.configure_environment()
    server.create_database(os.environ["DATABASE_URL"])
    server.setup_django()
    import secrets

    from config import heap

    heap.install()  # (as the server's processes: config/asgi.py)

    from django.test import Client

    # The games' seeds from a generator of the run's own: every run plays the same games.
    seeds = random.Random(args.seed)
    secrets.randbits = seeds.getrandbits  # (this process only)
    ab = {}
    if args.ab:
        exec(compile(Path(args.ab).read_text(), args.ab, "exec"), ab)  # (the user's own file)
    spent: dict[str, float] = collections.defaultdict(float)
    calls: collections.Counter = collections.Counter()
    for spec in filter(None, args.breakdown.split(",")):
        _wrap(spec, spent, calls)

    server.make_users(0)
    users = server.make_extra_users(f"cpu{os.getpid()}-", 2)
    clients = {}
    for seat, user in enumerate(users):
        clients[seat] = Client()
        clients[seat].force_login(user)
    marks: dict[int, str] = {}
    forget_finalizers = _signal_finalizers()
    collector = _GcTime()
    gc_in: dict[str, list[float]] = {"move": [], "minimal": []}

    def new_game():
        game = server.make_game(*users, pace="live", name="Move CPU")
        for seat, client in clients.items():
            marks[seat] = bots.marks_after(client.get(f"/games/{game.pk}/", HTTP_HX_REQUEST="true"), "1")
        return game

    def take(seat: int, response) -> None:
        body = response.content
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        marks[seat] = bots.marks_after(response, marks[seat], body.decode())

    rng, sides = random.Random(args.seed), random.Random(99)
    move_cpu, minimal_cpu, fetch_cpu, sizes = [], [], [], []
    by_side: dict[bool, list[float]] = {True: [], False: []}
    game = new_game()
    made = 0
    while made < args.moves:
        info = clients[0].get(f"/games/{game.pk}/legal.json").json()
        if info["status"] != "active":
            game = new_game()
            continue
        seat = info["waiting"][0]
        if seat != 0:
            info = clients[seat].get(f"/games/{game.pk}/legal.json").json()
        fields = bots.choose(info["actions"], info["pending"], rng)
        if fields is None:
            game = new_game()
            continue
        client = clients[seat]
        t, g = time.process_time(), collector.spent
        client.post(f"/games/{game.pk}/bench-lock/")
        minimal_cpu.append(time.process_time() - t)
        gc_in["minimal"].append(collector.spent - g)
        side = sides.random() < 0.5
        if ab:
            (ab["on"] if side else ab["off"])()
        t, g = time.process_time(), collector.spent
        response = client.post(f"/games/{game.pk}/act/", urlencode({"version": info["version"], **fields}, doseq=True),
                               content_type="application/x-www-form-urlencoded", HTTP_HX_REQUEST="true",
                               HTTP_X_GAME_PARTS=marks[seat], HTTP_ACCEPT_ENCODING="gzip")
        move_cpu.append(time.process_time() - t)
        gc_in["move"].append(collector.spent - g)
        if response.status_code != 200:
            sys.exit(f"bench/move_cpu.py: the move was refused ({response.status_code})")
        sizes.append(len(response.content))
        take(seat, response)
        if not args.stale:
            other = 1 - seat
            t = time.process_time()
            fetched = clients[other].get(f"/games/{game.pk}/poll/", {"v": info["version"]}, HTTP_HX_REQUEST="true",
                                         HTTP_X_GAME_PARTS=marks[other], HTTP_ACCEPT_ENCODING="gzip")
            fetch_cpu.append(time.process_time() - t)
            take(other, fetched)
        forget_finalizers()  # (between the timed requests)
        made += 1
        if made == WARM_UP:
            spent.clear()
            calls.clear()
        elif made > WARM_UP:
            by_side[side].append(move_cpu[-1])

    measured = args.moves - WARM_UP
    move, minimal = (1000 * statistics.mean(x[WARM_UP:]) for x in (move_cpu, minimal_cpu))
    print(f"{measured} moves (after {WARM_UP} to warm up), in-process CPU per request:")
    print(f"  htmx move     {move:.3f} ms (median {1000 * statistics.median(move_cpu[WARM_UP:]):.3f}), "
          f"{statistics.mean(sizes[WARM_UP:]):.0f} bytes")
    print(f"  minimal       {minimal:.3f} ms: the move is {move / minimal:.2f}x")
    move_gc, minimal_gc = (1000 * statistics.mean(gc_in[k][WARM_UP:]) for k in ("move", "minimal"))
    print(f"  of which the garbage collector: move {move_gc:.3f} ms, minimal {minimal_gc:.3f} ms")
    if fetch_cpu:
        print(f"  other page's fetch {1000 * statistics.mean(fetch_cpu[WARM_UP:]):.3f} ms")
    if ab:
        on, off = (1000 * _trimmed(by_side[s]) for s in (True, False))
        print(f"A/B ({len(by_side[True])} moves on, {len(by_side[False])} off), trimmed means: "
              f"on {on:.3f} ms, off {off:.3f} ms, off - on {off - on:+.3f} ms")
    for spec in spent:
        print(f"  {spec}: {1000 * spent[spec] / measured:.3f} ms a move ({calls[spec] / measured:.2f} calls)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
