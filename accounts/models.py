from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_time_zone


class User(AbstractUser):
    """The site's user from the first migration on, so that fields can be added freely."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see. Leave it empty to show your username."),
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("An IANA time zone name, such as Europe/Madrid."),
    )

    @property
    def public_name(self) -> str:
        return self.display_name or self.username


def user_display(user: User) -> str:
    """How allauth shows a user (ACCOUNT_USER_DISPLAY)."""
    return user.public_name


class DataExport(models.Model):
    """One "Download my data" ZIP (issue 31), built by ``accounts.tasks.build_data_export`` and
    kept a day: its link (accounts/export.py) is signed, lasts as long, and opens only for its
    owner. Kept in the database so that any web process can serve what any worker built."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    content = models.BinaryField()

    def __str__(self) -> str:
        return f"data export {self.pk} of user {self.user_id}"
