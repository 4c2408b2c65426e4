"""What the game page shows, read once per page, poll or move: ``GamePage``, a typed record of
the position in the reader's words (board, players, decision, trade builder, log) and of the
page around it (the poll's pace, the push's address, a message to show).

The page's Jinja2 templates see its fields by name (``GamePage.template_vars``); the code reads
them as attributes. How the page is drawn and how a move's answer swaps its parts: parts.py.
"""

from __future__ import annotations

import datetime as dt
import time
import zlib
from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from typing import Any

from django.http import HttpRequest
from django.template.backends.utils import csrf_input
from django.template.defaultfilters import timeuntil_filter
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import SimpleLazyObject
from django.utils.html import conditional_escape
from django.utils.text import capfirst
from django.utils.timezone import get_current_timezone_name, template_localtime
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from accounts.names import isolated
from games import live, meter, services
from games.aids import vacation
from games.board_words import localized_board
from games.engine import GameState
from games.links import deed_cards_path, game_url
from games.models import Game, Seat, Table
from games.selectors import game_log, live_names, surrendered_seats
from games.views.page.board import CORNERS, board_view, dice_view, economy_view, square_marks
from games.views.page.decision import Choices, choices_for, decision_text, offer_view
from games.views.page.log import LOG_PAGE, last_card, log_entries
from games.views.page.players import card_marks, players_view
from games.views.page.trade import builder_view, default_builder, opponents
from games.views.play_forms import query_int

POLL_SECONDS = {Table.Pace.LIVE: 2, Table.Pace.CORRESPONDENCE: 15}
# The keys of the page's marks (``page_marks``): the frame "f", each square "s12", each player
# "p3" (a table seats at most 8), the tools "t", the surrender panel "u", the log "l".
SQUARE_KEYS = tuple(f"s{i}" for i in range(40))
PLAYER_KEYS = tuple(f"p{k}" for k in range(8))
TOOLS_KEY, SURRENDER_KEY = "t", "u"
# The free parking corner's mark has the pool too.
_PARKING = tuple(CORNERS.get(i) == "parking" for i in range(40))

# The log rows a page shows, newest first, and whether older ones exist.
LogRows = tuple[list[dict[str, Any]], bool]


