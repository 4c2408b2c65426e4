"""The configured broker (filesystem:// locally, Redis in CI) carries a message end to end."""

from __future__ import annotations

import uuid

from django.conf import settings

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
