"""Ratings, results and progress. Every row here is derived from the games' records (the
GameAction log) by ratings.services.game_result_record, once per finished game, and can be
rebuilt from them (manage.py ratings_recompute).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings import skill


class Family(models.TextChoices):
    """Ratings are kept apart for the two boards (RULES.md 2, 13)."""

    CLASSIC = "classic", _("Classic")
    WORLD = "world", _("World")


# RULES.md 13: the presets whose games may change ratings, and the family each counts in (here,
# beside the families, so that the games app can ask without importing ratings' services).
RATED_PRESETS = {"classic": Family.CLASSIC, "world-classic": Family.WORLD}


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    family = models.CharField(max_length=10, choices=Family.choices)
    mu = models.FloatField(default=skill.MU)
    sigma = models.FloatField(default=skill.SIGMA)
    games = models.PositiveIntegerField(default=0)
    # The display value, kept beside mu for the leaderboard's ORDER BY.
    value = models.IntegerField(default=skill.display(skill.MU), db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "family"], name="rating_unique_family")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.family} {self.value}"

    @property
    def provisional(self) -> bool:
        return skill.is_provisional(self.games)

    @property
    def deviation(self) -> int:
        return skill.deviation(self.sigma)


class GameResult(models.Model):
    """The one row per finished game that says its result was recorded: its unique game is the
    key that makes the work happen exactly once."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="result")
    family = models.CharField(max_length=10, choices=Family.choices, blank=True, default="")
    rated = models.BooleanField(default=False)
    # Why a game does not change ratings (RULES.md 13), in the site's words: a code of UNRATED.
    unrated_reason = models.CharField(max_length=20, blank=True, default="")
    custom = models.BooleanField(default=False)
    summary = models.JSONField(default=dict)
    finished_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    UNRATED = {
        "preset": _("only classic and world-classic games are rated"),
        "custom": _("custom tables are unrated"),
        "bots": _("games with bots are unrated"),
        "rounds": _("the game was shorter than 10 rounds"),
        "minutes": _("the game was shorter than 10 minutes"),
        "players": _("fewer than two rated players"),
    }

    class Meta:
        ordering = ["-finished_at"]

    def __str__(self) -> str:
        return f"result of game {self.game_id}"

    @property
    def unrated_text(self) -> str:
        return str(self.UNRATED.get(self.unrated_reason, ""))


class PlayerResult(models.Model):
    """One seat's result in a finished game: place, XP, the rating change, and the week's
    quest figures."""

    result = models.ForeignKey(GameResult, on_delete=models.CASCADE, related_name="players")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="game_results")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    preset = models.CharField(max_length=20)
    rank = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    forfeited = models.BooleanField(default=False)
    # A forfeit by surrendering (RULES.md 10), said "surrendered" wherever a result is shown.
    surrendered = models.BooleanField(default=False)
    net_worth = models.IntegerField(default=0)
    xp = models.PositiveIntegerField(default=0)
    # The rating before and after (null: the game did not change ratings).
    family = models.CharField(max_length=10, choices=Family.choices, blank=True, default="")
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)  # the player's rated games after this one
    # What weekly quests count (none on custom tables, RULES.md 13).
    played = models.PositiveSmallIntegerField(default=0)
    won = models.PositiveSmallIntegerField(default=0)
    rents = models.PositiveIntegerField(default=0)
    builds = models.PositiveIntegerField(default=0)
    trades = models.PositiveIntegerField(default=0)
    rated = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-finished_at", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="player_result_unique_seat")]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.rank}"

    @property
    def rating_before(self) -> int | None:
        return None if self.mu_before is None else skill.display(self.mu_before)

    @property
    def rating_after(self) -> int | None:
        return None if self.mu_after is None else skill.display(self.mu_after)

    @property
    def rating_change(self) -> int | None:
        if self.mu_before is None or self.mu_after is None:
            return None
        return self.rating_after - self.rating_before

    @property
    def provisional(self) -> bool:
        return skill.is_provisional(self.rated_games)

    @property
    def is_win(self) -> bool:
        return self.rank == 1 and not self.forfeited


class Progress(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="progress")
    xp = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    # Colour groups held whole at some time, over all non-custom games (the Collector).
    groups_owned = models.JSONField(default=list)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.xp} XP"


class Achievement(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="achievements")
    code = models.CharField(max_length=30)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    awarded_at = models.DateTimeField()

    class Meta:
        ordering = ["awarded_at"]
        constraints = [models.UniqueConstraint(fields=["user", "code"], name="achievement_unique_code")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.code}"


class QuestCompletion(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quests")
    week = models.DateField()  # the week's Monday
    code = models.CharField(max_length=20)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    xp = models.PositiveIntegerField()
    completed_at = models.DateTimeField()

    class Meta:
        ordering = ["-week", "code"]
        constraints = [models.UniqueConstraint(fields=["user", "week", "code"], name="quest_unique_week")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.week} {self.code}"


class Rematch(models.Model):
    """The table a finished game's host opened for a rematch: one per game (a second click
    finds it)."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rematch")
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"rematch of game {self.game_id}: table {self.table_id}"
