"""The group-chat panel on the table page (issue 29), included with one tag, so the page's view
needs no change. (The host's line on the game page: games/views/page/panels.py, chat_line_view.)"""

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
