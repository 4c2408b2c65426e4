"""Web benchmark: many concurrent games of bots played through the site's real HTTP endpoints.

    .venv/bin/python bench/web.py [--games 50] [--seconds 15] [--think 1] [--workers 3]
    .venv/bin/python bench/web.py --profile 300

Runs the site with gunicorn on 127.0.0.1 against PostgreSQL (DATABASE_URL, by default
postgres://postgres@127.0.0.1:5432/monopoly_bench, created and migrated here), with
DEBUG=false as in production: uvicorn's workers (ASGI, a connection pool each, push through the
Redis of LIVE_REDIS_URL or CACHE_URL), or with ``--server wsgi`` sync workers that poll (the
site before issue 12). It makes 2 x N users and N two-player live classic games, then
drives them from one asyncio process with httpx, the players signed in with their own session
cookies. The bots see only what a player sees: the game page once (version, CSRF cookie), then
``games:game_legal`` (the viewer's legal actions, as JSON), and they post the chosen move to
``games:game_act`` with the page's form fields. Phases, each measured for the same time:

- minimal: ``games:game_bench_lock`` (one transaction that locks the player's game row and
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
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import cProfile
import json
import os
import pstats
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/monopoly_bench"
USER_PREFIX = "bench-"
PASSWORD = "bench-password-not-secret"
MAX_REQUESTS_PER_PHASE = 200_000
HTTP_TIMEOUT = 30.0

# ---------------------------------------------------------------------------------------------
# The environment of this process and of gunicorn: production settings, loopback, bench DB
# ---------------------------------------------------------------------------------------------


def configure_environment() -> str:
    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    if not database_url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench/web.py: DATABASE_URL must name a PostgreSQL database")
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
            # "testserver" is the in-process test client's host (sessions and query counts).
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            "BENCH_ENDPOINTS": "true",
            # Plain HTTP on loopback: cookies marked Secure would never be sent back, and there
            # is no HTTPS to redirect to.
            "SECURE_COOKIES": "false",
            "SECURE_SSL_REDIRECT": "false",
            # The bots move as fast as the server answers: the site's flood limits would stop them.
            "RATELIMIT_ENABLE": "false",
            "VAR_DIR": str(ROOT / "var" / "bench"),
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # Pub/sub channels are shared by every user of the Redis: this run's own.
            "LIVE_CHANNEL_PREFIX": f"bench-{os.getpid()}",
        }
    )
    return database_url


def create_database(database_url: str) -> None:
    """CREATE DATABASE when it is missing (connected to the server's ``postgres`` database)."""
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        sys.exit(f"bench/web.py: unexpected database name {name!r}")
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')
            print(f"created database {name}")


def setup_django() -> None:
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    # The cache's table, where no CACHE_URL names a Redis (allauth's login limits count there).
    call_command("createcachetable", verbosity=0)
    # DEBUG=false serves content-hashed static files: the game page needs the manifest.
    call_command("collectstatic", interactive=False, verbosity=0)


# ---------------------------------------------------------------------------------------------
# Users, games and sessions (setup, in-process: not measured)
# ---------------------------------------------------------------------------------------------


def make_users(count: int) -> list:
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    # A previous run's players go, with their tables and games (on delete cascade).
    User.objects.filter(username__startswith=USER_PREFIX).delete()
    password = make_password(PASSWORD)
    users = User.objects.bulk_create(
        [
            User(
                username=f"{USER_PREFIX}{i}",
                email=f"{USER_PREFIX}{i}@example.com",
                display_name=f"Bot {i}",
                password=password,
            )
            for i in range(count)
        ]
    )
    EmailAddress.objects.bulk_create(
        [EmailAddress(user=u, email=u.email, verified=True, primary=True) for u in users]
    )
    return users


def make_game(host, *guests, pace: str, name: str):
    from games import services

    table = services.table_create(
        host=host, name=name, preset="classic", pace=pace, turn_hours=24, seat_count=1 + len(guests)
    )
    for guest in guests:
        services.table_join(table=table, user=guest)
    return services.table_start(table=table, by=host)


def session_cookie(user) -> str:
    """A signed-in session, as the sign-in form would leave it (the test client's force_login)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


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
# Figures
# ---------------------------------------------------------------------------------------------


@dataclass
class Series:
    """Latencies (seconds) and status codes of one endpoint in one phase."""

    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, latency: float, status: int) -> None:
        self.latencies.append(latency)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def row(self) -> str:
        lat = sorted(self.latencies)
        if not lat:
            return f"{self.name:<34} no requests"
        q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) > 1 else [lat[0]] * 99
        ms = [1000 * x for x in (q[49], q[94], q[98], lat[-1])]
        codes = " ".join(f"{k}:{v}" for k, v in sorted(self.statuses.items()))
        return (
            f"{self.name:<34} {len(lat):>7} {len(lat) / self.seconds:>9.1f} "
            f"{ms[0]:>8.1f} {ms[1]:>8.1f} {ms[2]:>8.1f} {ms[3]:>8.1f}   {codes}"
        )


HEADER = (
    f"{'endpoint':<34} {'requests':>7} {'req/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
    f"{'max ms':>8}   statuses"
)


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User + system CPU seconds of each of these processes so far (from /proc)."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def postgres_pids(database_url: str) -> list[int]:
    """The server processes of the bench database and PostgreSQL's own background processes
    (not the backends of other databases: other work on the machine may use them)."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE (datname = current_database() "
            "OR datname IS NULL) AND pid <> pg_backend_pid()"
        ).fetchall()
    return [pid for (pid,) in rows]


