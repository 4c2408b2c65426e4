"""The trade meter's part (issue 30, games/meter.py): each side's win chance with the trade
rejected and accepted, for the two players of a trade only.

One GET endpoint, three ways in:

* ``?key=...``: the meter already asked for (the part polls itself with it while it is pending);
* ``?trade=N``: the offer waiting for its answer, as its proposer or its receiver sees it;
* the builder's own fields (as the trade preview reads them): the trade as the form stands,
  proposed in a copy of the position.

Nothing else is written than the meter's row (created once per position and trade). A spectator,
a player not in the trade, a finished game or a table without the meter: 404.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import meter
from games.engine import GameState, IllegalAction, apply
from games.errors import translate_refusal
from games.links import game_url
from games.models import Game
from games.selectors import trade_meter_row
from games.views.page.context import shown_state
from games.views.play import _load
from games.views.play_forms import FormError, parse_action

POLL_MS = 1500  # how often a pending meter's part asks again
# Before its first figures, sooner: the task writes them after its first batch (0.65 s of CPU at
# p50, bench/analysis.py section meter), which a player would otherwise see only at 1.5 s.
POLL_FIRST_MS = 750


def _answer(request: HttpRequest, ctx: dict[str, Any], status: int = 200) -> HttpResponse:
    """The part for htmx; without JavaScript, the part on a page of its own (its "Check again"
    link asks for the same key)."""
    body = render_to_string("games/partials/trade_meter.html", ctx, request)
    if request.htmx:
        return HttpResponse(body, status=status)
    return render(request, "games/trade_meter.html", {**ctx, "body": body}, status=status)


@require_GET
def trade_meter(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seats, me = _load(request, game_id)
    if me is None or me.bot or game.status != Game.Status.ACTIVE or not meter.meter_on(game.table):
        # Spectators never see win chances while the game is on (issue 30), nor does a seat a
        # bot plays.
        raise Http404("no trade meter here")
    names = [p.name for p in shown_state(game.state, seats).players]
    url = game_url("games:game_trade_meter", game.pk)
    ctx: dict[str, Any] = {"meter": None, "error": None, "url": url, "poll_ms": POLL_MS, "poll_first_ms": POLL_FIRST_MS,
                           "game_url": game_url("games:game", game.pk)}
    key = request.GET.get("key")
    if key is not None:
        row = trade_meter_row(game=game, key=key)
        if row is None:
            raise Http404("no such meter")
        parties = meter.offer_parties(GameState.from_json(row.position))
        if parties is None or me.position not in (parties["from"], parties["to"]):
            raise Http404("no such meter")
        ctx["meter"] = meter.meter_view(row, names=names)
        return _answer(request, ctx)
    state = GameState.from_json(game.state)
    try:
        if "trade" in request.GET:
            parties = meter.offer_parties(state)
            if parties is not None and me.position not in (parties["from"], parties["to"]):
                raise Http404("only the two players of a trade see its meter")
            if parties is None or request.GET["trade"] != str(parties["id"]):
                raise meter.MeterError(_("This offer has been answered: reload the page."))
        else:
            parsed = parse_action(request.GET)
            action = parsed.actions[-1]
            if action["type"] != "propose":
                raise Http404("the meter measures trades")
            if parsed.actions[0]["type"] == "reject":
                # A counter-offer: the offer it answers rejected first, as the move would.
                state = _rejected(state, parsed.actions[0], me.position)
            state = meter.proposed_position(state, me=me.position, other=action.get("to"),
                                            give=action["give"], take=action["take"])
        row = meter.meter_request(game=game, seat=me.position, state=state)
    except FormError as e:
        ctx["error"] = e.localized()
        return _answer(request, ctx, status=400)
    except meter.MeterError as e:
        ctx["error"] = str(e)
        return _answer(request, ctx, status=409)
    ctx["meter"] = meter.meter_view(row, names=names)
    return _answer(request, ctx)


def _rejected(state: GameState, reject: dict, seat: int) -> GameState:
    st = state.copy()
    try:
        apply(st, {**reject, "player": seat}, events=False)
    except IllegalAction as e:
        raise meter.MeterError(translate_refusal(e)) from None
    return st
