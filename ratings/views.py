"""Pages of the ratings app: a player's profile, the leaderboards, and the rematch button."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.errors import SiteRefusal
from games.links import table_path
from games.models import Game
from ratings import selectors, services, skill
from ratings.models import Family


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    page = selectors.profile(username=username, viewer=request.user)
    return render(request, "ratings/profile.html", {"profile": page, "provisional_games": skill.PROVISIONAL_GAMES})


HISTORY_PAGE = 50


@require_GET
def history(request: HttpRequest, username: str) -> HttpResponse:
    family = request.GET.get("family") or None
    owner, rows = selectors.game_history(username=username, viewer=request.user, family=family)
    page = Paginator(rows, HISTORY_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/history.html", {"owner": owner, "page": page, "family": family,
                                                     "families": Family.choices})


@require_GET
def leaderboard(request: HttpRequest, family: str = Family.CLASSIC) -> HttpResponse:
    if family not in Family.values:
        raise Http404("no such rating family")
    rows = selectors.leaderboard(family=family)
    return render(request, "ratings/leaderboard.html", {
        "rows": rows, "family": family, "families": Family.choices, "family_label": Family(family).label,
        "provisional_games": skill.PROVISIONAL_GAMES})


@require_POST
@login_required
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("table"), pk=game_id)
    try:
        table, created = services.rematch_create(game=game, by=request.user)
    except SiteRefusal as e:
        messages.error(request, e.localized())
        return redirect(reverse("games:game", args=[game.pk]))
    if created:
        messages.success(request, _("A new table with the same seats and rules is open; the other players are "
                                    "invited."))
    else:
        messages.info(request, _("Your rematch table is already open."))
    return redirect(table_path(table.pk))
