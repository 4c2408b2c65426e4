"""The game page's long loops: the board's 40 squares, the players' panels and the log.

Every move, poll and page view redraws them: they are the biggest part of the game fragment.
Their markup is in templates (``templates/jinja2/games/partials/board/squares.html``,
``players/panels.html`` and ``log/entries.html``); these functions are the one way in, for the
page's own templates (the ``board_squares``, ``player_items`` and ``log_items`` tags) and for
anything else that redraws a part on its own.

They are Jinja2 templates (settings.TEMPLATES "jinja2", config/jinja2.py): as Django templates
the board alone took ten times as long as the markup drawn in Python that preceded them, most
of a move's response; compiled by Jinja2 they cost about what that did. ``bench/web.py --render``
times them.
"""

from __future__ import annotations

from typing import Any

from django.template import engines
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import timeuntil_filter
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import pgettext

SQUARES = "games/partials/board/squares.html"
SQUARE = "games/partials/board/square.html"
PLAYERS = "games/partials/players/panels.html"
LOG = "games/partials/log/entries.html"


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
        act_url = reverse("games:game_act", args=[game_id])
    return _render(SQUARES, squares=squares, economy=economy, act_url=act_url)


def square_html(sq: dict[str, Any], *, economy: dict[str, Any] | None = None, game_id: int | None = None) -> SafeString:
    """One square of ``present.board_view`` (a list item of ``squares_html``'s list), for a move's
    answer that redraws only the squares it changed (move_parts.py)."""
    act_url = reverse("games:game_act", args=[game_id]) if game_id is not None and sq["target"] else None
    return _render(SQUARE, sq=sq, economy=economy, act_url=act_url)


def log_html(entries: list[dict[str, Any]]) -> SafeString:
    """The log's entries (``present.log_entries``), newest first, as list items."""
    return _render(LOG, log=entries)


def players_html(players: list[dict[str, Any]], deadline: Any = None, *, deed_base: str | None = None) -> SafeString:
    """The players' panels (``present.players_view``); ``deadline`` is the pending decision's,
    shown on the badge of whoever it waits on. With ``deed_base`` (the game's deed card
    address without the square), each deed links to its card."""
    left = None
    if deadline:
        # In the reader's time zone and words, as Django's date and timeuntil filters give them.
        left = {"iso": date_filter(template_localtime(deadline), "c"), "left": timeuntil_filter(deadline)}
    return _render(PLAYERS, players=players, deadline=left, deed_base=deed_base,
                   on=pgettext("the square a player stands on", "On"))
