from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
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
