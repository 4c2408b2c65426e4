"""gunicorn's worker for the site under ASGI (README "Production", python -m bench.web):

    gunicorn config.asgi:application -k config.gunicorn.Worker --workers 3

uvicorn-worker's own worker, set up through its documented ``CONFIG_KWARGS``: uvicorn's loop,
timing and heartbeat are stock.
"""

from __future__ import annotations

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    """No "server: uvicorn" banner on the answers (issue 26: it tells a stranger what to attack)."""

    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "server_header": False}
