"""The aids of the game page (RULES.md 15 and 11, site level; issue 10): a player's standing
orders and vacation, and the pause of a live game. Each form posts here and works without JavaScript (a redirect
back to the game with a message); with htmx the answer is the refreshed ``#game`` fragment.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.ratelimit import limit
from games import services
from games.aids import pause
from games.aids import services as aids
from games.aids.standing import MAX_AUCTION_PERCENT, MAX_BUY_KEEP, Orders
from games.views.play import _answer, _load
from games.views.play_forms import Allowed, FormError, strict_fields

ORDER_FIELDS = frozenset(("csrfmiddlewaretoken", "end_turn", "jail", "income_tax", "casino_skip",
                          "reject_bot_trades", "auction", "auction_percent", "roll", "buy", "buy_keep",
                          "cancel"))
# The jail select's values (the engine's action names would read as the page's move buttons).
JAIL_VALUES = {"": "", "fine": "pay_fine", "card": "use_card", "doubles": "roll"}
VACATION_FIELDS = frozenset(("csrfmiddlewaretoken", "days", "end", "version", "auto"))


def _flag(data: QueryDict, key: str) -> bool:
    value = data.get(key, "")
    if value not in ("", "on"):
        raise FormError(gettext_lazy("malformed form field: %(field)s"), field=key)
    return value == "on"


def _whole(raw: str, key: str, digits: int = 4) -> int:
    if not raw.isdigit() or len(raw) > digits:
        raise FormError(gettext_lazy("enter a whole number in %(field)s"), field=key)
    return int(raw)


def _number(raw: str, label: object, lo: int, hi: int | None = None) -> int:
    """A number field the player fills in: refused, naming the field in words and what it takes
    (from ``lo`` to ``hi``), when it is not a whole number in that range."""
    value = raw[:20]
    if not raw:
        raise FormError(gettext_lazy("%(field)s is missing."), field=label)
    if raw.isascii() and raw.isdigit() and len(raw) <= 9 and lo <= int(raw) <= (hi if hi is not None else int(raw)):
        return int(raw)
    if hi is None:
        raise FormError(gettext_lazy("%(field)s must be a whole number, not “%(value)s”."), field=label, value=value)
    words = Allowed(lo, hi, money=False)
    raise FormError(gettext_lazy("%(field)s must be a whole number from %(lo)s to %(hi)s, not “%(value)s”."),
                    field=label, lo=words.words(lo), hi=words.words(hi), value=value)


def parse_orders(data: QueryDict) -> Orders:
    """The standing orders form, strictly: an unknown field or a repeated one is refused; the
    choices themselves are checked by the service (games/aids/standing.py)."""
    strict_fields(data, ORDER_FIELDS)
    if data.get("cancel"):
        return Orders()
    percent = None
    if _flag(data, "auction"):
        percent = _number(data.get("auction_percent", "").strip(), gettext_lazy("The auction percentage"),
                          0, MAX_AUCTION_PERCENT)
    keep = None
    if _flag(data, "buy"):
        keep = _number(data.get("buy_keep", "").strip(), gettext_lazy("The cash to keep"), 0, MAX_BUY_KEEP)
    jail = data.get("jail", "")
    if jail not in JAIL_VALUES:
        raise FormError(gettext_lazy("choose what to do in jail"))
    return Orders(end_turn=_flag(data, "end_turn"), jail=JAIL_VALUES[jail], income_tax=data.get("income_tax", ""),
                  casino_skip=_flag(data, "casino_skip"), reject_bot_trades=_flag(data, "reject_bot_trades"),
                  auction_percent=percent, roll=_flag(data, "roll"), buy_keep=keep)


def _done(request: HttpRequest, game_id: int, *, error: str | None, status: int, ok: str | None = None) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif ok:
            messages.success(request, ok)
        return redirect("games:game", game_id=game_id)
    if error:
        return _answer(request, game_id, message=error, status=status)
    return _answer(request, game_id, message=ok, status=200, level="success")


@login_required
@require_POST
@limit("RATE_LIMIT_MOVES")
def standing_orders(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _seats, _me = _load(request, game_id)
    try:
        orders = parse_orders(request.POST)
        sub = aids.standing_orders_set(game=game, user=request.user, orders=orders)
    except (FormError, services.GameError) as e:
        status = 403 if isinstance(e, services.NotAllowed) else 400
        return _done(request, game_id, error=capfirst(e.localized()) + ".", status=status)
    ok = _("Your standing orders are set.") if orders.any else _("Your standing orders are cancelled.")
    if sub.actions:
        ok = _("Your standing orders are set, and played at once.")
    return _done(request, game_id, error=None, status=200, ok=ok)


@login_required
@require_POST
@limit("RATE_LIMIT_MOVES")
def vacation_view(request: HttpRequest, game_id: int) -> HttpResponse:
    game, _seats, _me = _load(request, game_id)
    data = request.POST
    try:
        strict_fields(data, VACATION_FIELDS)
        if data.get("auto"):
            if data["auto"] not in ("on", "off"):
                raise FormError(gettext_lazy("malformed form field: %(field)s"), field="auto")
            aids.vacation_auto_set(game=game, user=request.user, on=data["auto"] == "on")
            ok = (_("A timeout will take a vacation day instead, while you have days left.") if data["auto"] == "on"
                  else _("Your timeouts will no longer take vacation days."))
        elif data.get("end"):
            aids.vacation_end(game=game, user=request.user)
            ok = _("Welcome back: your vacation is over.")
        else:
            days = _number(data.get("days", "").strip(), gettext_lazy("The number of days"), 1)
            version = _whole(data.get("version", ""), "version", digits=9)
            aids.vacation_take(game=game, user=request.user, days=days, expected_version=version)
            ok = _("Have a good vacation: your clock is frozen.")
    except (FormError, services.GameError) as e:
        status = 403 if isinstance(e, services.NotAllowed) else 409 if isinstance(e, services.StaleVersion) else 400
        return _done(request, game_id, error=capfirst(e.localized()) + ".", status=status)
    return _done(request, game_id, error=None, status=200, ok=ok)


@login_required
@require_POST
@limit("RATE_LIMIT_MOVES")
def seat_back(request: HttpRequest, game_id: int) -> HttpResponse:
    """RULES.md 16, back from the bot: take one's seat back from the bot that played it."""
    game, _seats, _me = _load(request, game_id)
    if set(request.POST) - {"csrfmiddlewaretoken"}:
        return _done(request, game_id, error=_("This form was not sent by the game page."), status=400)
    try:
        aids.seat_take_back(game=game, user=request.user)
    except services.GameError as e:
        status = 403 if isinstance(e, services.NotAllowed) else 400
        return _done(request, game_id, error=capfirst(e.localized()) + ".", status=status)
    return _done(request, game_id, error=None, status=200, ok=_("Welcome back: you play your seat again."))


