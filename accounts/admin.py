from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Preferences"), {"fields": ("display_name", "language", "time_zone")}),
    )
    list_display = ("username", "email", "display_name", "language", "is_staff", "date_joined")
    list_filter = (*BaseUserAdmin.list_filter, "language")
    search_fields = ("username", "email", "display_name")

    # An account deleted here goes as one deleted by its owner does: its games go on without it
    # (games.services.account_seats_release), in the deletion's transaction.
    def delete_model(self, request, obj: User) -> None:
        from games.services import account_seats_release

        with transaction.atomic():
            account_seats_release(user=obj)
            super().delete_model(request, obj)

    def delete_queryset(self, request, queryset) -> None:
        from games.services import account_seats_release

        with transaction.atomic():
            for user in queryset:
                account_seats_release(user=user)
            super().delete_queryset(request, queryset)
