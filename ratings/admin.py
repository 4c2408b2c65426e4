"""Admin of the ratings app: read-only, as every row is derived from the games' records
(manage.py ratings_recompute rebuilds them)."""

from __future__ import annotations

from django.contrib import admin

from games.admin import ReadOnlyAdmin
from ratings.models import Achievement, GameResult, PlayerResult, Progress, QuestCompletion, Rating, Rematch


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "family", "value", "mu", "sigma", "games", "updated_at")
    list_filter = ("family",)
    search_fields = ("user__username",)


class PlayerResultInline(admin.TabularInline):
    model = PlayerResult
    extra = 0
    can_delete = False
    fields = ("seat", "user", "rank", "forfeited", "xp", "mu_before", "mu_after")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(GameResult)
class GameResultAdmin(ReadOnlyAdmin):
    list_display = ("game", "rated", "family", "unrated_reason", "custom", "finished_at")
    list_filter = ("rated", "family", "unrated_reason")
    inlines = [PlayerResultInline]


@admin.register(Progress)
class ProgressAdmin(ReadOnlyAdmin):
    list_display = ("user", "xp", "games")
    search_fields = ("user__username",)


@admin.register(Achievement)
class AchievementAdmin(ReadOnlyAdmin):
    list_display = ("user", "code", "game", "awarded_at")
    list_filter = ("code",)


@admin.register(QuestCompletion)
class QuestCompletionAdmin(ReadOnlyAdmin):
    list_display = ("user", "week", "code", "xp", "game")


@admin.register(Rematch)
class RematchAdmin(ReadOnlyAdmin):
    list_display = ("game", "table", "created_at")
