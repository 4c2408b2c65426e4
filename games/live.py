"""Push (issue 12): "game N is at version V", from the transaction that wrote it to every open page
of that game, within a second and without polling.

- ``publish_on_commit`` (called where a game's version goes up: services.moves._write, and a
  moderator's close) publishes ``"N V"`` on one Redis pub/sub channel once the transaction has
  committed, so a page never hears of a version it cannot read yet.
- ``hub()`` is the one subscription of this process (of its event loop, under ASGI), fanned out
  in memory to the open event streams of games/views/live.py: 500 open pages are 500 idle
  sockets and one Redis connection, not 500 Redis connections. Nothing runs for a page while
  nothing happens but its heartbeat (settings.LIVE_HEARTBEAT_SECONDS).
- Redis pub/sub keeps nothing for later (NOTES.md, live updates): a stream opens with the
  current version, so a page that reconnects sees any version it missed and fetches the game;
  when the subscription is lost every stream is closed, and the pages poll until they reconnect.

Without LIVE_REDIS_URL (the embedded defaults) ``enabled()`` is false: nothing is published and
the pages poll (games/views/play.py: poll).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import weakref

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection, transaction
from django.http import HttpRequest
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)

# The message's second word for the chat (else a version).
CHAT = "chat"
# How long a new stream waits for this process's subscription (the first stream starts it).
CONNECT_TIMEOUT = 5.0
_clients: dict[str, redis.Redis] = {}  # (by LIVE_REDIS_URL: tests change it)


def enabled() -> bool:
    return bool(settings.LIVE_REDIS_URL)


def pushes_to(request: HttpRequest) -> bool:
    """Whether this page gets the event stream: Redis is configured and the site runs under
    ASGI. A WSGI server (``config.wsgi``, Django's test server) would tie up a worker for as long
    as a page stays open: pages served by one poll."""
    return enabled() and isinstance(request, ASGIRequest)


def channel() -> str:
    """Pub/sub channels are not per database number: the name carries the site's prefix and
    its database's name (a test run's own test database too)."""
    return f"{settings.LIVE_CHANNEL_PREFIX}:{connection.settings_dict['NAME']}:games"


def _client() -> redis.Redis:
    """This process's client for its publishes: redis-py's own, whose pool keeps one connection
    per thread that publishes at once, makes new ones in a forked child (never the parent's
    socket), and sends a command once more on a new connection when the one it kept was found
    dropped (Redis restarted, an idle timeout). A publish said twice is harmless: pages fetch
    only a version newer than theirs. Short timeouts: the move has been committed already, it
    must not wait on a dead Redis."""
    url = settings.LIVE_REDIS_URL
    client = _clients.get(url)
    if client is None:
        client = _clients[url] = redis.Redis.from_url(
            url, socket_timeout=1, socket_connect_timeout=1, retry=Retry(NoBackoff(), 1))
    return client


def publish(game_id: int, version: int) -> None:
    """Tell the open pages of the game (now; ``publish_on_commit`` from inside a transaction).
    A failure is logged and changes nothing else: the move stands, and pages that lost their
    stream poll."""
    if enabled():
        _publish_to(channel(), game_id, version)


def publish_on_commit(game_id: int, version: int) -> None:
    if enabled():
        name = channel()  # (read now: the connection's database, inside the transaction)
        transaction.on_commit(lambda: _publish_to(name, game_id, version))


def publish_chat_on_commit(game_id: int) -> None:
    """The game's chat shows something new (a message, one hidden or shown again): its open pages
    fetch the chat's lines (moderation/chat/lines.html), which otherwise poll."""
    if enabled():
        name = channel()
        transaction.on_commit(lambda: _publish_to(name, game_id, CHAT))


def _publish_to(name: str, game_id: int, what: int | str) -> None:
    try:
        _client().publish(name, f"{int(game_id)} {what}")
    except (redis.RedisError, OSError) as error:
        log.warning("live: could not publish game %s %s: %s", game_id, what, error)


# ---------------------------------------------------------------------------------------------
# The subscription of one process, fanned out to its streams
# ---------------------------------------------------------------------------------------------


class Unavailable(Exception):
    """No subscription to Redis: the page should poll."""


