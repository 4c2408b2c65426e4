"""How the game page is drawn, and a move's cheap answer (issue 12): only what the move changed.

The whole ``#game`` fragment is one Jinja2 template (``templates/jinja2/games/game_body.html``),
drawn from a ``GamePage`` (context.py). Each part a move may change on its own is an element
with an id, drawn by a template of its own which the fragment includes: ``PARTS`` names them
(``Part``: its mark's key, its element's id, its template). A move's answer draws the parts that
changed with the same templates, each element with ``hx-swap-oob="true"``: htmx swaps it in
place of the element with its id and leaves the rest of the page alone.

The page says what it shows: each part has a mark, a short digest of what its markup shows
(``context.page_marks``), and the page sends the marks of what it shows with its moves and fetches
(``X-Game-Parts``; game.js keeps them on ``#game[data-marks]``, from the full fragment and from
each answer's ``game:moved`` event). The answer holds:

- the flash slot emptied and the centre of the board (the decision, dice, offer and the forms,
  whose hidden ``version`` fields must be the new one), always;
- each square whose marks changed (``board.square_marks``; the free parking corner with the
  pool) and each player's card whose view changed (``players.card_marks``, with the deadline on
  the badge of a player waited on);
- the log entries newer than the newest the page shows, at the top of its list; those pushed
  past the first page, and older ones its player fetched, taken off; its "Older moves" link;
- the slots of the tools (manage, trade builder) and of the surrender panel, when what they
  show changed. Their forms' hidden ``version`` may then be older than the page: the page's
  script posts the version the page is at (game.js). The trade builder's contents are not
  compared: game.js fetches the builder afresh when its player opens it on a page that has
  moved on since it was drawn (``_tools``).

What the parts do not draw has one mark for all of it, the frame: how often the page polls,
whether the viewer still plays, and ``Game.aids`` (the aids panel: a vacation or a pause changes
it, games/aids.py). A frame that differs, marks that are missing or malformed (a page from
before them), a flash to show, or a game over get the full fragment instead. Nothing needs to be
kept of past positions: the page's marks are the position it shows, however far behind it is.

The answer carries the new version and marks (the ``game:moved`` event): game.js keeps
``#game[data-version]``, the poll's ``?v=`` and ``#game[data-marks]`` up to date with them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext
from django_htmx.http import reswap, trigger_client_event

from games.links import game_url
from games.models import Game
from games.views.page import panels
from games.views.page.context import PLAYER_KEYS, SQUARE_KEYS, SURRENDER_KEY, TOOLS_KEY, GamePage
from games.views.page.log import LOG_PAGE
from games.views.page.trade import default_builder

HEADER = "X-Game-Parts"
BODY = "games/game_body.html"


@dataclass(frozen=True)
class Part:
    """A part of the game fragment, drawn by a template of its own (in the fragment, which
    includes it, and alone): the key of its mark (a move's answer redraws the parts whose mark
    changed; "" for none), the id of its element, and its template. A panel of another feature
    (panels.py) also has a ``view``: what its template reads, under ``name``, read from the page
    when the fragment is drawn (the frame's mark covers it: a change to it draws the whole
    fragment)."""

    key: str
    element_id: str
    template: str
    name: str = ""
    view: Callable[[GamePage], Any] | None = None


SQUARE = "games/partials/board/square.html"
PLAYER = "games/partials/players/player.html"
SQUARES = tuple(Part(key, f"sq-{i}", SQUARE) for i, key in enumerate(SQUARE_KEYS))
PLAYERS = tuple(Part(key, f"player-{k}", PLAYER) for k, key in enumerate(PLAYER_KEYS))
TOOLS = Part(TOOLS_KEY, "game-tools", "games/partials/game_tools.html")
SURRENDER = Part(SURRENDER_KEY, "game-surrender", "games/partials/surrender.html")
# Redrawn by every answer, so no mark of their own: the centre, and the refusal's slot emptied.
CENTRE = Part("", "decision", "games/partials/decision.html")
FLASH = Part("", "game-flash", "games/partials/flash.html")
LOG_ENTRIES = "games/partials/log/entries.html"
LOG_MORE = Part("", "log-more", "games/partials/log/more.html")
PARTS = {p.key: p for p in (*SQUARES, *PLAYERS, TOOLS, SURRENDER)}
# Other features' panels (panels.py). The aids are several sections side by side, each with its
# id (pause, seat-back, clocks, standing-orders, vacation), so no one element of their own.
AIDS = Part("", "", "games/partials/aids.html", "aids", panels.aids_view)
END_EARLY = Part("", "end-early", "games/partials/end_early.html", "early", panels.end_early_view)
SUMMARY = Part("", "game-summary", "ratings/partials/game_summary.html", "over", panels.summary_view)
PANELS = (AIDS, END_EARLY, SUMMARY)
# Around #game, drawn with the whole page only (page_html): a swap of #game leaves them alone.
CHAT_LINE = Part("", "", "chats/_game_line.html", "chat_line", panels.chat_line_view)
CHAT = Part("", "chat", "moderation/chat/_mount.html", "chat_url", panels.chat_url)
DIALOGS = Part("", "", "games/partials/game_dialogs.html", "deed_url", panels.deed_url)
PAGE_PANELS = (CHAT_LINE, CHAT, DIALOGS)
PAGE = "games/game_page.html"

# A mark (context.page_marks): a part's key and a digest, or the log's newest entry ("l" and its
# number); the page sends its marks space-separated.
_MARK = r"[a-z]\d{0,3}\.[0-9a-f]{1,8}"
_MARKS = re.compile(rf"{_MARK}(?: {_MARK})*")
_MAX_HEADER = 2000


def _render(template: str, context: dict[str, Any]) -> SafeString:
    # Jinja2 autoescapes every value (config/jinja2.py): what it returns is markup.
    return mark_safe(engines["jinja2"].env.get_template(template).render(context))


# ---------------------------------------------------------------------------------------------
# The whole fragment
# ---------------------------------------------------------------------------------------------

def body_html(page: GamePage) -> SafeString:
    """The ``#game`` fragment: what the page shows inside its frame (games/game.html), and what
    the poll and a move's answer swap whole when parts will not do."""
    return _render(BODY, {**page.template_vars, **panel_vars(page)})


