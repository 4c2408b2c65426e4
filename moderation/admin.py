"""The admin stays for staff. The audit log is read-only there too: no one edits or deletes
an entry, whatever their permissions."""

from __future__ import annotations

from django.contrib import admin

from moderation.models import AuditEntry, Block, ChatMessage, Report, Sanction


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("created_at", "moderator_name", "action", "target_name", "until", "reason")
    list_filter = ("action",)
    search_fields = ("moderator_name", "target_name", "reason")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "reason", "state", "target", "outcome")
    list_filter = ("state", "kind", "reason")
    raw_id_fields = ("reporter", "target", "game", "message", "trade", "sanction", "claimed_by", "resolved_by")


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "user", "kind", "until", "lifted_at")
    list_filter = ("kind",)
    raw_id_fields = ("user", "created_by", "lifted_by")


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "game", "author_name", "text", "hidden_at")
    raw_id_fields = ("game", "author", "hidden_by")


admin.site.register(Block)
