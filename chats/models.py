"""A table's group chat and the status post of its game there (issue 29).

``Channel``: one per table, connected by its host. Its credentials (a webhook's id and token,
a bot token, a signing secret) are kept only encrypted (``secret``, chats.crypto) and never
shown again; ``label`` is what the host may see of it (the provider and the place, never the
secret). ``StatusPost``: the one message of a game in that channel, edited in place; moves mark
it dirty (``dirty_seq``) and the delivery task (chats.delivery) catches it up, coalescing edits.
``Identity``: the chat names a player gave, so that a post mentions the player it waits on.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Provider(models.TextChoices):
    DISCORD = "discord", _("Discord webhook")
    SLACK = "slack", _("Slack app")
    TELEGRAM = "telegram", _("Telegram bot")
    WEBHOOK = "webhook", _("Signed webhook")


class Channel(models.Model):
    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="chat_channel")
    provider = models.CharField(max_length=10, choices=Provider.choices)
    # Fernet token of the credentials as JSON (chats.crypto): never shown, never logged.
    secret = models.TextField()
    label = models.CharField(max_length=200)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    last_ok_at = models.DateTimeField(null=True, blank=True)
    # Deliveries fail since then (cleared by the next success), and the last error in words.
    failing_since = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    # Delivery gave up (after CHATS_GIVE_UP_HOURS of failures, or a refusal that retrying cannot
    # mend): nothing more is sent until the host sends a test message that goes through.
    gave_up_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.get_provider_display()} for table {self.table_id}"


class StatusPost(models.Model):
    channel = models.ForeignKey(Channel, on_delete=models.CASCADE, related_name="posts")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_posts")
    # The provider's name for the message: Discord's message id, Slack's "channel ts",
    # Telegram's message_id, the webhook's post id. Empty: nothing posted yet.
    message_ref = models.CharField(max_length=100, blank=True)
    posts = models.PositiveIntegerField(default=0)  # new messages made (the first and after quiets)
    dirty_seq = models.PositiveIntegerField(default=1)  # bumped by every move (chats.hooks)
    sent_seq = models.PositiveIntegerField(default=0)  # the dirty_seq the last delivery showed
    sent_waiting = models.JSONField(default=list, blank=True)  # whom the last delivery said it waits on
    last_sent_at = models.DateTimeField(null=True, blank=True)
    # A delivery under way until then (a claim, not a lock: a move never waits on it).
    lease_until = models.DateTimeField(null=True, blank=True)
    # Nothing is sent before then: the provider's rate limit, or the backoff after a failure.
    retry_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # A coalesced edit is queued for then (so that a burst of moves queues one, not one each).
    scheduled_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["channel", "game"], name="chats_one_post_per_game")]
        indexes = [models.Index(fields=["game"], name="chats_post_game"),
                   models.Index(fields=["retry_at"], condition=Q(dirty_seq__gt=F("sent_seq")),
                                name="chats_post_dirty")]

    def __str__(self) -> str:
        return f"status post of game {self.game_id} in channel {self.channel_id}"


class Identity(models.Model):
    """A player's names in group chats. Only the one the game waits on is ever mentioned."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_identity")
    discord_id = models.CharField(_("Discord user id"), max_length=20, blank=True)
    slack_id = models.CharField(_("Slack member id"), max_length=20, blank=True)
    telegram_username = models.CharField(_("Telegram username"), max_length=32, blank=True)

    def __str__(self) -> str:
        return f"chat names of user {self.user_id}"
