from __future__ import annotations

import functools
import zoneinfo
from importlib import resources

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _


@functools.cache
def available_time_zones() -> frozenset[str]:
    """The IANA time zone names this machine knows (system database plus tzdata)."""
    return frozenset(zoneinfo.available_timezones())


@functools.cache
def offered_time_zones() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """The zones the settings page offers, grouped by region: UTC, then the current zones of the
    IANA database's country table (tzdata's zone.tab: one or more per country, each a canonical
    name), never its legacy aliases ("Japan", "Zulu", "US/Eastern") or "Factory". Each zone is
    (value, label): "America/Argentina/Buenos_Aires" reads "Argentina / Buenos Aires"."""
    text = resources.files("tzdata.zoneinfo").joinpath("zone.tab").read_text(encoding="utf-8")
    names = {line.split("\t")[2] for line in text.splitlines() if line and not line.startswith("#")}
    groups: dict[str, list[tuple[str, str]]] = {}
    for name in sorted(names & available_time_zones()):
        region, _sep, place = name.partition("/")
        groups.setdefault(region, []).append((name, place.replace("_", " ").replace("/", " / ")))
    regions = tuple((region, tuple(sorted(zones, key=lambda z: z[1]))) for region, zones in sorted(groups.items()))
    return (("UTC", (("UTC", "UTC"),)), *regions)


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
