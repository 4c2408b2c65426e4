"""Money filters of the Django templates (e-mails, the game summary); the game page's Jinja2 templates
have the same filters (config/jinja2.py)."""

from __future__ import annotations

from django import template

from games import formats

register = template.Library()


@register.filter
def money(amount) -> str:
    """$1,500 (a negative amount reads −$50: a cost)."""
    return formats.cost(amount)


@register.filter
def signed_money(amount) -> str:
    """+$50 for money received, −$50 for money paid."""
    return formats.signed_money(amount)
