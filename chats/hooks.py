"""The one call a move makes into the group chats (games.services.moves._write, correspondence
tables): in the move's transaction, one UPDATE marks the game's status posts dirty, and the
delivery is queued after the commit. No request to any chat is ever made in the move.

The UPDATE is a statement written once (not the ORM's, compiled at each move): a game with no
channel pays one indexed statement that touches no row (bench/channels.py measures the move).
"""

from __future__ import annotations

from django.db import connection

from config.celery import queue_on_commit


def _mark_sql() -> str:
    from chats.models import StatusPost

    table = connection.ops.quote_name(StatusPost._meta.db_table)
    seq = connection.ops.quote_name("dirty_seq")
    return f"UPDATE {table} SET {seq} = {seq} + 1 WHERE {connection.ops.quote_name('game_id')} = %s"


_MARK: list[str] = []


def game_moved(*, game, started: bool) -> None:
    from chats.models import Channel, StatusPost

    if started:
        channel = Channel.objects.filter(table_id=game.table_id).only("pk").first()
        if channel is None:
            return
        StatusPost.objects.get_or_create(channel=channel, game=game)
        queue_on_commit("chats.tasks.deliver_game", game.pk)
        return
    if not _MARK:
        _MARK.append(_mark_sql())
    with connection.cursor() as cursor:
        cursor.execute(_MARK[0], [game.pk])
        marked = cursor.rowcount
    if marked:
        queue_on_commit("chats.tasks.deliver_game", game.pk)