def page_html(page: GamePage) -> SafeString:
    """The page's own part inside the site's frame (games/game.html): its header, ``#game`` with
    the push around it, the chat, the notes and nudges, the dialogs."""
    return _render(PAGE, {**page.template_vars, **panel_vars(page), **{p.name: p.view(page) for p in PAGE_PANELS},
                          "frame": panels.frame_view(page), "reach_html": panels.reach_html(page)})


def panel_vars(page: GamePage) -> dict[str, Any]:
    """What the panels' templates read, each under its name; and the addresses of the game-over
    banner (its record, replay and analysis: issue 30)."""
    game = page.game
    out = {p.name: p.view(page) for p in PANELS}
    if not page.active:
        finished = game.status == Game.Status.FINISHED
        out.update(replay_url=game_url("games:game_replay", game.pk), record_url=game_url("games:game_record", game.pk),
                   analysis_url=reverse("analysis:game", args=[game.pk]) if finished else None)
    return out


def part_html(part: Part, page: GamePage, *, oob: bool = False, **item: Any) -> SafeString:
    """One part as the fragment draws it; ``oob``: as an answer's out-of-band swap. ``item``: the
    square (``sq``) or the player (``p``) it draws."""
    if part.view is not None:
        item = {part.name: part.view(page), **item}
    return _render(part.template, {**page.template_vars, **item, "oob": oob})


# ---------------------------------------------------------------------------------------------
# Marks
# ---------------------------------------------------------------------------------------------

def shown_marks(request: HttpRequest) -> dict[str, str] | None:
    """The marks of what the page shows, from its script's ``X-Game-Parts``: the parts are
    wanted. None (the full fragment) for a request that is no htmx one, and when there are no
    marks to read (a page from before them sends "1"), or they are malformed or too long."""
    text = request.headers.get(HEADER, "")
    if not request.htmx or not text or len(text) > _MAX_HEADER:
        return None
    if not _MARKS.fullmatch(text):
        return None
    return dict(mark.split(".") for mark in text.split(" "))


def log_seen(shown: dict[str, str]) -> int:
    """The number of the newest log entry the page shows (-1 when its marks do not say)."""
    try:
        return int(shown["l"], 16)
    except (KeyError, ValueError):
        return -1


# ---------------------------------------------------------------------------------------------
# A move's answer
# ---------------------------------------------------------------------------------------------

def move_answer(page: GamePage, *, shown: dict[str, str], log_from: int | None = None) -> HttpResponse | None:
    """The parts that differ from what the page shows (its marks, ``shown``), as out-of-band
    swaps; None when the full fragment must go (see the module's doc). ``page`` is drawn without
    its board and builder (context.game_page's ``parts``); ``log_from``: the number of the
    oldest log entry in ``page.log`` when it holds only the newest ones (a move's rows), which
    the page must then already show all entries before."""
    if not page.active or page.flash is not None:
        return None
    marks = page.marks
    if shown.get("f") != marks["f"] or not set(marks) <= set(shown):
        return None
    seen = log_seen(shown)
    if seen < 0 or (log_from is not None and seen + 1 < log_from) or seen > page.state.seq:
        return None
    html = "".join(_changed(page, shown, seen))
    # Nothing but out-of-band swaps: #game itself stays.
    response = reswap(HttpResponse(html), "none")
    return trigger_client_event(response, "game:moved", {"version": page.game.version, "marks": page.marks_text})


