"""The analysis page as it shows: the chart (server-drawn SVG, ratings/charts.py), its table
for screen readers, the turning points in the log's own words, and each player's luck."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from analysis.models import GameAnalysis
from games.board_words import localized_board
from games.engine import GameState
from games.formats import money, signed_money
from games.models import Game, GameAction, Seat
from games.selectors import live_names
from games.views.page.log import event_lines
from ratings import charts
from ratings.selectors import PLAYER_COLOURS


def percent(p: float) -> str:
    return _("%(n)s%%") % {"n": round(100 * p)}


def points(delta: float) -> str:
    """A change of chance in percentage points, signed: "+19 points", "−3 points", "0 points"."""
    n = round(100 * delta)
    sign = "+" if n > 0 else "\u2212" if n < 0 else ""
    return ngettext("%(sign)s%(n)s point", "%(sign)s%(n)s points", abs(n)) % {"sign": sign, "n": abs(n)}


@dataclass
class Side:
    name: str
    colour: str


@dataclass
class Turning:
    side: Side
    start: str
    end: str
    round: int
    to_round: int
    final: bool
    line: str
    move: int | None
    replay_url: str
    # The action's own swing, when it was measured (compute.turning_points): "+19 points".
    alone: str | None = None


@dataclass
class Luck:
    side: Side
    paid: str
    expected_paid: str
    received: str
    expected_received: str
    luck: str
    lucky: bool


@dataclass
class Row:
    label: str
    cells: list[str]


@dataclass
class AnalysisPage:
    status: str
    rounds_done: int = 0
    rounds_total: int = 0
    sides: list[Side] = field(default_factory=list)
    chart: charts.Chart | None = None
    rows: list[Row] = field(default_factory=list)
    turning: list[Turning] = field(default_factory=list)
    luck: list[Luck] = field(default_factory=list)


def _sides(game: Game, seats: list[Seat], row: GameAnalysis) -> tuple[list[Side], GameState]:
    state = GameState.from_json(game.state)
    names = live_names([p.name for p in state.players], seats)
    groups = row.sides or [[p] for p in range(len(names))]
    sides = [Side(" & ".join(names[p] for p in members), PLAYER_COLOURS[members[0] % len(PLAYER_COLOURS)])
             for members in groups]
    return sides, state


def _turning(game: Game, row: GameAnalysis, sides: list[Side], state: GameState, names: list[str]) -> list[Turning]:
    board = localized_board(state.board)
    actions = GameAction.objects.filter(game=game).exclude(seq=0).order_by("seq", "sub")
    out = []
    for t in row.turning:
        line, move = "", None
        if t.get("step"):
            found = actions[t["step"] - 1:t["step"]].values_list("seq", "events").first()
            if found is not None:
                move, events = found
                if 0 <= t["event"] < len(events):
                    line = event_lines([events[t["event"]]], names, board)[0]
        out.append(Turning(
            side=sides[t["side"]], start=percent(t["from"]), end=percent(t["to"]), round=t["round"],
            to_round=t["to_round"], final=t["end"], line=line, move=move,
            replay_url=reverse("games:game_replay", args=[game.pk]) + f"?step={t['step']}",
            alone=points(t["swing"]) if t.get("swing") is not None and line else None))
    return out


def analysis_context(*, game: Game, seats: list[Seat], row: GameAnalysis | None) -> dict[str, Any]:
    page = AnalysisPage(status=row.status if row else GameAnalysis.Status.PENDING)
    ctx = {"game": game, "table": game.table, "page": page}
    if row is None:
        return ctx
    page.rounds_done, page.rounds_total = row.rounds_done, row.rounds_total
    if row.status != GameAnalysis.Status.DONE:
        return ctx
    sides, state = _sides(game, seats, row)
    names = live_names([p.name for p in state.players], seats)
    page.sides = sides
    points = row.points
    last = max(p["round"] for p in points if not p.get("end"))
    xs = [last + 1 if p.get("end") else p["round"] for p in points]
    page.chart = charts.line_chart(
        xs, [(s.name, s.colour, [100 * p["p"][i] for p in points]) for i, s in enumerate(sides)],
        x_label=_("Round"), y_format=lambda v: percent(v / 100))
    page.chart.x_ticks = [(x, label) for x, label in page.chart.x_ticks if int(label) <= last]
    for p in points:
        label = _("End of the game") if p.get("end") else _("Round %(round)s") % {"round": p["round"]}
        cells = [percent(v) if p.get("end") else _("%(p)s (%(low)s to %(high)s)") % {
            "p": percent(v), "low": percent(lo), "high": percent(hi)}
            for v, lo, hi in zip(p["p"], p["low"], p["high"], strict=True)]
        page.rows.append(Row(label, cells))
    page.turning = _turning(game, row, sides, state, names)
    if row.luck and not state.teams:
        for i, lk in enumerate(row.luck):
            net = (lk["received"] - lk["expected_received"]) - (lk["paid"] - lk["expected_paid"])
            page.luck.append(Luck(side=sides[i], paid=money(lk["paid"]), expected_paid=money(lk["expected_paid"]),
                                  received=money(lk["received"]), expected_received=money(lk["expected_received"]),
                                  luck=signed_money(net), lucky=net >= 0))
    return ctx
