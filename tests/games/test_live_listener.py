"""games.live.Listener, one open stream's wait: woken by what its hub hears, or by its heartbeat's
time, and leaving nothing behind (no timer, no waiter) whichever comes first or when the stream
is cancelled (the page closed)."""

from __future__ import annotations

import asyncio

import pytest

from games import live


def run(coro):
    return asyncio.run(coro)


def _nothing_scheduled(loop: asyncio.AbstractEventLoop) -> bool:
    """No timer left behind: the loop has nothing scheduled that is still to run."""
    return not [h for h in loop._scheduled if not h.cancelled()]


def test_silence_is_none_after_the_timeout_and_leaves_no_timer():
    async def go():
        loop = asyncio.get_running_loop()
        listener = live.Listener()
        start = loop.time()
        assert await listener.next(0.05) is None
        assert loop.time() - start >= 0.04
        assert listener._waiter is None
        assert _nothing_scheduled(loop)
    run(go())


def test_a_version_heard_while_waiting_wakes_it_at_once():
    async def go():
        listener = live.Listener()
        waiting = asyncio.create_task(listener.next(30))
        await asyncio.sleep(0)
        listener.hear(7)
        assert await asyncio.wait_for(waiting, 1) == (7, False)
        loop = asyncio.get_running_loop()
        assert _nothing_scheduled(loop)
    run(go())


def test_what_was_heard_before_the_wait_is_told_without_waiting():
    async def go():
        listener = live.Listener()
        listener.hear(3)
        listener.hear(5)
        listener.hear(4)  # (older than what it heard: no news)
        listener.hear_chat()
        assert await asyncio.wait_for(listener.next(30), 1) == (5, True)
        # Told once: the next wait is silence again.
        assert await listener.next(0.01) is None
        listener.hear_chat()
        assert await asyncio.wait_for(listener.next(30), 1) == (None, True)
    run(go())


def test_the_same_version_again_is_no_news():
    async def go():
        listener = live.Listener()
        listener.hear(2)
        assert await listener.next(1) == (2, False)
        listener.hear(2)
        assert await listener.next(0.01) is None
    run(go())


def test_a_lost_subscription_ends_the_wait():
    async def go():
        listener = live.Listener()
        waiting = asyncio.create_task(listener.next(30))
        await asyncio.sleep(0)
        listener.close()
        with pytest.raises(live.Unavailable):
            await asyncio.wait_for(waiting, 1)
        with pytest.raises(live.Unavailable):
            listener.close()
            await listener.next(30)
    run(go())


def test_a_cancelled_wait_leaves_nothing_behind():
    async def go():
        loop = asyncio.get_running_loop()
        listener = live.Listener()
        waiting = asyncio.create_task(listener.next(30))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert listener._waiter is None
        assert _nothing_scheduled(loop)
        # Heard after the page left: nothing to wake, nothing raised.
        listener.hear(9)
    run(go())
