"""Services queue their tasks by name (config.celery.queue_on_commit), after the commit."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import transaction

from config.celery import queue_on_commit
from games import tasks


def test_a_misspelt_task_name_fails_at_once():
    with pytest.raises(KeyError):
        queue_on_commit("games.tasks.send_invitations", 1)


@pytest.mark.django_db(transaction=True)
def test_the_task_is_queued_once_the_transaction_commits():
    with mock.patch.object(tasks.send_invitation, "delay") as delay:
        with transaction.atomic():
            queue_on_commit("games.tasks.send_invitation", 7)
            assert delay.call_count == 0
        delay.assert_called_once_with(7)
