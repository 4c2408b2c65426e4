"""The game page, its poll and log, and the one endpoint of every move (answered in JSON to
programs that ask for it). (A finished game's record and replay, and uploaded records:
games/views/records.py.)

One view serves both the full page and, for htmx requests, the ``#game`` fragment that the poll
and the move forms swap in (django-htmx style); the page's own script asks for only the parts
that changed (games/views/page/parts.py). Every form also works without JavaScript: it posts,
and the view redirects back to the page with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from config.ratelimit import limit
from games import services
from games.engine import GameState
from games.errors import translate_refusal
from games.models import Game, Seat
from games.selectors import VisibleGame, game_version, name_changes, visible_game
from games.views.api import refusal_json, seat_actions
from games.views.errors import refused_page
from games.views.page import parts
from games.views.page.context import game_page, log_rows, log_since, new_log_rows, shown_state
from games.views.page.log import LOG_PAGE, log_entries
from games.views.play_forms import FormError, number_ranges, parse_action, prefill_from, query_int
from moderation.selectors import forget_lockout, lockout_refusal
from notifications import presence

# What a move by someone without a seat gets: programs match the English, people read it in
# their language.
NOT_A_PLAYER = gettext_noop("Only the players of this game may make moves.")
LOCKED_OUT = "Your account is suspended."  # (the English of a lockout, for programs)


def _load(request: HttpRequest, game_id: int) -> VisibleGame:
    """The game, its seats and the viewer's seat, if the viewer may see it (the one rule:
    selectors.visible_game); 404 for everyone else."""
    seen = visible_game(game_id=game_id, user=request.user)
    if seen is None:
        raise Http404("no such game")
    return seen


# ---------------------------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------------------------

@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seats, me = _load(request, game_id)
    if me is not None:
        presence.seen(user_id=request.user.pk, game_id=game.pk)
    page = game_page(request, game, seats, me)
    if request.htmx and not request.htmx.boosted:
        if request.GET.get("part") == "tools":
            # The tools slot alone: the trade builder drawn afresh as its player opens it (game.js).
            return HttpResponse(parts.part_html(parts.TOOLS, page))
        return HttpResponse(parts.body_html(page))
    # (The site's frame, base.html, reads the game too: its "next game" link skips this one.)
    return render(request, "games/game.html", {**page.template_vars, "page_html": parts.page_html(page)})


@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """204 while the game has not moved past the version the page shows (``?v=``; one query,
    the game with its seats, as every answer reads it: selectors.visible_game). Else, for the
    page's own script (``X-Game-Parts``, with the marks of what the page shows), only the parts
    that differ from those (parts.py), and otherwise the fresh ``#game`` fragment."""
    game, seats, me = _load(request, game_id)
    if request.user.is_authenticated:
        # The page is open: no e-mail about this game while it polls (issue 14).
        presence.seen(user_id=request.user.pk, game_id=game_id)
    if request.GET.get("v", "") == str(game.version):
        return HttpResponse(status=204)
    shown = parts.shown_marks(request)
    if shown is not None:
        log = log_since(game, parts.log_seen(shown))
        page = game_page(request, game, seats, me, log=log, parts=True)
        answer = parts.move_answer(page, shown=shown, log_from=log[0][-1]["seq"] if log else None)
        if answer is not None:
            return answer
    return HttpResponse(parts.body_html(game_page(request, game, seats, me)))


@require_GET
def log(request: HttpRequest, game_id: int) -> HttpResponse:
    """Older entries of the game log: a fragment for htmx's "Older moves" link, else a page."""
    game, seats, me = _load(request, game_id)
    state = shown_state(game.state, seats)
    rows, more = log_rows(game, query_int(request, "before"), limit=LOG_PAGE if request.htmx else 200)
    entries = log_entries(rows, [p.name for p in state.players], state.board,
                          viewer=me.position if me is not None else None)
    html = parts.log_html(game.pk, entries, more=more, before=rows[-1]["seq"] if rows else None,
                          older=bool(request.htmx))
    if request.htmx:
        return HttpResponse(html)
    return render(request, "games/game_log.html", {"game": game, "table": game.table, "entries_html": html})


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------

