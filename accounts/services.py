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
