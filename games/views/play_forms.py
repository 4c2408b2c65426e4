"""The game page's forms, read into engine actions.

Every form of the page posts to one endpoint with a ``type`` (the engine's action name, see
SCENARIOS.md) and the ``version`` of the position it was drawn from. This module checks the
types and shapes of the fields strictly; whether the action is legal now is the engine's call.
A field no form of the page ever sends (``player``, say) is refused: the seat always comes from
the signed-in user, never from the form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _

from games.engine import GameState, legal_actions
from games.errors import SiteRefusal, money

NO_PARAMS = ("roll", "end_turn", "buy", "decline", "pass", "pay_fine", "use_card", "casino_skip", "surrender")
SQUARE_PARAM = ("build", "sell", "sell_all", "mortgage", "unmortgage", "keep_mortgaged", "teleport", "destroy",
                "auction_own")
TRADE_PARAM = ("accept", "reject", "cancel")
ACTION_TYPES = frozenset(NO_PARAMS + SQUARE_PARAM + TRADE_PARAM
                         + ("bid", "max_bid", "income_tax", "casino", "bus", "propose"))
TRADE_FIELDS = ("to", "give_cash", "give_squares", "give_cards", "take_cash", "take_squares", "take_cards",
                "counter")
KNOWN_FIELDS = frozenset(("csrfmiddlewaretoken", "version", "type", "square", "amount", "choice", "numbers",
                          "trade", "confirm", *TRADE_FIELDS))
_WHOLE = re.compile(r"\d{1,9}")


class FormError(SiteRefusal, ValueError):
    """A malformed or forged form, with a message for the person who sent it (``str()`` in
    English for programs, ``localized()`` in the reader's language)."""


def strict_fields(data, allowed: frozenset[str], *, ok: bool = True) -> None:
    """A panel's form as the game page sends it: no field outside ``allowed``, none repeated, and
    ``ok`` (the caller's own check of its choice); else the one refusal of a forged form."""
    if not ok or set(data) - allowed or any(len(data.getlist(k)) > 1 for k in data):
        raise FormError(_("this form was not sent by the game page"))


@dataclass(frozen=True)
class Allowed:
    """The values a number field takes now: from ``lo`` to ``hi``, amounts of cash or not."""

    lo: int
    hi: int
    money: bool = True

    def words(self, value: int) -> str:
        return money(value) if self.money else number_format(value, force_grouping=True)


# A number field's allowed values, looked up only when a value is refused (the lookup reads the
# position): field name -> Allowed, or None where the page offers no such field now.
Ranges = Callable[[str], "Allowed | None"]


def number_ranges(state: GameState, seat: int, data: QueryDict) -> Ranges:
    """What the bid and the trade builder's number fields allow for ``seat`` now, as the page's
    inputs say (their min and max): a bid from the lowest bid to the bidder's cash, cash up to
    what each side holds, jail cards up to the cards each side holds."""

    def allowed(key: str) -> Allowed | None:
        if key == "amount":
            # A bid's amount, or a maximum's (RULES.md 15: 0 withdraws it).
            kind = "max_bid" if data.get("type") == "max_bid" else "bid"
            bid = next((a for a in legal_actions(state, seat) if a["type"] == kind), None)
            if bid is None:
                return None
            return Allowed(0 if kind == "max_bid" else bid["min"], bid["max"])
        side, _sep, what = key.partition("_")
        if side not in ("give", "take") or what not in ("cash", "cards"):
            return None
        if side == "give":
            player = state.players[seat]
        else:
            raw = (data.get("to") or "").strip()
            other = int(raw) if _WHOLE.fullmatch(raw) else -1
            if not 0 <= other < len(state.players) or other == seat:
                return None
            player = state.players[other]
        if what == "cash":
            return Allowed(0, max(0, player.cash))
        return Allowed(0, len(player.jail_cards), money=False)

    return allowed


@dataclass
class ParsedAction:
    version: int
    actions: list[dict[str, Any]]  # one action, or reject + propose for a counter-offer


def _whole(data: QueryDict, key: str, *, label: object = None, default: int | None = None,
           ranges: Ranges | None = None) -> int:
    raw = data.get(key)
    if raw is None or raw.strip() == "":
        if default is not None:
            return default
        raise FormError(_("%(field)s is missing."), field=label or key)
    raw = raw.strip()
    if not _WHOLE.fullmatch(raw):
        allowed = ranges(key) if ranges is not None else None
        if allowed is not None:
            # Say what the field takes ("-1" is a whole number to most people).
            raise FormError(_("%(field)s must be a whole number from %(lo)s to %(hi)s, not “%(value)s”."),
                            field=label or key, lo=allowed.words(allowed.lo), hi=allowed.words(allowed.hi),
                            value=raw[:20])
        raise FormError(_("%(field)s must be a whole number, not “%(value)s”."),
                        field=label or key, value=raw[:20])
    return int(raw)


_SQUARES = Allowed(0, 39, money=False)


def _square(data: QueryDict, key: str = "square") -> int:
    sq = _whole(data, key, label=_("The square"), ranges=lambda _key: _SQUARES)
    if not 0 <= sq < 40:
        raise FormError(_("There is no square %(n)d on the board."), n=sq)
    return sq


def _squares(data: QueryDict, key: str) -> list[int]:
    out = []
    for raw in data.getlist(key):
        if not _WHOLE.fullmatch(raw.strip()):
            raise FormError(_("A deed in the trade is not a square number."))
        sq = int(raw)
        if not 0 <= sq < 40:
            raise FormError(_("There is no square %(n)d on the board."), n=sq)
        if sq in out:
            raise FormError(_("A deed is listed twice in the trade."))
        out.append(sq)
    return sorted(out)


def _single(data: QueryDict, key: str) -> None:
    if len(data.getlist(key)) > 1:
        raise FormError(_("The field “%(field)s” was sent twice."), field=key)


def parse_action(data: QueryDict, *, ranges: Ranges | None = None) -> ParsedAction:
    """The form's action(s). ``ranges`` tells a number field's allowed values, for the message
    when one is refused (see ``number_ranges``)."""
    unknown = sorted(set(data) - KNOWN_FIELDS)
    if unknown:
        raise FormError(_("Unexpected field “%(field)s”: the page never sends it."),
                        field=unknown[0][:30])
    for key in data:
        if key not in ("numbers", "give_squares", "take_squares"):
            _single(data, key)
    version = _whole(data, "version", label=_("The version"))
    kind = (data.get("type") or "").strip()
    if kind not in ACTION_TYPES:
        raise FormError(_("Unknown action “%(type)s”."), type=kind[:30])
    action: dict[str, Any] = {"type": kind}
    if kind in SQUARE_PARAM:
        action["square"] = _square(data)
    elif kind in TRADE_PARAM:
        action["trade"] = _whole(data, "trade", label=_("The trade"))
    elif kind == "bid":
        action["amount"] = _whole(data, "amount", label=_("The bid"), ranges=ranges)
    elif kind == "max_bid":
        action["amount"] = _whole(data, "amount", label=_("Your maximum"), ranges=ranges)
    elif kind == "income_tax":
        choice = data.get("choice")
        if choice not in ("flat", "percent"):
            # The percent sign is literal: tell makemessages this is no format string.
            # xgettext:no-python-format
            raise FormError(_("Choose the flat amount or 10% of your net worth."))
        action["choice"] = choice
    elif kind == "bus":
        choice = data.get("choice")
        if choice not in ("first", "second", "sum"):
            raise FormError(_("Choose the first die, the second or their sum."))
        action["choice"] = choice
    elif kind == "casino":
        numbers = []
        for raw in data.getlist("numbers"):
            if raw not in ("1", "2", "3", "4", "5", "6") or int(raw) in numbers:
                raise FormError(_("Pick different numbers from 1 to 6."))
            numbers.append(int(raw))
        if not 1 <= len(numbers) <= 3:
            raise FormError(_("Pick 1 to 3 numbers to stake on."))
        action["numbers"] = sorted(numbers)
    elif kind == "surrender":
        if data.get("confirm") != "yes":
            raise FormError(_("Tick the box to confirm that you want to leave the game."))
    elif kind == "propose":
        action["to"] = _whole(data, "to", label=_("The player to trade with"))
        for side, cash, cards in (
            ("give", _("The cash you give"), _("The jail cards you give")),
            ("take", _("The cash you ask for"), _("The jail cards you ask for")),
        ):
            action[side] = {
                "cash": _whole(data, f"{side}_cash", label=cash, default=0, ranges=ranges),
                "squares": _squares(data, f"{side}_squares"),
                "cards": _whole(data, f"{side}_cards", label=cards, default=0, ranges=ranges),
            }
        if data.get("counter", "").strip():
            # A counter-offer: reject the offer on the table and propose this one, as one move.
            trade = _whole(data, "counter", label=_("The offer you answer"))
            return ParsedAction(version, [{"type": "reject", "trade": trade}, action])
    return ParsedAction(version, [action])


def prefill_from(data: QueryDict) -> dict[str, Any] | None:
    """A rejected trade proposal's fields, to draw the builder again as the player left it."""
    if data.get("type") != "propose":
        return None
    def num(key):
        raw = (data.get(key) or "").strip()
        return int(raw) if _WHOLE.fullmatch(raw) else 0
    def sqs(key):
        return [int(x) for x in data.getlist(key) if _WHOLE.fullmatch(x.strip()) and int(x) < 40]
    return {"to": num("to"), "counter": num("counter") or None,
            "give": {"cash": num("give_cash"), "squares": sqs("give_squares"), "cards": num("give_cards")},
            "take": {"cash": num("take_cash"), "squares": sqs("take_squares"), "cards": num("take_cards")}}


def query_int(request, key: str) -> int | None:
    """A whole number from the query string (``?step=12``), or None for anything else."""
    raw = request.GET.get(key, "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else None
