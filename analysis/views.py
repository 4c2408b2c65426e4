"""The analysis page of a finished game (issue 30) and "play on from here".

Win chances are shown only once a game is over, to everybody alike: while it is in play the
page (and its progress poll) answers 404, so nobody watching can help a player."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from analysis import page, sandbox, services
from analysis.models import GameAnalysis
from config.ratelimit import limit
from games.models import Game
from games.selectors import visible_game
from games.views.errors import refused_page
from moderation.selectors import lockout_refusal


def _over(request: HttpRequest, game_id: int):
    seen = visible_game(game_id=game_id, user=request.user)
    if seen is None or seen.game.status != Game.Status.FINISHED:
        # A game in play has no analysis to show, to anyone (issue 30: no help from a friend
        # watching); an aborted one has no result to analyse.
        raise Http404("no analysis for this game")
    return seen


@require_GET
def game_analysis(request: HttpRequest, game_id: int) -> HttpResponse:
    seen = _over(request, game_id)
    row = GameAnalysis.objects.filter(game_id=game_id).first()
    if row is None:
        # A game that finished before analyses began: queued now, once (the row made here stops
        # the page's poll from queueing more; a task lost after that is the catch-up's).
        services.analysis_request(game_id=game_id)
        row = GameAnalysis.objects.filter(game_id=game_id).first()
    ctx = page.analysis_context(game=seen.game, seats=seen.seats, row=row)
    if request.htmx and not request.htmx.boosted:
        return render(request, "analysis/partials/analysis_body.html", ctx)
    return render(request, "analysis/game_analysis.html", ctx)


def _int(raw: str | None) -> int | None:
    raw = (raw or "").strip()
    return int(raw) if raw.isdigit() and len(raw) < 10 else None


@login_required
@require_POST
@limit("RATE_LIMIT_UPLOADS")
def play_on(request: HttpRequest, game_id: int) -> HttpResponse:
    """Start a sandbox game from a step of a finished game's replay (analysis/sandbox.py)."""
    seen = visible_game(game_id=game_id, user=request.user)
    if seen is None:
        raise Http404("no such game")
    back = reverse("games:game_replay", args=[game_id])
    refusal = lockout_refusal(user=request.user)
    if refusal is not None:
        # A suspended or banned player opens no table (issue 11), a sandbox's neither.
        return refused_page(request, status=403, back_url=back, back_label=_("Back to the replay"), reason=refusal)
    step, seat = _int(request.POST.get("step")), _int(request.POST.get("seat"))
    if step is None or seat is None:
        return refused_page(request, status=400, back_url=back, back_label=_("Back to the replay"),
                            reason=_("Choose a move of the replay and a seat to play on from."))
    try:
        game = sandbox.sandbox_create(user=request.user, source=seen.game, step=step, seat=seat)
    except sandbox.SandboxError as e:
        return refused_page(request, status=400, back_url=back, back_label=_("Back to the replay"), reason=str(e))
    return redirect("games:game", game.pk)
