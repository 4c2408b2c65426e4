"""The template hooks of issue 29: the game page's panel, the replay's revealed notes."""

from __future__ import annotations

from django import template

from reach import notes, panel

register = template.Library()


def _seats(game):
    from games.models import Seat

    return list(Seat.objects.filter(table_id=game.table_id).select_related("user"))


@register.inclusion_tag("reach/_game_panel.html", takes_context=True)
def reach_panel(context, game, me):
    request = context.get("request")
    ctx = panel.context(user=getattr(request, "user", None), game=game, seats=_seats(game), me=me)
    ctx["request"] = request
    ctx["csrf_token"] = context.get("csrf_token")
    return ctx


@register.inclusion_tag("reach/_revealed_notes.html")
def revealed_notes(game):
    shown = notes.revealed(game=game)
    if not shown:
        return {"notes": []}
    by_seat = {s.position: s for s in _seats(game)}
    return {"notes": [{"name": by_seat[p].label if p in by_seat else "", "text": n.text} for p, n in shown]}