def _release(waiter: asyncio.Future) -> None:
    """End a Listener's wait (its news or its time has come), unless it has ended already."""
    if not waiter.done():
        waiter.set_result(None)


class Listener:
    """One open stream: the newest version heard for its game, whether its chat has news, and a
    flag to wake it."""

    def __init__(self) -> None:
        self.version: int | None = None
        self._told: int | None = None  # the version last returned by next()
        self.chat = False
        self.closed = False
        self._news = False  # something was heard since next() last returned
        self._waiter: asyncio.Future | None = None  # what next() awaits, while it waits

    def _wake(self) -> None:
        self._news = True
        if self._waiter is not None:
            _release(self._waiter)

    def hear(self, version: int) -> None:
        if self.version is None or version > self.version:
            self.version = version
            self._wake()

    def hear_chat(self) -> None:
        self.chat = True
        self._wake()

    def close(self) -> None:
        self.closed = True
        self._wake()

    async def next(self, timeout: float) -> tuple[int | None, bool] | None:
        """What was heard since the last call: (the newest version, or None if no new one;
        whether the chat has news); None after ``timeout`` seconds of silence (time for a
        heartbeat). Raises Unavailable once the subscription is lost."""
        if not self._news:
            # One future and one timer, woken by whichever comes first. (asyncio.wait_for made
            # a task of each wait and, at each heartbeat, cancelled it and waited for it: most
            # of what an idle open page cost the server.)
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            timer = loop.call_later(timeout, _release, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
            if not self._news:
                return None
        self._news = False
        if self.closed:
            raise Unavailable
        chat, self.chat = self.chat, False
        version = self.version if self.version != self._told else None
        self._told = self.version
        return version, chat


class Hub:
    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.listeners: dict[int, set[Listener]] = {}
        self.ready = asyncio.Event()
        self.task: asyncio.Task | None = None
        # (Named, so that an operator, or a test, can find this process's subscription.)
        self.client_name = f"monopoly-live-{os.getpid()}-{id(self):x}"

    async def join(self, game_id: int) -> Listener:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        try:
            await asyncio.wait_for(self.ready.wait(), CONNECT_TIMEOUT)
        except TimeoutError:
            raise Unavailable from None
        listener = Listener()
        self.listeners.setdefault(game_id, set()).add(listener)
        return listener

    def leave(self, game_id: int, listener: Listener) -> None:
        group = self.listeners.get(game_id)
        if group is not None:
            group.discard(listener)
            if not group:
                del self.listeners[game_id]

    def count(self) -> int:
        return sum(len(g) for g in self.listeners.values())

    def _deliver(self, data: bytes) -> None:
        try:
            game, what = data.decode().split()
            game_id = int(game)
            version = None if what == CHAT else int(what)
        except (ValueError, UnicodeDecodeError):
            log.warning("live: ignored a malformed message %r", data[:100])
            return
        for listener in self.listeners.get(game_id, ()):
            if version is None:
                listener.hear_chat()
            else:
                listener.hear(version)

    async def _run(self) -> None:
        delay = 0.5
        while True:
            client = aioredis.Redis.from_url(self.url, client_name=self.client_name)
            try:
                pubsub = client.pubsub()
                await pubsub.subscribe(self.name)
                async for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        # Confirmed by the server: from now on no publication is missed.
                        self.ready.set()
                        delay = 0.5
                    elif message["type"] == "message":
                        self._deliver(message["data"])
            except (redis.RedisError, OSError) as error:
                log.warning("live: lost the subscription (%s); retrying in %.1f s", error, delay)
            finally:
                self.ready.clear()
                # Every stream ends: its page polls, and reconnects (hearing the version again).
                for group in self.listeners.values():
                    for listener in group:
                        listener.close()
                self.listeners.clear()
                with contextlib.suppress(redis.RedisError, OSError):
                    await client.aclose()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub() -> Hub:
    """This event loop's hub (one per server process; a test's own loop gets its own)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None or found.url != settings.LIVE_REDIS_URL or found.name != channel():
        if found is not None and found.task is not None:
            found.task.cancel()  # (settings changed: tests)
        found = _hubs[loop] = Hub(settings.LIVE_REDIS_URL, channel())
    return found
