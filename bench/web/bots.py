"""The bench's players: a cautious bot's choice among the legal actions a player is shown, the
loops that post its moves through the site's endpoints as a page or a program would, the phases
they run in, and push (idle open pages, a move's way to the other page)."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import time
from dataclasses import dataclass, field

from .report import Series
from .server import CpuMeter, wait_until_up

MAX_REQUESTS_PER_PHASE = 200_000
HTTP_TIMEOUT = 30.0

# ---------------------------------------------------------------------------------------------
# The bots' policy: from the legal actions a player is shown to the fields of the page's form
# ---------------------------------------------------------------------------------------------

PLAIN = ("roll", "pay_fine", "use_card", "keep_mortgaged", "casino_skip", "end_turn")


def choose(actions: list[dict], pending: str, rng: random.Random) -> dict | None:
    """The fields a cautious bot posts: buys most deeds, bids now and then, builds a little,
    raises money when in debt, never trades."""
    by_type: dict[str, list[dict]] = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)

    def first(kind: str) -> dict | None:
        return by_type[kind][0] if kind in by_type else None

    if pending == "debt":
        for kind in ("sell_all", "sell", "mortgage"):
            if a := first(kind):
                return {"type": kind, "square": a["square"]}
        return {"type": "surrender", "confirm": "yes"} if "surrender" in by_type else None
    if "buy" in by_type and rng.random() < 0.85:
        return {"type": "buy"}
    if "decline" in by_type:
        return {"type": "decline"}
    if (a := first("bid")) and rng.random() < 0.35:
        return {"type": "bid", "amount": a["min"]}
    if "pass" in by_type:
        return {"type": "pass"}
    if a := first("reject"):
        return {"type": "reject", "trade": a["trade"]}
    if pending == "auction" and (a := first("build")):  # placing a building won at auction
        return {"type": "build", "square": a["square"]}
    if "end_turn" in by_type and (a := first("build")) and rng.random() < 0.3:
        return {"type": "build", "square": a["square"]}
    for kind in PLAIN:
        if kind in by_type:
            return {"type": kind}
    for kind in ("income_tax", "bus"):
        if a := first(kind):
            return {"type": kind, "choice": a["choice"]}
    for kind in ("teleport", "destroy"):
        if a := first(kind):
            return {"type": kind, "square": a["square"]}
    if a := first("unmortgage"):
        return {"type": "unmortgage", "square": a["square"]}
    return None



# ---------------------------------------------------------------------------------------------
# The load
# ---------------------------------------------------------------------------------------------


@dataclass
class Seat:
    client: object  # httpx.AsyncClient with the player's session and CSRF cookies
    csrf: str = ""
    # The marks of what the player's page shows (games/views/page/parts.py), sent with its moves
    # as the page's script sends them: those of the page's last answer. (The bench's pages hear
    # nothing of the other player's moves: a move's answer also carries the parts they changed,
    # more than a page kept up to date by push would get.)
    marks: str = "1"
    # The same player's client on the second server, for the reads between moves (or None).
    reader: object | None = None


MARKS = re.compile(r'<div id="game"[^>]*? data-marks="([^"]*)"')


def marks_after(r, before: str, text: str | None = None) -> str:
    """The page's marks after answer ``r`` (httpx's, or the test client's): its ``game:moved``
    event's, or those of the full fragment (``text``: its body, when ``r.text`` is not it)."""
    trigger = r.headers.get("HX-Trigger")
    if trigger and "game:moved" in trigger:
        return json.loads(trigger)["game:moved"].get("marks", before)
    found = MARKS.search(r.text if text is None else text) if r.status_code == 200 else None
    return found.group(1) if found else before


@dataclass
class BenchGame:
    pk: int
    seats: list[Seat]
    rng: random.Random
    over: bool = False


async def open_page(game: BenchGame, seat: Seat) -> int:
    """GET the game page once, as a player arriving: the CSRF cookie and the version shown."""
    response = await seat.client.get(f"/games/{game.pk}/")
    response.raise_for_status()
    seat.csrf = seat.client.cookies.get("csrftoken") or ""
    seat.marks = marks_after(response, seat.marks)
    match = re.search(r'data-version="(\d+)"', response.text)
    assert seat.csrf and match, "the game page has no CSRF cookie or version"
    return int(match.group(1))


