"""A move's cheap answer (issue 12): only what the move changed, not the whole game fragment.

The page says what it shows: each part of it has a mark, a short digest of what its markup
shows (``page_marks``), and the page sends the marks of what it shows with its move and its
fetches (``X-Game-Parts``; game.js keeps them on ``#game[data-marks]``, from the full fragment
and from each answer's ``game:moved`` event). The answer redraws each part whose mark the
position now gives differs from the page's:

- the centre of the board (the decision, dice, offer and the forms, whose hidden ``version``
  fields must be the new one), always;
- each square whose marks changed (``square_marks``: what its markup shows; the free
  parking corner with the pool) and each player card whose view changed
  (``players_view``, with the deadline on the badge of a player waited on);
- the log entries newer than the newest the page shows, at the top of the list, and the oldest
  ones pushed past the first page taken off, as a full render would show them;
- the slots of the tools (manage, trade builder) and of the surrender panel, when what they
  show changed (game_body.html); their forms' hidden ``version`` may then be older than the
  page: the page's script posts the version the page is at (game.js). The trade builder's
  contents are not compared: game.js fetches the builder afresh when its player opens it on a
  page that has moved on since it was drawn (``_tools``);
- a refusal's message still shown, removed (its slot emptied).

What the parts do not draw has one mark for all of it, the frame: how often the page polls,
whether the viewer still plays, and ``Game.aids`` (the aids panel: a vacation or a pause changes
it, games/aids.py). A frame that differs, marks that are missing or malformed (a page from
before them), a flash to show, or a game over get the full fragment instead. Nothing needs to
be kept of past positions: the page's marks are the position it shows, however many moves and
whoever's behind it is.

Each part is drawn by the same entry points the full render uses (page_html's ``squares_html``,
``players_html``, ``log_html``, ``decision_html``, ``tools_html``, ``surrender_html``,
``log_more_html``), and sent as an out-of-band swap
with a selector (``hx-swap-oob="innerHTML:#game .centre"``; for a swap in place of an element,
the entry point's element itself gets the attribute): htmx swaps each where it belongs and
leaves the rest of the page alone. (Not htmx's ``<template hx type="partial">``: it looks for
each target from the element that made the request, which the centre's swap takes off the page.)

The answer carries the new version and marks (the ``game:moved`` event): game.js keeps
``#game[data-version]``, the poll's ``?v=`` and ``#game[data-marks]`` up to date with them.

Only the page's JavaScript asks for this answer (``X-Game-Parts``); other htmx clients, and a
move that ends the game (its banner and summary), get the full fragment.
"""

from __future__ import annotations

import re
import zlib
from functools import lru_cache
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language
from django_htmx.http import reswap, trigger_client_event

from games.links import deed_cards_path
from games.models import Game
from games.views.page.board import CORNERS, square_view
from games.views.page.draw import (
    Kept,
    decision_html,
    log_html,
    log_more_html,
    players_html,
    square_html,
    surrender_html,
    tools_html,
)
from games.views.page.players import card_marks
from games.views.page.trade import default_builder, opponents

HEADER = "X-Game-Parts"
# A mark: a part's key (the frame "f", square "s12", player "p3", the tools "t", the surrender
# panel "u") and a digest, or the log's newest entry ("l" and its number); the page's marks are
# these, space-separated. (Their digests: 24 bits of CRC-32 of what the part shows.)
_MARK = r"[a-z]\d{0,3}\.[0-9a-f]{1,8}"
_MARKS = re.compile(rf"{_MARK}(?: {_MARK})*")
_MAX_HEADER = 2000


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


def _digest(value: Any) -> str:
    return format(zlib.crc32(repr(value).encode()) & 0xFFFFFF, "x")


@lru_cache(maxsize=8192)
def _kept_digest(marks: tuple) -> str:
    """The digest of a square's or a card's marks, kept: most of them are the same from one
    position to the next (and every unowned square without a token has the same marks), so a
    page's 40 squares and its cards cost a lookup each, not a repr. (Each field of the marks
    always holds the same type: no two marks that compare equal draw differently.)"""
    return _digest(marks)