def _answer(request: HttpRequest, game_id: int, *, message: str | None, status: int,
            level: str = "error", prefill: dict | None = None,
            loaded: tuple[Game, list[Seat], Seat | None] | None = None) -> HttpResponse:
    """The page's answer to a move: for htmx the refreshed ``#game`` fragment (with the message,
    and the status code that says what happened), else a redirect to the page with the message.
    ``loaded`` is the game as the move just wrote it, when there is no need to read it again."""
    if not request.htmx:
        if message:
            messages.add_message(request, messages.ERROR if level == "error" else messages.WARNING, message)
        return redirect("games:game", game_id=game_id)
    game, seats, me = loaded or _load(request, game_id)
    page = game_page(request, game, seats, me, flash=message, flash_level=level, prefill=prefill)
    response = HttpResponse(parts.body_html(page), status=status)
    if status >= 400:
        # The form's own target may be narrower than the game; a refusal redraws all of it.
        response = reswap(retarget(response, "#game"), "outerHTML")
    return response


def _sentence(e: services.GameError, request: HttpRequest, game_id: int) -> tuple[str, str]:
    return capfirst(e.localized()) + ".", capfirst(str(e)) + "."


def _engine_words(e: services.GameError, request: HttpRequest, game_id: int) -> tuple[str, str]:
    # The engine's reason, or the site's own (a finished game, a forged action); the engine
    # names players as its state does, the page by their current names.
    game, seats, _me = _load(request, game_id)
    names = name_changes([p["name"] for p in game.state.get("players") or []], seats)
    return _("Refused: %(reason)s.") % {"reason": translate_refusal(e, names=names)}, f"Refused: {e}."


# Each refusal of a move: its status, the level of its message, and its words (the reader's, and
# the English that programs keep in ``error``), the first that matches.
Words = Callable[[Exception, HttpRequest, int], tuple[str, str]]
REFUSALS: tuple[tuple[type[Exception], int, str, Words], ...] = (
    (FormError, 400, "error", lambda e, request, game_id: (e.localized(), str(e))),
    (services.StaleVersion, 409, "warning", _sentence),
    (services.NotAllowed, 403, "error", _sentence),
    (services.GameError, 400, "error", _engine_words),
)


class _NotAPlayer(Exception):
    """A move by someone without a seat in the game (who may still see it)."""


