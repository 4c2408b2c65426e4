"""A game's record and its replay: the download of a finished game's record, the replay viewer
that steps through it, and the upload of a record (anyone's, from a file) to step through."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_http_methods

from accounts.names import bdi, isolated
from config.ratelimit import limit
from games import records, services
from games.board_words import localized_board
from games.models import Game, Replay, Seat
from games.selectors import last_replay, live_names, surrendered_seats, table_seats, visible_game
from games.views.page.board import board_view, dice_view, economy_view
from games.views.page.decision import decision_text
from games.views.page.log import action_label, action_seat, event_lines, last_card
from games.views.page.parts import replay_html
from games.views.page.players import players_view
from games.views.play_forms import query_int


def _finished(request: HttpRequest, game_id: int) -> Game:
    """A finished game the viewer may see (the game page's rule: selectors.visible_game)."""
    seen = visible_game(game_id=game_id, user=request.user)
    if seen is None:
        raise Http404("no such game")
    game = seen.game
    if game.status == Game.Status.ACTIVE:
        # The record holds the seed: while the game runs it would tell the dice to come.
        raise Http404("the record is available once the game is over")
    return game


@require_GET
def record(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _finished(request, game_id)
    response = JsonResponse(records.game_record(game), json_dumps_params={"separators": (",", ":")})
    response["Content-Disposition"] = f'attachment; filename="monopoly-game-{game.pk}.json"'
    return response


def _replay_context(replay: Replay, step: int | None, *, seats: list[Seat] | None = None) -> dict[str, Any]:
    """One step of a prepared record (games/records.py: one chunk read, at most
    CHECKPOINT_EVERY actions replayed), as the replay page shows it. With a game's ``seats``, each
    person shows by their current name (the position is a fresh copy, never saved)."""
    pos = records.replay_position(replay=replay, step=step)
    state, action, steps = pos.state, pos.action, pos.steps
    state.board = localized_board(state.board)  # the squares' names in the reader's language
    if seats is not None:
        for player, name in zip(state.players, live_names([p.name for p in state.players], seats), strict=True):
            player.name = name
    names = [p.name for p in state.players]
    # (An uploaded record has no game to ask who surrendered: its cards say "bankrupt".)
    out = replay.game_id is not None and any(pl.bankrupt for pl in state.players)
    players = players_view(state, me=None, surrendered=surrendered_seats(game_id=replay.game_id) if out else ())
    seat = action_seat(action) if action else None
    nav = records.replay_nav(services.replay_turns(replay=replay), pos.step, steps)
    squares, dice, economy = board_view(state, players), dice_view(state.last_dice), economy_view(state)
    return {
        "state": state, "players": players, "squares": squares,
        "decision": decision_text(state), "dice": dice,
        "economy": economy, "last_card": last_card(pos.events, names),
        # The board, the players and the dice as the game page draws them (page/parts.py).
        **replay_html(squares=squares, players=players, economy=economy, dice=dice),
        "step": pos.step, "steps": steps, "prev": max(0, pos.step - 1), "next": min(steps, pos.step + 1),
        "action": action, "action_label": action_label(action) if action else "",
        # Each player's name isolated (<bdi>: issue 26, item 30), as in the game's log.
        "actor": bdi(names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else None,
        "lines": [isolated(line, names) for line in event_lines(
            pos.events, names, state.board, reason=action.get("reason") if action else None)],
        "board_name": state.board.name, "rules": state.rules,
        "replayed": pos.replayed,
        "nav": nav, "nav_player": bdi(names[nav.seat]) if 0 <= nav.seat < len(names) else "",
    }


def _render_replay(request: HttpRequest, ctx: dict[str, Any]) -> HttpResponse:
    if request.htmx and not request.htmx.boosted:
        return render(request, "games/partials/replay_body.html", ctx)
    return render(request, "games/replay.html", ctx)


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a finished game, move by move."""
    game = _finished(request, game_id)
    # Played over with each person's current name (the download keeps the start's).
    seats = table_seats(table_id=game.table_id)
    ctx = _replay_context(services.game_replay(game=game), query_int(request, "step"), seats=seats)
    ctx.update(game=game, table=game.table, title=game.table.name,
               base_url=reverse("games:game_replay", args=[game.pk]),
               record_url=reverse("games:game_record", args=[game.pk]))
    return _render_replay(request, ctx)


def _upload_refused(request: HttpRequest, error: str) -> HttpResponse:
    return render(request, "games/record_upload.html", {"error": error, "max_mb": records.MAX_RECORD_BYTES // 2**20},
                  status=400)


# A multipart body carries the file and a few fields (the CSRF token, the part headers).
_UPLOAD_OVERHEAD = 64 * 1024


@login_required
@csrf_exempt
@require_http_methods(["GET", "POST"])
@limit("RATE_LIMIT_UPLOADS")
def record_upload(request: HttpRequest) -> HttpResponse:
    """Upload a game record to step through it: kept, prepared (games/records.py), as the
    uploader's one uploaded record until they upload another.

    A body larger than a record may be is refused before anything reads it: the CSRF check is
    therefore made here, after that test, rather than by the middleware, which would read (and
    store) the whole upload first (Django's pattern for changing how uploads are read)."""
    if request.method == "POST":
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > records.MAX_RECORD_BYTES + _UPLOAD_OVERHEAD:
            return _upload_refused(request, records.too_large_message())
    return _record_upload(request)


# Where the record used to be kept: a session holding one was read (megabytes) at every request.
_OLD_SESSION_RECORD = "uploaded_record"


@csrf_protect
def _record_upload(request: HttpRequest) -> HttpResponse:
    request.session.pop(_OLD_SESSION_RECORD, None)
    if request.method == "POST":
        upload = request.FILES.get("record")
        if upload is None:
            return _upload_refused(request, _("Choose a game record file (.json) to upload."))
        if upload.size > records.MAX_RECORD_BYTES:
            return _upload_refused(request, records.too_large_message())
        try:
            record = records.parse_record(upload.read())
            services.replay_upload(owner=request.user, record=record)
        except records.RecordError as e:
            return _upload_refused(request, str(e))
        return redirect(reverse("games:record_replay") + f"?step={len(record['actions'])}")
    return render(request, "games/record_upload.html", {"error": None, "max_mb": records.MAX_RECORD_BYTES // 2**20})


@login_required
@require_GET
def record_replay(request: HttpRequest) -> HttpResponse:
    """Step through the record the user uploaded last."""
    replay = last_replay(owner=request.user)
    if replay is None:
        messages.info(request, _("Upload a game record to view it."))
        return redirect("games:record_upload")
    ctx = _replay_context(replay, query_int(request, "step"))
    ctx.update(game=None, title=_("Uploaded game record"), base_url=reverse("games:record_replay"),
               record_url=None)
    return _render_replay(request, ctx)
