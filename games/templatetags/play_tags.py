"""Filters of the game page."""

from __future__ import annotations

from django import template

from games import formats
from games.links import deed_cards_path
from games.views.page.draw import (
    decision_html,
    dice_html,
    log_html,
    log_more_html,
    players_html,
    squares_html,
    surrender_html,
    tools_html,
)

register = template.Library()


@register.filter
def money(amount) -> str:
    """$1,500 (a negative amount reads −$50: a cost)."""
    return formats.cost(amount)


@register.filter
def signed_money(amount) -> str:
    """+$50 for money received, −$50 for money paid."""
    return formats.signed_money(amount)


@register.simple_tag(takes_context=True)
def board_squares(context) -> str:
    """The board's squares (``squares`` of the context), drawn by games.views.page_html."""
    game = context.get("game")
    return squares_html(context["squares"], economy=context.get("economy"),
                        game_id=game.pk if game is not None else None)


@register.simple_tag
def log_items(entries) -> str:
    """The game log's entries, drawn by games.views.page_html."""
    return log_html(entries)


@register.simple_tag(takes_context=True)
def player_items(context, players, deadline=None) -> str:
    """The players' panels, drawn by games.views.page_html; on a game's page (not a replay's)
    each deed links to its card."""
    game = context.get("game")
    deed_base = None
    if game is not None and not context.get("readonly"):
        deed_base = deed_cards_path(game.pk)
    return players_html(players, deadline, deed_base=deed_base)


@register.simple_tag(takes_context=True)
def decision_centre(context) -> str:
    """The centre of the board (the decision and the viewer's forms), drawn by
    games.views.page_html from the game page's context."""
    return decision_html(context, getattr(context, "request", None))


@register.simple_tag
def dice_faces(dice) -> str:
    """The last roll's dice, drawn by games.views.page_html."""
    return dice_html(dice)


@register.simple_tag(takes_context=True)
def game_tools(context) -> str:
    """The tools slot (debt, manage panel, trade builder), drawn by games.views.page_html."""
    return tools_html(context, getattr(context, "request", None))


@register.simple_tag(takes_context=True)
def surrender_panel(context) -> str:
    """The surrender panel, drawn by games.views.page_html."""
    return surrender_html(context, getattr(context, "request", None))


@register.simple_tag(takes_context=True)
def older_moves(context) -> str:
    """The log's "Older moves" link when there are older entries (``log_more``), drawn by
    games.views.page_html."""
    if not context.get("log_more"):
        return ""
    return log_more_html(context["game"].pk, context["log_before"])
