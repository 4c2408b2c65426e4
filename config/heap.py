"""A server process's heap, settled once it has warmed up (issue 12: cheap moves).

Python's cyclic garbage collector scans, in each of its full collections, every container object
the process holds: Django's and the libraries' modules, the URL patterns, the compiled
templates, the caches. In a warmed-up web worker that is about 190,000 objects and 60 ms of CPU
a time; the objects a move leaves for the collector set one off every hundred moves or so, which
made 0.6 ms of a move's CPU on average (bench/move_cpu.py, with ``gc.callbacks``), six times what
the minimal endpoint paid. ``gc.freeze()`` moves the objects alive at that moment into a
permanent generation the collector leaves alone, as the Python documentation advises for
long-lived processes: afterwards a full collection scans only what was made since.

``install()`` (the ASGI and WSGI applications call it) freezes once, after the process has
served WARM_REQUESTS requests, by when its lazily built parts (the views' modules, the
templates, the URL resolver, the caches) exist: a full collection first, so that no garbage is
frozen with them. Nothing else changes: objects frozen and later released are freed as before
(by their reference counts); only a cycle among frozen objects would be kept.
"""

from __future__ import annotations

import gc

from django.core.signals import request_finished

WARM_REQUESTS = 200
_UID = "config.heap.settle"
_served = 0


def install() -> None:
    """Freeze this process's heap after its first WARM_REQUESTS requests."""
    global _served
    _served = 0
    request_finished.connect(_settle, dispatch_uid=_UID)


def _settle(**_kwargs) -> None:
    global _served
    _served += 1
    if _served >= WARM_REQUESTS:
        request_finished.disconnect(dispatch_uid=_UID)
        gc.collect()
        gc.freeze()
