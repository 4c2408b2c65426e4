"""What issue 30 keeps of a finished game: its whole-game analysis (win chances as each round
began, the turning points, how lucky each player's dice were), and the sandbox games played on
from a position of a finished game's replay."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class GameAnalysis(models.Model):
    """One finished game's analysis, written as it is computed (analysis/services.py).

    ``points`` grows by one entry per round analysed, so the page can say how far it got and a
    run that dies resumes where the last one stopped: {"round", "step" (the replay's step, 0..),
    "p", "low", "high" (one per side: a player, or a team), "playouts"}; the last entry, with
    "end": true, is the game's result. ``claim`` and ``claimed_until``: the run holding it (a
    lease renewed at every round; a run whose lease lapsed lost it to the next)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Analysing")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    sides = models.JSONField(default=list)  # the seats of each side, [[0], [1], ...] or teams
    rounds_total = models.PositiveIntegerField(default=0)
    points = models.JSONField(default=list)
    turning = models.JSONField(default=list)
    luck = models.JSONField(default=list)
    claim = models.CharField(max_length=32, blank=True, default="")
    claimed_until = models.DateTimeField(null=True, blank=True)
    runs = models.PositiveSmallIntegerField(default=0)  # runs that claimed it (a resumed one counts)
    error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"analysis of game {self.game_id} ({self.status})"

    @property
    def rounds_done(self) -> int:
        return sum(1 for p in self.points if not p.get("end"))


class Sandbox(models.Model):
    """A private game against strategy bots started from step ``step`` of ``source``'s replay
    (issue 30, "play on from here"): never rated, no progress, never listed."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="sandbox")
    source = models.ForeignKey(Game, null=True, on_delete=models.SET_NULL, related_name="sandboxes")
    step = models.PositiveIntegerField()
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    seat = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"sandbox game {self.game_id} from game {self.source_id} step {self.step}"
