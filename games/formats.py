"""How the site writes a game's numbers, shared by the game page (games.views.present) and the
refusals' words (games.errors), which the page itself uses. Numbers follow the reader's
language (Django's formats: "$1,500", "$1 500", "$1.500")."""

from __future__ import annotations

from django.utils.formats import number_format


def number(amount: int) -> str:
    """An integer with the active language's digit grouping ("1,500", "1.500")."""
    return number_format(amount, force_grouping=True)


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