@dataclass
class GamePage:
    """The game page as one viewer sees it now."""

    request: HttpRequest
    game: Game
    state: GameState  # the position, each person by their current name, the board in the reader's words
    me: Seat | None  # the viewer's seat, if they play
    acting: int | None  # the viewer's seat when they may move (not a bot's, in a game under way)
    players: list[dict[str, Any]]
    choices: Choices
    decision: str
    offer: dict[str, Any] | None
    dice: list[dict[str, Any]]
    economy: dict[str, Any]
    last_card: str | None
    log: list[dict[str, Any]]
    log_more: bool
    log_before: int | None
    waiting_names: list[str]
    deadline: dt.datetime | None  # the pending decision's, when a person is waited on
    poll_seconds: int
    live_url: str | None  # the event stream's, where moves are pushed (games/live.py)
    away: dict[int, dt.datetime]  # who is on vacation, until when (RULES.md 15)
    square_marks: list[tuple] | None  # what each square shows (parts.py), in a game under way
    squares: list[dict[str, Any]] | None = None  # board_view: drawn only for a whole board
    builder: dict[str, Any] | None = None
    builder_open: bool = False
    flash: str | None = None
    flash_level: str = "error"
    meter_url: str | None = None
    marks: dict[str, str] = field(default_factory=dict)
    seats: list[Seat] = field(default_factory=list)  # the table's, with their users (the panels read them)

    @property
    def table(self) -> Table:
        return self.game.table

    @property
    def rules(self):
        return self.state.rules

    @property
    def active(self) -> bool:
        return self.game.status == Game.Status.ACTIVE

    @property
    def is_player(self) -> bool:
        return self.me is not None

    @property
    def my_seat(self) -> int | None:
        return self.me.position if self.me is not None else None

    @property
    def board_name(self) -> str:
        return self.state.board.name

    @property
    def marks_text(self) -> str:
        return " ".join(f"{key}.{value}" for key, value in self.marks.items())

    @cached_property
    def time_left(self) -> dict[str, str] | None:
        """The deadline in the reader's time zone and words: its ISO time and the time left."""
        return time_left(self.deadline)

    @cached_property
    def csrf_input(self) -> str:
        """The CSRF token's hidden field, drawn once per answer: the forms of one answer share
        one mask, as the forms of one page do."""
        return csrf_input(self.request)

    @cached_property
    def template_vars(self) -> dict[str, Any]:
        """What the page's templates see: the fields by name, the properties above, and what
        every form posts with (the act endpoint, the game's version, the CSRF field). Read once,
        when the page is drawn (its fields are all set by then)."""
        names = {f.name: getattr(self, f.name) for f in fields(self)}
        game_id = self.game.pk
        return {
            **names, "page": self, "table": self.table, "rules": self.rules, "active": self.active,
            "is_player": self.is_player, "my_seat": self.my_seat, "board_name": self.board_name,
            "marks_text": self.marks_text, "deadline": self.time_left,
            # (Escaped as Django's templates escape it, where the page drew it before.)
            "flash": conditional_escape(self.flash) if self.flash else None,
            "act_url": game_url("games:game_act", game_id), "version": self.game.version,
            "csrf_input": SimpleLazyObject(lambda: self.csrf_input),
            "game_url": game_url("games:game", game_id),
            "preview_url": game_url("games:game_trade_preview", game_id),
            "poll_url": game_url("games:game_poll", game_id),
            "log_url": game_url("games:game_log", game_id),
            "deed_base": deed_cards_path(game_id),
            "on": pgettext("the square a player stands on", "On"),
        }


def time_left(deadline: dt.datetime | None) -> dict[str, str] | None:
    """A deadline as Django's date and timeuntil filters give it: its ISO time and the time left
    (worded once a second per language and zone: a page says it on the centre and on the card of
    each player it waits on)."""
    if not deadline:
        return None
    return _time_left_at(deadline, int(time.time()), get_language(), get_current_timezone_name())


@lru_cache(maxsize=256)
def _time_left_at(deadline: dt.datetime, _second: int, _language: str | None, _zone: str) -> dict[str, str]:
    # (The ISO time as Django's date filter gives it with "c": DateFormat.c is isoformat.)
    return {"iso": template_localtime(deadline).isoformat(), "left": timeuntil_filter(deadline)}


def shown_state(data: dict[str, Any], seats: list[Seat], *, written: GameState | None = None) -> GameState:
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