async def pause(rng: random.Random, think: float, stop_at: float) -> None:
    """A player's thinking time: ``think`` seconds on average, spread from half to one and a
    half times that, so that the players do not fall into step (none when 0); never past the
    end of the slice."""
    if think:
        left = stop_at - time.monotonic()
        await asyncio.sleep(max(0.0, min(rng.uniform(0.5, 1.5) * think, left)))


async def minimal_loop(
    game: BenchGame, series: Series, stop_at: float, budget: list[int], think: float
) -> None:
    seat = game.seats[0]
    headers = {"X-CSRFToken": seat.csrf}
    url = f"/games/{game.pk}/bench-lock/"
    while True:
        await pause(game.rng, think, stop_at)
        if time.monotonic() >= stop_at or budget[0] <= 0:
            return
        budget[0] -= 1
        t = time.perf_counter()
        r = await seat.client.post(url, headers=headers)
        series.add(time.perf_counter() - t, r.status_code)


async def game_loop(
    game: BenchGame,
    act: Series,
    legal: Series,
    stop_at: float,
    budget: list[int],
    mode: str,
    think: float,
    parts: bool = True,
    sent: dict | None = None,
    reads_elsewhere: bool = True,
) -> None:
    """Play on as the players would: read my legal actions, post one, read again. In ``json``
    mode the move's answer holds what the next move needs while the game waits on the same
    player; legal.json is read only when it does not (start, refusal, the other player's turn)."""

    async def read(seat_no: int) -> dict:
        seat = game.seats[seat_no]
        client = seat.reader if reads_elsewhere and seat.reader is not None else seat.client
        t = time.perf_counter()
        r = await client.get(f"/games/{game.pk}/legal.json")
        legal.add(time.perf_counter() - t, r.status_code)
        r.raise_for_status()
        return r.json()

    if think:
        # Paced players arrive one by one, not all at the start of the slice.
        await asyncio.sleep(min(game.rng.uniform(0, think), stop_at - time.monotonic()))
    info = await read(0)
    while time.monotonic() < stop_at and budget[0] > 0:
        if info["status"] != "active" or not info["waiting"]:
            game.over = True
            return
        seat_no = info["waiting"][0]
        if info["seat"] != seat_no:
            info = await read(seat_no)
            continue
        fields = choose(info["actions"], info["pending"], game.rng)
        if fields is None:
            raise RuntimeError(f"game {game.pk}: no move among {info['actions']}")
        await pause(game.rng, think, stop_at)
        if time.monotonic() >= stop_at:
            return
        seat = game.seats[seat_no]
        headers = {"X-CSRFToken": seat.csrf}
        if mode == "htmx":
            headers["HX-Request"] = "true"
            # As the page's script asks (games/views/page/parts.py): only the changed parts.
            if parts:
                headers["X-Game-Parts"] = seat.marks
            if sent is not None:
                sent[(game.pk, info["version"] + 1)] = time.perf_counter()
        elif mode == "json":
            headers["Accept"] = "application/json"
        budget[0] -= 1
        t = time.perf_counter()
        r = await seat.client.post(
            f"/games/{game.pk}/act/", data={"version": info["version"], **fields}, headers=headers
        )
        act.add(time.perf_counter() - t, r.status_code)
        if mode == "htmx":
            seat.marks = marks_after(r, seat.marks)
        if mode == "json" and r.status_code == 200:
            moved = r.json()
            info = {
                "status": "finished" if moved["over"] else "active",
                "seat": seat_no,
                "version": moved["version"],
                "pending": moved["pending"],
                "waiting": moved["waiting"],
                "actions": moved["legal"],
            }
        else:
            info = await read(seat_no)


