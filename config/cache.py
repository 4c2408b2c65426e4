"""The site's two cache backends: Redis with one connection pool per process, and Django's
database cache with an atomic ``incr``, for rate limits without a cache server.

Django keeps a cache object per thread and per asyncio context (``caches`` is an asgiref Local).
Under ASGI each request's synchronous part runs in a thread of its own (Django's handler opens an
asgiref ThreadSensitiveContext per request), so Django's RedisCache built a new client, with a
new connection pool, for every request: a new TCP connection to Redis, and its handshake, for
every session read. ``RedisCache`` here keeps one client per process and set of options, shared
by every thread (redis-py's pools are thread-safe, and start afresh in a forked child). Its
``get_client`` also keeps the one ``redis.Redis`` of each pool, where Django's made a new one for
every cache operation (redis-py's constructor copies its table of some 170 reply parsers each
time: about a third of what a ``cache.get`` cost, issue 12); a ``redis.Redis`` holds no
connection of its own, only its pool's, and is as thread-safe as the pool.

While Redis does not answer, the Redis cache fails soft (issue 26): a read misses, a write is
dropped, ``incr`` raises ValueError (as for a missing key), and that is logged once for the outage
(and once when Redis answers again), not for every request. Sessions (``cached_db``) then come
from the database, where they are always written; a rate limit that cannot count lets the
request through (RATELIMIT_FAIL_OPEN; allauth's limits likewise find no count); every other use
of the cache is a cache. While it is down only one operation a second tries Redis (with the
short timeouts of settings.py); the others fall back at once.

The database cache:

Django's ``DatabaseCache.incr`` reads the value and writes it back, so two requests counted at
the same moment could both read 5 and write 6: a rate limit would let through more than it
says (django-ratelimit refuses that backend for this reason). Here the read and the write share
one transaction that holds the row: ``SELECT ... FOR UPDATE`` where the database has it
(PostgreSQL), and on SQLite the write lock that ``BEGIN IMMEDIATE`` takes at the start of every
transaction (``transaction_mode`` in settings.py). A second increment waits for the first.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends import db, redis
from django.db import connections, router, transaction
from django.utils.functional import cached_property
from redis import exceptions as redis_errors

logger = logging.getLogger(__name__)

_clients: dict[tuple[str, str], redis.RedisCacheClient] = {}
_clients_lock = threading.Lock()

# Redis does not answer (refused, reset, timed out): what the cache rides out.
_UNREACHABLE = (redis_errors.ConnectionError, redis_errors.TimeoutError)
# While Redis is down, one operation tries it this often; the others fall back at once.
RETRY_SECONDS = 1.0


def _no_count() -> int:
    raise ValueError("the cache does not answer: nothing to increment")


class _SharedClient(redis.RedisCacheClient):
    """Django's RedisCacheClient, each pool's ``redis.Redis`` made once, failing soft while Redis
    does not answer (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis: dict[int, Any] = {}
        self._down_since: float | None = None  # (monotonic) None: Redis answers
        self._next_try = 0.0
        self._state_lock = threading.Lock()

    def _soft(self, operation: Callable[[], Any], fallback: Callable[[], Any]) -> Any:
        if self._down_since is not None and time.monotonic() < self._next_try:
            return fallback()
        try:
            result = operation()
        except _UNREACHABLE as exc:
            self._went_down(exc)
            return fallback()
        if self._down_since is not None:
            self._came_back()
        return result

    def _went_down(self, exc: Exception) -> None:
        with self._state_lock:
            first = self._down_since is None
            now = time.monotonic()
            if first:
                self._down_since = now
            self._next_try = now + RETRY_SECONDS
        if first:
            logger.error(
                "The Redis cache does not answer (%s: %s): sessions are read from the database, rate limits "
                "let requests through uncounted, until it answers again",
                exc.__class__.__name__,
                exc,
            )

    def _came_back(self) -> None:
        with self._state_lock:
            since, self._down_since = self._down_since, None
        if since is not None:
            logger.warning("The Redis cache answers again (after %.0f s)", time.monotonic() - since)

    def add(self, key, value, timeout):
        return self._soft(lambda: super(_SharedClient, self).add(key, value, timeout), lambda: False)

    def get(self, key, default):
        return self._soft(lambda: super(_SharedClient, self).get(key, default), lambda: default)

    def set(self, key, value, timeout):
        return self._soft(lambda: super(_SharedClient, self).set(key, value, timeout), lambda: None)

    def touch(self, key, timeout):
        return self._soft(lambda: super(_SharedClient, self).touch(key, timeout), lambda: False)

    def delete(self, key):
        return self._soft(lambda: super(_SharedClient, self).delete(key), lambda: False)

    def get_many(self, keys):
        return self._soft(lambda: super(_SharedClient, self).get_many(keys), dict)

    def has_key(self, key):
        return self._soft(lambda: super(_SharedClient, self).has_key(key), lambda: False)

    def incr(self, key, delta):
        return self._soft(lambda: super(_SharedClient, self).incr(key, delta), _no_count)

    def set_many(self, data, timeout):
        return self._soft(lambda: super(_SharedClient, self).set_many(data, timeout), lambda: list(data))

    def delete_many(self, keys):
        return self._soft(lambda: super(_SharedClient, self).delete_many(keys), lambda: None)

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._redis.get(index)
        if client is None:
            # (Two threads may both make one the first time: either serves, on the same pool.)
            client = self._redis[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(redis.RedisCache):
    """Django's RedisCache, its client (and so its connection pools) shared by every thread and
    request of the process that have the same servers and options."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _SharedClient

    @cached_property
    def _cache(self) -> redis.RedisCacheClient:
        key = (repr(self._servers), repr(sorted(self._options.items())))
        with _clients_lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
                # The pools made now, under the lock: RedisCacheClient makes them on first use,
                # unlocked, and two threads could each make one.
                for index in range(len(self._servers)):
                    client._pools[index] = client._pool_class.from_url(
                        self._servers[index], **client._pool_options
                    )
        return client


class DatabaseCache(db.DatabaseCache):
    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        alias = router.db_for_write(self.cache_model_class)
        connection = connections[alias]
        with transaction.atomic(using=alias):
            if connection.features.has_select_for_update:
                table = connection.ops.quote_name(self._table)
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"SELECT cache_key FROM {table} WHERE cache_key = %s FOR UPDATE",
                        [self.make_and_validate_key(key, version=version)],
                    )
            return super().incr(key, delta, version)
