"""The group-chat panel on the table page, and the host's line on the game page (issue 29):
included with one tag each, so the pages' views need no change."""

from __future__ import annotations

from django import template

register = template.Library()


@register.inclusion_tag("chats/_panel.html", takes_context=True)
def chat_panel(context, table) -> dict:
    from chats.views import channel_context

    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or table.host_id != user.pk:
        return {"show": False}
    return {**channel_context(table), "show": True, "back": "table", "request": request,
            "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("chats/_game_line.html", takes_context=True)
def chat_game_line(context, game) -> dict:
    """For the host: where the game's status is posted, and whether delivery stopped."""
    from chats.models import Channel

    request = context.get("request")
    user = getattr(request, "user", None)
    table = game.table
    if user is None or not user.is_authenticated or table.host_id != user.pk:
        return {"show": False}
    return {"show": True, "table": table, "channel": Channel.objects.filter(table=table).first()}
