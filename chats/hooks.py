"""The one call a move makes into the group chats (games.services.moves._write, correspondence
tables): in the move's transaction, the game's status post is marked dirty, and the delivery is
queued after the commit. No request to any chat is ever made in the move. A table without a
channel (``Table.chat_connected`` false, kept by chats.services) pays nothing: no statement.
"""

from __future__ import annotations

from django.db.models import F

from config.celery import queue_on_commit


def game_moved(*, game, started: bool) -> None:
    from chats.models import Channel, StatusPost

    if not game.table.chat_connected:
        return
    if started:
        channel = Channel.objects.filter(table_id=game.table_id).only("pk").first()
        if channel is None:
            return
        StatusPost.objects.get_or_create(channel=channel, game=game)
        queue_on_commit("chats.tasks.deliver_game", game.pk)
        return
    if StatusPost.objects.filter(game_id=game.pk).update(dirty_seq=F("dirty_seq") + 1):
        queue_on_commit("chats.tasks.deliver_game", game.pk)