@dataclass
class Phase:
    kind: str  # "minimal", "read", "htmx", "form" or "json"
    think: float  # seconds between a player's requests; 0: back to back
    series: list[Series] = field(default_factory=list)
    # gunicorn, PostgreSQL, this client, the machine's busy seconds, the reads' server
    cpu: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0, 0.0])
    # Each slice's gunicorn CPU and the number of its requests (of the first series).
    slices: list[tuple[float, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        what = {
            "minimal": "minimal: lock + update one row",
            "read": "legal.json alone",
            "htmx": "move, htmx (changed parts)",
            "form": "move, plain form (302)",
            "json": "move, JSON",
        }[self.kind]
        label = what + (f", think {self.think:g} s" if self.think else "")
        self.series = [Series(label)]
        if self.kind in ("htmx", "form"):
            self.series.append(Series("  legal.json, between those moves"))
        elif self.kind == "json":
            self.series.append(Series("  legal.json, when nothing fresh"))

    @property
    def label(self) -> str:
        return self.series[0].name


async def read_loop(game: BenchGame, series: Series, stop_at: float, budget: list[int]) -> None:
    seat = game.seats[0]
    while time.monotonic() < stop_at and budget[0] > 0:
        budget[0] -= 1
        t = time.perf_counter()
        r = await seat.client.get(f"/games/{game.pk}/legal.json")
        series.add(time.perf_counter() - t, r.status_code)


async def run_phase(games: list[BenchGame], seconds: float, phase: Phase) -> None:
    """One slice of a phase; its requests and time add to the phase's series."""
    budget = [MAX_REQUESTS_PER_PHASE]
    stop_at = time.monotonic() + seconds
    started = time.perf_counter()
    first = phase.series[0]
    if phase.kind == "minimal":
        loops = [minimal_loop(g, first, stop_at, budget, phase.think) for g in games]
    elif phase.kind == "read":
        loops = [read_loop(g, first, stop_at, budget) for g in games]
    else:
        legal = phase.series[1]
        loops = [
            game_loop(g, first, legal, stop_at, budget, phase.kind, phase.think)
            for g in games
            if not g.over
        ]
    await asyncio.gather(*loops)
    elapsed = time.perf_counter() - started
    for s in phase.series:
        s.seconds += elapsed


async def drive(base: str, games: list[tuple[int, list[str]]], args, proc,
                reader: tuple[str, subprocess.Popen] | None = None) -> tuple[list[Phase], dict]:
    """The phases, in ``args.rounds`` rounds of ``args.seconds / args.rounds`` each, taken in
    turn: whatever else the machine does then weighs on every phase alike. ``reader``: the
    address and process of the server for the reads between moves."""
    import httpx

    await wait_until_up(base, proc)
    if reader is not None:
        await wait_until_up(*reader)
    # (Room for a page's event stream beside its requests.)
    limits = httpx.Limits(max_connections=6, max_keepalive_connections=4)
    bench_games = []
    for pk, cookies in games:
        seats = [
            Seat(
                httpx.AsyncClient(
                    base_url=base,
                    cookies={"sessionid": c},
                    # (An event stream waits longer than any answer: its heartbeats are 30 s apart.)
                    timeout=httpx.Timeout(HTTP_TIMEOUT, read=None),
                    limits=limits,
                    follow_redirects=False,
                )
            )
            for c in cookies
        ]
        if reader is not None:
            for seat, c in zip(seats, cookies, strict=True):
                seat.reader = httpx.AsyncClient(base_url=reader[0], cookies={"sessionid": c},
                                                timeout=HTTP_TIMEOUT, limits=limits, follow_redirects=False)
        bench_games.append(BenchGame(pk, seats, random.Random(f"{args.seed}:{pk}")))
    try:
        for g in bench_games:
            for s in g.seats:
                await open_page(g, s)
        # A short warm-up, so that every worker has its connections and templates ready.
        await run_phase(bench_games, 2, Phase("htmx", 0))
        phases = [
            Phase("minimal", 0),
            Phase("read", 0),
            Phase("htmx", 0),
            Phase("form", 0),
            Phase("json", 0),
        ]
        if args.think:
            phases += [Phase("minimal", args.think), Phase("htmx", args.think)]
        for _round in range(args.rounds):
            for phase in phases:
                meter = CpuMeter(proc.pid, args.database_url, reader and reader[1].pid)
                done = len(phase.series[0].latencies)
                with meter:
                    await run_phase(bench_games, args.seconds / args.rounds, phase)
                phase.cpu = [a + b for a, b in zip(phase.cpu, meter.used, strict=True)]
                phase.slices.append((meter.used[0], len(phase.series[0].latencies) - done))
        push = {}
        if args.server == "asgi" and args.idle_pages:
            push["idle"] = await idle_pages(base, bench_games, args.idle_pages, args.idle_seconds,
                                            CpuMeter(proc.pid, args.database_url))
            push["latency"] = await push_latency(base, bench_games, args.seconds, max(args.think, 0.5))
        over = sum(g.over for g in bench_games)
        if over:
            print(f"({over} of the games ended during the run)")
        return phases, push
    finally:
        for g in bench_games:
            for s in g.seats:
                await s.client.aclose()
                if s.reader is not None:
                    await s.reader.aclose()



# ---------------------------------------------------------------------------------------------
# Push: idle open pages, and how soon a move reaches the other pages
# ---------------------------------------------------------------------------------------------


async def _stream_events(client, url: str, on_version, opened: asyncio.Event | None = None) -> None:
    """Read a game's event stream as a page does, calling ``on_version(v)`` for each version."""
    async with client.stream("GET", url, headers={"Accept": "text/event-stream"}) as r:
        if r.status_code != 200:
            raise RuntimeError(f"{url}: {r.status_code}")
        event = None
        async for line in r.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "version":
                if opened is not None and not opened.is_set():
                    opened.set()
                await on_version(int(line[6:]))


IDLE_SETTLE_SECONDS = 3


async def idle_pages(base: str, games: list[BenchGame], pages: int, seconds: float, meter: CpuMeter) -> dict:
    """``pages`` open game pages (event streams: the players' own, then spectators) while
    nothing moves: the server's CPU over ``seconds``."""
    import httpx

    spectators = httpx.AsyncClient(base_url=base, timeout=None,
                                   limits=httpx.Limits(max_connections=pages, max_keepalive_connections=0))
    owners = [seat.client for g in games for seat in g.seats]
    tasks, openings = [], []

    async def nothing(_v: int) -> None:
        return None

    for i in range(pages):
        game = games[i % len(games)]
        client = owners[i] if i < len(owners) else spectators
        opened = asyncio.Event()
        openings.append(opened)
        tasks.append(asyncio.create_task(_stream_events(client, f"/games/{game.pk}/events/", nothing, opened)))
    try:
        await asyncio.wait_for(asyncio.gather(*(o.wait() for o in openings)), 120)
        failed = [t for t in tasks if t.done()]
        # The server is still opening the last streams when their first event has come (a
        # player's stream marks them present after it): that is the opening's work, not the
        # idle pages'. (About 0.12 CPU-s for 500 pages: 0.4% of a core over 30 s.)
        await asyncio.sleep(IDLE_SETTLE_SECONDS)
        with meter:
            await asyncio.sleep(seconds)
        return {"pages": pages - len(failed), "seconds": seconds, "cpu": meter.used}
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await spectators.aclose()


async def push_latency(base: str, games: list[BenchGame], seconds: float, think: float) -> dict:
    """The players move (htmx, ``think`` seconds apart); on each game one other page (a
    spectator's) listens and, on each version, fetches the game as the page does. The time from
    a move's request to the version's event, and to the fetched game on that page."""
    import httpx

    sent: dict[tuple[int, int], float] = {}
    to_event: list[float] = []
    to_page: list[float] = []
    fetched: list[tuple[int, bool]] = []  # each fetched answer: its size, whether only parts
    watchers = httpx.AsyncClient(base_url=base, timeout=None,
                                 limits=httpx.Limits(max_connections=2 * len(games)))
    stop_at = time.monotonic() + seconds
    act, legal = Series("moves"), Series("legal")

    def watch(game: BenchGame):
        shown = [None, "1"]  # the version and the marks the page shows

        async def on_version(v: int) -> None:
            if shown[0] is None:
                page = await watchers.get(f"/games/{game.pk}/", headers={"HX-Request": "true"})
                shown[:] = [v, marks_after(page, shown[1])]
                return
            t0 = sent.pop((game.pk, v), None)
            if t0 is not None:
                to_event.append(time.perf_counter() - t0)
            # As the page's script asks (game.js): only the parts that differ from what it shows.
            r = await watchers.get(f"/games/{game.pk}/poll/?v={shown[0]}",
                                   headers={"HX-Request": "true", "X-Game-Parts": shown[1]})
            if t0 is not None and r.status_code == 200:
                to_page.append(time.perf_counter() - t0)
            if r.status_code == 200:
                fetched.append((len(r.content), r.headers.get("HX-Reswap") == "none"))
            shown[:] = [v, marks_after(r, shown[1])]

        return _stream_events(watchers, f"/games/{game.pk}/events/", on_version)

    live = [g for g in games if not g.over]
    watching = [asyncio.create_task(watch(g)) for g in live]
    await asyncio.sleep(2)  # every watcher's stream open
    try:
        await asyncio.gather(*(game_loop(g, act, legal, stop_at, [MAX_REQUESTS_PER_PHASE], "htmx", think, sent=sent,
                                         reads_elsewhere=False)
                               for g in live))
        await asyncio.sleep(2)  # the last events
    finally:
        for t in watching:
            t.cancel()
        await asyncio.gather(*watching, return_exceptions=True)
        await watchers.aclose()
    return {"games": len(live), "moves": len(act.latencies), "event": to_event, "page": to_page,
            "answer": act.latencies, "fetched": fetched}


