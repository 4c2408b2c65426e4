"""The game for programs: the viewer's seat, the version a move must quote, and the engine's
legal actions for that seat, as JSON.

The web benchmark (``python -m bench.web``) drives games through the real endpoints with bots
that see only what a player sees: this view gives them the same decision the game page draws
as buttons, without parsing HTML. Moves still go through ``games:game_act``, like the page's
forms; a program that asks it for JSON (``Accept: application/json``) gets back the new version
and its next legal actions in the same shape as here (``seat_actions``), so it needs this view
only to start, after a refusal, or while the game waits on someone else. A refused move answers
with the engine's stable ``code`` and ``params`` beside its words (``refusal_json``). Who may
read it is decided as for the page: anyone may watch a public game, a private one exists only for its
players, and only a player's own actions are listed.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from games.engine import GameState, legal_actions
from games.models import Game
from games.selectors import visible_game


def _visible(request: HttpRequest, game_id: int) -> tuple[Game, int | None]:
    """The game and the viewer's seat (None for a spectator); 404 for those who may not see it,
    by the game page's rule (selectors.visible_game)."""
    seen = visible_game(game_id=game_id, user=request.user)
    if seen is None:
        raise Http404("no such game")
    return seen.game, seen.me.position if seen.me is not None else None


def seat_actions(game: Game, seat: int | None, state: GameState | None = None) -> list[dict]:
    """The engine's legal actions for ``seat`` as programs get them (legal.json's ``actions``,
    the JSON answer of a move's ``legal``): without the seat itself, none for a spectator or
    once the game is over. ``state`` is the game's position when the caller already has it."""
    if seat is None or game.status != Game.Status.ACTIVE:
        return []
    if state is None:
        state = GameState.from_json(game.state)
    return [{k: v for k, v in a.items() if k != "player"} for a in legal_actions(state, seat)]


def refusal_json(error: Exception) -> dict[str, Any]:
    """What a program reads of a refused move besides the words: the engine's stable ``code``
    and its ``params`` (games/engine/refusals.py; a nested refusal in the same shape), e.g.
    ``{"code": "bid_too_low", "params": {"low": 12}}``; ``{}`` for the site's own refusals."""
    refusal = getattr(error, "refusal", None)
    return refusal.as_json() if refusal is not None else {}


@require_GET
def legal(request: HttpRequest, game_id: int) -> JsonResponse:
    """What the viewer may do now. ``actions`` are the engine's legal actions for the viewer's
    seat without the seat itself (a move never names it: the act endpoint takes it from the
    signed-in user); templates keep their ranges (a bid's ``min`` and ``max``)."""
    game, seat = _visible(request, game_id)
    actions = seat_actions(game, seat)
    return JsonResponse(
        {
            "game": game.pk,
            "version": game.version,
            "status": game.status,
            "seat": seat,
            "round": game.round,
            "current": game.current_seat,
            "pending": game.pending,
            "waiting": game.waiting_seats,
            "actions": actions,
        }
    )