def page_marks(ctx: dict[str, Any]) -> dict[str, str]:
    """The marks of the game fragment drawn from ``ctx`` (games.views.play._context): what each
    part shows, as the page will send them back."""
    state, players, choices, economy = ctx["state"], ctx["players"], ctx["choices"], ctx["economy"]
    me, acting = ctx["me"], ctx["acting"]
    marks = {"f": _digest((ctx["poll_seconds"], ctx["game"].aids, me and me.bot,
                           me is not None and state.players[me.position].bankrupt))}
    pool = _pool(economy)
    for key, i, m in zip(_SQUARES, _PARKING, ctx["square_marks"], strict=True):
        marks[key] = _kept_digest((m, pool) if i else m)
    deadline = ctx["deadline"]
    for k, p in enumerate(players):
        marks[_PLAYERS[k] if k < len(_PLAYERS) else f"p{k}"] = _kept_digest(
            (card_marks(p), deadline if p["waiting"] else None))
    marks["t"] = _digest(_tools(state, acting, choices))
    marks["u"] = _digest(ctx["is_player"] and "surrender" in choices.types)
    marks["l"] = format(state.seq, "x")
    return marks


# The marks' keys (a board has 40 squares, a table at most 8 seats), and which square is the
# free parking corner, whose mark has the pool.
_SQUARES = tuple(f"s{i}" for i in range(40))
_PARKING = tuple(CORNERS.get(i) == "parking" for i in range(40))
_PLAYERS = tuple(f"p{k}" for k in range(8))


def _pool(economy: dict[str, Any]) -> tuple:
    """What the free parking corner shows beyond its marks: the pool (economy_view)."""
    return economy.get("free_parking"), economy.get("jackpot")


def marks_text(marks: dict[str, str]) -> str:
    return " ".join(f"{key}.{value}" for key, value in marks.items())


def _into(target: str, swap: str, html: str = "") -> str:
    """An out-of-band swap of ``html`` into (or before, after, for delete: instead of) the target:
    htmx uses the wrapper's children. (The selectors are this module's own, with numbers in
    them: nothing to escape.)"""
    return f'<div hx-swap-oob="{swap}:{target}">{html}</div>\n'


_FIRST_TAG = re.compile(r"\s*<[a-zA-Z][\w-]*")


class _Unmarkable(Exception):
    """An entry point's markup did not start with an element: the full fragment goes instead."""


def _instead_of(target: str, html: str) -> str:
    """``html`` (one element, from an entry point) swapped in place of the target: the element
    itself carries hx-swap-oob."""
    tag = _FIRST_TAG.match(html)
    if tag is None:
        raise _Unmarkable(html[:80])
    end = tag.end()
    return f'{html[:end]} hx-swap-oob="outerHTML:{target}"{html[end:]}\n'


def _tools(st, acting: int | None, choices) -> tuple:
    """What decides whether the tools slot (game_tools.html) is redrawn: the debt, the manage
    panel, and whom the trade builder would trade with. Not the builder's contents (both sides'
    cash, deeds and values, which change with nearly every move): the builder is a closed panel
    until its player opens it, and game.js then fetches it afresh if the page has moved on since
    it was drawn (its ``data-version``; the game view's ``?part=tools``)."""
    others = opponents(st, acting) if acting is not None and "propose" in choices.types else None
    return choices.debt, choices.manage, others or None


def move_answer(request: HttpRequest, *, ctx: dict[str, Any], shown: dict[str, str], log_page: int,
                log_from: int | None = None) -> HttpResponse | None:
    """The parts that differ from what the page shows (its marks, ``shown``), as out-of-band
    swaps; None when the full fragment must go (see the module's doc). ``ctx`` is the page's
    context now (games.views.play._context); ``log_from``: the number of the oldest log entry
    in ``ctx["log"]`` when it holds only the newest ones (a move's rows), which the page must
    then already show all entries before."""
    game: Game = ctx["game"]
    if not ctx["active"] or ctx["flash"] is not None:
        return None
    marks = ctx["marks"]
    if shown.get("f") != marks["f"] or not set(marks) <= set(shown):
        return None
    seen = log_seen(shown)
    if seen < 0 or (log_from is not None and seen + 1 < log_from) or seen > ctx["state"].seq:
        return None
    try:
        parts = _parts(request, ctx=ctx, shown=shown, seen=seen, log_page=log_page)
    except _Unmarkable:
        return None
    response = HttpResponse("".join(parts))
    # Nothing but out-of-band swaps: #game itself stays.
    response = reswap(response, "none")
    return trigger_client_event(response, "game:moved", {"version": game.version, "marks": ctx["marks_text"]})


