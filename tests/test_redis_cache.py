"""The Redis cache (config/cache.py) keeps one client, so one connection pool, per process.

Django keeps a cache object per thread and per request context; under ASGI each request runs
in a thread of its own, and Django's RedisCache then opened a new connection to Redis for every
request. Against the real Redis of the test run (CACHE_URL): skipped, saying so, without one.
"""

from __future__ import annotations

import os
import threading
import uuid

import pytest
from django.core.cache import caches


@pytest.fixture
def redis_cache(settings) -> str:
    url = os.environ.get("CACHE_URL", "")
    if not url.startswith(("redis://", "rediss://")):
        pytest.skip("no Redis cache in this run (CACHE_URL)")
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": url,
                    "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    }
    return url


def _in_a_thread(work):
    out = []
    thread = threading.Thread(target=lambda: out.append(work()))
    thread.start()
    thread.join(10)
    return out[0]


def test_every_thread_uses_the_same_client_and_pool(redis_cache):
    here = caches["default"]
    there = _in_a_thread(lambda: caches["default"])

    assert here is not there  # Django's cache objects are per thread...
    assert here._cache is there._cache  # ...their client and its pools are not
    assert here._cache._get_connection_pool(write=True) is there._cache._get_connection_pool(write=False)


def test_every_operation_uses_the_same_redis_client(redis_cache):
    """Django's client made a redis.Redis for every operation (its constructor copies some 170
    reply parsers): one per pool here, shared by the threads, on that pool."""
    backend = caches["default"]._cache
    first = backend.get_client("a", write=True)
    caches["default"].set("k", 1, 30)
    assert caches["default"].get("k") == 1

    assert backend.get_client("b", write=False) is first
    assert _in_a_thread(lambda: caches["default"]._cache.get_client("c")) is first
    assert first.connection_pool is backend._get_connection_pool(write=True)
    caches["default"].delete("k")


def test_what_one_thread_stores_another_reads(redis_cache):
    caches["default"].set("greeting", {"text": "hola"}, 30)

    caches["default"].set("count", 1, 30)

    assert _in_a_thread(lambda: caches["default"].get("greeting")) == {"text": "hola"}
    assert _in_a_thread(lambda: caches["default"].incr("count")) == 2
    assert caches["default"].get("count") == 2
    caches["default"].delete_many(["greeting", "count"])


def test_other_servers_or_options_get_a_client_of_their_own(redis_cache, settings):
    settings.CACHES = {
        **settings.CACHES,
        "other": {"BACKEND": "config.cache.RedisCache", "LOCATION": redis_cache,
                  "OPTIONS": {"socket_timeout": 5}},
    }

    assert caches["default"]._cache is not caches["other"]._cache
