"""The server process's heap is frozen once warm (config/heap.py): after WARM_REQUESTS requests,
one full collection and gc.freeze(), once."""

from __future__ import annotations

import gc

import pytest
from django.core.signals import request_finished
from django.urls import reverse

from config import asgi, heap


@pytest.fixture
def fresh_heap(monkeypatch):
    monkeypatch.setattr(heap, "WARM_REQUESTS", 3)
    frozen = gc.get_freeze_count()
    yield frozen
    request_finished.disconnect(dispatch_uid=heap._UID)
    gc.unfreeze()


def _settles() -> bool:
    return any(key[0] == heap._UID for key, *_ in request_finished.receivers)


@pytest.mark.django_db
def test_the_heap_is_frozen_once_after_the_first_requests(client, fresh_heap):
    heap.install()
    for _ in range(2):
        assert client.get(reverse("games:lobby")).status_code == 200
    assert gc.get_freeze_count() == fresh_heap and _settles()

    assert client.get(reverse("games:lobby")).status_code == 200
    frozen = gc.get_freeze_count()
    assert frozen > fresh_heap and not _settles()

    # (No second freeze: the count only drops, as frozen objects are released.)
    client.get(reverse("games:lobby"))
    assert gc.get_freeze_count() <= frozen and not _settles()


def test_the_server_applications_install_it(fresh_heap):
    asgi.get_asgi_application()
    assert _settles()