def _changed(page: GamePage, shown: dict[str, str], seen: int) -> list[str]:
    marks = page.marks
    out = [part_html(FLASH, page, oob=True), part_html(CENTRE, page, oob=True)]
    for part in SQUARES:
        if shown[part.key] != marks[part.key]:
            i = int(part.key[1:])
            out.append(part_html(part, page, oob=True, sq=_square(page, i)))
    for part, p in zip(PLAYERS, page.players, strict=False):
        if shown[part.key] != marks[part.key]:
            out.append(part_html(part, page, oob=True, p=p))
    out.extend(_log_parts(page, seen))
    if shown[TOOLS.key] != marks[TOOLS.key]:
        # (The answer's page comes without a builder: context.game_page's ``parts``.)
        out.append(part_html(TOOLS, page, oob=True, builder=default_builder(page.state, page.acting, page.choices)))
    if shown[SURRENDER.key] != marks[SURRENDER.key]:
        out.append(part_html(SURRENDER, page, oob=True))
    return out


def _square(page: GamePage, i: int) -> dict[str, Any]:
    from games.views.page.board import square_view

    return square_view(page.state, page.players, i, targets=page.choices.targets)


def _log_parts(page: GamePage, seen: int) -> list[str]:
    """The log's new entries on top; the entries pushed past its first page taken off, by id,
    and with them those its player fetched with "Older moves" (``log-older``), as a fresh page
    would show it; the "Older moves" link pointing past the new last entry. (Actions are
    numbered from 0, one log row each: seq + 1 of them so far.)"""
    new = [e for e in page.log if e["seq"] > seen]
    if not new:
        return []
    newest = new[0]["seq"]
    more = part_html(LOG_MORE, page, oob=False) if page.log_more else ""
    if len(new) >= LOG_PAGE:
        entries = _render(LOG_ENTRIES, {**page.template_vars, "log": page.log})
        return [f'<ol id="log-list" hx-swap-oob="innerHTML">{entries}{more}</ol>\n']
    entries = _render(LOG_ENTRIES, {**page.template_vars, "log": new})
    out = [f'<ol id="log-list" hx-swap-oob="afterbegin">{entries}</ol>\n']
    # The first page showed the entries from max(seen - LOG_PAGE + 1, 0) to seen; now from
    # newest - LOG_PAGE + 1.
    gone = range(max(seen - LOG_PAGE + 1, 0), max(newest - LOG_PAGE + 1, 0))
    out.extend(f'<li id="log-{seq}" hx-swap-oob="delete"></li>\n' for seq in gone)
    if seen + 1 > LOG_PAGE:
        # The page had its "Older moves" link, and perhaps the entries it fetched: both go, and
        # the link comes back below the first page.
        out.append('<div hx-swap-oob="delete:#log-list .log-older, #log-more"></div>\n')
    if page.log_more:
        out.append(f'<ol id="log-list" hx-swap-oob="beforeend">{more}</ol>\n')
    return out


# ---------------------------------------------------------------------------------------------
# The log's own page, and the replay's board and players
# ---------------------------------------------------------------------------------------------

def log_html(game_id: int, entries: list[dict[str, Any]], *, more: bool, before: int | None,
             older: bool = False) -> SafeString:
    """Log entries and, when there are older ones, the "Older moves" link past ``before``: for
    the log's page, and for the link itself (``older``: the entries it fetched into the game
    page's list, which a move's answer takes off with the first page's last ones)."""
    context = {"log": entries, "older": older, "log_url": game_url("games:game_log", game_id), "log_before": before}
    html = _render(LOG_ENTRIES, context)
    return mark_safe(html + _render(LOG_MORE.template, context)) if more else html


def replay_html(*, squares: list[dict[str, Any]], players: list[dict[str, Any]], economy: dict[str, Any],
                dice: list[dict[str, Any]]) -> dict[str, SafeString]:
    """The replay's squares, players' panels and dice, drawn by the game page's own templates (no
    deed links, no forms: a replay shows, it does not act)."""
    context = {"squares": squares, "players": players, "economy": economy, "dice": dice, "deed_base": None,
               "deadline": None, "act_url": None, "on": pgettext("the square a player stands on", "On")}
    return {"squares_html": _render("games/partials/board/squares.html", context),
            "players_html": _render("games/partials/players/panels.html", context),
            "dice_html": _render("games/partials/dice.html", context)}