PAUSE_FIELDS = frozenset(("csrfmiddlewaretoken", "do"))


@login_required
@require_POST
@limit("RATE_LIMIT_MOVES")
def pause_view(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for a pause, agree or refuse, or say one is ready to resume (``do``)."""
    game, _seats, _me = _load(request, game_id)
    data = request.POST
    do = data.get("do", "")
    try:
        strict_fields(data, PAUSE_FIELDS, ok=do in ("ask", "agree", "refuse", "ready"))
        if do == "ask":
            done = aids.pause_ask(game=game, user=request.user)
            ok = _("The game is paused.") if done.status == done.Status.PAUSED else \
                _("You asked for a pause: every player must agree within %(n)s seconds.") % {"n": pause.ASK_SECONDS}
        elif do in ("agree", "refuse"):
            done = aids.pause_answer(game=game, user=request.user, agree=do == "agree")
            ok = _("You refused the pause.") if done is None else (
                _("The game is paused.") if done.status == done.Status.PAUSED else _("You agreed to the pause."))
        else:
            done = aids.pause_confirm(game=game, user=request.user)
            ok = _("Play resumes in a few seconds.") if done.status == done.Status.RESUMING else \
                _("You are ready to resume; waiting for the others.")
    except (FormError, services.GameError) as e:
        status = 403 if isinstance(e, services.NotAllowed) else 400
        return _done(request, game_id, error=capfirst(e.localized()) + ".", status=status)
    return _done(request, game_id, error=None, status=200, ok=ok)
