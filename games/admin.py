"""Admin of the games app. Game state and its log are read-only here: every write to a game goes
through games.services, which keeps the state, the mirrored rows and the log in agreement."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import (
    AuctionRow,
    DeckRow,
    DeedRow,
    Game,
    GameAction,
    Invitation,
    Seat,
    Table,
    TradeRow,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the engine owns: visible for support and moderation, never edited by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "user", "account_deleted", "bot", "team", "joined_at")
    readonly_fields = ("account_deleted", "joined_at")
    raw_id_fields = ("user",)


class InvitationInline(admin.TabularInline):
    model = Invitation
    extra = 0
    fields = ("email", "invited_by", "created_at")
    readonly_fields = ("created_at",)
    raw_id_fields = ("invited_by",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "preset",
        "pace",
        "turn_hours",
        "seat_count",
        "is_private",
        "status",
        "host",
        "absent_seat",
        "created_at",
    )
    list_filter = ("status", "preset", "pace", "is_private", "absent_seat")
    search_fields = ("name", "host__username", "host__email", "invite_code")
    raw_id_fields = ("host",)
    readonly_fields = ("invite_code", "created_at")
    inlines = [SeatInline, InvitationInline]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "table",
        "status",
        "round",
        "current_seat",
        "pending",
        "version",
        "deadline",
        "started_at",
        "finished_at",
    )
    list_filter = ("status", "table__preset", "table__pace")
    search_fields = ("table__name", "=pk")
    list_select_related = ("table",)
    readonly_fields = [f.name for f in Game._meta.fields]

    def get_queryset(self, request: HttpRequest):
        # The state is big; the list needs none of it.
        qs = super().get_queryset(request)
        return qs if request.resolver_match.url_name.endswith("_change") else qs.defer("state")


@admin.register(GameAction)
class GameActionAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "seat", "source", "user", "created_at")
    list_filter = ("source",)
    search_fields = ("=game__pk",)
    list_select_related = ("game__table", "user")
    readonly_fields = [f.name for f in GameAction._meta.fields]


@admin.register(DeedRow)
class DeedRowAdmin(ReadOnlyAdmin):
    list_display = ("game", "square", "owner_seat", "level", "mortgaged", "mortgaged_round")
    list_filter = ("mortgaged",)
    search_fields = ("=game__pk",)
    list_select_related = ("game__table",)


@admin.register(DeckRow)
class DeckRowAdmin(ReadOnlyAdmin):
    list_display = ("game", "name")
    search_fields = ("=game__pk",)
    list_select_related = ("game__table",)


@admin.register(TradeRow)
class TradeRowAdmin(ReadOnlyAdmin):
    list_display = ("game", "number", "from_seat", "to_seat", "status", "created_at", "closed_at")
    list_filter = ("status",)
    search_fields = ("=game__pk",)
    list_select_related = ("game__table",)


@admin.register(AuctionRow)
class AuctionRowAdmin(ReadOnlyAdmin):
    list_display = ("game", "square", "what", "is_open", "high_bid", "leader_seat", "opened_seq")
    list_filter = ("is_open", "what")
    search_fields = ("=game__pk",)
    list_select_related = ("game__table",)
