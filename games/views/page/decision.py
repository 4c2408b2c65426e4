"""The pending decision, in words (for everyone) and as actions grouped the way the page offers
them (for the player it waits on): the turn's buttons, auctions, the offer on the table, the
manage panel. Reads a ``GameState``, never writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import (
    CASINO_STAKE,
    HOTEL,
    GameState,
    IllegalAction,
    apply,
    auction_askee,
    income_tax_percent,
    legal_actions,
    liquidation_value,
    sell_all_refund,
    sell_back,
    transfer_fee,
    unmortgage_cost,
)
from games.errors import translate_refusal
from games.formats import money
from games.views.page.board import _building_word, _level_label

# Actions offered per deed in the "manage properties" table, in the order shown.
MANAGE_TYPES = ("build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own")

def _why(why: str) -> str:
    """The reason of a payment (the engine's words) for the page."""
    return {"rent": _("rent"), "tax": _("tax"), "card": _("a card"), "jail fine": _("the jail fine"),
            "auction": _("an auction"), "transfer fee": _("a mortgage transfer fee"),
            "repairs": _("repairs")}.get(why, why)



# ---------------------------------------------------------------------------------------------
# The pending decision, in words (for everyone) and as actions (for the player it waits on)
# ---------------------------------------------------------------------------------------------

def _side_words(st: GameState, side: dict) -> list[str]:
    words = []
    if side.get("cash"):
        words.append(money(side["cash"]))
    words.extend(st.board.name_of(sq) for sq in side.get("squares", []))
    if side.get("cards"):
        words.append(ngettext("%(n)d jail card", "%(n)d jail cards", side["cards"]) % {"n": side["cards"]})
    return words


def trade_view(st: GameState, t: dict) -> dict[str, Any]:
    names = [p.name for p in st.players]
    return {"id": t["id"], "from": t["from"], "to": t["to"], "from_name": names[t["from"]],
            "to_name": names[t["to"]], "give": _side_words(st, t["give"]), "take": _side_words(st, t["take"]),
            "raw": t}


def decision_text(st: GameState) -> str:
    """The pending decision as a sentence anyone watching can read."""
    names = [p.name for p in st.players]
    board = st.board
    if st.over:
        if st.winner is None:
            return _("The game is over.")
        return _("Game over: %(name)s wins.") % {"name": names[st.winner]}
    f = st.pending_frame()
    cur = names[st.current]
    if f is None:
        if st.phase == "roll":
            pl = st.players[st.current]
            if pl.in_jail:
                return _("%(name)s is in jail: pay the fine, use a card or roll for doubles "
                         "(try %(n)d of 3).") % {"name": cur, "n": pl.jail_turns + 1}
            if st.turn["doubles"]:
                return _("%(name)s rolled doubles and rolls again.") % {"name": cur}
            return _("%(name)s to roll.") % {"name": cur}
        return _("%(name)s may build, trade or end the turn.") % {"name": cur}
    k = f["k"]
    who = names[f["p"]] if isinstance(f.get("p"), int) and f["p"] >= 0 else ""
    if k == "buy":
        return _("%(name)s landed on %(square)s: buy it for %(price)s or send it to auction.") % {
            "name": who, "square": board.name_of(f["sq"]), "price": money(board.price[f["sq"]])}
    if k == "auction":
        what = board.name_of(f["sq"])
        if f["what"] == "building":
            word = _building_word(st, f["building"] == "hotel")
            what = _("a %(building)s (for %(square)s)") % {"building": word, "square": what}
        if f["stage"] == "place":
            return _("%(name)s won the %(building)s and places it.") % {
                "name": names[f["winner"]], "building": _building_word(st, f["building"] == "hotel")}
        if f["leader"] >= 0:
            high = _("highest bid %(amount)s by %(name)s") % {"amount": money(f["high"]), "name": names[f["leader"]]}
        else:
            high = _("no bids yet, opening at %(amount)s") % {"amount": money(f["opening"])}
        if f["style"] == "rotating":
            return _("Auction of %(what)s: %(high)s. %(name)s to bid or pass.") % {
                "what": what, "high": high, "name": names[auction_askee(f)]}
        return _("Auction of %(what)s: %(high)s. Anyone still in may bid or pass.") % {"what": what, "high": high}
    if k == "debt":
        to = _("the bank") if f["to"] < 0 else names[f["to"]]
        return _("%(name)s owes %(amount)s to %(to)s (%(why)s) and must raise the money.") % {
            "name": who, "amount": money(f["amt"]), "to": to, "why": _why(f["why"])}
    if k == "casino":
        return _("%(name)s is at the casino: stake %(stake)s on 1 to 3 numbers, or walk past.") % {
            "name": who, "stake": money(CASINO_STAKE)}
    if k == "income_tax":
        return _("%(name)s pays income tax: %(flat)s or 10%% of net worth.") % {
            "name": who, "flat": money(st.rules.income_tax)}
    if k == "bus":
        d1, d2 = f["dice"]
        return _("%(name)s took the bus: move %(a)d, %(b)d or %(c)d squares.") % {
            "name": who, "a": d1, "b": d2, "c": d1 + d2}
    if k == "teleport":
        return _("%(name)s rolled a triple and may jump to any square.") % {"name": who}
    if k == "destroy":
        return _("%(name)s knocks a building off an opponent's property.") % {"name": who}
    if k == "mortgage_transfer":
        return _("%(name)s received %(square)s mortgaged: lift the mortgage now or keep it.") % {
            "name": who, "square": board.name_of(f["sq"])}
    if k == "trade_response":
        t = st.trades[str(f["trade"])]
        return _("%(to)s is considering %(from)s's trade offer.") % {"to": names[t["to"]], "from": names[t["from"]]}
    return _("Waiting for %(name)s.") % {"name": who or cur}


# The actions of the turn's own row of buttons (templates/games/partials/decisions/turn.html).
TURN_ACTIONS = frozenset({"roll", "end_turn", "pay_fine", "use_card", "buy", "decline"})


@dataclass
class Choices:
    """The viewing player's legal actions, grouped the way the page offers them."""

    types: set[str] = field(default_factory=set)
    bid: dict[str, int] | None = None
    # RULES.md 15: the range of a maximum bid, and the viewer's own standing maximum (0: none).
    max_bid: dict[str, int] | None = None
    income_tax: dict[str, int] | None = None
    bus: list[dict[str, Any]] = field(default_factory=list)
    teleport: list[dict[str, Any]] = field(default_factory=list)
    destroy: list[dict[str, Any]] = field(default_factory=list)
    transfers: list[dict[str, Any]] = field(default_factory=list)
    placements: list[dict[str, Any]] = field(default_factory=list)
    manage: list[dict[str, Any]] = field(default_factory=list)
    offer: dict[str, Any] | None = None
    debt: dict[str, Any] | None = None
    casino: bool = False
    buy: dict[str, Any] | None = None

    @property
    def any(self) -> bool:
        return bool(self.types)

    @property
    def targets(self) -> set[int]:
        return {t["sq"] for t in self.teleport} | {t["sq"] for t in self.destroy}

    @property
    def kinds(self) -> list[str]:
        """The kinds of decision the viewer faces now, in the order the page offers them: each
        has its include, templates/games/partials/decisions/<kind>.html."""
        t = self.types
        shown = [
            ("turn", bool(t & TURN_ACTIONS)),
            ("auction", "bid" in t or "pass" in t or self.max_bid is not None),
            ("income_tax", self.income_tax is not None),
            ("casino", self.casino or "casino_skip" in t),
            ("bus", bool(self.bus)),
            ("pick_square", bool(self.teleport or self.destroy)),
            ("transfers", bool(self.transfers)),
            ("placements", bool(self.placements)),
            ("debt", self.debt is not None),
        ]
        return [kind for kind, wanted in shown if wanted]

    @property
    def templates(self) -> list[str]:
        return [f"games/partials/decisions/{kind}.html" for kind in self.kinds]


def choices_for(st: GameState, p: int | None) -> Choices:
    c = Choices()
    if p is None or st.over:
        return c
    legal = legal_actions(st, p)
    if not legal:
        return c
    board = st.board
    top = st.pending_frame()
    c.types = {a["type"] for a in legal}
    in_transfer = top is not None and top["k"] == "mortgage_transfer" and top["p"] == p
    placing = top is not None and top["k"] == "auction" and top.get("stage") == "place"
    per_square: dict[int, set[str]] = {}
    for a in legal:
        t = a["type"]
        if t == "bid":
            c.bid = {"min": a["min"], "max": a["max"]}
        elif t == "max_bid":
            c.max_bid = {"min": a["min"], "max": a["max"], "held": a["held"],
                         "can_set": a["min"] <= a["max"]}
        elif t == "income_tax":
            c.income_tax = {"flat": st.rules.income_tax, "percent": income_tax_percent(st, p)}
        elif t == "bus":
            d1, d2 = top["dice"]
            c.bus.append({"choice": a["choice"], "steps": {"first": d1, "second": d2, "sum": d1 + d2}[a["choice"]]})
        elif t == "teleport":
            c.teleport.append({"sq": a["square"], "name": board.name_of(a["square"])})
        elif t == "destroy":
            sq = a["square"]
            c.destroy.append({"sq": sq, "name": board.name_of(sq), "owner": st.players[st.owner[sq]].name,
                              "level": _level_label(st, st.level[sq])})
        elif t == "casino":
            c.casino = True
        elif t == "buy":
            c.buy = {"sq": top["sq"], "name": board.name_of(top["sq"]), "price": board.price[top["sq"]]}
        elif placing and t == "build":
            c.placements.append({"sq": a["square"], "name": board.name_of(a["square"])})
        elif in_transfer and t in ("unmortgage", "keep_mortgaged"):
            sq = a["square"]
            row = next((r for r in c.transfers if r["sq"] == sq), None)
            if row is None:
                row = {"sq": sq, "name": board.name_of(sq), "cost": unmortgage_cost(st, sq),
                       "fee": transfer_fee(st, sq), "can_lift": False}
                c.transfers.append(row)
            if t == "unmortgage":
                row["can_lift"] = True
        elif t in MANAGE_TYPES and "square" in a:
            per_square.setdefault(a["square"], set()).add(t)
    for sq in sorted(per_square):
        s = board[sq]
        kinds = per_square[sq]
        info = board.group_info.get(s.group or "", {})
        lv = st.level[sq]
        acts = []
        for t in MANAGE_TYPES:
            if t not in kinds:
                continue
            if t == "build":
                what = _building_word(st, lv >= st.rules.houses_before_hotel)
                label, amount = _("Build a %(what)s") % {"what": what}, -s.build_cost
            elif t == "sell":
                what = _building_word(st, lv == HOTEL)
                label, amount = _("Sell a %(what)s") % {"what": what}, sell_back(st, sq)
            elif t == "sell_all":
                label, amount = _("Sell all in the group"), sell_all_refund(st, p, sq)
            elif t == "mortgage":
                label, amount = _("Mortgage"), s.mortgage
            elif t == "unmortgage":
                label, amount = _("Lift mortgage"), -unmortgage_cost(st, sq)
            else:
                label, amount = _("Auction it"), None
            acts.append({"type": t, "label": label, "amount": amount})
        c.manage.append({"sq": sq, "name": s.name, "colour": info.get("color", "#999"),
                         "state": _("mortgaged") if st.mortgaged[sq] else (_level_label(st, lv) if lv else ""),
                         "actions": acts})
    if top is not None and top["k"] == "debt" and top["p"] == p:
        cash = st.players[p].cash
        c.debt = {"amount": top["amt"], "to": _("the bank") if top["to"] < 0 else st.players[top["to"]].name,
                  "why": _why(top["why"]), "cash": cash, "short": max(0, top["amt"] - cash),
                  "liquidation": liquidation_value(st, p)}
    return c


def offer_view(st: GameState, me: int | None) -> dict[str, Any] | None:
    """The trade offer waiting for an answer, and whether the viewer may counter it."""
    top = st.pending_frame()
    if top is None or top["k"] != "trade_response":
        return None
    t = st.trades[str(top["trade"])]
    view = trade_view(st, t)
    view["mine"] = me == t["from"]
    view["for_me"] = me == t["to"]
    if view["for_me"]:
        view["counter_error"] = counter_error(st, me, t)
    return view


def counter_error(st: GameState, me: int, t: dict) -> str | None:
    """Why the receiver of offer ``t`` could not reject it and propose another in one move, or
    None if they can. The rule set's trade windows decide (RULES.md 9)."""
    probe = st.copy()
    try:
        apply(probe, {"type": "reject", "player": me, "trade": t["id"]}, events=False)
    except IllegalAction as e:
        return translate_refusal(e)
    if any(a["type"] == "propose" for a in legal_actions(probe, me)):
        return None
    try:
        # An empty proposal: the engine checks the trade window before the trade's contents,
        # so its refusal names the rule that closes the window.
        apply(probe, {"type": "propose", "player": me, "to": t["from"], "give": {}, "take": {}}, events=False)
    except IllegalAction as e:
        return translate_refusal(e)
    return _("trades can't be proposed now")