def children_of(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                ppid = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.append(int(d.name))
    return out


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine spent busy so far (all cores, from /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """CPU seconds used during a phase by gunicorn, PostgreSQL, this client, and everything
    else on the machine (other work skews the figures: it is shown, not hidden)."""

    def __init__(self, server_pid: int, database_url: str, reader_pid: int | None = None) -> None:
        self.server_pid = server_pid
        self.database_url = database_url
        self.reader_pid = reader_pid

    def _sample(self) -> tuple[dict[int, float], dict[int, float], float, float, dict[int, float]]:
        server = [self.server_pid, *children_of(self.server_pid)]
        reader = [self.reader_pid, *children_of(self.reader_pid)] if self.reader_pid else []
        return (
            cpu_seconds(server),
            cpu_seconds(postgres_pids(self.database_url)),
            self._own(),
            machine_busy_seconds(),
            cpu_seconds(reader),
        )

    def __enter__(self) -> CpuMeter:
        self.start = self._sample()
        return self

    def __exit__(self, *exc) -> None:
        end = self._sample()
        # A process that started during the phase (a new database connection) counts whole;
        # one that ended during it is left out.
        self.used = tuple(
            sum(b[pid] - a.get(pid, 0.0) for pid in b) if isinstance(a, dict) else b - a
            for a, b in zip(self.start, end, strict=True)
        )

    @staticmethod
    def _own() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime


def cpu_text(used: list[float], seconds: float, requests: int) -> str:
    gun, pg, me, busy, reader = used
    other = max(0.0, busy - gun - pg - me - reader)
    per = f"; {1000 * gun / requests:.1f} ms of gunicorn CPU per request" if requests else ""
    reads = f", the reads' gunicorn {reader:.1f}" if reader else ""
    return (
        f"{busy:.1f} of {os.cpu_count() * seconds:.0f} CPU-s busy: gunicorn {gun:.1f}, "
        f"postgres {pg:.1f}, client {me:.1f}{reads}, other processes {other:.1f}{per}"
    )


# ---------------------------------------------------------------------------------------------
# Gunicorn
# ---------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(port: int, workers: int, threads: int, server: str = "asgi") -> subprocess.Popen:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    app = "config.asgi:application" if server == "asgi" else "config.wsgi:application"
    cmd = [
        str(gunicorn),
        app,
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--graceful-timeout",
        "5",
        "--timeout",
        "60",
        "--chdir",
        str(ROOT),
    ]
    if server == "asgi":
        # As in production (README): uvicorn's workers under gunicorn (config/gunicorn.py), a
        # connection pool each.
        # Idle keep-alive connections stay open between slices (gunicorn's default closes them
        # after 2 s, racing the client's next request on them).
        cmd += ["--worker-class", "config.gunicorn.Worker", "--keep-alive", "120"]
    elif threads > 1:
        cmd += ["--worker-class", "gthread", "--threads", str(threads)]
    env = os.environ.copy()
    if server == "asgi":
        # Each request's synchronous part runs in a thread of its own under ASGI: connections
        # come from a pool (settings.DATABASE_POOL), not one kept per thread.
        env["DATABASE_POOL"] = "true"
    else:
        env["LIVE_REDIS_URL"] = ""
    # Its own process group, so that nothing of it outlives this script.
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)

    def stop() -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()

    atexit.register(stop)
    proc.stop = stop  # type: ignore[attr-defined]
    return proc


async def wait_until_up(base: str, proc: subprocess.Popen) -> None:
    import httpx

    deadline = time.monotonic() + 30
    async with httpx.AsyncClient(base_url=base, timeout=2) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                sys.exit(f"bench/web.py: gunicorn exited with {proc.returncode}")
            try:
                if (await client.get("/")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    sys.exit("bench/web.py: gunicorn did not answer within 30 s")


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


def quantiles_ms(values: list[float]) -> str:
    if len(values) < 2:
        return "too few"
    q = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {1000 * q[49]:.0f} ms, p99 {1000 * q[98]:.0f} ms, max {1000 * max(values):.0f} ms"


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


def make_extra_users(tag: str, count: int) -> list:
    from allauth.account.models import EmailAddress
    from django.contrib.auth.hashers import make_password

    from accounts.models import User

    password = make_password(PASSWORD)
    users = []
    for i in range(count):
        u = User.objects.create(
            username=f"{USER_PREFIX}{tag}{i}",
            email=f"{USER_PREFIX}{tag}{i}@example.com",
            password=password,
        )
        EmailAddress.objects.create(user=u, email=u.email, verified=True, primary=True)
        users.append(u)
    return users


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


# ---------------------------------------------------------------------------------------------


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

    if args.server == "asgi":
        workers = f"{args.workers} uvicorn workers (ASGI, a connection pool each)"
    elif args.threads <= 1:
        workers = f"{args.workers} sync workers (WSGI)"
    else:
        workers = f"{args.workers} gthread workers x {args.threads} threads (WSGI)"
    print()
    print(
        f"gunicorn ({workers}) + PostgreSQL on {os.cpu_count()} cores, DEBUG=false; "
        f"{args.games} concurrent games ({2 * args.games} players); each phase {args.seconds:g} s "
        f"in {args.rounds} slices taken in turn; one asyncio + httpx client"
    )
    print(HEADER)
    for phase in phases:
        for s in phase.series:
            print(s.row())
    print()
    print("CPU during each phase (seconds, all cores):")
    for phase in phases:
        first = phase.series[0]
        print(f"  {phase.label}:\n      {cpu_text(phase.cpu, first.seconds, len(first.latencies))}")
    busy = sum(p.cpu[3] for p in phases)
    other = sum(max(0.0, p.cpu[3] - sum(p.cpu[:3]) - p.cpu[4]) for p in phases)
    if busy and other / busy > 0.1:
        print(
            f"  NOTE: other processes took {100 * other / busy:.0f}% of the busy CPU during the "
            f"run: these figures are skewed by other work on the machine"
        )
    by_label = {p.label: p for p in phases}
    minimal = by_label[Phase("minimal", 0).label]
    read = by_label[Phase("read", 0).label]
    minimal_rate = len(minimal.series[0].latencies) / minimal.series[0].seconds
    read_cpu = read.cpu[0] / max(1, len(read.series[0].latencies))
    minimal_cpu = minimal.cpu[0] / max(1, len(minimal.series[0].latencies))
    print()
    for kind in ("htmx", "form", "json"):
        phase = by_label[Phase(kind, 0).label]
        moves, reads = (len(s.latencies) for s in phase.series)
        if not moves:
            continue
        rate = moves / phase.series[0].seconds
        if args.readers:
            # The reads went to the other server: the measured one served only the moves.
            move_cpu = phase.cpu[0] / moves
            where = f"served by the other gunicorn, {1000 * phase.cpu[4] / max(1, reads):.1f} ms each"
        else:
            # A move's own CPU: the phase's gunicorn CPU less that of the reads between moves,
            # at the cost a read has in the "legal.json alone" phase.
            move_cpu = (phase.cpu[0] - reads * read_cpu) / moves
            where = "subtracted"
        print(
            f"{phase.label}: the minimal endpoint serves {minimal_rate / rate:.2f}x its "
            f"requests/s (with {reads / moves:.2f} legal.json reads per move, {where}); "
            f"gunicorn CPU per move {1000 * move_cpu:.1f} ms = {move_cpu / minimal_cpu:.2f}x the "
            f"minimal endpoint's {1000 * minimal_cpu:.1f} ms"
        )
        if args.readers and len(phase.slices) > 1:
            # Slice by slice (the minimal endpoint's slice taken just before): how far the
            # machine's other work moved the figure.
            pairs = zip(phase.slices, minimal.slices, strict=True)
            ratios = [(cpu / n) / (m_cpu / m_n) for (cpu, n), (m_cpu, m_n) in pairs if n and m_n]
            print(f"    slice by slice: {', '.join(f'{r:.2f}x' for r in ratios)}")
    if push:
        idle, lat = push["idle"], push["latency"]
        gun = idle["cpu"][0]
        minutes = idle["seconds"] / 60
        print()
        print(
            f"push, {idle['pages']} idle open pages (event streams, {idle['seconds']:g} s, nothing moving): "
            f"gunicorn {gun:.2f} CPU-s = {100 * gun / idle['seconds']:.2f}% of one core; "
            f"{1000 * gun / max(1, idle['pages']) / minutes:.2f} ms of CPU per page per minute "
            f"(postgres {idle['cpu'][1]:.2f} CPU-s)"
        )
        print(
            f"push, a move to the other page of its game ({lat['games']} games, {lat['moves']} moves, "
            f"think {max(args.think, 0.5):g} s): the version event {quantiles_ms(lat['event'])}; "
            f"the page fetched {quantiles_ms(lat['page'])} (from the move's request; the mover's own "
            f"answer took {quantiles_ms(lat['answer'])})"
        )
        fetched = lat["fetched"]
        if fetched:
            parts = [size for size, only_parts in fetched if only_parts]
            whole = [size for size, only_parts in fetched if not only_parts]

            def kb(sizes: list[int]) -> str:
                return f"{statistics.fmean(sizes) / 1024:.1f} KB" if sizes else "-"

            print(
                f"push, the other page's fetches: {len(fetched)}, mean {kb([s for s, _p in fetched])}; "
                f"{len(parts)} of only the changed parts (mean {kb(parts)}), "
                f"{len(whole)} whole fragments (mean {kb(whole)})"
            )
    print()
    for line in queries:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
