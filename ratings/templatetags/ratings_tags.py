"""The game-over summary on the game page (templates/jinja2/games/game_body.html includes it)."""

from __future__ import annotations

from django import template

from ratings import selectors

register = template.Library()


@register.inclusion_tag("ratings/partials/game_summary.html", takes_context=True)
def game_over_summary(context) -> dict:
    game = context["game"]
    request = context.get("request")
    viewer = getattr(request, "user", None)
    seats = [s for s in game.table.seats.select_related("user")]
    return {"summary": selectors.game_summary(game=game, seats=seats, viewer=viewer), "request": request,
            "csrf_token": context.get("csrf_token"), "me": context.get("me")}


@register.filter
def signed(value) -> str:
    """+12, −7 or ±0 (a rating change)."""
    if value is None:
        return ""
    value = int(value)
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "±0"
