"""The game page's long loops: the board's 40 squares, the players' panels and the log.

Every move, poll and page view redraws them: they are the biggest part of the game fragment.
Their markup is in templates (``templates/games/partials/board/squares.html``,
``players/panels.html`` and ``log/entries.html``); these functions are the one way in, for the
page's own templates (the ``board_squares``, ``player_items`` and ``log_items`` tags) and for
anything else that redraws a part on its own. ``bench/web.py --render`` times them.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import get_template
from django.utils.safestring import SafeString

SQUARES = "games/partials/board/squares.html"
PLAYERS = "games/partials/players/panels.html"
LOG = "games/partials/log/entries.html"


def _render(name: str, context: dict[str, Any]) -> SafeString:
    # (A template's output is already a SafeString: its autoescaping escaped every value.)
    return get_template(name).render(context)


def squares_html(
    squares: list[dict[str, Any]],
    *,
    economy: dict[str, Any] | None = None,
    game_id: int | None = None,
) -> SafeString:
    """The squares of ``present.board_view``, in board order. ``game_id`` is needed only when a
    square is a target (it posts the pick to the game's act endpoint)."""
    return _render(SQUARES, {"squares": squares, "economy": economy, "game_id": game_id})


def log_html(entries: list[dict[str, Any]]) -> SafeString:
    """The log's entries (``present.log_entries``), newest first, as list items."""
    return _render(LOG, {"log": entries})


def players_html(players: list[dict[str, Any]], deadline: Any = None) -> SafeString:
    """The players' panels (``present.players_view``); ``deadline`` is the pending decision's,
    shown on the badge of whoever it waits on."""
    return _render(PLAYERS, {"players": players, "deadline": deadline})
