"""Django's database cache with an atomic ``incr``, for rate limits without a cache server.

Django's ``DatabaseCache.incr`` reads the value and writes it back, so two requests counted at
the same moment could both read 5 and write 6: a rate limit would let through more than it
says (django-ratelimit refuses that backend for this reason). Here the read and the write share
one transaction that holds the row: ``SELECT ... FOR UPDATE`` where the database has it
(PostgreSQL), and on SQLite the write lock that ``BEGIN IMMEDIATE`` takes at the start of every
transaction (``transaction_mode`` in settings.py). A second increment waits for the first.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import db
from django.db import connections, router, transaction


class DatabaseCache(db.DatabaseCache):
    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        alias = router.db_for_write(self.cache_model_class)
        connection = connections[alias]
        with transaction.atomic(using=alias):
            if connection.features.has_select_for_update:
                table = connection.ops.quote_name(self._table)
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"SELECT cache_key FROM {table} WHERE cache_key = %s FOR UPDATE",
                        [self.make_and_validate_key(key, version=version)],
                    )
            return super().incr(key, delta, version)
