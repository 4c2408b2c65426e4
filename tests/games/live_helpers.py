"""The Redis of a test run, for the push tests (tests/games/test_live_push.py, tests/e2e/test_push.py)."""

from __future__ import annotations

import os

import pytest
import redis


def redis_url_or_skip() -> str:
    """LIVE_REDIS_URL, else CELERY_BROKER_URL or CACHE_URL when they name a Redis that answers;
    else the test is skipped, saying why (CI has Redis)."""
    url = next((os.environ.get(n, "") for n in ("LIVE_REDIS_URL", "CELERY_BROKER_URL", "CACHE_URL")
                if os.environ.get(n, "").startswith(("redis://", "rediss://"))), None)
    if url is None:
        pytest.skip("no Redis in this run (LIVE_REDIS_URL, CELERY_BROKER_URL or CACHE_URL): push is off")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis at {url} does not answer: {error}")
    return url
