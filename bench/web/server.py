"""The bench's server side: the environment (production settings, loopback, the bench's own
database and urls), users, games and sessions made in-process, gunicorn started and stopped, and
the CPU of the processes measured from /proc."""

from __future__ import annotations

import asyncio
import atexit
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # (for the site's packages and bench.web.settings)
    sys.path.insert(0, str(ROOT))

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/monopoly_bench"
USER_PREFIX = "bench-"
PASSWORD = "bench-password-not-secret"

# ---------------------------------------------------------------------------------------------
# The environment of this process and of gunicorn: production settings, loopback, bench DB
# ---------------------------------------------------------------------------------------------


def configure_environment() -> str:
    database_url = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    if not database_url.startswith(("postgres://", "postgresql://")):
        sys.exit("bench.web: DATABASE_URL must name a PostgreSQL database")
    os.environ.update(
        {
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
            # "testserver" is the in-process test client's host (sessions and query counts).
            "ALLOWED_HOSTS": "127.0.0.1,testserver",
            # Plain HTTP on loopback: cookies marked Secure would never be sent back, and there
            # is no HTTPS to redirect to.
            "SECURE_COOKIES": "false",
            "SECURE_SSL_REDIRECT": "false",
            # The bots move as fast as the server answers: the site's flood limits would stop them.
            "RATELIMIT_ENABLE": "false",
            "VAR_DIR": str(ROOT / "var" / "bench"),
            "LOG_LEVEL": "WARNING",
            # The site's settings with the bench's urls (the minimal endpoint).
            "DJANGO_SETTINGS_MODULE": "bench.web.settings",
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
        sys.exit(f"bench.web: unexpected database name {name!r}")
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



# ---------------------------------------------------------------------------------------------
# CPU of processes, from /proc
# ---------------------------------------------------------------------------------------------


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
                sys.exit(f"bench.web: gunicorn exited with {proc.returncode}")
            try:
                if (await client.get("/")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    sys.exit("bench.web: gunicorn did not answer within 30 s")


