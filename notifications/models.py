"""What the site told whom, and what each person wants to be told.

A ``Notification`` row is written once per (user, kind, key), where the key names the game
event (a wait that began at a version, a trade's number, the game's start or end): the unique
constraint is what keeps a task that runs twice, or two workers that race, from telling anyone
the same thing twice. The row's ``status`` says what became of it (e-mailed, kept for the
digest, skipped because the person was on the game page, switched off).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    YOUR_TURN = "your_turn", _("A game waits on you")
    TRADE_OFFERED = "trade_offered", _("A trade is offered to you")
    AUCTION_OPEN = "auction_open", _("An auction you may bid in")
    FORFEITED = "forfeited", _("You were forfeited")
    GAME_STARTED = "game_started", _("A game of yours started")
    GAME_OVER = "game_over", _("A game of yours ended")
    INVITATION = "invitation", _("An invitation to a table")
    REMINDER = "reminder", _("A reminder when a quarter of your time is left")
    FORFEIT_WARNING = "forfeit_warning", _("A warning before a missed turn forfeits you")
    OUTBID = "outbid", _("You were outbid above your maximum bid")
    END_PROPOSED = "end_proposed", _("A proposal to end a game early")

    # Issue 29 (reach/): the warnings a player chose before a deadline, and a nudge.
    WARNING = "deadline_warning", _("A warning at the times you chose before a deadline")
    NUDGE = "nudge", _("Another player nudged you")


class Mode(models.TextChoices):
    IMMEDIATELY = "now", _("Immediately")
    DIGEST = "digest", _("In the daily digest")
    OFF = "off", _("Off")


class Notification(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent")
        SENDING = "sending", _("Being sent")
        SENT = "sent", _("E-mailed")
        ACTIVE = "active", _("Not e-mailed: the player was on the game page")
        STALE = "stale", _("Not e-mailed: the game had moved on")
        DIGEST = "digest", _("Kept for the daily digest")
        OFF = "off", _("Not e-mailed: switched off")
        BOUNCED = "bounced", _("Not e-mailed: the address bounced")
        # Issue 29: kept through the person's quiet hours, sent folded at their end (reach/quiet.py).
        HELD = "held", _("Held until the end of quiet hours")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    key = models.CharField(max_length=64)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    # The seat the game waited on, for "your turn": the wait is over once it no longer does.
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "key"], name="notification_unique_event"),
        ]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_user_unread")]

    def __str__(self) -> str:
        return f"{self.kind} {self.key} to user {self.user_id} ({self.status})"


class Preference(models.Model):
    """How a user wants one kind of notification; without a row, immediately."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    mode = models.CharField(max_length=8, choices=Mode.choices, default=Mode.IMMEDIATELY)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="preference_unique_kind")]

    def __str__(self) -> str:
        return f"user {self.user_id} {self.kind}: {self.mode}"


class Digest(models.Model):
    """One daily digest of a user, on the day of their own calendar it went out: the unique
    (user, day) keeps a second run of the task (or a second worker) from sending another."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="digest_unique_day")]

    def __str__(self) -> str:
        return f"digest of user {self.user_id} for {self.day}"


class Undeliverable(models.Model):
    """An address the mail provider reported as bouncing or complaining (anymail's tracking
    webhooks): no notification goes to it until its owner confirms it again (allauth's e-mail
    confirmation deletes the row)."""

    class Reason(models.TextChoices):
        BOUNCED = "bounced", _("messages to it bounced")
        COMPLAINED = "complained", _("it reported our e-mail as spam")
        REJECTED = "rejected", _("the mail provider refused to send to it")

    email = models.EmailField(unique=True)
    reason = models.CharField(max_length=10, choices=Reason.choices)
    description = models.CharField(max_length=200, blank=True, default="")
    at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.email}: {self.reason}"


class PushSubscription(models.Model):
    """A browser's Web Push subscription (notifications/push.py): where the push service takes
    a user's notifications for that browser. Removed when the service answers 404 or 410."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of user {self.user_id}"
