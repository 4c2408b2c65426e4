"""Moderation: account sanctions, player reports and the queue, the audit log, game chat, blocks.

Every write goes through moderation/services.py; every moderator action writes its
``AuditEntry`` in the same transaction (Zulip's pattern). The audit log is append-only: no page
of the site edits it, and the admin shows it read-only.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

CHAT_MAX_LENGTH = 500


class Sanction(models.Model):
    """A moderator's measure against an account: a warning, or a restriction that lasts until
    ``until`` (never, for a ban) unless it is lifted earlier."""

    class Kind(models.TextChoices):
        WARN = "warn", _("Warning")
        MUTE = "mute", _("Muted in chat")
        SUSPEND = "suspend", _("Suspended")
        BAN = "ban", _("Banned")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.TextField()
    until = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    lift_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "kind"])]

    def __str__(self) -> str:
        return f"{self.kind} of user {self.user_id}"

    @property
    def is_permanent(self) -> bool:
        return self.until is None

    def is_active(self, now=None) -> bool:
        now = now or timezone.now()
        return (self.kind != self.Kind.WARN and self.lifted_at is None
                and (self.until is None or self.until > now))


class ChatMessage(models.Model):
    """One line of a game's chat. A moderator hides a message; it is never deleted, so that the
    audit can show what was said."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    # The name shown at the time: it survives a rename and the author's account.
    author_name = models.CharField(max_length=150)
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["game", "id"]), models.Index(fields=["author", "created_at"])]

    def __str__(self) -> str:
        return f"message {self.pk} in game {self.game_id}"

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class ChatOption(models.Model):
    """A table's chat option, set by its host: spectators read the chat but may not write."""

    table = models.OneToOneField("games.Table", on_delete=models.CASCADE, related_name="chat_option")
    spectators_read_only = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"chat option of table {self.table_id}"


class Block(models.Model):
    """``blocker`` no longer sees ``blocked``'s chat messages nor gets their invitations."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Report(models.Model):
    """An entry of the moderation queue: a player's report, an appeal, or the site's own flag of
    a possibly collusive trade. A moderator claims it, then resolves it with an outcome."""

    class Kind(models.TextChoices):
        PLAYER = "player", _("Player")
        MESSAGE = "message", _("Chat message")
        GAME = "game", _("Game")
        TRADE = "trade", _("Trade (automatic flag)")
        APPEAL = "appeal", _("Appeal")

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating or collusion")
        NAME = "name", _("Offensive name")
        STALLING = "stalling", _("Stalling or leaving games")
        OTHER = "other", _("Something else")
        COLLUSION = "collusion", _("Lopsided trade")
        APPEAL = "appeal", _("Appeal against a sanction")

    # What a player may choose in the report form; the last two are the site's own.
    PLAYER_REASONS = ("abuse", "spam", "cheating", "name", "stalling", "other")

    class State(models.TextChoices):
        OPEN = "open", _("Open")
        CLAIMED = "claimed", _("Claimed")
        RESOLVED = "resolved", _("Resolved")

    class Outcome(models.TextChoices):
        NO_ACTION = "no_action", _("No action needed")
        WARNED = "warned", _("Player warned")
        MUTED = "muted", _("Player muted")
        SUSPENDED = "suspended", _("Player suspended")
        BANNED = "banned", _("Player banned")
        RENAMED = "renamed", _("Display name reset")
        HIDDEN = "hidden", _("Message hidden")
        REMOVED = "removed", _("Player removed from the game")
        CLOSED = "closed", _("Game closed")
        LIFTED = "lifted", _("Appeal granted, sanction lifted")
        UPHELD = "upheld", _("Appeal refused, sanction stands")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.CharField(max_length=12, choices=Reason.choices)
    text = models.TextField(blank=True)
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="reports_made")
    target = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="reports_against")
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="reports")
    trade = models.ForeignKey("games.TradeRow", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    sanction = models.ForeignKey(Sanction, null=True, blank=True, on_delete=models.SET_NULL, related_name="appeals")
    # The collusion flag's figures: both sides' values, the seats, a bankruptcy soon after.
    details = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    claimed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    resolved_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, blank=True)
    resolution = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        permissions = [
            ("access_moderation", "Can use the moderators' pages"),
            ("act_on_accounts", "Can warn, mute, suspend, ban and rename players"),
            ("act_on_games", "Can remove a player from a game and close games"),
            ("hide_chat_messages", "Can hide chat messages"),
        ]
        constraints = [
            # One appeal per sanction, one flag per trade, one report of a message per reporter.
            models.UniqueConstraint(fields=["sanction"], condition=models.Q(kind="appeal"),
                                    name="report_one_appeal_per_sanction"),
            models.UniqueConstraint(fields=["trade"], condition=models.Q(kind="trade"),
                                    name="report_one_flag_per_trade"),
            models.UniqueConstraint(fields=["reporter", "message"], condition=models.Q(message__isnull=False),
                                    name="report_one_per_message_and_reporter"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} ({self.kind}, {self.state})"


class AuditEntry(models.Model):
    """One moderator action: who, what, on whom, why, until when. Written by the service that
    acts, in its transaction; never changed afterwards. Names are kept as they were, so that
    the entry still reads right after a rename or a deleted account."""

    class Action(models.TextChoices):
        WARN = "warn", _("Warned")
        MUTE = "mute", _("Muted in chat")
        SUSPEND = "suspend", _("Suspended")
        BAN = "ban", _("Banned")
        LIFT = "lift", _("Lifted a sanction")
        RENAME = "rename", _("Reset the display name")
        FORFEIT = "forfeit", _("Removed from a game")
        CLOSE_GAME = "close_game", _("Closed a game")
        HIDE_MESSAGE = "hide", _("Hid a chat message")
        UNHIDE_MESSAGE = "unhide", _("Showed a hidden chat message again")
        CLAIM = "claim", _("Claimed a report")
        RESOLVE = "resolve", _("Resolved a report")

    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    moderator_name = models.CharField(max_length=150)
    action = models.CharField(max_length=12, choices=Action.choices)
    target = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="moderation_history")
    target_name = models.CharField(max_length=150, blank=True)
    reason = models.TextField()
    until = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    message = models.ForeignKey(ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    report = models.ForeignKey(Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit")
    details = models.JSONField(default=dict, blank=True)
    # The moderator's form, once (issue 26): each account form carries a key of its own, and an
    # action whose key is here already was done; the same form posted again, or fifty times at
    # once, acts once. Blank for actions without a form.
    request_key = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"
        constraints = [
            models.UniqueConstraint(fields=["request_key"], condition=~models.Q(request_key=""),
                                    name="audit_unique_request_key"),
        ]

    def __str__(self) -> str:
        return f"{self.moderator_name} {self.action} {self.target_name}"


class ScanCursor(models.Model):
    """How far a background scan has read an append-only log (the collusion scan: GameAction
    ids), claimed with a locked read so that two workers never scan the same rows."""

    name = models.CharField(max_length=40, unique=True)
    last_id = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.last_id}"
