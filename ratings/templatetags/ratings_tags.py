"""The ratings' filters: ``signed``, a rating's change (also the game page's, config/jinja2.py)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(value) -> str:
    """+12, −7 or ±0 (a rating change)."""
    if value is None:
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "±0"
