"""The admin stays for staff, read-only for moderation's records. Every sanction, report outcome
and hidden message goes through moderation/services.py, which writes its audit row and, for a
suspension or a ban, signs the account out everywhere: a sanction added or changed in the admin
did neither (issue 26), and the admin could delete chat messages, which are hidden, never
deleted. So the admin shows these rows and changes none; the moderators' pages act."""

from __future__ import annotations

from django.contrib import admin

from moderation.models import AuditEntry, Block, ChatMessage, Report, Sanction


class ReadOnlyAdmin(admin.ModelAdmin):
    """Lists and shows the rows; no adding, changing or deleting, whatever the user's
    permissions (superusers included)."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "moderator_name", "action", "target_name", "until", "reason")
    list_filter = ("action",)
    search_fields = ("moderator_name", "target_name", "reason")


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "kind", "reason", "state", "target", "outcome")
    list_filter = ("state", "kind", "reason")
    raw_id_fields = ("reporter", "target", "game", "message", "trade", "sanction", "claimed_by", "resolved_by")


@admin.register(Sanction)
class SanctionAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "user", "kind", "until", "lifted_at")
    list_filter = ("kind",)
    raw_id_fields = ("user", "created_by", "lifted_by")


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "game", "author_name", "text", "hidden_at")
    raw_id_fields = ("game", "author", "hidden_by")


admin.site.register(Block)
