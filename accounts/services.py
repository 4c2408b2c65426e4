"""Every write to accounts goes through here (keyword-only, typed, named <entity>_<verb>)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User


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
    if errors:
        raise ValidationError(errors)
    for name, value in values.items():
        setattr(user, name, value)
    user.save(update_fields=list(values))
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
