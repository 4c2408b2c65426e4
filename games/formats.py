"""How the site writes a game's numbers, shared by the game page (games.views.present) and the
refusals' words (games.refusals), which the page itself uses."""

from __future__ import annotations


def money(amount: int) -> str:
    """An amount of cash as the game page writes it ("$1,500")."""
    return f"${amount:,}"


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
