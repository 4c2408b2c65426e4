"""What other features show on the game page, each a panel of the Part registry (parts.py) with
a Jinja2 template of its own. Inside the game fragment: the aids (RULES.md 15, 11 and 16: a pause, a seat
back from the bot, the clocks, standing orders, vacation; games/views/aids.py takes their
forms), ending early by agreement (RULES.md 16; games/views/agreement.py) and, once the game is
over, its summary (ratings.selectors.game_summary). Around it, on the page alone: the header's
words, the host's group chat line (chats), the chat (moderation), the dialogs, and the notes and
nudges (reach, whose Django template its own views draw too).

Each function reads what its panel shows from a ``GamePage`` and returns what its template reads
under the panel's name (``Part.name``). The page's seats come with it (selectors.visible_game),
so no panel reads them again.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import agreement
from games.aids import pause, seat_clock, standing, vacation
from games.links import game_url
from games.models import Game, StandingOrder, Table
from games.options import PRESET_LABELS, duration_words
from games.views.page.context import GamePage, time_left

# Words with a literal percent sign live here, where makemessages can be told they are no
# format strings (a template's cannot).
LABELS = {
    "percent_tax": StandingOrder.IncomeTax.PERCENT.label,
    # xgettext:no-python-format
    "auction_suffix": gettext_lazy("% of the printed price (0: pass)"),
}


def _urls(game: Game, *names: str) -> dict[str, str]:
    return {name: game_url(f"games:game_{name}" if name != "game" else "games:game", game.pk) for name in names}


# ---------------------------------------------------------------------------------------------
# The aids (RULES.md 15, 11, 16)
# ---------------------------------------------------------------------------------------------

def aids_view(page: GamePage) -> dict[str, Any]:
    """Who may pause or has paused, a seat to take back from the bot, each player's clock, and
    for the viewing player their standing orders and vacation."""
    game, me, state, active = page.game, page.me, page.state, page.active
    names = [p.name for p in state.players]
    out: dict[str, Any] = {"mine": None, "labels": LABELS, "pause": None, "clocks": None,
                           "urls": _urls(game, "game", "pause", "back", "standing", "vacation")}
    playing = active and me is not None and not me.bot and not state.players[me.position].bankrupt
    if playing:
        orders = standing.orders_for_seat(game, me.position)
        correspondence = game.table.pace == Table.Pace.CORRESPONDENCE
        days = vacation.days_left(game, me.position) if correspondence else 0
        out["mine"] = {
            "orders": orders, "casino": state.rules.casino, "income_choice": state.rules.income_tax_choice,
            "vacation": correspondence and game.table.vacation_days > 0, "days_left": days,
            # (Django's blocktranslate count drew this sentence; a Jinja2 template's plural is
            # not one makemessages finds, so it is worded here, markup as the catalogue's words.)
            "days_text": mark_safe(ngettext(
                "Your clock stops while you are away; your standing orders still play. You have %(n)s day left "
                "in this game.",
                "Your clock stops while you are away; your standing orders still play. You have %(n)s days left "
                "in this game.", days) % {"n": int(days)}),
            # (Read once with the page, context.game_page: each player's card says who is away.)
            "away_until": page.away.get(me.position),
            "auto": correspondence and vacation.auto_on(game, me.position),
        }
    # RULES.md 16, back from the bot: once per game, for a seat a bot took at a third miss.
    out["can_take_back"] = bool(
        active and me is not None and me.bot and not me.account_deleted
        and game.table.absent_seat == Table.AbsentSeat.BOT and not state.players[me.position].bankrupt
        and me.position not in (game.aids or {}).get("back", ()))
    if active and game.table.pace == Table.Pace.LIVE:
        out["pause"] = _pause_view(page, names)
    if active and seat_clock.enabled(game.table):
        out["clocks"] = _clocks_view(page, names)
    return out


def _clocks_view(page: GamePage, names: list[str]) -> list[dict]:
    """RULES.md 16: each player's clock, "own time 3 h · bank 1 d 4 h" for someone the game
    waits on (and, outside playing hours, "counting from 08:00", in the viewer's zone), the
    bank alone for the others."""
    me, state = page.me, page.state
    now = timezone.now()
    today = timezone.localtime(now).date()
    rows = []
    for p, clock in seat_clock.shown(page.game, now).items():
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
                     "waited": clock["own"] is not None, "counting": counting})
    return rows


def _pause_view(page: GamePage, names: list[str]) -> dict:
    """RULES.md 11, pause: what the panel shows and offers (games/aids/pause.py)."""
    game, me = page.game, page.me
    now = timezone.now()
    row = pause.current(game, now)
    who = pause.voters(page.seats, game.state)
    mine = me.position if me is not None and me.position in who else None
    view: dict[str, Any] = {"status": None, "can_ask": mine is not None, "me": mine}
    if row is None:
        return view
    view["status"] = row.status
    view["asked_by"] = names[row.asked_by] if 0 <= row.asked_by < len(names) else ""
    ends = None
    if row.status == row.Status.ASKED:
        ends = row.asked_at + timedelta(seconds=pause.ASK_SECONDS)
        view.update(can_answer=mine is not None and mine not in row.agreed,
                    waiting=[names[s] for s in sorted(who - set(row.agreed))])
    elif row.status == row.Status.PAUSED:
        # RULES.md 16: when the countdown starts by itself (the version that starts it redraws
        # the page).
        view.update(can_confirm=mine is not None and mine not in row.confirmed,
                    waiting=[names[s] for s in sorted(who - set(row.confirmed))],
                    auto_at=time_left(pause.expires_at(row, game.table)))
    else:
        ends = row.resume_at
    view["ends"] = time_left(ends)
    if ends:
        # The page redraws itself when the window or the countdown runs out.
        view["refresh"] = max(1, int((ends - now).total_seconds()) + 1)
    return view


# ---------------------------------------------------------------------------------------------
# Ending early by agreement (RULES.md 16)
# ---------------------------------------------------------------------------------------------

def end_early_view(page: GamePage) -> dict[str, Any]:
    """The open proposal (who agreed, who is still asked, the time left) with the viewer's
    answer, or the offer to propose one. Each player's net worth, which the end would rank them
    by (section 12), is on their card."""
    game, me, state = page.game, page.me, page.state
    out: dict[str, Any] = {"show": False, "proposal": None, "urls": _urls(game, "game", "end")}
    if not page.active:
        return out
    now = timezone.now()
    who = agreement.voters(page.seats, game.state)
    mine = me.position if me is not None and me.position in who else None
    proposal = agreement.open_proposal(game, now)
    names = [p.name for p in state.players]
    out.update(show=proposal is not None or mine is not None, me=mine, live=game.table.pace == Table.Pace.LIVE)
    if proposal is None:
        return out
    out["proposal"] = {
        "n": proposal.n, "by": names[proposal.by], "ends": time_left(proposal.ends),
        "rows": [{"name": names[p], "agreed": p in proposal.agreed, "proposer": p == proposal.by}
                 for p in sorted(who | set(proposal.agreed)) if p < len(names)],
        "can_answer": mine is not None and mine not in proposal.agreed,
        "can_withdraw": mine is not None and mine == proposal.by,
        # The page redraws itself when the window runs out (live: 30 s).
        "refresh": max(1, int((proposal.ends - now).total_seconds()) + 1),
    }
    return out


# ---------------------------------------------------------------------------------------------
# The game-over summary (ratings)
# ---------------------------------------------------------------------------------------------

def summary_view(page: GamePage) -> dict[str, Any] | None:
    """A finished game's summary (ratings.selectors.game_summary), with the addresses its
    template links to; None while the game goes on. Its chart is drawn by the ratings' chart
    partial (templates/ratings/partials/chart.html), a Django template the profile and the
    analysis pages draw too."""
    from ratings.selectors import game_summary

    if page.active:
        return None
    viewer = getattr(page.request, "user", None)
    summary = game_summary(game=page.game, seats=page.seats, viewer=viewer)
    out: dict[str, Any] = {"summary": summary, "css": static("css/ratings.css"), "chart_html": "",
                           "rematch_url": reverse("ratings:rematch", args=[page.game.pk]),
                           "rematch_table_url": None,
                           "profiles": {p.username: reverse("ratings:profile", args=[p.username])
                                        for p in summary.players if p.username}}
    if summary.rematch_table is not None:
        out["rematch_table_url"] = reverse("games:table", args=[summary.rematch_table.pk])
    if summary.chart:
        # (Markup, as the Django template's ``translate ... as`` gave the label.)
        label = mark_safe(_("Net worth of each player at the start of every round"))
        out["chart_html"] = mark_safe(render_to_string(
            "ratings/partials/chart.html", {"chart": summary.chart, "label": label, "legend": True}))
    return out


# ---------------------------------------------------------------------------------------------
# Around #game: the page's header, the host's group chat line, the chat, the dialogs, reach
# ---------------------------------------------------------------------------------------------

def frame_view(page: GamePage) -> dict[str, Any]:
    """The header's words: the rule set's name and, by correspondence, the time per move (a live
    table has none)."""
    out = {"preset": str(PRESET_LABELS.get(page.rules.preset, page.rules.preset)), "hours": None}
    hours = page.table.turn_hours
    if page.table.pace != Table.Pace.LIVE and hours is not None:
        # (Django's blocktranslate count drew it: a Jinja2 plural is not one makemessages finds.)
        out["hours"] = mark_safe(ngettext("%(hours)s hour per move", "%(hours)s hours per move", hours)
                                 % {"hours": int(hours)})
    return out


def chat_line_view(page: GamePage) -> dict[str, Any]:
    """Issue 29, for the host: where the game's status is posted, and whether delivery stopped."""
    from chats.selectors import table_channel

    user = getattr(page.request, "user", None)
    table = page.table
    if user is None or not user.is_authenticated or table.host_id != user.pk:
        return {"show": False}
    return {"show": True, "channel": table_channel(table=table), "url": reverse("chats:channel", args=[table.pk])}


def chat_url(page: GamePage) -> str:
    """The game's chat (moderation), which loads beside the game."""
    return reverse("moderation:chat", args=[page.game.pk])


def deed_url(page: GamePage) -> str:
    """The deed dialog's address: a square's card is this with its square for the 0."""
    return game_url("games:game_deed", page.game.pk, 0)


def reach_html(page: GamePage) -> SafeString:
    """Issue 29: the viewer's private notes and the nudges, outside #game. Drawn by reach's own
    Django template (templates/reach/_game_panel.html), which reach/views.py also draws as the
    answer to the panel's forms: one template for both, not a Jinja2 copy."""
    from reach import panel

    request = page.request
    ctx = panel.context(user=getattr(request, "user", None), game=page.game, seats=page.seats, me=page.me)
    # (Lazy, as Django's csrf context processor gives it: a token only where a form is drawn.
    # Drawn without the request: its context processors are the site frame's, not this panel's.)
    ctx.update(request=request, csrf_token=SimpleLazyObject(lambda: get_token(request)))
    return mark_safe(render_to_string("reach/_game_panel.html", ctx))
