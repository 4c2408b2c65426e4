"""The chats app's reads for other pages."""

from __future__ import annotations

from chats.models import Channel


def table_channel(*, table) -> Channel | None:
    """The table's group chat, if its host connected one (issue 29)."""
    return Channel.objects.filter(table=table).first()
