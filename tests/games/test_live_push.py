"""Push (issue 12): a committed move publishes "game N is at version V" on Redis, and each open
game page hears it through its event stream (games/live.py, games/views/live.py).

Against the real Redis of the test run (CELERY_BROKER_URL or CACHE_URL; CI has one): skipped,
saying so, without one. Each test has a channel of its own. The streams are read through
Django's AsyncClient, which serves them as uvicorn does (ASGI), in the test's transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from games import live, services
from games.models import Game, Invitation
from tests.factories import UserFactory
from tests.games.live_helpers import redis_url_or_skip
from tests.games.play_helpers import next_move, start_game, users_by_seat

pytestmark = pytest.mark.django_db
WAIT = 10  # seconds before a test that hears nothing gives up (never a measured time)


@pytest.fixture
def push(settings) -> str:
    url = redis_url_or_skip()
    settings.LIVE_REDIS_URL = url
    settings.LIVE_CHANNEL_PREFIX = f"test-{uuid.uuid4().hex}"
    return url


def _move(game: Game) -> int:
    seat, move = next_move(game)
    services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=move,
                                expected_version=game.version)
    return Game.objects.get(pk=game.pk).version


def _subscriber(url: str):
    pubsub = redis.Redis.from_url(url).pubsub()
    pubsub.subscribe(live.channel())
    assert pubsub.get_message(timeout=WAIT)["type"] == "subscribe"
    return pubsub


def test_a_committed_move_publishes_the_new_version(push, alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    pubsub = _subscriber(push)

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        version = _move(game)
        # Nothing is said before the commit: a page could not read that version yet.
        assert pubsub.get_message(timeout=0.2) is None
    for callback in callbacks:
        callback()

    message = pubsub.get_message(timeout=WAIT)
    assert message["type"] == "message"
    assert message["data"] == f"{game.pk} {version}".encode()


def test_the_publisher_connects_again_when_redis_dropped_its_connection(push, alice, bob):
    game = start_game(alice, bob)
    pubsub = _subscriber(push)
    live.publish(game.pk, 1)
    assert pubsub.get_message(timeout=WAIT)["data"] == f"{game.pk} 1".encode()

    # Redis drops the publisher's one connection (a restart, an idle timeout).
    assert redis.Redis.from_url(push).client_kill_filter(_id=live._client().client_id()) == 1
    live.publish(game.pk, 2)

    assert pubsub.get_message(timeout=WAIT)["data"] == f"{game.pk} 2".encode()


def test_the_publisher_is_one_connection_a_forked_child_does_not_share(push, alice, bob, monkeypatch):
    game = start_game(alice, bob)
    pubsub = _subscriber(push)
    publisher = live._client()
    live.publish(game.pk, 1)
    first = publisher.client_id()
    live.publish(game.pk, 2)
    assert publisher.client_id() == first  # (one connection, kept)

    # In a child forked from this process (Celery's prefork workers), the parent's socket is
    # never used: the child makes its own connection.
    parent = os.getpid()
    monkeypatch.setattr(redis.connection.os, "getpid", lambda: parent + 1)
    live.publish(game.pk, 3)

    assert publisher.client_id() != first
    assert [pubsub.get_message(timeout=WAIT)["data"] for _ in range(3)] == \
        [f"{game.pk} {v}".encode() for v in (1, 2, 3)]


def test_a_publish_to_a_redis_that_does_not_answer_is_logged_and_tried_once(push, alice, bob, settings, caplog,
                                                                            monkeypatch):
    game = start_game(alice, bob)
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    made = []
    real = redis.ConnectionPool.make_connection
    monkeypatch.setattr(redis.ConnectionPool, "make_connection", lambda pool: made.append(1) or real(pool))

    with caplog.at_level(logging.WARNING, logger="games.live"):
        live.publish(game.pk, 1)  # (returns: the move stands)

    assert f"could not publish game {game.pk} 1" in caplog.text
    assert len(made) == 1  # (a connection that never worked is not tried again)


def test_a_refused_move_publishes_nothing(push, alice, bob, django_capture_on_commit_callbacks):
    game = start_game(alice, bob)
    pubsub = _subscriber(push)
    seat, move = next_move(game)

    with django_capture_on_commit_callbacks(execute=True), pytest.raises(services.StaleVersion):
        services.game_submit_action(game=game, user=users_by_seat(game)[seat], action=move,
                                    expected_version=game.version - 1)

    assert pubsub.get_message(timeout=0.5) is None


async def _next(chunks) -> bytes:
    chunk = await asyncio.wait_for(anext(chunks), WAIT)
    return chunk if isinstance(chunk, bytes) else chunk.encode()


class Reader:
    """Reads a stream in a task of its own, as Django's ASGI handler does, and is cancelled as
    that task is when the browser goes away (the view's generator then ends)."""

    def __init__(self, response) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._read(response.streaming_content))

    async def _read(self, chunks) -> None:
        async for chunk in chunks:
            await self.queue.put(chunk if isinstance(chunk, bytes) else chunk.encode())

    async def next(self) -> bytes:
        return await asyncio.wait_for(self.queue.get(), WAIT)

    async def disconnect(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


def test_the_stream_opens_with_the_version_then_passes_on_its_game_only(push, alice, bob):
    game = start_game(alice, bob)
    url = reverse("games:game_events", args=[game.pk])

    async def scenario() -> None:
        client = AsyncClient()
        await client.aforce_login(alice)
        response = await client.get(url)
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/event-stream")
        assert "Content-Encoding" not in response  # each event must reach the page at once
        chunks = aiter(response.streaming_content)
        first = await _next(chunks)
        assert first == f"retry: 3000\nevent: version\ndata: {game.version}\n\n".encode()
        # Another game's move is not this page's business; this game's is.
        await sync_to_async(live.publish)(game.pk + 1000, 99)
        await sync_to_async(live.publish)(game.pk, game.version + 1)
        assert await _next(chunks) == f"event: version\ndata: {game.version + 1}\n\n".encode()
        # A chat message: the page fetches the chat's lines.
        await sync_to_async(live._publish_to)(live.channel(), game.pk, live.CHAT)
        assert await _next(chunks) == b"event: chat\ndata: 1\n\n"
        await chunks.aclose()

    async_to_sync(scenario)()


def test_open_streams_share_one_subscription_and_send_heartbeats(push, alice, bob, settings):
    settings.LIVE_HEARTBEAT_SECONDS = 1
    game = start_game(alice, bob)
    url = reverse("games:game_events", args=[game.pk])

    async def scenario() -> None:
        streams = []
        for user in (alice, bob, None):
            client = AsyncClient()
            if user is not None:
                await client.aforce_login(user)
            response = await client.get(url)
            assert response.status_code == 200
            reader = Reader(response)
            await reader.next()
            streams.append(reader)
        # Three pages, one Redis subscription in this process.
        numsub = await sync_to_async(redis.Redis.from_url(push).pubsub_numsub)(live.channel())
        assert numsub == [(live.channel().encode(), 1)]
        assert live.hub().count() == 3
        assert await streams[2].next() == b": heartbeat\n\n"
        # Pages that go away leave nothing behind.
        for reader in streams:
            await reader.disconnect()
        assert live.hub().count() == 0

    async_to_sync(scenario)()


def test_a_lost_subscription_ends_the_streams_so_the_pages_poll(push, alice, bob):
    game = start_game(alice, bob)
    url = reverse("games:game_events", args=[game.pk])

    async def scenario() -> None:
        client = AsyncClient()
        await client.aforce_login(alice)
        response = await client.get(url)
        chunks = aiter(response.streaming_content)
        await _next(chunks)
        admin = redis.Redis.from_url(push)
        mine = [c for c in await sync_to_async(admin.client_list)() if c["name"] == live.hub().client_name]
        assert len(mine) == 1
        await sync_to_async(admin.client_kill_filter)(_id=mine[0]["id"])
        with pytest.raises(StopAsyncIteration):
            await _next(chunks)

    async_to_sync(scenario)()


def test_no_stream_without_redis_or_for_a_private_game_of_others(push, alice, bob, charlie, settings):
    private = start_game(alice, bob, private=True)
    # Someone the host invited by e-mail may watch the page: its stream too (the page's rule).
    invited = UserFactory(username="dora", display_name="Dora", email="dora@example.com")
    Invitation.objects.create(table=private.table, email="dora@example.com", invited_by=alice)

    async def status(user, game_id: int) -> int:
        client = AsyncClient()
        if user is not None:
            await client.aforce_login(user)
        response = await client.get(reverse("games:game_events", args=[game_id]))
        if response.streaming:
            await response.streaming_content.aclose()
        return response.status_code

    assert async_to_sync(status)(charlie, private.pk) == 404
    assert async_to_sync(status)(None, private.pk) == 404
    assert async_to_sync(status)(alice, private.pk) == 200
    assert async_to_sync(status)(invited, private.pk) == 200
    settings.LIVE_REDIS_URL = ""
    assert async_to_sync(status)(alice, private.pk) == 404


def test_no_redis_answering_is_503_and_the_page_polls(push, alice, bob, settings, monkeypatch):
    game = start_game(alice, bob)
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    monkeypatch.setattr(live, "CONNECT_TIMEOUT", 0.5)

    async def scenario() -> int:
        client = AsyncClient()
        await client.aforce_login(alice)
        return (await client.get(reverse("games:game_events", args=[game.pk]))).status_code

    assert async_to_sync(scenario)() == 503


def test_the_page_listens_under_asgi_and_polls_under_wsgi(push, client, alice, bob):
    game = start_game(alice, bob)
    url = reverse("games:game", args=[game.pk])
    events = reverse("games:game_events", args=[game.pk])

    async def page() -> str:
        c = AsyncClient()
        await c.aforce_login(alice)
        return (await c.get(url)).content.decode()

    html = async_to_sync(page)()
    assert f'sse-connect="{events}"' in html
    assert 'hx-trigger="sse:version"' in html
    assert "vendor/htmx-ext-sse" in html
    assert "data-poll" in html  # the fallback, held while the stream is open (game.js)

    # Django's WSGI handler (the test client, gunicorn's sync workers): polling only.
    client.force_login(alice)
    html = client.get(url).content.decode()
    assert "sse-connect" not in html and "data-poll" in html
    assert client.get(events).status_code == 404


def test_a_finished_game_has_no_stream(push, alice, bob):
    game = start_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    async def scenario() -> int:
        client = AsyncClient()
        await client.aforce_login(alice)
        return (await client.get(reverse("games:game_events", args=[game.pk]))).status_code

    assert async_to_sync(scenario)() == 404


def test_a_chat_message_is_published_once_committed(push, alice, bob, django_capture_on_commit_callbacks):
    from moderation import services as moderation_services

    game = start_game(alice, bob)
    pubsub = _subscriber(push)

    with django_capture_on_commit_callbacks(execute=True):
        moderation_services.chat_post(user=alice, game=game, text="good luck", is_player=True)

    message = pubsub.get_message(timeout=WAIT)
    assert message["type"] == "message" and message["data"] == f"{game.pk} chat".encode()
