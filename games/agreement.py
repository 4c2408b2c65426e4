"""Ending early by agreement (RULES.md 16, site level, every pace): any active player may propose
to end the game; if every active player agrees within the window (24 h on correspondence tables,
30 s on live ones; silence is no) the game ends and net worth ranks the players, the richest
winning (section 12). Ratings count it as a result when section 13's conditions hold
(ratings/record.py reads the engine's "agreed_end" event).

"Every active player" is every person still in the game, as for a pause (games/aids/pause.py):
bots never object, a seat a bot plays since its player's third missed turn has no say, and
bankrupt players have none. The proposal lives in ``Game.aids["end"]``: ``n`` numbers the
proposals of a game (an answer names the one it answers, so one to a withdrawn, declined or
lapsed proposal is refused), ``by`` the proposer, ``at`` when it was made, ``agreed`` the
seats that agreed (the proposer first). A closed proposal keeps only ``n``.

Every step is logged in the game's own log and record, with its source (games/site_notes.py),
and the end is the engine's ``end_agreed`` action, so the game replays exactly from its record.
Each write locks the game row as a move does, and refuses (GameError, NotAllowed or
StaleVersion; nothing written) whatever does not fit: a second proposal, an answer to a proposal
that is no longer open, a second answer (a double click), a spectator, a bankrupt player.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from config.celery import queue_on_commit
from games import site_notes
from games.aids import pause
from games.engine import GameState
from games.errors import GameError, NotAllowed, StaleVersion
from games.models import Game, Seat, Table
from games.services import moves

WINDOW_CORRESPONDENCE = timedelta(hours=24)
WINDOW_LIVE = timedelta(seconds=30)


def window(table: Table) -> timedelta:
    """How long every active player has to agree (RULES.md 16)."""
    return WINDOW_LIVE if table.pace == Table.Pace.LIVE else WINDOW_CORRESPONDENCE


@dataclass(frozen=True)
class Proposal:
    """An open proposal to end the game, as the page and the services read it."""

    n: int
    by: int
    at: datetime
    ends: datetime
    agreed: tuple[int, ...]


def _stored(game: Game) -> dict:
    return dict((game.aids or {}).get("end") or {})


def open_proposal(game: Game, now: datetime | None = None) -> Proposal | None:
    """The game's open proposal to end it, or None: none was made, it was answered no or
    withdrawn, or its window has passed (it lapsed: silence is no)."""
    data = _stored(game)
    if "at" not in data or game.status != Game.Status.ACTIVE:
        return None
    at = datetime.fromisoformat(data["at"])
    ends = at + window(game.table)
    if (now or timezone.now()) >= ends:
        return None
    return Proposal(n=data["n"], by=data["by"], at=at, ends=ends, agreed=tuple(data["agreed"]))


def voters(seats: list[Seat], state: dict) -> set[int]:
    """The seats whose agreement the end needs (the pause's voters: people still in the game)."""
    return pause.voters(seats, state)


def _locked(game_id: int, user, expected_version: int | None) -> tuple[Game, list[Seat], int]:
    """The game locked, its seats and ``user``'s seat number, for a proposal's write: refused for
    a game that is over, a stale page, someone without a seat (a spectator), a seat a bot plays
    and a player out of the game."""
    game = moves._locked_game(game_id)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("this game is over"))
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(_("the game has moved on since your page was drawn; here is the current position"))
    seats = moves._seats(game, None)
    seat = moves._seat_of(seats, user)
    if seat is None:
        raise NotAllowed(_("you are not playing in this game"))
    if seat.bot:
        raise NotAllowed(_("a bot plays your seat since your third missed turn"))
    if game.state["players"][seat.position]["bankrupt"]:
        raise GameError(_("you are out of this game"))
    return game, seats, seat.position


def _open_or_refuse(game: Game, n: int, now: datetime) -> Proposal:
    proposal = open_proposal(game, now)
    if proposal is None or proposal.n != n:
        raise GameError(_("that proposal to end the game is no longer open (withdrawn, declined or lapsed)"))
    return proposal


def _submission(game: Game) -> moves.Submission:
    return moves.Submission(game=game, state=GameState.from_json(game.state), before=game.state)


def _close(game: Game, data: dict) -> None:
    game.aids = {**(game.aids or {}), "end": {"n": data["n"]}, "shown": game.version + 1}


def _write(game: Game, seats: list[Seat], sub: moves.Submission) -> None:
    """Write the notes (and the end) with the game, as a move is written: a new version for the
    open pages, the end's result and e-mails when the game is over."""
    game.save(update_fields=["aids"])
    moves._write(sub, seats)