def _parts(request: HttpRequest, *, ctx: dict[str, Any], shown: dict[str, str], seen: int,
           log_page: int) -> list[str]:
    game: Game = ctx["game"]
    state, players, choices, marks = ctx["state"], ctx["players"], ctx["choices"], ctx["marks"]

    parts = [_into("#game-flash", "innerHTML")]
    parts.append(_into("#game .centre", "innerHTML",
                       decision_html(ctx, request)))

    language = get_language()
    for i, key in enumerate(_SQUARES):
        if shown[key] != marks[key]:
            parts.append(_instead_of(f"#game .board .squares > .sq:nth-child({i + 1})",
                                     _square_part(ctx, i, language)))

    deed_base = deed_cards_path(game.pk)
    for k, p in enumerate(players):
        key = f"p{k}"
        if shown[key] != marks[key]:
            parts.append(_instead_of(f"#game .players > .player:nth-of-type({k + 1})",
                                     players_html([p], ctx["deadline"], deed_base=deed_base)))

    parts.extend(_log_parts(ctx, seen, log_page))

    # The slots, when what they show changed. (Their forms' hidden version may lag behind: the
    # page's script posts the version the page is at, game.js.)
    if shown["t"] != marks["t"]:
        # (The answer's context comes without a builder: play._context's ``parts``.)
        tools_ctx = {**ctx, "builder": default_builder(state, ctx["acting"], choices)}
        parts.append(_into("#game-tools", "innerHTML",
                           tools_html(tools_ctx, request)))
    if shown["u"] != marks["u"]:
        parts.append(_into("#game-surrender", "innerHTML",
                           surrender_html(ctx, request)))
    return parts


# Squares as a move's answer draws them, kept by what they show: the board and the square, its
# marks (square_marks: two views of a square with equal marks draw alike), the pool on
# the free parking corner, the game where the square may be picked (its form posts there), and
# the language. A token leaving a square leaves it as it was drawn before, and most squares
# look the same in every game of their board.
_SQUARES_KEPT = Kept()


def _square_part(ctx: dict[str, Any], i: int, language: str | None) -> str:
    state, economy, game, targets = ctx["state"], ctx["economy"], ctx["game"], ctx["choices"].targets

    def draw():
        sq = square_view(state, ctx["players"], i, targets=targets)
        return square_html(sq, economy=economy, game_id=game.pk)

    key = (state.board.name, i, ctx["square_marks"][i], _pool(economy) if _PARKING[i] else None,
           game.pk if i in targets else None, language)
    return _SQUARES_KEPT.get(key, draw)


def _log_parts(ctx: dict[str, Any], old_seq: int, log_page: int) -> list[str]:
    """The log's new entries on top, the list cut back to its first page, the "Older moves" link
    pointing past the new last entry. (Actions are numbered from 0: seq + 1 of them so far.)"""
    entries = ctx["log"]
    new = [e for e in entries if e["seq"] > old_seq]
    if not new:
        return []
    if len(new) >= log_page:
        more = log_more_html(ctx["game"].pk, ctx["log_before"]) if ctx["log_more"] else ""
        return [_into("#game .log-list", "innerHTML", log_html(entries) + more)]
    parts = [_into("#game .log-list", "afterbegin", log_html(new))]
    shown_before = min(log_page, old_seq + 1)
    if shown_before + len(new) > log_page:
        parts.append(_into(f"#game .log-list > .log-entry:nth-child(n+{log_page + 1})", "delete"))
    if ctx["log_more"]:
        more = log_more_html(ctx["game"].pk, ctx["log_before"])
        if old_seq + 1 > log_page:
            parts.append(_instead_of("#game .log-list > .log-more", more))
        else:
            parts.append(_into("#game .log-list", "beforeend", more))
    return parts
