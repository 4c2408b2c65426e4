"""The trade builder's preview (issue 12): as the player ticks deeds and types amounts, the
builder asks here for each side's value, the balance rule's verdict and the groups the trade
would complete (games/views/trade_values.py). It reads the builder's own form fields, parsed
as the move itself parses them; nothing here writes."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models import Game
from games.views.page.context import shown_state
from games.views.play import _load
from games.views.play_forms import FormError, parse_action
from games.views.trade_values import trade_summary


@require_GET
def trade_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seats, me = _load(request, game_id)
    if me is None or game.status != Game.Status.ACTIVE:
        raise Http404("only a player of a game under way builds trades")
    ctx: dict = {"summary": None, "form_error": None}
    try:
        parsed = parse_action(request.GET)
    except FormError as e:
        ctx["form_error"] = e.localized()
        return render(request, "games/partials/trade_summary.html", ctx)
    action = parsed.actions[-1]  # (a counter-offer is a reject, then this proposal)
    state = shown_state(game.state, seats)
    other = action.get("to") if action["type"] == "propose" else None
    if not isinstance(other, int) or not 0 <= other < len(state.players) or other == me.position \
            or state.players[other].bankrupt:
        raise Http404("no such player to trade with")
    ctx["summary"] = trade_summary(state, me.position, other, action["give"], action["take"])
    return render(request, "games/partials/trade_summary.html", ctx)
