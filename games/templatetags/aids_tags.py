"""The correspondence aids panel of the game page (RULES.md 15; games/views/aids.py): who is on
vacation, and for the viewing player their standing orders and vacation forms. An inclusion
tag, so the page's own context (games/views/play.py) needs nothing new."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext_lazy as _

from games.aids import pause, seat_clock, standing, vacation
from games.models import StandingOrder, Table

register = template.Library()

# Words with a literal percent sign live here, where makemessages can be told they are no
# format strings (a template's cannot).
LABELS = {
    "percent_tax": StandingOrder.IncomeTax.PERCENT.label,
    # xgettext:no-python-format
    "auction_suffix": _("% of the printed price (0: pass)"),
}


@register.inclusion_tag("games/partials/aids.html", takes_context=True)
def aids_panel(context) -> dict:
    game, me, state = context["game"], context.get("me"), context["state"]
    active = context.get("active")
    # (Read once with the page, games/views/play.py: each player's card says who is away.)
    away = context.get("away")
    if away is None:
        away = vacation.on_vacation(game) if active and game.table.pace == Table.Pace.CORRESPONDENCE else {}
    names = [p.name for p in state.players]
    ctx = {
        "game": game, "active": active, "csrf_token": context.get("csrf_token"),
        "mine": None, "labels": LABELS,
    }
    playing = active and me is not None and not me.bot and not state.players[me.position].bankrupt
    if playing:
        rules = state.rules
        orders = standing.orders_for_seat(game, me.position)
        correspondence = game.table.pace == Table.Pace.CORRESPONDENCE
        ctx["mine"] = {
            "orders": orders, "casino": rules.casino, "income_choice": rules.income_tax_choice,
            "vacation": correspondence and game.table.vacation_days > 0,
            "days_left": vacation.days_left(game, me.position) if correspondence else 0,
            "away_until": away.get(me.position),
            "auto": correspondence and vacation.auto_on(game, me.position),
        }
    # RULES.md 16, back from the bot: once per game, for a seat a bot took at a third miss.
    ctx["can_take_back"] = bool(
        active and me is not None and me.bot and not me.account_deleted
        and game.table.absent_seat == Table.AbsentSeat.BOT and not state.players[me.position].bankrupt
        and me.position not in (game.aids or {}).get("back", ()))
    if active and game.table.pace == Table.Pace.LIVE:
        ctx["pause"] = _pause_view(game, me, names)
    if active and seat_clock.enabled(game.table):
        ctx["clocks"] = _clocks_view(game, me, state, names)
    return ctx


def _clocks_view(game, me, state, names) -> list[dict]:
    """RULES.md 16: each player's clock, "own time 3 h · bank 1 d 4 h" for someone the game
    waits on (and, outside playing hours, "counting from 08:00", in the viewer's zone), the
    bank alone for the others."""
    from django.utils import timezone
    from django.utils.formats import date_format

    from games.options import duration_words

    now = timezone.now()
    today = timezone.localtime(now).date()
    rows = []
    for p, clock in seat_clock.shown(game, now).items():
        if p >= len(names) or state.players[p].bankrupt:
            continue
        bank = duration_words(clock["bank"])
        if clock["own"] is not None:
            text = _("own time %(own)s · bank %(bank)s") % {"own": duration_words(clock["own"]), "bank": bank}
        else:
            text = _("bank %(bank)s") % {"bank": bank}
        start = clock["from"]
        counting = None
        if start is not None:
            local = timezone.localtime(start)
            counting = date_format(local, "H:i" if local.date() == today else "D H:i")
        rows.append({"name": names[p], "me": me is not None and me.position == p, "text": str(text),
                     "waited": clock["own"] is not None, "counting": counting, "deadline": clock["deadline"]})
    return rows


def _pause_view(game, me, names) -> dict:
    """RULES.md 11, pause: what the panel shows and offers (games/aids/pause.py)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Seat

    now = timezone.now()
    row = pause.current(game, now)
    seats = list(Seat.objects.filter(table_id=game.table_id))
    who = pause.voters(seats, game.state)
    mine = me.position if me is not None and me.position in who else None
    view = {"status": None, "can_ask": mine is not None, "me": mine}
    if row is None:
        return view
    view["status"] = row.status
    view["asked_by"] = names[row.asked_by] if 0 <= row.asked_by < len(names) else ""
    if row.status == row.Status.ASKED:
        ends = row.asked_at + timedelta(seconds=pause.ASK_SECONDS)
        view.update(ends=ends, can_answer=mine is not None and mine not in row.agreed,
                    waiting=[names[s] for s in sorted(who - set(row.agreed))])
    elif row.status == row.Status.PAUSED:
        view.update(can_confirm=mine is not None and mine not in row.confirmed,
                    waiting=[names[s] for s in sorted(who - set(row.confirmed))],
                    # RULES.md 16: when the countdown starts by itself (the version that starts
                    # it redraws the page).
                    auto_at=pause.expires_at(row, game.table))
    else:
        ends = row.resume_at
        view.update(ends=ends)
    if view.get("ends"):
        # The page redraws itself when the window or the countdown runs out.
        view["refresh"] = max(1, int((view["ends"] - now).total_seconds()) + 1)
    return view