def game_page(request: HttpRequest, game: Game, seats: list[Seat], me: Seat | None, *,
              flash: str | None = None, flash_level: str = "error", prefill: dict | None = None,
              log: LogRows | None = None, parts: bool = False, written: GameState | None = None) -> GamePage:
    """The page for the viewer of ``request``. ``log``: the newest log rows and whether older
    ones exist, when the caller has them (a move's rows: ``new_log_rows``); else the log's first
    page is read. With ``parts`` (an answer of the parts that changed: parts.py), no board and no
    trade builder: the answer draws those it needs itself. ``written``: the position the move
    just wrote (``shown_state``)."""
    state = shown_state(game.state, seats, written=written)
    active = game.status == Game.Status.ACTIVE
    # (A seat a bot plays since its player's third missed turn, RULES.md 15, takes no moves.)
    acting = me.position if active and me is not None and not me.bot else None
    if active and me is not None and me.bot and flash is None:
        # (The words of the service's refusal, as a sentence.)
        flash, flash_level = capfirst(_("a bot plays your seat since your third missed turn")) + ".", "warning"
    # (Who surrendered is read only once someone is out: issue 26 item 33.)
    out = any(pl.bankrupt for pl in state.players)
    players = players_view(state, me=me.position if me is not None else None,
                           surrendered=surrendered_seats(game_id=game.pk) if out else ())
    # Who is on vacation, shown on their card in the reader's time zone (RULES.md 15).
    away = vacation.on_vacation(game) if active and game.table.pace == Table.Pace.CORRESPONDENCE else {}
    for seat, until in away.items():
        if 0 <= seat < len(players):
            players[seat]["away"] = date_format(timezone.localtime(until), "DATETIME_FORMAT")
    choices = choices_for(state, acting)
    names = [p.name for p in state.players]
    if log is None:
        rows, more = log_rows(game)
        log_before = rows[-1]["seq"] if rows else None
    else:
        # The first page as the page shows it after the move, of which these are the newest.
        rows, more = log
        log_before = max(rows[0]["seq"] - (LOG_PAGE - 1), 0) if rows else None
    offer = offer_view(state, acting)
    bots_waited_on = _bots_waited_on(game, seats)
    page = GamePage(
        request=request, game=game, state=state, me=me, acting=acting, players=players,
        choices=choices, decision=decision_text(state), offer=offer, dice=dice_view(state.last_dice),
        economy=economy_view(state), last_card=last_card(rows[0]["events"] if rows else [], names),
        log=log_entries(rows, names, state.board, viewer=me.position if me is not None else None),
        log_more=more, log_before=log_before,
        waiting_names=[names[p] for p in game.waiting_seats if 0 <= p < len(names)],
        # Issue 10: while only bots are waited on, their tasks move the game every
        # BOT_DELAY_SECONDS: the page follows them at the live pace, and shows no clock (theirs
        # is the site's backstop, not a time anyone is given).
        deadline=game.deadline if active and not bots_waited_on else None,
        poll_seconds=POLL_SECONDS[Table.Pace.LIVE] if bots_waited_on else POLL_SECONDS.get(game.table.pace, 15),
        # Push where Redis is configured (games/live.py); the page polls without it.
        live_url=game_url("games:game_events", game.pk) if active and live.pushes_to(request) else None,
        # A refusal naming a player: the name isolated (<bdi>: issue 26, item 30), the rest escaped.
        away=away, flash=isolated(flash, names) if flash else flash, flash_level=flash_level,
        # Issue 30: the trade meter's address, for a player of a table that has it (else None).
        meter_url=meter.meter_url(game, acting),
        square_marks=square_marks(state, players, targets=choices.targets) if active else None,
        seats=seats,
    )
    if not parts:
        page.squares = board_view(state, players, targets=choices.targets)
        page.builder, page.builder_open = _builder(request, page, prefill)
    # What each part shows, for the page to send back with its moves and fetches (parts.py).
    page.marks = page_marks(page) if active else {}
    return page


def _builder(request: HttpRequest, page: GamePage, prefill: dict | None) -> tuple[dict[str, Any] | None, bool]:
    """The trade builder, and whether it is open: on a prefilled proposal that was refused, on a
    counter-offer (``?counter=``), or on the partner's tab the player picked (``?trade_with=``)."""
    state, acting, offer = page.state, page.acting, page.offer
    if acting is None:
        return None, False
    counter = query_int(request, "counter")
    if prefill and prefill.get("to") is not None:
        other = prefill["to"]
        if 0 <= other < len(state.players) and other != acting and not state.players[other].bankrupt:
            return builder_view(state, acting, other, prefill=prefill, counter=prefill.get("counter")), True
        return None, False
    if offer and offer["for_me"] and counter == offer["id"] and offer["counter_error"] is None:
        t = offer["raw"]
        return builder_view(state, acting, t["from"], prefill={"give": t["take"], "take": t["give"]},
                            counter=t["id"]), True
    wanted = query_int(request, "trade_with")
    builder = default_builder(state, acting, page.choices, partner=wanted)
    return builder, builder is not None and wanted is not None and builder["to"] == wanted


