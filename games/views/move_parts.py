"""A move's cheap answer (issue 12): only what the move changed, not the whole game fragment.

The page that posted the move showed the position at the version the move quoted (a stale move
is refused with the full fragment), so the position before the move is known exactly: the
view's copy of the game, read before the service locked and changed it. Comparing the page's
parts before and after gives what to redraw:

- the centre of the board (the decision, dice, offer and the forms, whose hidden ``version``
  fields must be the new one);
- each square whose marks changed (``present.square_marks``: what its markup shows) and each
  player card whose view changed (``present.players_view``);
- the log entries the move added, at the top of the list, and the oldest ones pushed past the
  first page taken off, as a full render would show them;
- the slots of the tools (manage, trade builder) and of the surrender panel, when what they
  show changed (game_body.html); their forms' hidden ``version`` may then be older than the
  page: the page's script posts the version the page is at (game.js). The trade builder's
  contents are not compared: game.js fetches the builder afresh when its player opens it on a
  page that has moved on since it was drawn (``_tools``);
- a refusal's message still shown, removed (its slot emptied).

Each part is drawn by the same entry points the full render uses (page_html's ``squares_html``,
``players_html``, ``log_html``, ``decision_html``, ``tools_html``, ``surrender_html``,
``log_more_html``), and sent as an out-of-band swap
with a selector (``hx-swap-oob="innerHTML:#game .centre"``; for a swap in place of an element,
the entry point's element itself gets the attribute): htmx swaps each where it belongs and
leaves the rest of the page alone. (Not htmx's ``<template hx type="partial">``: it looks for
each target from the element that made the request, which the centre's swap takes off the page.)

The answer carries the new version (the ``game:moved``
event): game.js keeps ``#game[data-version]`` and the poll's ``?v=`` up to date with it, and a
page that ever sees a version it skipped fetches the whole fragment (game.js, the push and the
poll).

Only the page's JavaScript asks for this answer (``X-Game-Parts``); other htmx clients, and a
move that ends the game (its banner and summary), get the full fragment.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django_htmx.http import reswap, trigger_client_event

from games.links import deed_cards_path
from games.models import Game, Seat
from games.views import present
from games.views.page_html import (
    decision_html,
    log_html,
    log_more_html,
    players_html,
    square_html,
    surrender_html,
    tools_html,
)

HEADER = "X-Game-Parts"


def wanted(request: HttpRequest) -> bool:
    return bool(request.htmx) and request.headers.get(HEADER) == "1"


def _into(target: str, swap: str, html: str = "") -> str:
    """An out-of-band swap of ``html`` into (or before, after, for delete: instead of) the target:
    htmx uses the wrapper's children. (The selectors are this module's own, with numbers in
    them: nothing to escape.)"""
    return f'<div hx-swap-oob="{swap}:{target}">{html}</div>\n'


_FIRST_TAG = re.compile(r"^(\s*<[a-zA-Z][\w-]*)")


class _Unmarkable(Exception):
    """An entry point's markup did not start with an element: the full fragment goes instead."""


def _instead_of(target: str, html: str) -> str:
    """``html`` (one element, from an entry point) swapped in place of the target: the element
    itself carries hx-swap-oob."""
    marked, n = _FIRST_TAG.subn(rf'\1 hx-swap-oob="outerHTML:{target}"', str(html), count=1)
    if n != 1:
        raise _Unmarkable(html[:80])
    return marked + "\n"


def _tools(st, acting: int | None, choices) -> tuple:
    """What decides whether the tools slot (game_tools.html) is redrawn: the debt, the manage
    panel, and whom the trade builder would trade with. Not the builder's contents (both sides'
    cash, deeds and values, which change with nearly every move): the builder is a closed panel
    until its player opens it, and game.js then fetches it afresh if the page has moved on since
    it was drawn (its ``data-version``; the game view's ``?part=tools``)."""
    others = present.opponents(st, acting) if acting is not None and "propose" in choices.types else None
    return choices.debt, choices.manage, others or None


def move_answer(request: HttpRequest, *, before: Game, seats: list[Seat], ctx: dict[str, Any], log_page: int,
                shown_state) -> HttpResponse | None:
    """The parts a move changed, as out-of-band swaps; None when the full fragment must go
    (the game is over now). ``before`` is the game as the page showed it, ``ctx`` the page's
    context after the move (games.views.play._context), ``shown_state`` play._shown_state."""
    game: Game = ctx["game"]
    if not ctx["active"]:
        return None
    try:
        parts = _parts(request, before=before, seats=seats, ctx=ctx, log_page=log_page, shown_state=shown_state)
    except _Unmarkable:
        return None
    response = HttpResponse("".join(parts))
    # Nothing but out-of-band swaps: #game itself stays.
    response = reswap(response, "none")
    return trigger_client_event(response, "game:moved", {"version": game.version})


def _parts(request: HttpRequest, *, before: Game, seats: list[Seat], ctx: dict[str, Any], log_page: int,
           shown_state) -> list[str]:
    game: Game = ctx["game"]
    me: Seat | None = ctx["me"]
    my = ctx["my_seat"]
    acting = my if me is not None and not me.bot else None
    old = shown_state(before.state, seats)
    old_players = present.players_view(old, me=my)
    old_choices = present.choices_for(old, acting)
    old_economy = present.economy_view(old)
    state, players, new_choices = ctx["state"], ctx["players"], ctx["choices"]

    parts = [_into("#game-flash", "innerHTML")]
    parts.append(_into("#game .centre", "innerHTML",
                       decision_html(ctx, request)))

    economy = ctx["economy"]
    pool_changed = any(old_economy.get(k) != economy.get(k) for k in ("free_parking", "jackpot"))
    marks = zip(present.square_marks(old, old_players, targets=old_choices.targets),
                present.square_marks(state, players, targets=new_choices.targets), strict=True)
    for i, (a, b) in enumerate(marks):
        if a != b or (pool_changed and present.CORNERS.get(i) == "parking"):
            sq = present.square_view(state, players, i, targets=new_choices.targets)
            parts.append(_instead_of(f"#game .board .squares > .sq:nth-child({i + 1})",
                                     square_html(sq, economy=economy, game_id=game.pk)))

    deadline_changed = before.deadline != ctx["deadline"]
    deed_base = deed_cards_path(game.pk)
    for k, (a, b) in enumerate(zip(old_players, ctx["players"], strict=True)):
        if a != b or (deadline_changed and (a["waiting"] or b["waiting"])):
            parts.append(_instead_of(f"#game .players > .player:nth-of-type({k + 1})",
                                     players_html([b], ctx["deadline"], deed_base=deed_base)))

    parts.extend(_log_parts(ctx, old.seq, log_page))

    # The slots, when what they show changed. (Their forms' hidden version may lag behind: the
    # page's script posts the version the page is at, game.js.)
    if _tools(old, acting, old_choices) != _tools(state, acting, new_choices):
        # (The answer's context comes without a builder: play._context's ``parts``.)
        ctx = {**ctx, "builder": present.default_builder(state, acting, new_choices)}
        parts.append(_into("#game-tools", "innerHTML",
                           tools_html(ctx, request)))
    if ctx["is_player"] and ("surrender" in old_choices.types) != ("surrender" in new_choices.types):
        parts.append(_into("#game-surrender", "innerHTML",
                           surrender_html(ctx, request)))
    return parts


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
