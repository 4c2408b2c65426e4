from django.contrib import admin

from notifications.models import Notification, Preference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "key", "status", "created_at", "emailed_at")
    list_filter = ("kind", "status")
    raw_id_fields = ("user", "game")


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "mode")
    raw_id_fields = ("user",)
