"""A deed's card (games/views/deed_card.py): the fragment the game page opens in a dialog when
a deed is clicked on the board or in a player's panel, or a page of its own without JavaScript.
Whoever may see the game may see its cards; nothing here writes."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.views.deed_card import deed_card
from games.views.page.context import shown_state
from games.views.play import _load


@require_GET
def deed(request: HttpRequest, game_id: int, square: int) -> HttpResponse:
    game, seats, _me = _load(request, game_id)
    card = deed_card(shown_state(game.state, seats), square)
    if card is None:
        raise Http404("no such deed")
    ctx = {"game": game, "table": game.table, "card": card}
    if request.htmx:
        return render(request, "games/partials/deed_card.html", ctx)
    return render(request, "games/deed.html", ctx)