@require_POST
@limit("RATE_LIMIT_MOVES")
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every move of the page's forms, and of programs: the same checks and the same form fields
    for both; a program asking for JSON gets JSON back (see ``_wants_json``)."""
    as_json = _wants_json(request)
    if not request.user.is_authenticated:
        return _forbidden(request, game_id, as_json)
    # A move is a visit: no e-mail about this game while its player is at it (issue 14).
    presence.seen(user_id=request.user.pk, game_id=game_id)
    try:
        # (The game is locked and read once, by the service; a refusal reads it to answer.)
        parsed = parse_action(request.POST, ranges=lambda key: _ranges(request, game_id, key))
        sub = services.game_submit_actions(game=game_id, user=request.user, actions=parsed.actions,
                                           expected_version=parsed.version)
    except (Game.DoesNotExist, services.NotSeated, _NotAPlayer):
        return _forbidden(request, game_id, as_json)
    except (FormError, services.GameError) as e:
        return _refused(request, game_id, as_json, e)
    me = next(s for s in sub.seats if s.user_id == request.user.pk)
    return _moved_json(sub, me) if as_json else _moved(request, sub, me)


def _refused(request: HttpRequest, game_id: int, as_json: bool, e: FormError | services.GameError) -> HttpResponse:
    """A refused move, in the words of ``REFUSALS``. First the one lockout check: a suspended or
    banned player's games go on without them (their turns time out), and every move of theirs is
    refused so, whatever else is wrong with it. (The service finds it in its read of the seats,
    LockedOut, for a move it would make; a move refused before that is asked here.)"""
    if isinstance(e, services.LockedOut):
        forget_lockout(user_id=request.user.pk)  # (what the cache remembered may be older than the sanction)
    locked = lockout_refusal(user=request.user)
    if locked or isinstance(e, services.LockedOut):
        return _forbidden(request, game_id, as_json, locked=locked or LOCKED_OUT)
    if isinstance(e, FormError) and _load(request, game_id).me is None:
        return _forbidden(request, game_id, as_json)
    status, level, words = next((s, lv, w) for kind, s, lv, w in REFUSALS if isinstance(e, kind))
    message, error = words(e, request, game_id)
    return _refusal(request, game_id, as_json, message=message, error=error, status=status, level=level,
                    prefill=prefill_from(request.POST), refusal=refusal_json(e))


def _ranges(request: HttpRequest, game_id: int, key: str):
    """What a number field allows now, to word a refused number (the position is read only then)."""
    game, _seats, me = _load(request, game_id)
    if me is None:
        raise _NotAPlayer
    return number_ranges(GameState.from_json(game.state), me.position, request.POST)(key)


def _forbidden(request: HttpRequest, game_id: int, as_json: bool, *, locked: str | bool = False) -> HttpResponse:
    """403 for a move by someone without a seat (404 for a game they may not see at all), or by
    a locked-out player (``locked``: the sanction's words)."""
    if locked and _load(request, game_id).me is not None:
        message, error = str(locked), LOCKED_OUT
    else:
        _load(request, game_id)  # (404 for a game the viewer may not see at all)
        message, error = _(NOT_A_PLAYER), NOT_A_PLAYER
    if as_json or request.htmx:
        return _refusal(request, game_id, as_json, message=message, error=error, status=403)
    # Without JavaScript: the site's page, saying why, with the way back to the game.
    return refused_page(request, reason=message, status=403,
                        back_url=reverse("games:game", args=[game_id]), back_label=_("Back to the game"))


def _wants_json(request: HttpRequest) -> bool:
    """A program's move: it asks for JSON (``Accept: application/json``) and is not htmx, which
    always gets the fragment. Browsers' ``Accept`` prefers HTML, and ``*/*`` counts as HTML."""
    return not request.htmx and request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _refusal(request: HttpRequest, game_id: int, as_json: bool, *, message: str, status: int,
             level: str = "error", prefill: dict | None = None,
             error: str | None = None, refusal: dict | None = None) -> HttpResponse:
    """A refused move: for a program ``{"error": ..., "message": message}`` (a stale move also
    gets the current ``version``, to read the position again), else the page's answer.
    ``error`` is the English (the engine's for a move the rules refuse; ``message`` is then in
    the reader's language), by default the message itself; ``refusal`` the engine's stable
    ``code`` and ``params`` (api.refusal_json), what programs match on."""
    if as_json:
        body: dict[str, Any] = {"error": message if error is None else error, "message": message}
        body.update(refusal or {})
        if status == 409:
            body["version"] = game_version(game_id=game_id)
        return JsonResponse(body, status=status)
    return _answer(request, game_id, message=message, status=status, level=level, prefill=prefill)


def _moved_json(sub: services.Submission, me: Seat) -> JsonResponse:
    """A program's answer to its move, from the game and state the service just wrote (no read,
    no template): the version its next move quotes, who the game waits on, and its own legal
    actions as legal.json lists them."""
    game = sub.game
    return JsonResponse({
        "version": game.version, "pending": game.pending, "waiting": game.waiting_seats,
        "legal": seat_actions(game, me.position, sub.state), "over": game.status != Game.Status.ACTIVE,
    })


def _moved(request: HttpRequest, sub: services.Submission, me: Seat) -> HttpResponse:
    """The page's answer to its move: for its own script only the parts that now differ from
    what it shows (its marks; issue 12), else the whole fragment (or, without JavaScript, the
    page again)."""
    shown = parts.shown_marks(request)
    if shown is not None:
        # The rows the move wrote, unless the page's log is older than the position it moved
        # from (it missed others' moves): then those it lacks, read.
        seen = parts.log_seen(shown)
        log = new_log_rows(sub) if seen >= sub.before["seq"] else log_since(sub.game, seen)
        page = game_page(request, sub.game, sub.seats, me, log=log, parts=True, written=sub.state)
        answer = parts.move_answer(page, shown=shown, log_from=log[0][-1]["seq"] if log else None)
        if answer is not None:
            return answer
    # The service's game is the position just committed (seats do not change in play).
    return _answer(request, sub.game.pk, message=None, status=200, loaded=(sub.game, sub.seats, me))
