"""Every write to accounts goes through here (keyword-only, typed, named <entity>_<verb>)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User, display_name_taken

NAME_TAKEN = gettext_lazy("Another player has this name, or one that looks the same: choose another.")


def user_update_profile(*, user: User, display_name: str, language: str, time_zone: str) -> User:
    """Change the preferences the user controls.

    Raises ValidationError (keyed by field) on a bad value, leaving the user untouched.
    """
    values = {"display_name": display_name.strip(), "language": language, "time_zone": time_zone}
    errors: dict[str, list[ValidationError]] = {}
    for name, value in values.items():
        try:
            values[name] = User._meta.get_field(name).clean(value, user)
        except ValidationError as e:
            errors[name] = e.error_list
    if "display_name" not in errors and display_name_taken(values["display_name"], user=user):
        errors["display_name"] = [ValidationError(NAME_TAKEN, code="display_name_taken")]
    if errors:
        raise ValidationError(errors)
    previous = {name: getattr(user, name) for name in values}
    for name, value in values.items():
        setattr(user, name, value)
    try:
        with transaction.atomic():
            user.save(update_fields=list(values))
    except IntegrityError as e:  # the same name taken by another account at the same moment
        for name, value in previous.items():
            setattr(user, name, value)
        raise ValidationError({"display_name": [ValidationError(NAME_TAKEN, code="display_name_taken")]}) from e
    return user


@transaction.atomic
def user_delete(*, user: User, password: str) -> None:
    """Delete the account for good, once the user has proved it is theirs with the password.

    Raises ValidationError and changes nothing when the password is wrong. The user's e-mail
    addresses go with it; games outlive it: in the same transaction the user's open tables are
    cancelled, their other open seats freed, and their seats in games forfeited or handed to a
    bot (games.services.account_seats_release).
    """
    if not user.has_usable_password() or not user.check_password(password):
        raise ValidationError(_("That password is not correct."), code="wrong_password")
    from games.services import account_seats_release

    account_seats_release(user=user)
    user.delete()


# ---------------------------------------------------------------------------------------------
# "Download my data" (issue 31)
# ---------------------------------------------------------------------------------------------

def data_export_request(*, user: User) -> bool:
    """Queue the ZIP's build (the player gets the link by e-mail); False, and nothing queued,
    when the same person asked less than DATA_EXPORT_EVERY seconds ago."""
    from django.conf import settings
    from django.core.cache import cache

    from config.celery import queue_on_commit

    if not cache.add(f"data-export-asked:{user.pk}", 1, timeout=settings.DATA_EXPORT_EVERY):
        return False
    queue_on_commit("accounts.tasks.build_data_export", user.pk)
    return True


def data_export_purge() -> int:
    """Drop every export past its day (its link no longer works anyway)."""
    from accounts import export
    from accounts.models import DataExport

    deleted, _kinds = DataExport.objects.filter(created_at__lt=export.expired_before()).delete()
    return deleted


def data_export_build(*, user_id: int) -> int | None:
    """Build the ZIP, keep it (replacing the player's older ones and dropping everyone's expired
    ones) and mail its link. Returns the export's id, or None for an account gone meanwhile."""
    from allauth.account.adapter import get_adapter
    from allauth.account.models import EmailAddress
    from django.conf import settings
    from django.db import transaction
    from django.utils import translation

    from accounts import export
    from accounts.models import DataExport
    from games.links import absolute

    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return None
    content = export.build_zip(user)
    with transaction.atomic():
        DataExport.objects.filter(created_at__lt=export.expired_before()).delete()
        DataExport.objects.filter(user=user).delete()
        made = DataExport.objects.create(user=user, content=content)
    email = EmailAddress.objects.get_primary_email(user) or user.email
    if email:
        with translation.override(user.language or settings.LANGUAGE_CODE):
            get_adapter().send_mail("accounts/email/data_export", email, {
                "user": user, "download_url": absolute(export.download_path(made))})
    return made.pk
