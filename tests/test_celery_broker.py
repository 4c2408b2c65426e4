"""The configured broker (filesystem:// locally, Redis in CI) carries a message end to end."""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from kombu import Connection

from config.celery import app


def test_broker_url_comes_from_settings():
    assert app.conf.broker_url == settings.CELERY_BROKER_URL


def test_a_message_published_to_the_broker_can_be_consumed():
    queue_name = f"test-roundtrip-{uuid.uuid4().hex}"
    token = uuid.uuid4().hex

    with app.connection_for_write() as connection:
        queue = connection.SimpleQueue(queue_name)
        try:
            queue.put({"token": token})
            message = queue.get(block=True, timeout=10)
            message.ack()
            assert message.payload == {"token": token}
        finally:
            queue.queue.delete()
            queue.close()


def test_the_filesystem_broker_names_no_host(tmp_path, caplog):
    """kombu's virtual transport defaults to the host "localhost", then warned "No hostname was
    supplied" at every start of the worker, beat and site on the filesystem broker (issue 26):
    config/broker.py's transport has folders and no host."""
    folders = {name: str(tmp_path / name) for name in ("data_folder_in", "data_folder_out", "control_folder")}
    with caplog.at_level(logging.WARNING):
        connection = Connection("filesystem://", transport_options=folders)
        info = connection.clone().info()  # (what Celery does at a start)
        connection.release()

    assert [r.getMessage() for r in caplog.records if "hostname" in r.getMessage()] == []
    assert info["transport"] == "filesystem" and not info["hostname"]
