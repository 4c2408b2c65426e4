"""The game page's hot parts: the board's 40 squares, the players' panels, the log, the centre
of the board (the decision and its forms) and the slots a move redraws (tools, surrender).

Every move, poll and page view redraws them: they are the biggest part of the game fragment.
Their markup is in templates (``templates/jinja2/games/partials/board/squares.html``,
``players/panels.html``, ``log/entries.html``, ``decision.html``, ``game_tools.html``,
``surrender.html``); these functions are the one way in, for the page's own templates (the
``board_squares``, ``player_items``, ``log_items``, ``decision_centre``, ``game_tools`` and
``surrender_panel`` tags) and for a move's answer, which redraws parts on their own
(move_parts.py).

They are Jinja2 templates (settings.TEMPLATES "jinja2", config/jinja2.py): as Django templates
the board alone took ten times as long as the markup drawn in Python that preceded them, most
of a move's response; compiled by Jinja2 they cost about what that did. ``bench/web.py --render``
times them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.template import engines
from django.template.backends.utils import csrf_input
from django.template.defaultfilters import timeuntil_filter
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone_name, template_localtime
from django.utils.translation import get_language, pgettext

from games.links import game_url
from games.views.page.players import group_marks

SQUARES = "games/partials/board/squares.html"
SQUARE = "games/partials/board/square.html"
PLAYERS = "games/partials/players/panels.html"
DEEDS = "games/partials/players/deeds.html"
LOG = "games/partials/log/entries.html"
LOG_MORE = "games/partials/log/more.html"
DECISION = "games/partials/decision.html"
DICE = "games/partials/dice.html"
TOOLS = "games/partials/game_tools.html"
SURRENDER = "games/partials/surrender.html"


def _render(name: str, **context: Any) -> SafeString:
    # Jinja2 autoescapes every value (config/jinja2.py): what it returns is markup.
    return mark_safe(engines["jinja2"].env.get_template(name).render(**context))


def squares_html(
    squares: list[dict[str, Any]],
    *,
    economy: dict[str, Any] | None = None,
    game_id: int | None = None,
) -> SafeString:
    """The squares of ``present.board_view``, in board order. ``game_id`` is needed only when a
    square is a target (it posts the pick to the game's act endpoint)."""
    act_url = None
    if game_id is not None and any(sq["target"] for sq in squares):
        act_url = game_url("games:game_act", game_id)
    return _render(SQUARES, squares=squares, economy=economy, act_url=act_url)


def square_html(sq: dict[str, Any], *, economy: dict[str, Any] | None = None, game_id: int | None = None) -> SafeString:
    """One square of ``present.board_view`` (a list item of ``squares_html``'s list), for a move's
    answer that redraws only the squares it changed (move_parts.py)."""
    act_url = game_url("games:game_act", game_id) if game_id is not None and sq["target"] else None
    return _render(SQUARE, sq=sq, economy=economy, act_url=act_url)


def log_html(entries: list[dict[str, Any]]) -> SafeString:
    """The log's entries (``present.log_entries``), newest first, as list items."""
    return _render(LOG, log=entries)


def players_html(players: list[dict[str, Any]], deadline: Any = None, *, deed_base: str | None = None) -> SafeString:
    """The players' panels (``present.players_view``); ``deadline`` is the pending decision's,
    shown on the badge of whoever it waits on. With ``deed_base`` (the game's deed card
    address without the square), each deed links to its card."""
    language = get_language()
    deeds = [_deeds_html(p["groups"], deed_base, language) for p in players]
    return _render(PLAYERS, players=players, deadline=_time_left(deadline), deed_base=deed_base, deeds=deeds,
                   on=pgettext("the square a player stands on", "On"))


class Kept:
    """Markup kept by a key that says everything it shows: drawn once (``draw()``), then given
    again; at most ``size`` pieces (all forgotten when full, and when a setting changes: the
    words, the numbers' formats and the templates come from the settings)."""

    def __init__(self, size: int = 4096) -> None:
        self._kept: dict[tuple, SafeString] = {}
        self._size = size
        _ALL_KEPT.append(self)

    def get(self, key: tuple, draw: Callable[[], SafeString]) -> SafeString:
        html = self._kept.get(key)
        if html is None:
            if len(self._kept) >= self._size:
                self._kept.clear()
            html = self._kept[key] = draw()
        return html

    def clear(self) -> None:
        self._kept.clear()


_ALL_KEPT: list[Kept] = []


@receiver(setting_changed)
def _forget_kept(**_kwargs: Any) -> None:
    for kept in _ALL_KEPT:
        kept.clear()


# A player's deeds as their card shows them (players/deeds.html), kept by what they show (the
# groups' and deeds' fields, present.card_marks), the deed cards' address and the language:
# most of a card's markup, and the same from one move to the next while the cash changes.
_DEEDS_KEPT = Kept()


def _deeds_html(groups: list[dict[str, Any]], deed_base: str | None, language: str | None) -> SafeString:
    if not groups:
        return mark_safe("")
    return _DEEDS_KEPT.get((group_marks(groups), deed_base, language),
                           lambda: _render(DEEDS, groups=groups, deed_base=deed_base))


def _time_left(deadline: Any) -> dict[str, str] | None:
    """A deadline in the reader's time zone and words, as Django's date and timeuntil filters
    give them: its ISO time and the time left. (Worded once a second per language and zone: an
    answer draws it on the centre and on the card of each player it waits on.)"""
    if not deadline:
        return None
    return _time_left_at(deadline, int(time.time()), get_language(), get_current_timezone_name())


@lru_cache(maxsize=256)
def _time_left_at(deadline: Any, _second: int, _language: str | None, _zone: str) -> dict[str, str]:
    # (The ISO time as Django's date filter gives it with "c": DateFormat.c is isoformat.)
    return {"iso": template_localtime(deadline).isoformat(), "left": timeuntil_filter(deadline)}


def _forms(ctx: Mapping[str, Any], request: HttpRequest | None) -> dict[str, Any]:
    """What every form of the game posts with: the act endpoint, the game's version and the CSRF
    token's hidden field (none without a request, as Django's csrf_token tag gives)."""
    game = ctx["game"]
    # Drawn only when a form is shown, and once per answer (each draw masks the token afresh:
    # the parts of one answer share one mask, as the forms of one page do).
    token = SimpleLazyObject(lambda: _csrf_input(request)) if request is not None else ""
    return {"act_url": game_url("games:game_act", game.pk), "version": game.version, "csrf_input": token}


def _csrf_input(request: HttpRequest) -> SafeString:
    drawn = getattr(request, "_game_csrf_input", None)
    if drawn is None:
        drawn = request._game_csrf_input = csrf_input(request)
    return drawn


def decision_html(ctx: Mapping[str, Any], request: HttpRequest | None) -> SafeString:
    """The centre of the board: the dice, the decision in words, the offer on the table and the
    viewer's choices. ``ctx`` is the game page's context (games.views.play._context)."""
    return _render(
        DECISION, **_forms(ctx, request), game_url=game_url("games:game", ctx["game"].pk),
        board_name=ctx["board_name"], economy=ctx["economy"], dice=ctx["dice"], decision=ctx["decision"],
        deadline=_time_left(ctx["deadline"]), waiting_names=ctx["waiting_names"], last_card=ctx["last_card"],
        offer=ctx["offer"], choices=ctx["choices"], rules=ctx["rules"], is_player=ctx["is_player"],
        active=ctx["active"],
    )


def dice_html(dice: list[dict[str, Any]]) -> SafeString:
    """The last roll (``present.dice_view``), as the centre shows it: for the replay's centre."""
    return _render(DICE, dice=dice)


def tools_html(ctx: Mapping[str, Any], request: HttpRequest | None) -> SafeString:
    """The tools slot: the debt and the manage panel, the trade builder (``ctx`` as for
    ``decision_html``)."""
    game_id = ctx["game"].pk
    return _render(
        TOOLS, **_forms(ctx, request), choices=ctx["choices"], builder=ctx["builder"],
        builder_open=ctx["builder_open"], game_url=game_url("games:game", game_id),
        preview_url=game_url("games:game_trade_preview", game_id),
    )


def surrender_html(ctx: Mapping[str, Any], request: HttpRequest | None) -> SafeString:
    """The surrender panel, for a player of a game under way who may surrender now."""
    return _render(SURRENDER, **_forms(ctx, request), is_player=ctx["is_player"], active=ctx["active"],
                   choices=ctx["choices"])


def log_more_html(game_id: int, before: int) -> SafeString:
    """The log's "Older moves" link: it fetches the entries before ``before`` in its place."""
    return _render(LOG_MORE, url=f"{game_url('games:game_log', game_id)}?before={before}")
