"""The trade meter (issue 30): a table option, ``advisor``, that shows in the trade builder and
beside a trade offer each side's chance to win with the trade rejected and accepted, with 95%
intervals and a verdict in words.

The estimate is ``games.engine.trade_meter``: strategy bots play the game on from the position
many times (common random numbers for the two outcomes, stopping once the differences are within
±METER_TARGET). It takes seconds, so it never runs in a request: the first request for a
(position, trade) writes a ``TradeMeter`` row and queues ``games.trade_meter`` once the row is
committed; the page polls the row's small part until it is done, and every later request for the
same position and trade (the proposer's preview, the receiver's answer, a second tab) reads the
same row. While the playouts run, the task writes the figures so far into the row after a batch
(at most every INTERIM_EVERY seconds), and the part shows them as still being refined: the first
after one batch, well before the final ones (bench/analysis.py, section ``meter``).

Fairness (issue 30): the task analyses the public position only (the engine's
``public_position``: no game seed, no face-down card order, no maximum bid; standing orders never
reach the engine), and its seed comes from the row's key, a digest of that public position: two
games that agree on everything public get the same figures. Only the two players of the trade
see them, and only while the game is on; spectators and the other players never do.

Not a rule of RULES.md 1 (the engine knows nothing of it): a site option of the table, like the
vacation days, refused on tables that may be rated (RULES.md 13: classic and world-classic
tables without custom rules).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.celery import queue_on_commit
from games.engine import (
    MIN_PLAYOUTS,
    AnalysisError,
    GameState,
    IllegalAction,
    apply,
    public_position,
    seen_cards,
    trade_meter,
)
from games.errors import GameError, translate_refusal
from games.links import game_url
from games.models import Game, GameAction, Table, TradeMeter
from ratings.models import RATED_PRESETS

logger = logging.getLogger(__name__)

METER_PLAYOUTS = 1500  # the most playouts per outcome
METER_TARGET = 0.03  # stop once every side's difference is within ±3 points (95%)
METER_TASK = "games.trade_meter"
METER_BATCH = 64  # playouts per outcome between two looks at the intervals (the engine's batch)
# While it runs, the task writes its figures so far into the row (one small UPDATE) at most this
# often: the part polls every 1.5 s, so a player sees figures from the first batch on.
INTERIM_EVERY = 0.5  # seconds
# A row still pending this long after its task was queued is queued again (a worker that died
# with it, a lost message); the task itself does nothing for a row already done.
REQUEUE_AFTER = timedelta(seconds=90)
# A difference no larger than this, either way, is "fair" even when the playouts are sure of it.
FAIR_POINTS = 0.02

ADVISOR_RATED = gettext_lazy(
    "the trade meter is only for unrated tables: choose another preset or change a rule"
)


class MeterError(Exception):
    """A request for a meter that cannot be: the words say why (shown to the player)."""


def advisor_refusal(*, preset: str, options: dict[str, Any] | None) -> Any:
    """Why a table with these rules may not have the trade meter, or None if it may. RULES.md 13:
    classic and world-classic tables without custom rules may be rated, and a rated game's
    players get no help from the site (issue 30)."""
    if preset in RATED_PRESETS and not options:
        return ADVISOR_RATED
    return None


def table_check(*, preset: str, options: dict[str, Any] | None, advisor: Any) -> None:
    """The service's check of the option (a forged form gets the same words as the form's):
    raises GameError when ``advisor`` is not a yes or no, or is asked for on a table that may
    be rated."""
    if type(advisor) is not bool:
        raise GameError(gettext_lazy("the trade meter is on or off"))
    if advisor and advisor_refusal(preset=preset, options=options) is not None:
        raise GameError(ADVISOR_RATED)


def meter_on(table: Table) -> bool:
    """Whether the table's games show the trade meter: asked for, and never on a table that may
    be rated (checked again here: a row changed by hand, a preset rated later)."""
    return bool(table.advisor) and advisor_refusal(preset=table.preset, options=table.options) is None


def meter_url(game: Game, acting: int | None) -> str | None:
    """The meter's address for the player at ``acting`` when the table has the meter, else None
    (the game page's context: the builder's button and the offer's part appear only with it)."""
    if acting is None or game.status != Game.Status.ACTIVE or not meter_on(game.table):
        return None
    return game_url("games:game_trade_meter", game.pk)


# ---------------------------------------------------------------------------------------------
# The positions
# ---------------------------------------------------------------------------------------------


def proposed_position(state: GameState, *, me: int, other: int, give: dict, take: dict) -> GameState:
    """The position the builder's trade would make: ``state`` (left unchanged) with ``me``'s
    proposal to ``other`` waiting for its answer, as the engine would leave it. Raises
    MeterError with the engine's refusal when the trade could not be proposed now."""
    st = state.copy()
    try:
        apply(st, {"type": "propose", "player": me, "to": other, "give": give, "take": take}, events=False)
    except IllegalAction as e:
        raise MeterError(translate_refusal(e)) from None
    return st


def offer_parties(state: GameState) -> dict[str, Any] | None:
    """The offer waiting for an answer in ``state`` (its id, proposer and receiver), or None."""
    top = state.stack[-1] if state.stack else None
    if top is None or top.get("k") != "trade_response":
        return None
    t = state.trades[str(top["trade"])]
    return {"id": t["id"], "from": t["from"], "to": t["to"]}


def _public_json(state: GameState) -> dict[str, Any]:
    """What the key is made of: the position without the game's generator, its face-down card
    order, maximum bids or players' names (names change with display names; they decide
    nothing)."""
    data = public_position(state).to_json()
    data["players"] = [{**p, "name": ""} for p in data.get("players", [])]
    return data


def meter_key(game_id: int, state: GameState) -> str:
    body = json.dumps({"game": game_id, "position": _public_json(state)}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


# ---------------------------------------------------------------------------------------------
# Asking, and the task
# ---------------------------------------------------------------------------------------------


def meter_request(*, game: Game, seat: int, state: GameState) -> TradeMeter:
    """The meter of ``state`` (an offer waiting for its answer, ``seat`` one of its two sides):
    its row, created and its task queued on the first request. A player's earlier meters of the
    game still waiting for a worker are dropped (their tasks then do nothing): one trying trade
    after trade in the builder costs one estimate at a time, not one per try."""
    parties = offer_parties(state)
    if parties is None or seat not in (parties["from"], parties["to"]):
        raise MeterError(_("Only the two players of a trade see its meter."))
    if not meter_on(game.table) or game.status != Game.Status.ACTIVE:
        raise MeterError(_("This table has no trade meter."))
    key = meter_key(game.pk, state)
    now = timezone.now()
    with transaction.atomic():
        row = TradeMeter.objects.filter(key=key).first()
        if row is None:
            upto = GameAction.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first() or 0
            position = state.to_json()
            position["rng"] = 0  # (the game's generator never leaves the game)
            row, created = TradeMeter.objects.get_or_create(
                key=key, defaults={"game": game, "position": position, "upto": upto, "asked_by": seat,
                                   "queued_at": now})
            if created:
                # (Deleted, not kept: a player trying trade after trade leaves one row, not one
                # position's copy per try. Their queued tasks then find nothing to do.)
                TradeMeter.objects.filter(game=game, asked_by=seat, status=TradeMeter.Status.PENDING) \
                    .exclude(pk=row.pk).delete()
                queue_on_commit(METER_TASK, row.pk)
                return row
        if row.game_id != game.pk:  # pragma: no cover - the key names the game
            raise MeterError(_("This table has no trade meter."))
        if (row.status == TradeMeter.Status.PENDING and row.queued_at < now - REQUEUE_AFTER
              # (A conditional update: two polls at once queue it once.)
              and TradeMeter.objects.filter(pk=row.pk, queued_at=row.queued_at).update(queued_at=now)):
            queue_on_commit(METER_TASK, row.pk)
    return row


class _Dropped(Exception):
    """The row went (a newer meter) or was finished elsewhere while its playouts ran."""


def _result(cmp: Any) -> dict[str, Any]:
    """A comparison as the row keeps it: both sides' chances now and after, and the change, each
    a [p, low, high] triple, per side (a player or a team), and the playouts per outcome."""
    return {
        "playouts": cmp.a.playouts,
        "sides": [
            {"seats": list(a.seats), "now": [a.p, a.low, a.high], "after": [b.p, b.low, b.high],
             "delta": [d.delta, d.low, d.high]}
            for a, b, d in zip(cmp.a.chances, cmp.b.chances, cmp.differences, strict=True)
        ],
    }


def meter_compute(*, meter_id: int, on_interim: Callable[[dict[str, Any]], None] | None = None) -> TradeMeter | None:
    """Run a pending meter's playouts and store the result (the task's body). Does nothing for a
    row gone (dropped for a newer one) or done; a position the engine cannot analyse is marked failed.

    While the playouts run, the figures so far go into the row's ``result`` (status still
    pending) after a batch, at most every INTERIM_EVERY seconds: the part shows them, marked as
    being refined. They come from the same public position and seed as the final ones (the
    engine's interim comparison: the first playouts of the final one). A row dropped meanwhile
    stops the playouts at the next write. ``on_interim``: called after each interim write with
    what was written (the tests read the row there)."""
    row = TradeMeter.objects.filter(pk=meter_id).first()
    if row is None or row.status != TradeMeter.Status.PENDING:
        return row
    events = []
    for evs in GameAction.objects.filter(game_id=row.game_id, seq__lte=row.upto).order_by("seq", "sub") \
            .values_list("events", flat=True).iterator():
        events.extend(evs or [])
    state = GameState.from_json(row.position)
    seen = {k: v for k, v in seen_cards(events).items() if k in state.decks}
    # The seed is the key's own (a digest of the public position): never the game's.
    seed = int(row.key[:15], 16)
    last = [-INTERIM_EVERY]  # (the first batch is always written)

    def interim(cmp: Any) -> None:
        now = time.monotonic()
        if now - last[0] < INTERIM_EVERY:
            return
        result = {**_result(cmp), "interim": True}
        if not TradeMeter.objects.filter(pk=row.pk, status=TradeMeter.Status.PENDING).update(result=result):
            raise _Dropped
        last[0] = time.monotonic()
        if on_interim is not None:
            on_interim(result)

    try:
        cmp = trade_meter(state, METER_PLAYOUTS, seed, target=METER_TARGET, seen=seen, batch=METER_BATCH,
                          on_batch=interim)
    except _Dropped:
        return TradeMeter.objects.filter(pk=row.pk).first()
    except AnalysisError:
        logger.exception("trade meter %s: the position could not be analysed", row.pk)
        TradeMeter.objects.filter(pk=row.pk, status=TradeMeter.Status.PENDING).update(
            status=TradeMeter.Status.FAILED, result=None, done_at=timezone.now())
        return TradeMeter.objects.filter(pk=row.pk).first()
    TradeMeter.objects.filter(pk=row.pk, status=TradeMeter.Status.PENDING).update(
        status=TradeMeter.Status.DONE, result=_result(cmp), done_at=timezone.now())
    return TradeMeter.objects.filter(pk=row.pk).first()  # (None: dropped meanwhile)


# ---------------------------------------------------------------------------------------------
# In words
# ---------------------------------------------------------------------------------------------


def _gains(delta: list[float]) -> int:
    """+1 when the side surely gains more than FAIR_POINTS, -1 when it surely loses more, else 0."""
    d, low, high = delta
    if low > 0 and d > FAIR_POINTS:
        return 1
    if high < 0 and d < -FAIR_POINTS:
        return -1
    return 0


def verdict(result: dict[str, Any], *, proposer: int, receiver: int, names: list[str]) -> str:
    """The meter's verdict in words, from the two sides' differences: "fair" unless one side's
    chance surely moves by more than FAIR_POINTS."""
    by_seat = {seat: side for side in result["sides"] for seat in side["seats"]}
    a, b = _gains(by_seat[proposer]["delta"]), _gains(by_seat[receiver]["delta"])
    if by_seat[proposer] is by_seat[receiver]:  # teammates: one side
        return _("Good for your team.") if a > 0 else _("Bad for your team.") if a < 0 else _("Fair.")
    if a > 0 and b > 0:
        return _("Good for both of you, at the other players' expense.")
    if a < 0 and b < 0:
        return _("Bad for both of you: the other players gain.")
    if a > 0:
        return _("Good for %(name)s.") % {"name": names[proposer]}
    if b > 0:
        return _("Good for %(name)s.") % {"name": names[receiver]}
    if a < 0:
        return _("Bad for %(name)s.") % {"name": names[proposer]}
    if b < 0:
        return _("Bad for %(name)s.") % {"name": names[receiver]}
    return _("Fair.")


def decided(result: dict[str, Any], *, proposer: int, receiver: int) -> bool:
    """Whether figures still being refined already allow a verdict: at least MIN_PLAYOUTS a side
    (fewer misjudge the spread: the engine's own stopping rule waits as long), and one of the two
    sides surely gains or loses more than FAIR_POINTS. ("Fair" waits for the final figures: a
    wide interval around nothing is not yet a fair trade, only one too close to call.)"""
    if result["playouts"] < MIN_PLAYOUTS:
        return False
    by_seat = {seat: side for side in result["sides"] for seat in side["seats"]}
    return _gains(by_seat[proposer]["delta"]) != 0 or _gains(by_seat[receiver]["delta"]) != 0


def meter_view(row: TradeMeter, *, names: list[str]) -> dict[str, Any]:
    """What the meter's part shows of ``row``: its status and, once done, the two sides' chances
    now (rejected) and after (accepted) in points, with their intervals, and the verdict. While
    pending with figures so far (the task's interim writes), the same with ``refining``: the
    playouts so far, the change's widest ± in points, and the verdict only once the figures
    allow one (else None: "too close to call yet")."""
    view: dict[str, Any] = {"status": row.status, "key": row.key, "refining": False}
    if row.status not in (TradeMeter.Status.DONE, TradeMeter.Status.PENDING) or not row.result:
        return view
    parties = offer_parties(GameState.from_json(row.position))
    by_seat = {seat: side for side in row.result["sides"] for seat in side["seats"]}

    def pts(triple: list[float]) -> dict[str, int]:
        p, low, high = triple
        return {"p": round(100 * p), "low": round(100 * low), "high": round(100 * high)}

    shown = (parties["from"], parties["to"])
    view["sides"] = [
        {"seat": seat, "name": names[seat], "now": pts(by_seat[seat]["now"]), "after": pts(by_seat[seat]["after"]),
         "delta": pts(by_seat[seat]["delta"])}
        for seat in shown
    ]
    view["playouts"] = row.result["playouts"]
    view["verdict"] = verdict(row.result, proposer=parties["from"], receiver=parties["to"], names=names)
    if row.status == TradeMeter.Status.PENDING:
        view["refining"] = True
        view["within"] = max(1, round(100 * max((by_seat[s]["delta"][2] - by_seat[s]["delta"][1]) / 2
                                                for s in shown)))
        if not decided(row.result, proposer=parties["from"], receiver=parties["to"]):
            view["verdict"] = None
    return view
