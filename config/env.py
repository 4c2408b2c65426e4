"""Strict readers for settings that come from environment variables.

Each helper returns the default when the variable is unset or empty, and raises
ImproperlyConfigured naming the variable and the bad value otherwise, so that a typo
in a deployment stops the site at start-up instead of silently meaning something else.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str | None = None) -> str:
    """A string; with no default the variable is required."""
    value = _raw(name)
    if value is not None:
        return value
    if default is None:
        raise ImproperlyConfigured(f"The environment variable {name} must be set.")
    return default


def env_bool(name: str, default: bool) -> bool:
    """One of 1/0, true/false, yes/no, on/off (any case)."""
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"The environment variable {name} must be a boolean (true/false, 1/0, yes/no, on/off), "
        f"not {value!r}."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A whole number, optionally bounded below."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(
            f"The environment variable {name} must be a whole number, not {value!r}."
        ) from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(
            f"The environment variable {name} must be at least {minimum}, not {value!r}."
        )
    return number


def env_list(name: str, default: Sequence[str] = ()) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: Sequence[str]) -> str:
    """One of a fixed set of strings (compared exactly)."""
    value = _raw(name)
    if value is None:
        return default
    if value not in choices:
        allowed = ", ".join(choices)
        raise ImproperlyConfigured(
            f"The environment variable {name} must be one of {allowed}, not {value!r}."
        )
    return value
