"""The embedded default broker (kombu's filesystem transport, config/broker.py; issue 26 item 2).

A malformed message file in the queue folder (an empty one, as a reader used to take from a writer
that had not written it yet, or garbage) must not stop the worker: it is logged, set aside, and the
next message runs. And a writer never shows a reader a message it has not finished writing."""

from __future__ import annotations

import json
import threading
import uuid
from pathlib import Path

import pytest
from kombu import Connection

import config.celery  # noqa: F401 (the site's transports)
from tests.workers.own_worker import OwnWorker, worker_env

pytestmark = pytest.mark.slow


def test_malformed_message_files_are_set_aside_and_the_worker_goes_on(tmp_path):
    var = tmp_path / "var"
    queue = var / "celery" / "queue"
    queue.mkdir(parents=True)
    # Older than anything queued from now on (the names start with the time), so read first.
    bad = {
        "0_empty.celery.msg": b"",
        "1_garbage.celery.msg": b"\x00\xffnot json {",
        "2_not-a-message.celery.msg": b'{"body": "no properties"}',
    }
    for name, content in bad.items():
        (queue / name).write_bytes(content)
    worker = OwnWorker(worker_env(var, "filesystem://"), tmp_path / "worker.log")
    try:
        marker = f"after-the-bad-files-{uuid.uuid4().hex}"
        worker.send(marker)

        worker.wait_until_ran(marker)

        assert worker.alive()
        aside = var / "celery" / "malformed"
        assert sorted(p.name for p in aside.iterdir()) == sorted(bad)
        for name, content in bad.items():
            assert (aside / name).read_bytes() == content
            assert f"{name} is not a message" in worker.log()
        assert not [p.name for p in queue.iterdir()]  # nothing left behind, no temporary file
        assert "No hostname was supplied" not in worker.log()  # (kombu's warning at every start)
    finally:
        worker.stop()


def _transport_options(folder: Path) -> dict[str, str]:
    return {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "control_folder": str(folder.parent / "control"),
        "malformed_folder": str(folder.parent / "malformed"),
    }


def test_a_reader_never_sees_a_message_half_written(tmp_path):
    """A reader listing the folder while large messages are written finds every message file
    whole (kombu's own writer opened the final name, then wrote: readers found it empty)."""
    folder = tmp_path / "queue"
    folder.mkdir()
    # (The site's: config/celery.py registered config/broker.py's under kombu's name.)
    connection = Connection("filesystem://", transport_options=_transport_options(folder))
    channel = connection.channel()
    body = "x" * 2_000_000
    done = threading.Event()
    seen: list[int] = []
    unreadable: list[str] = []

    def read() -> None:
        while not done.is_set():
            for name in sorted(p.name for p in folder.iterdir()):
                if name.partition(".")[2] != "celery.msg":
                    continue
                try:
                    json.loads((folder / name).read_bytes())
                    seen.append(1)
                except FileNotFoundError:
                    continue
                except ValueError:
                    unreadable.append(name)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for _ in range(40):
            channel._put("celery", {"body": body, "properties": {"delivery_tag": uuid.uuid4().hex}})
    finally:
        done.set()
        reader.join(30)
        channel.close()
        connection.release()

    assert seen, "the reader saw no message at all"
    assert unreadable == []
    assert len([p for p in folder.iterdir() if p.name.endswith(".celery.msg")]) == 40
