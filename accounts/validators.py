from __future__ import annotations

import functools
import zoneinfo

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


@functools.cache
def available_time_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows (system database plus tzdata)."""
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(value: str) -> None:
    # Membership in the list refuses paths and odd files that ZoneInfo() alone would accept.
    if value not in available_time_zones():
        raise ValidationError(
            _("“%(value)s” is not a known time zone. Use a name such as Europe/Madrid."),
            code="invalid_time_zone",
            params={"value": value},
        )


def validate_visible_name(value: str) -> None:
    """A name others read: no control, format (bidi override, zero-width) or other invisible
    characters (accounts/names.py)."""
    from accounts.names import has_invisible

    if has_invisible(value or ""):
        raise ValidationError(
            _("A name cannot hold control or invisible characters (such as text-direction marks)."),
            code="invisible_characters",
        )
