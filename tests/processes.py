"""Helpers of the tests that start real servers: a free port, a server served from a thread, and who
is whose child process."""

from __future__ import annotations

import socket
import threading
from pathlib import Path
from socketserver import BaseServer


def free_port() -> int:
    """A port the system picks: two test runs on one machine (helpers' worktrees, CI) must not
    fight over a fixed one."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serving_thread(server: BaseServer) -> threading.Thread:
    """A daemon thread (not started) that serves ``server`` until its ``shutdown()``, which then
    returns within 50 ms: serve_forever's default poll of half a second made each fake server's
    shutdown wait about that long, 21 s of a test run's wall time."""
    return threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)


def process_tree() -> dict[int, list[int]]:
    """Each running process's children, by parent pid (from /proc)."""
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command may hold spaces and parentheses: the fields after the last ")" are fixed.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry.name))
    return tree
