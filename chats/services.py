"""Every write of the group chats but the delivery's (chats.delivery): connecting a table's
channel, the test message, disconnecting, a player's chat names."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from chats import crypto, providers
from chats.models import Channel, Identity, StatusPost
from config.celery import queue_on_commit


def channel_connect(*, table, by, provider: str, credentials: dict, label: str) -> Channel:
    """Connect (or replace) the table's channel. A game under way gets its status post there."""
    with transaction.atomic():
        Channel.objects.filter(table=table).delete()  # (its posts go with it: a new channel starts afresh)
        channel = Channel.objects.create(table=table, provider=provider, secret=crypto.seal(credentials),
                                         label=label[:200], created_by=by)
        type(table).objects.filter(pk=table.pk).update(chat_connected=True)
        table.chat_connected = True
        game = getattr(table, "game", None) if table.status == table.Status.PLAYING else None
        if game is not None:
            StatusPost.objects.create(channel=channel, game=game)
            queue_on_commit("chats.tasks.deliver_game", game.pk)
    return channel


def channel_disconnect(*, table) -> int:
    with transaction.atomic():
        deleted, _rows = Channel.objects.filter(table=table).delete()
        type(table).objects.filter(pk=table.pk).update(chat_connected=False)
    table.chat_connected = False
    return deleted


def channel_test(*, channel: Channel) -> str | None:
    """Send the test message now (the host waits for it: one send within its time budget).
    None when it went through, which also lifts a stop and catches the game's post up; else the
    reason, for the host."""
    text = _("Test message from %(site)s: this channel will show the status of the game at the table "
             "“%(table)s”.") % {"site": _site_name(), "table": channel.table.name}
    try:
        providers.send_test(channel.provider, crypto.unseal(channel.secret), text)
    except providers.RateLimited as limited:
        return _("The chat asks us to wait %(n)d seconds before the next message.") % {"n": round(limited.retry_after)}
    except providers.DeliveryError as error:
        return str(error)
    now = timezone.now()
    with transaction.atomic():
        Channel.objects.filter(pk=channel.pk).update(last_ok_at=now, failing_since=None, last_error="",
                                                     gave_up_at=None)
        for post in StatusPost.objects.filter(channel=channel).select_related("game"):
            if post.game.status == post.game.Status.ACTIVE:
                StatusPost.objects.filter(pk=post.pk).update(retry_at=None, attempts=0)
                queue_on_commit("chats.tasks.deliver_game", post.game_id)
    return None


def identity_set(*, user, discord_id: str, slack_id: str, telegram_username: str) -> Identity:
    identity, _created = Identity.objects.update_or_create(
        user=user, defaults={"discord_id": discord_id, "slack_id": slack_id,
                             "telegram_username": telegram_username.lstrip("@")})
    return identity


def _site_name() -> str:
    from django.conf import settings

    return getattr(settings, "SITE_NAME", "Monopoly")