def _bots_waited_on(game: Game, seats: list[Seat]) -> bool:
    """Whether the game, in play, waits on bots only (issue 10)."""
    bot_seats = {s.position for s in seats if s.bot}
    return (game.status == Game.Status.ACTIVE and bool(game.waiting_seats)
            and all(p in bot_seats for p in game.waiting_seats))


# ---------------------------------------------------------------------------------------------
# Marks: what each part shows
# ---------------------------------------------------------------------------------------------

def _digest(value: Any) -> str:
    return format(zlib.crc32(repr(value).encode()) & 0xFFFFFF, "x")


def page_marks(page: GamePage) -> dict[str, str]:
    """What each part of the page shows, as a short digest (24 bits of CRC-32) the page sends back
    with its moves and fetches, for an answer of only the parts that changed (parts.py)."""
    state, me, choices = page.state, page.me, page.choices
    marks = {"f": _digest((page.poll_seconds, page.game.aids, me and me.bot,
                           me is not None and state.players[me.position].bankrupt))}
    pool = _pool(page.economy)
    for key, parking, m in zip(SQUARE_KEYS, _PARKING, page.square_marks, strict=True):
        marks[key] = _digest((m, pool) if parking else m)
    for key, p in zip(PLAYER_KEYS, page.players, strict=False):
        marks[key] = _digest((card_marks(p), page.deadline if p["waiting"] else None))
    marks[TOOLS_KEY] = _digest(_tools(page))
    marks[SURRENDER_KEY] = _digest(page.is_player and "surrender" in choices.types)
    marks["l"] = format(state.seq, "x")
    return marks


def _pool(economy: dict[str, Any]) -> tuple:
    """What the free parking corner shows beyond its marks: the pool (board.economy_view)."""
    return economy.get("free_parking"), economy.get("jackpot")


def _tools(page: GamePage) -> tuple:
    """What decides whether the tools slot (game_tools.html) is redrawn: the debt, the manage
    panel, and whom the trade builder would trade with. Not the builder's contents (both sides'
    cash, deeds and values, which change with nearly every move): the builder is a closed panel
    until its player opens it, and game.js then fetches it afresh if the page has moved on since
    it was drawn (its ``data-version``; the game view's ``?part=tools``)."""
    acting, choices = page.acting, page.choices
    others = opponents(page.state, acting) if acting is not None and "propose" in choices.types else None
    return choices.debt, choices.manage, others or None


# ---------------------------------------------------------------------------------------------
# The log's rows
# ---------------------------------------------------------------------------------------------

def log_rows(game: Game, before: int | None = None, limit: int = LOG_PAGE) -> LogRows:
    rows = game_log(game_id=game.pk, before=before, limit=limit + 1)
    return rows[:limit], len(rows) > limit


def new_log_rows(sub: services.Submission) -> LogRows | None:
    """The log rows a move wrote, newest first, as ``log_rows`` reads them, and whether older
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


def log_since(game: Game, seen: int) -> LogRows | None:
    """The log rows newer than entry ``seen``, the newest a page shows (``parts.log_seen``),
    newest first, and whether older ones exist: what an answer of parts adds to that page's log,
    read without the entries it already shows (as ``new_log_rows`` gives a move's own). At least
    the newest row, which the centre's last card comes from. None when the page's marks do not
    say, or a page's worth or more is new: the log's first page is read then (its list is
    redrawn whole)."""
    newest = game.state["seq"]
    if not 0 <= seen <= newest or newest - seen >= LOG_PAGE:
        return None
    # (Actions are numbered from 0, one log row each: the newest n rows are those after
    # newest - n.)
    return game_log(game_id=game.pk, limit=max(newest - seen, 1)), newest + 1 > LOG_PAGE