def _finish_if_all(game: Game, seats: list[Seat], sub: moves.Submission, agreed: set[int], last: int) -> bool:
    """End the game when every active player has agreed: the engine's ``end_agreed``, source
    "agreement" (the proposal's record shows who agreed, the end is the players' together)."""
    if not voters(seats, game.state) <= agreed:
        return False
    moves._apply(sub, {"type": "end_agreed", "player": last}, seat=last, source="agreement")
    return True


@transaction.atomic
def end_propose(*, game: Game, user, expected_version: int | None = None, now: datetime | None = None) -> bool:
    """``user`` proposes to end ``game`` by net worth (RULES.md 16). Refused while a proposal is
    open (a second one, a double click) and from a stale page. The others are told (a
    notification of kind "end_proposed"). Returns whether the game ended at once (the proposer
    is the only person with a say)."""
    now = now or timezone.now()
    game, seats, p = _locked(game.pk, user, expected_version)
    if open_proposal(game, now) is not None:
        raise GameError(_("an end of this game is already proposed: answer it or wait for it to lapse"))
    data = _stored(game)
    sub = _submission(game)
    if "at" in data:
        # The one before lapsed unanswered: the log says so before the new one.
        site_notes.note(sub, seat=data["by"] if not game.state["players"][data["by"]]["bankrupt"] else p,
                        what="end_lapsed", source="clock")
    n = int(data.get("n", 0)) + 1
    site_notes.note(sub, seat=p, what="end_proposed", source="player", user=user)
    game.aids = {**(game.aids or {}), "end": {"n": n, "by": p, "at": now.isoformat(), "agreed": [p]},
                 "shown": game.version + 1}
    ended = _finish_if_all(game, seats, sub, {p}, p)
    if ended:
        _close(game, {"n": n})
    _write(game, seats, sub)
    if not ended and game.table.pace == Table.Pace.CORRESPONDENCE:
        # (A live table's 30 s are too short for an e-mail: the players are on the page.)
        name = game.state["players"][p]["name"]
        items = [["end_proposed", s.user_id, f"g{game.pk}:end{n}", s.position, {"by": p, "n": n, "name": name}]
                 for s in seats if s.position in voters(seats, game.state) and s.position != p]
        if items:
            queue_on_commit("notifications.tasks.notify", game.pk, items)
    return ended


@transaction.atomic
def end_answer(*, game: Game, user, proposal: int, agree: bool, now: datetime | None = None) -> bool:
    """``user`` agrees to (or declines) the open proposal numbered ``proposal``. A no closes it;
    the last yes ends the game. Refused for a proposal no longer open, for its proposer, and for
    a second answer. Returns whether the game ended."""
    now = now or timezone.now()
    game, seats, p = _locked(game.pk, user, None)
    if type(agree) is not bool or type(proposal) is not int:
        raise GameError(_("this form was not sent by the game page"))
    open_ = _open_or_refuse(game, proposal, now)
    if p == open_.by:
        raise GameError(_("you proposed it: withdraw it if you changed your mind"))
    if p in open_.agreed:
        raise GameError(_("you agreed already"))
    sub = _submission(game)
    data = _stored(game)
    if not agree:
        site_notes.note(sub, seat=p, what="end_decline", source="player", user=user)
        _close(game, data)
        _write(game, seats, sub)
        return False
    site_notes.note(sub, seat=p, what="end_agree", source="player", user=user)
    agreed = [*data["agreed"], p]
    game.aids = {**(game.aids or {}), "end": {**data, "agreed": agreed}, "shown": game.version + 1}
    ended = _finish_if_all(game, seats, sub, set(agreed), p)
    if ended:
        _close(game, data)
    _write(game, seats, sub)
    return ended


@transaction.atomic
def end_withdraw(*, game: Game, user, proposal: int, now: datetime | None = None) -> None:
    """The proposer withdraws the open proposal numbered ``proposal``. Refused for anyone else
    and for a proposal no longer open."""
    now = now or timezone.now()
    game, seats, p = _locked(game.pk, user, None)
    if type(proposal) is not int:
        raise GameError(_("this form was not sent by the game page"))
    open_ = _open_or_refuse(game, proposal, now)
    if p != open_.by:
        raise GameError(_("only the player who proposed it may withdraw it"))
    sub = _submission(game)
    site_notes.note(sub, seat=p, what="end_withdraw", source="player", user=user)
    _close(game, _stored(game))
    _write(game, seats, sub)
