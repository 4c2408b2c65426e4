"""Ending early by agreement (RULES.md 16): the one form of the game page's panel
(templates/jinja2/games/partials/end_early.html) posts here: propose, agree, decline or withdraw. It works
without JavaScript (a redirect back to the game with a message); with htmx the answer is the
refreshed ``#game`` fragment. The service (games/agreement.py) refuses what does not fit."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.ratelimit import limit
from games import agreement, services
from games.views.aids import _done, _whole
from games.views.play import _load
from games.views.play_forms import FormError, strict_fields

END_FIELDS = frozenset(("csrfmiddlewaretoken", "do", "n", "version"))
DOS = ("propose", "agree", "decline", "withdraw")


@login_required
@require_POST
@limit("RATE_LIMIT_MOVES")
def end_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _seats, _me = _load(request, game_id)
    data = request.POST
    do = data.get("do", "")
    try:
        strict_fields(data, END_FIELDS, ok=do in DOS)
        if do == "propose":
            version = _whole(data.get("version", ""), "version", digits=9)
            ended = agreement.end_propose(game=game, user=request.user, expected_version=version)
            ok = _("The game is over: it ended by agreement.") if ended else \
                _("You proposed to end the game; every player must agree.")
        else:
            n = _whole(data.get("n", ""), "n", digits=9)
            if do == "withdraw":
                agreement.end_withdraw(game=game, user=request.user, proposal=n)
                ok = _("You withdrew your proposal; the game goes on.")
            else:
                ended = agreement.end_answer(game=game, user=request.user, proposal=n, agree=do == "agree")
                ok = (_("The game is over: it ended by agreement.") if ended else
                      _("You agreed to end the game; waiting for the others.") if do == "agree" else
                      _("You declined; the game goes on."))
    except (FormError, services.GameError) as e:
        status = 403 if isinstance(e, services.NotAllowed) else 409 if isinstance(e, services.StaleVersion) else 400
        return _done(request, game_id, error=capfirst(e.localized()) + ".", status=status)
    return _done(request, game_id, error=None, status=200, ok=ok)
