from django.contrib import admin

from notifications.models import Notification, Preference, PushSubscription, Undeliverable


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "key", "status", "created_at", "emailed_at")
    list_filter = ("kind", "status")
    raw_id_fields = ("user", "game")


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "mode")
    raw_id_fields = ("user",)


@admin.register(Undeliverable)
class UndeliverableAdmin(admin.ModelAdmin):
    """Addresses the provider reported bouncing or complaining; deleting a row sends to it again."""

    list_display = ("email", "reason", "at")
    list_filter = ("reason",)
    search_fields = ("email",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at")
    raw_id_fields = ("user",)
