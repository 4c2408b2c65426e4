"""How the site writes a game's numbers, shared by the game page (games.views.page.decision) and the
refusals' words (games.errors), which the page itself uses. Numbers follow the reader's
language (Django's formats: "$1,500", "$1 500", "$1.500").

An integer is written once per language and kept (the few thousand last ones): a move's answer
writes a dozen amounts, mostly the same cash, prices and rents as the last one, and each of
Django's ``number_format`` looks the language and three of its formats up (issue 12). Forgotten
when a setting the formats come from changes, as Django's own cache of them is."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.formats import number_format
from django.utils.translation import get_language


def number(amount: int) -> str:
    """An integer with the active language's digit grouping ("1,500", "1.500")."""
    if type(amount) is not int:
        return number_format(amount, force_grouping=True)
    return _number(amount, get_language())


@lru_cache(maxsize=4096)
def _number(amount: int, _language: str | None) -> str:
    return number_format(amount, force_grouping=True)


_FORMAT_SETTINGS = {"LANGUAGES", "LANGUAGE_CODE", "FORMAT_MODULE_PATH", "USE_THOUSAND_SEPARATOR",
                    "NUMBER_GROUPING", "THOUSAND_SEPARATOR", "DECIMAL_SEPARATOR", "LOCALE_PATHS"}


@receiver(setting_changed)
def _forget_numbers(*, setting: str, **kwargs: Any) -> None:
    if setting in _FORMAT_SETTINGS:
        _number.cache_clear()


def money(amount: int) -> str:
    """An amount of cash as the game page writes it ("$1,500" in English)."""
    return f"${number(amount)}"


def cost(amount) -> str:
    """An amount that may be a cost: $1,500, or −$50 (with a minus sign, not a hyphen)."""
    if amount is None or amount == "":
        return ""
    amount = int(amount)
    return f"−{money(-amount)}" if amount < 0 else money(amount)


def signed_money(amount) -> str:
    """+$50 for money received, −$50 for money paid."""
    amount = int(amount)
    return f"−{money(-amount)}" if amount < 0 else f"+{money(amount)}"
