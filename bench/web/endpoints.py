"""The least a move can cost, for the bench to compare the act endpoint with. Served only by the
bench's own urls (``bench.web.urls``, under ``bench.web.settings``): the site's urls have no such
page."""

from __future__ import annotations

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.models import Game


@require_POST
def bench_lock(request: HttpRequest, game_id: int) -> HttpResponse:
    """Through the same middleware as a move (session, user, CSRF), lock the player's game row
    and update it, in one transaction."""
    if not request.user.is_authenticated:
        raise Http404("no such page")
    with transaction.atomic():
        locked = (
            Game.objects.select_for_update(of=("self",))
            .filter(pk=game_id, table__seats__user_id=request.user.pk)
            .values_list("pk", flat=True)
            .first()
        )
        if locked is None:
            raise Http404("no such game")
        Game.objects.filter(pk=locked).update(updated_at=timezone.now())
    return HttpResponse(status=204)
