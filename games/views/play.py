"""The game page: the board, the players, the pending decision and the log; one endpoint that
takes every move (answered in JSON to programs that ask for it); a cheap poll. (A finished
game's record and replay, and uploaded records: games/views/records.py.)

One view serves both the full page and, for HTMX requests, the ``#game`` fragment that the poll
and the move forms swap in (django-htmx style). Every form also works without JavaScript: it
posts, and the view redirects back to the page with a message.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from config.ratelimit import limit
from games import hot_reads, live, services, vacation
from games.board_words import localized_board
from games.engine import GameState
from games.errors import translate_refusal
from games.links import game_url
from games.models import Game, Seat, Table
from games.selectors import VisibleGame, live_names, name_changes, visible_game
from games.views.api import refusal_json, seat_actions
from games.views.errors import refused_page
from games.views.page import draw as page_html
from games.views.page import parts as move_parts
from games.views.page.board import board_view, dice_view, economy_view, square_marks
from games.views.page.decision import choices_for, decision_text, offer_view
from games.views.page.log import last_card, log_entries
from games.views.page.players import players_view
from games.views.page.trade import builder_view, default_builder
from games.views.play_forms import FormError, number_ranges, parse_action, prefill_from
from games.views.play_forms import query_int as _int_param
from moderation.selectors import forget_lockout, lockout_refusal
from notifications import presence

POLL_SECONDS = {Table.Pace.LIVE: 2, Table.Pace.CORRESPONDENCE: 15}
LOG_PAGE = 20
# What a move by someone without a seat gets: programs match the English, people read it in
# their language.
NOT_A_PLAYER = gettext_noop("Only the players of this game may make moves.")


# ---------------------------------------------------------------------------------------------
# Loading and permissions
# ---------------------------------------------------------------------------------------------

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

def _log_rows(game: Game, before: int | None = None, limit: int = LOG_PAGE) -> tuple[list[dict], bool]:
    # (The ORM's query, compiled once: games/hot_reads.py.)
    rows = hot_reads.log_rows(game.pk, before=before, limit=limit + 1)
    return rows[:limit], len(rows) > limit


def _shown_state(data: dict[str, Any], seats: list[Seat], *, written: GameState | None = None) -> GameState:
    """The position as the page shows it: each person by their current display name
    (selectors.live_names), not the name the state was given at the start. For display only:
    this copy is never saved. ``written``: the position ``data`` was just written from (a
    move's, services.Submission.state, which nothing uses once written): shown itself, not a
    copy read again."""
    players = data.get("players") or []
    names = live_names([p["name"] for p in players], seats)
    if written is not None:
        state = written
        for player, name in zip(state.players, names, strict=True):
            player.name = name
    else:
        if names != [p["name"] for p in players]:
            data = {**data, "players": [{**p, "name": n} for p, n in zip(players, names, strict=True)]}
        state = GameState.from_json(data)
    state.board = localized_board(state.board)  # the squares' names in the reader's language
    return state


def _context(request: HttpRequest, game: Game, seats: list[Seat], me: Seat | None, *,
             flash: str | None = None, flash_level: str = "error", prefill: dict | None = None,
             log: tuple[list[dict], bool] | None = None, parts: bool = False,
             written: GameState | None = None) -> dict[str, Any]:
    """The game fragment's context. ``log``: the newest log rows and whether older ones exist,
    when the caller has them (a move's answer: the rows it wrote, _new_log_rows); else the log's
    first page is read. With ``parts`` (an answer of only the parts that changed: move_parts),
    no squares and no trade builder: the answer draws those it needs itself. ``written``: the
    position the move just wrote (``_shown_state``)."""
    state = _shown_state(game.state, seats, written=written)
    active = game.status == Game.Status.ACTIVE
    my = me.position if me is not None else None
    # (A seat a bot plays since its player's third missed turn, RULES.md 15, takes no moves.)
    acting = my if active and me is not None and not me.bot else None
    if active and me is not None and me.bot and flash is None:
        # (The words of the service's refusal, as a sentence.)
        flash, flash_level = capfirst(_("a bot plays your seat since your third missed turn")) + ".", "warning"
    players = players_view(state, me=my)
    # Who is on vacation, shown on their card in the reader's time zone (RULES.md 15).
    away = vacation.on_vacation(game) if active and game.table.pace == Table.Pace.CORRESPONDENCE else {}
    for seat, until in away.items():
        if 0 <= seat < len(players):
            players[seat]["away"] = date_format(timezone.localtime(until), "DATETIME_FORMAT")
    choices = choices_for(state, acting)
    names = [p.name for p in state.players]
    if log is None:
        rows, more = _log_rows(game)
        log_before = rows[-1]["seq"] if rows else None
    else:
        # The first page as the page shows it after the move, of which these are the newest.
        rows, more = log
        log_before = max(rows[0]["seq"] - (LOG_PAGE - 1), 0) if rows else None
    offer = offer_view(state, acting)

    trade_builder = None
    builder_open = False
    if acting is not None and not parts:
        counter = _int_param(request, "counter")
        if prefill and prefill.get("to") is not None:
            other = prefill["to"]
            if 0 <= other < len(state.players) and other != acting and not state.players[other].bankrupt:
                trade_builder = builder_view(state, acting, other, prefill=prefill,
                                                     counter=prefill.get("counter"))
                builder_open = True
        elif offer and offer["for_me"] and counter == offer["id"] and offer["counter_error"] is None:
            t = offer["raw"]
            trade_builder = builder_view(state, acting, t["from"],
                                                 prefill={"give": t["take"], "take": t["give"]}, counter=t["id"])
            builder_open = True
        else:
            # (Open when the player picked the partner's tab, ?trade_with=.)
            wanted = _int_param(request, "trade_with")
            trade_builder = default_builder(state, acting, choices, partner=wanted)
            builder_open = trade_builder is not None and wanted is not None and trade_builder["to"] == wanted

    bots_waited_on = _bots_waited_on(game, seats)
    ctx = {
        "game": game, "table": game.table, "state": state, "rules": state.rules, "me": me, "my_seat": my,
        "acting": acting, "is_player": me is not None, "active": active,
        "players": players,
        "squares": None if parts else board_view(state, players, targets=choices.targets),
        "choices": choices, "decision": decision_text(state), "offer": offer,
        "builder": trade_builder, "builder_open": builder_open,
        "dice": dice_view(state.last_dice), "economy": economy_view(state),
        "last_card": last_card(rows[0]["events"] if rows else [], names),
        "log": log_entries(rows, names, state.board, viewer=my), "log_more": more,
        "log_before": log_before,
        "waiting_names": [names[p] for p in game.waiting_seats if 0 <= p < len(names)],
        # Issue 10: while only bots are waited on, their tasks move the game every
        # BOT_DELAY_SECONDS: the page follows them at the live pace, and shows no clock (theirs
        # is the site's backstop, not a time anyone is given).
        "deadline": game.deadline if active and not bots_waited_on else None,
        "poll_seconds": _poll_seconds(game, bots_waited_on),
        # Push where Redis is configured (games/live.py); the page polls without it.
        "live_url": game_url("games:game_events", game.pk) if active and live.pushes_to(request) else None,
        "flash": flash, "flash_level": flash_level,
        "board_name": state.board.name,
        "away": away,
    }
    # What each part shows, for the page to send back with its moves and fetches (move_parts).
    ctx["square_marks"] = square_marks(state, players, targets=choices.targets) if active else None
    ctx["marks"] = move_parts.page_marks(ctx) if active else {}
    ctx["marks_text"] = move_parts.marks_text(ctx["marks"])
    return ctx


def _bots_waited_on(game: Game, seats: list[Seat]) -> bool:
    """Whether the game, in play, waits on bots only (issue 10)."""
    bot_seats = {s.position for s in seats if s.bot}
    return (game.status == Game.Status.ACTIVE and bool(game.waiting_seats)
            and all(p in bot_seats for p in game.waiting_seats))


def _poll_seconds(game: Game, bots_waited_on: bool) -> int:
    return POLL_SECONDS[Table.Pace.LIVE] if bots_waited_on else POLL_SECONDS.get(game.table.pace, 15)


@require_GET
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    game, seats, me = _load(request, game_id)
    if me is not None:
        presence.seen(user_id=request.user.pk, game_id=game.pk)
    ctx = _context(request, game, seats, me)
    if request.htmx and not request.htmx.boosted:
        if request.GET.get("part") == "tools":
            # The tools slot alone: the trade builder drawn afresh as its player opens it (game.js).
            return HttpResponse(page_html.tools_html(ctx, request))
        return render(request, "jinja2/games/game_body.html", ctx)
    return render(request, "games/game.html", ctx)


@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """204 while the game has not moved past the version the page shows (``?v=``; one query,
    the game with its seats, as every answer reads it: selectors.visible_game). Else, for the
    page's own script (``X-Game-Parts``, with the marks of what the page shows), only the parts
    that differ from those (move_parts), and otherwise the fresh ``#game`` fragment."""
    game, seats, me = _load(request, game_id)
    if request.user.is_authenticated:
        # The page is open: no e-mail about this game while it polls (issue 14).
        presence.seen(user_id=request.user.pk, game_id=game_id)
    if request.GET.get("v", "") == str(game.version):
        return HttpResponse(status=204)
    shown = move_parts.shown_marks(request)
    if shown is not None:
        log = _log_since(game, move_parts.log_seen(shown))
        answer = move_parts.move_answer(request, ctx=_context(request, game, seats, me, log=log, parts=True),
                                        shown=shown, log_page=LOG_PAGE, log_from=log[0][-1]["seq"] if log else None)
        if answer is not None:
            return answer
    return render(request, "jinja2/games/game_body.html", _context(request, game, seats, me))


@require_GET
def log(request: HttpRequest, game_id: int) -> HttpResponse:
    """Older entries of the game log: a fragment for HTMX's "more" link, else a page."""
    game, seats, me = _load(request, game_id)
    state = _shown_state(game.state, seats)
    rows, more = _log_rows(game, _int_param(request, "before"), limit=LOG_PAGE if request.htmx else 200)
    ctx = {"game": game, "table": game.table,
           "log": log_entries(rows, [p.name for p in state.players], state.board,
                                      viewer=me.position if me is not None else None),
           "log_more": more, "log_before": rows[-1]["seq"] if rows else None}
    if request.htmx:
        return render(request, "games/partials/log_entries.html", ctx)
    return render(request, "games/game_log.html", ctx)


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------

def _answer(request: HttpRequest, game_id: int, *, message: str | None, status: int,
            level: str = "error", prefill: dict | None = None,
            loaded: tuple[Game, list[Seat], Seat | None] | None = None) -> HttpResponse:
    """The page's answer to a move: for HTMX the refreshed ``#game`` fragment (with the message,
    and the status code that says what happened), else a redirect to the page with the message.
    ``loaded`` is the game as the move just wrote it, when there is no need to read it again."""
    if not request.htmx:
        if message:
            messages.add_message(request, messages.ERROR if level == "error" else messages.WARNING, message)
        return redirect("games:game", game_id=game_id)
    game, seats, me = loaded or _load(request, game_id)
    ctx = _context(request, game, seats, me, flash=message, flash_level=level, prefill=prefill)
    response = render(request, "jinja2/games/game_body.html", ctx, status=status)
    if status >= 400:
        # The form's own target may be narrower than the game; a refusal redraws all of it.
        response = reswap(retarget(response, "#game"), "outerHTML")
    return response


class _NotAPlayer(Exception):
    """A refused number's range cannot be worded for someone without a seat (act)."""


def _new_log_rows(sub: services.Submission) -> tuple[list[dict], bool] | None:
    """The log rows a move wrote, newest first, as ``_log_rows`` reads them, and whether older
    ones exist: what a move's answer adds to the page's log without reading it again. None when
    the move wrote a whole page of them or more (the answer then shows the log's first page as
    read)."""
    # (Not the rows of secret maximum bids, which the log never shows: GameAction.sub.)
    shown = [r for r in sub.rows if not r.sub]
    if not shown or len(shown) >= LOG_PAGE:
        return None
    rows = [{"seq": r.seq, "seat": r.seat, "source": r.source, "events": r.events, "created_at": r.created_at,
             "reason": (r.action or {}).get("reason")} for r in reversed(shown)]
    # (Actions are numbered from 0, one log row each: seq + 1 of them so far.)
    return rows, rows[0]["seq"] + 1 > LOG_PAGE


def _log_since(game: Game, seen: int) -> tuple[list[dict], bool] | None:
    """The log rows newer than entry ``seen``, the newest a page shows (``move_parts.log_seen``),
    newest first, and whether older ones exist: what an answer of parts adds to that page's log,
    read without the entries it already shows (as ``_new_log_rows`` gives a move's own). At
    least the newest row, which the centre's last card comes from. None when the page's marks
    do not say, or a page's worth or more is new: the log's first page is read then (its list
    is redrawn whole)."""
    newest = game.state["seq"]
    if not 0 <= seen <= newest or newest - seen >= LOG_PAGE:
        return None
    # (Actions are numbered from 0, one log row each: the newest n rows are those after
    # newest - n.)
    return hot_reads.log_rows(game.pk, limit=max(newest - seen, 1)), newest + 1 > LOG_PAGE


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
            body["version"] = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
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


@require_POST
@limit("RATE_LIMIT_MOVES")
def act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every move of the page's forms, and of programs: the same checks and the same form fields
    for both; a program asking for JSON gets JSON back (see ``_wants_json``)."""
    as_json = _wants_json(request)

    def forbidden(message: str, error: str) -> HttpResponse:
        if as_json or request.htmx:
            return _refusal(request, game_id, as_json, message=message, error=error, status=403)
        # Without JavaScript: the site's page, saying why, with the way back to the game.
        return refused_page(request, reason=message, status=403,
                            back_url=reverse("games:game", args=[game_id]), back_label=_("Back to the game"))

    def not_a_player() -> HttpResponse:
        _load(request, game_id)  # (404 for a game the viewer may not see at all)
        return forbidden(_(NOT_A_PLAYER), NOT_A_PLAYER)

    def locked_out() -> HttpResponse | None:
        # A suspended or banned player's games go on without them (their turns time out): every
        # move of theirs is refused so, whatever else is wrong with it. (The service finds it
        # for a move it would make, in its read of the seats; a move refused before that asks.)
        refusal = lockout_refusal(user=request.user)
        if refusal is None:
            return None
        if _load(request, game_id).me is None:
            return not_a_player()
        return forbidden(refusal, "Your account is suspended.")

    # A move is locked and read once, by the service: the checks before it need no game, and a
    # refused move reads the game only then, to answer (which takes as long as it takes).
    if not request.user.is_authenticated:
        return not_a_player()
    # A move is a visit: no e-mail about this game while its player is at it (issue 14).
    presence.seen(user_id=request.user.pk, game_id=game_id)
    prefill = prefill_from(request.POST)

    def ranges(key: str):
        # Read the position only to word a refused number (what the field allows now).
        game, _seats, me = _load(request, game_id)
        if me is None:
            raise _NotAPlayer
        return number_ranges(GameState.from_json(game.state), me.position, request.POST)(key)

    try:
        parsed = parse_action(request.POST, ranges=ranges)
    except _NotAPlayer:
        return not_a_player()
    except FormError as e:
        if _load(request, game_id).me is None:
            return not_a_player()
        return locked_out() or _refusal(request, game_id, as_json, message=e.localized(), error=str(e),
                                        status=400, prefill=prefill)
    try:
        sub = services.game_submit_actions(game=game_id, user=request.user, actions=parsed.actions,
                                           expected_version=parsed.version)
    except (Game.DoesNotExist, services.NotSeated):
        return not_a_player()
    except services.LockedOut:
        # (What the cache remembered of the player may be older than the sanction: read afresh.)
        forget_lockout(user_id=request.user.pk)
        return locked_out() or forbidden("Your account is suspended.", "Your account is suspended.")
    # Each refusal in the reader's words; programs keep the English in ``error``.
    except services.StaleVersion as e:
        return locked_out() or _refusal(request, game_id, as_json, message=capfirst(e.localized()) + ".",
                                        error=capfirst(str(e)) + ".", status=409, level="warning",
                                        prefill=prefill)
    except services.NotAllowed as e:
        return locked_out() or _refusal(request, game_id, as_json, message=capfirst(e.localized()) + ".",
                                        error=capfirst(str(e)) + ".", status=403)
    except services.GameError as e:
        if (answer := locked_out()) is not None:
            return answer
        # The engine's reason, or the site's own (a finished game, a forged action); the engine
        # names players as its state does, the page by their current names.
        game, seats, _me = _load(request, game_id)
        names = name_changes([p["name"] for p in game.state.get("players") or []], seats)
        return _refusal(request, game_id, as_json,
                        message=_("Refused: %(reason)s.") % {"reason": translate_refusal(e, names=names)},
                        error=f"Refused: {e}.", status=400, prefill=prefill, refusal=refusal_json(e))
    seats = sub.seats
    me = next(s for s in seats if s.user_id == request.user.pk)
    if as_json:
        return _moved_json(sub, me)
    shown = move_parts.shown_marks(request)
    if shown is not None:
        # The page's own script: only the parts that now differ from what the page shows (its
        # marks; issue 12).
        # The rows the move wrote, unless the page's log is older than the position it moved
        # from (it missed others' moves): then those it lacks, read.
        seen = move_parts.log_seen(shown)
        log = _new_log_rows(sub) if seen >= sub.before["seq"] else _log_since(sub.game, seen)
        ctx = _context(request, sub.game, seats, me, log=log, parts=True, written=sub.state)
        answer = move_parts.move_answer(request, ctx=ctx, shown=shown, log_page=LOG_PAGE,
                                        log_from=log[0][-1]["seq"] if log else None)
        if answer is not None:
            return answer
    # The service's game is the position just committed (seats do not change in play).
    return _answer(request, game_id, message=None, status=200, loaded=(sub.game, seats, me))
