"""The flush that ends each transactional test leaves every table empty (on PostgreSQL the
tests' own, by DELETE: tests/conftest.py), however the rows refer to one another."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection

from tests.games.play_helpers import autoplay, start_game


@pytest.mark.django_db(transaction=True)
def test_the_flush_leaves_every_table_empty(alice, bob):
    game = autoplay(start_game(alice, bob), 30)  # a game, its seats, deeds, actions, notifications...
    models = apps.get_models(include_auto_created=True)
    filled = [m for m in models if m.objects.exists()]
    assert len(filled) >= 8, filled

    # (As pytest-django flushes after a transactional test: the sequences go on.)
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False, inhibit_post_migrate=True)

    assert [m._meta.db_table for m in models if m.objects.exists()] == []
    assert not type(game).objects.filter(pk=game.pk).exists()
    # (The connection is still usable: the flush committed, nothing is left pending.)
    assert not connection.in_atomic_block
