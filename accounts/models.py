from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.names import name_key
from accounts.validators import validate_time_zone, validate_visible_name


class User(AbstractUser):
    """The site's user from the first migration on, so that fields can be added freely."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        validators=[validate_visible_name],
        help_text=_("The name other players see. Leave it empty to show your username."),
    )
    # The names' keys (accounts/names.py: NFKC case-folded), kept by save(): a display name is
    # unique among display names (the constraint) and other accounts' usernames (clean()).
    display_key = models.CharField(max_length=200, blank=True, default="", editable=False)
    username_key = models.CharField(max_length=600, blank=True, default="", editable=False, db_index=True)
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

    class Meta(AbstractUser.Meta):
        constraints = [
            models.UniqueConstraint(fields=["display_key"], condition=~models.Q(display_key=""),
                                    name="user_unique_display_key"),
        ]

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def save(self, *args, **kwargs) -> None:
        # The keys follow the names whatever writes them (a service, the admin, a factory).
        self.display_key = name_key(self.display_name)
        self.username_key = name_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "display_key", "username_key"}
        super().save(*args, **kwargs)

    def clean(self) -> None:
        super().clean()
        if self.display_name and display_name_taken(self.display_name, user=self):
            raise ValidationError({"display_name": ValidationError(
                _("Another player has this name, or one that looks the same: choose another."),
                code="display_name_taken")})
        if self.username and username_taken(self.username, user=self):
            raise ValidationError({"username": ValidationError(
                _("Another player has this name, or one that looks the same: choose another."),
                code="username_taken")})


def display_name_taken(name: str, *, user: User | None = None) -> bool:
    """Whether ``name`` is, once NFKC case-folded, another account's display name or username
    (its own username may be its display name: "alice" shown as "Alice")."""
    key = name_key(name)
    if not key:
        return False
    others = User.objects.filter(models.Q(display_key=key) | models.Q(username_key=key))
    if user is not None and user.pk is not None:
        others = others.exclude(pk=user.pk)
    return others.exists()

def user_display(user: User) -> str:
    """How allauth shows a user (ACCOUNT_USER_DISPLAY)."""
    return user.public_name


def username_taken(name: str, *, user: User | None = None) -> bool:
    """Whether a username is, once NFKC case-folded, another account's username or display
    name (the full-width "alice" for a new account while alice exists)."""
    return display_name_taken(name, user=user)

class DataExport(models.Model):
    """One "Download my data" ZIP (issue 31), built by ``accounts.tasks.build_data_export`` and
    kept a day: its link (accounts/export.py) is signed, lasts as long, and opens only for its
    owner. Kept in the database so that any web process can serve what any worker built."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    content = models.BinaryField()

    def __str__(self) -> str:
        return f"data export {self.pk} of user {self.user_id}"
