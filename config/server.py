"""gunicorn's uvicorn worker with a quieter clock (README "Production", bench/web.py).

uvicorn's server loop wakes ten times a second (``Server.main_loop``: ``asyncio.sleep(0.1)``)
to see whether it should stop, and does real work only on every tenth tick: the Date header
and gunicorn's heartbeat, once a second. With three workers that is thirty wake-ups a second
on a site where nothing happens, the largest part of what idle open pages cost (issue 12:
500 of them must stay under 1% of a core). Here the loop wakes once a second and does the same
work on each wake-up; the only difference a person may notice is that a stopping worker takes
up to a second longer to begin its graceful shutdown (gunicorn's graceful timeout is longer).

    gunicorn config.asgi:application -k config.server.Worker
"""

from __future__ import annotations

import asyncio
import sys

from gunicorn.arbiter import Arbiter
from uvicorn.server import Server as UvicornServer
from uvicorn_worker import UvicornWorker

TICK_SECONDS = 1.0
# uvicorn's own tick, which its on_tick counts in: work is done when counter % 10 == 0.
_UVICORN_TICKS_PER_TICK = round(TICK_SECONDS / 0.1)


class Server(UvicornServer):
    async def main_loop(self) -> None:
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            # (uvicorn's counter wraps at 864000, a multiple of 10: the same here)
            counter = (counter + _UVICORN_TICKS_PER_TICK) % 864000
            await asyncio.sleep(TICK_SECONDS)
            should_exit = await self.on_tick(counter)


class Worker(UvicornWorker):
    """uvicorn_worker.UvicornWorker serving through the Server above, without uvicorn's
    "server: uvicorn" banner on every answer (issue 26: it tells a stranger what to attack)."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "server_header": False}

    async def _serve(self) -> None:
        # UvicornWorker._serve (uvicorn-worker 0.4.0), with this module's Server.
        self.config.app = self.wsgi
        server = Server(config=self.config)
        self._install_sigquit_handler()
        await server.serve(sockets=self.sockets)
        if not server.started:
            sys.exit(Arbiter.WORKER_BOOT_ERROR)
