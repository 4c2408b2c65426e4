"""While the cache's Redis is down, signed-in pages still work (issue 26 item 3).

Sessions are ``cached_db``: read from the cache, written through to the database. The cache used
to raise while its Redis was down, and every signed-in page was a 500. Now it fails soft
(config/cache.py): sessions come from the database, a rate limit that cannot count lets the request
through, and the outage is logged once, not at every request. Against a redis-server of the test's
own, stopped and started again (the test run's shared Redis is never stopped)."""

from __future__ import annotations

import logging
import uuid

import pytest
import redis
from django.urls import reverse

import config.cache
from tests.redis_server import redis_server  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

DOWN = "does not answer"
BACK = "cache answers again"


@pytest.fixture
def redis_cache(settings, redis_server, monkeypatch):  # noqa: F811
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": redis_server.url(0),
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.RATE_LIMIT_UPLOADS = "2/m"
    # Every operation tries Redis (not one a second), so that each request meets the outage.
    monkeypatch.setattr(config.cache, "RETRY_SECONDS", 0)
    return redis_server


def _messages(caplog, text: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "config.cache" and text in r.getMessage()]


def test_signed_in_pages_and_rate_limits_ride_out_a_cache_outage(client, alice, redis_cache, caplog):
    caplog.set_level(logging.WARNING, logger="config.cache")
    page = reverse("games:record_upload")  # a page for signed-in people only (POST: rate limited)
    client.force_login(alice)
    assert client.get(page).status_code == 200
    # The session is in the cache (cached_db), not only in the database.
    keys = redis.Redis(port=redis_cache.port).keys("*sessions.cached_db*")
    assert keys

    for outage in (1, 2):
        redis_cache.stop()

        for _ in range(3):
            response = client.get(page)
            assert response.status_code == 200, response.status_code  # not a 500, not sent to sign in
            assert response.context["user"] == alice
        # Over the limit of 2 a minute, and not counted: a refused upload (no file), never 429.
        assert [client.post(page, {}).status_code for _ in range(4)] == [400] * 4
        assert len(_messages(caplog, DOWN)) == outage  # once per outage, not per request or operation

        redis_cache.start()

        assert client.get(page).status_code == 200
        assert len(_messages(caplog, BACK)) == outage
        # Counting again (the outage's counts were never kept): the third upload in the minute is refused.
        assert [client.post(page, {}).status_code for _ in range(3)] == [400, 400, 429]
        # (A new minute's count for the next outage.)
        redis.Redis(port=redis_cache.port).flushdb()
