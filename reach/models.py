"""The rows of issue 29: since when a game waits on each seat, each person's choices (warnings
before a deadline, channels, quiet hours, the calendar's secret), nudges and private notes.

Waits, nudges and notes belong to a game and a seat, not to an account: games outlive accounts
(a deleted account's seat keeps its notes, which its replay may still show)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

# The warnings a person may choose before a deadline, in hours (lichobile 1443 asked for 8, 4, 1).
WARNING_HOURS = (24, 12, 8, 4, 2, 1)
# The longest private note, in characters (a notepad, not a document).
NOTE_MAX = 5000


class Wait(models.Model):
    """A game waits on ``seat`` since ``since``: written by the move that began the wait and
    deleted by the one that ended it (reach.waits.record, called from games.services.moves._write)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    since = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="reach_wait_unique_seat")]
        indexes = [models.Index(fields=["since"], name="reach_wait_since")]

    def __str__(self) -> str:
        return f"game {self.game_id} waits on seat {self.seat} since {self.since:%Y-%m-%d %H:%M}"


class Reach(models.Model):
    """One person's choices; without a row, the defaults (every channel, no extra warning, no
    quiet hours, no calendar)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reach")
    # Hours before a deadline, as ",8,1," (a substring test finds a value on SQLite and PostgreSQL alike).
    warnings = models.CharField(max_length=40, blank=True, default="")
    email = models.BooleanField(default=True)
    push = models.BooleanField(default=True)
    bell = models.BooleanField(default=True)
    # In the user's own time zone; both or neither. An end before the start crosses midnight.
    quiet_start = models.TimeField(null=True, blank=True)
    quiet_end = models.TimeField(null=True, blank=True)
    # The calendar feed's secret (its URL); null: no feed. A reset replaces it: the old URL is a 404.
    calendar_token = models.CharField(max_length=64, null=True, blank=True, unique=True)

    def __str__(self) -> str:
        return f"reach settings of user {self.user_id}"

    @property
    def warning_hours(self) -> list[int]:
        return sorted((int(h) for h in self.warnings.split(",") if h.isdigit()), reverse=True)

    @property
    def has_quiet_hours(self) -> bool:
        return self.quiet_start is not None and self.quiet_end is not None and self.quiet_start != self.quiet_end


class Nudge(models.Model):
    """A player nudged the one the game waited on (reach.nudges): the game page lists them."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    from_seat = models.PositiveSmallIntegerField()
    to_seat = models.PositiveSmallIntegerField()
    at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "from_seat", "at"], name="reach_nudge_recent")]

    def __str__(self) -> str:
        return f"game {self.game_id}: seat {self.from_seat} nudged seat {self.to_seat}"


class Note(models.Model):
    """A player's private notepad in one game, kept with the seat; ``reveal``: shown in the
    replay once the game is over."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    text = models.TextField(blank=True, default="")
    reveal = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="reach_note_unique_seat")]

    def __str__(self) -> str:
        return f"note of seat {self.seat} in game {self.game_id}"
