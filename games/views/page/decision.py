"""What the game page shows, computed from an engine state: the board's squares, the players'
panels, the pending decision in words, and the viewing player's legal actions grouped the way
the page offers them (decision buttons, the "manage properties" table, the trade builder).

Everything here reads a ``GameState`` and returns plain dicts and lists for the templates; it
never writes and never touches the database, so the replay viewer can use it on any state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Any

from django.utils.translation import ngettext, pgettext

from accounts.names import isolated
from config.words import gettext as _
from games.engine import (
    CASINO_STAKE,
    HOTEL,
    JAIL_CARD_VALUE,
    NO_OWNER,
    GameState,
    IllegalAction,
    apply,
    auction_askee,
    describe,
    income_tax_percent,
    legal_actions,
    liquidation_value,
    net_worth,
    rent_of,
    rent_tax_rate,
    salary_active,
    sell_all_refund,
    sell_back,
    tradeable_deeds,
    transfer_fee,
    unmortgage_cost,
    visible_to,
    waiting_on,
)
from games.errors import translate_refusal
from games.formats import money, number
from games.models import GameAction
from games.views.contrast import ink
from games.views.trade_values import completes_alone, trade_summary

# One colour per seat, for tokens, owner markers and the players' panels. Each reaches 3:1
# against both boards' paper (an owner's strip is a graphic: WCAG 1.4.11) and 4.5:1 under the
# white letter of a token (tests/games/test_contrast.py).
PLAYER_COLOURS = ("#d62828", "#1d5fd8", "#15803d", "#a86400", "#7c3aed", "#0e7490", "#c2185b", "#57534e")
CORNERS = {0: "go", 10: "jail", 20: "parking", 30: "gotojail"}
# Actions offered per deed in the "manage properties" table, in the order shown.
MANAGE_TYPES = ("build", "sell", "sell_all", "mortgage", "unmortgage", "auction_own")




def grid_place(index: int) -> tuple[int, int, str]:
    """(row, column, side) of a square on the 11x11 grid: GO bottom right, play runs clockwise
    along the bottom row to the left, up the left column, along the top and down the right."""
    if index == 0:
        return 11, 11, "corner"
    if index < 10:
        return 11, 11 - index, "bottom"
    if index == 10:
        return 11, 1, "corner"
    if index < 20:
        return 21 - index, 1, "left"
    if index == 20:
        return 1, 1, "corner"
    if index < 30:
        return 1, index - 19, "top"
    if index == 30:
        return 1, 11, "corner"
    return index - 29, 11, "right"


def _building_word(st: GameState, top_level: bool) -> str:
    house, hotel = st.board.level_names
    if top_level:
        return _("corporation") if hotel == "corporation" else _("hotel")
    return _("branch") if house == "branch" else _("house")


def _level_label(st: GameState, level: int) -> str:
    if level == HOTEL:
        return _building_word(st, True)
    if st.board.level_names[0] == "branch":
        return ngettext("%(n)d branch", "%(n)d branches", level) % {"n": level}
    return ngettext("%(n)d house", "%(n)d houses", level) % {"n": level}


def _why(why: str) -> str:
    """The reason of a payment (the engine's words) for the page."""
    return {"rent": _("rent"), "tax": _("tax"), "card": _("a card"), "jail fine": _("the jail fine"),
            "auction": _("an auction"), "transfer fee": _("a mortgage transfer fee"),
            "repairs": _("repairs")}.get(why, why)


# ---------------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------------

_TRAILING_NUMBER = re.compile(r"(\d+)\W*$")


def token_letters(names: list[str]) -> list[str]:
    """What each player's token shows: the first letter of their name where no one else's name
    starts with it, else a few characters that tell the players of that letter apart: the
    number their names end in (the bots: "Strategy bot 2" S2; the same name twice: "Ann (3)"
    A3), else their first two letters ("Bob", "Bea": Bo, Be), else the letter and the seat
    ("Alice", "Alan": A1, A2). Every label starts with its letter, so the groups never clash."""
    letters = [[c for c in name if c.isalnum()] for name in names]
    firsts = [(chars[0].upper() if chars else "?") for chars in letters]
    out = list(firsts)
    for first in set(firsts):
        seats = [i for i, f in enumerate(firsts) if f == first]
        if len(seats) == 1:
            continue
        numbers = [_TRAILING_NUMBER.search(names[i]) for i in seats]
        schemes = []
        if all(numbers):
            schemes.append([first + m.group(1) for m in numbers])
        schemes.append([first + "".join(letters[i][1:2]).lower() for i in seats])
        schemes.append([f"{first}{i + 1}" for i in seats])  # (always distinct)
        chosen = next(scheme for scheme in schemes if len(set(scheme)) == len(scheme))
        for i, label in zip(seats, chosen, strict=True):
            out[i] = label
    return out


def players_view(st: GameState, *, me: int | None, labels: list[str] | None = None) -> list[dict[str, Any]]:
    board = st.board
    waiting = set(waiting_on(st))
    letters = token_letters([pl.name for pl in st.players])
    out = []
    for i, pl in enumerate(st.players):
        groups: dict[str, dict[str, Any]] = {}
        for sq in board.deeds:
            if st.owner[sq] != i:
                continue
            s = board[sq]
            info = board.group_info.get(s.group, {})
            g = groups.get(s.group)
            if g is None:
                g = groups[s.group] = {"key": s.group, "name": info.get("name", s.group),
                                       "colour": info.get("color", "#999"), "ink": ink(info.get("color", "#999")),
                                       "deeds": [], "size": len(board.groups[s.group])}
            g["deeds"].append({"sq": sq, "name": s.name, "mortgaged": st.mortgaged[sq], "level": st.level[sq],
                               "hotel": st.level[sq] == HOTEL})
        for g in groups.values():
            g["complete"] = len(g["deeds"]) == g["size"]
        out.append({
            "seat": i, "name": pl.name, "label": labels[i] if labels else pl.name,
            "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)], "initial": letters[i],
            "cash": pl.cash, "net_worth": net_worth(st, i), "pos": pl.pos, "square": board.name_of(pl.pos),
            "in_jail": pl.in_jail, "jail_turns": pl.jail_turns, "jail_cards": len(pl.jail_cards),
            "bankrupt": pl.bankrupt, "missed": pl.missed, "team": pl.team,
            "current": i == st.current and not st.over, "waiting": i in waiting, "me": i == me,
            "winner": st.over and st.winner == i,
            "away": None,  # (a correspondence game's page: when they are back from vacation, play.py)
            "groups": list(groups.values()),
        })
    return out


# The fields of a player's view and of its groups and deeds that their card (the template
# players/panels.html) shows: ``card_marks``.
_CARD = ("current", "waiting", "bankrupt", "me", "winner", "colour", "initial", "name", "team", "cash",
         "net_worth", "in_jail", "square", "jail_cards", "missed", "away")
_GROUP = ("complete", "colour", "ink", "name")
_DEED = ("sq", "name", "mortgaged", "level", "hotel")


_card_fields, _group_fields, _deed_fields = itemgetter(*_CARD), itemgetter(*_GROUP), itemgetter(*_DEED)


def card_marks(p: dict[str, Any]) -> tuple:
    """What a player's card shows of their view (``players_view``), as a tuple: two views draw
    alike exactly when their marks are equal (the page's marks, move_parts.py;
    tests/games/test_square_marks.py holds them to the markup)."""
    return _card_fields(p), group_marks(p["groups"])


def group_marks(groups: list[dict[str, Any]]) -> tuple:
    """What a player's deeds (their groups, ``players_view``) show, as a tuple (``card_marks``)."""
    return tuple((_group_fields(g), tuple(map(_deed_fields, g["deeds"]))) for g in groups)


# ---------------------------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------------------------

def board_view(st: GameState, players: list[dict[str, Any]], *, targets: set[int] | None = None) -> list[dict]:
    """The 40 squares with what stands on them. ``targets`` are squares the viewer may click
    (a teleport or a building to knock down)."""
    return [square_view(st, players, i, targets=targets) for i in range(len(st.board.squares))]


def square_view(st: GameState, players: list[dict[str, Any]], index: int, *,
                targets: set[int] | None = None) -> dict[str, Any]:
    """One square of ``board_view``: a move's answer draws only those whose marks changed
    (``square_marks``, move_parts.py)."""
    s = st.board.squares[index]
    owner, level, mortgaged, rent, rent_dice = _square_state(st, s)
    sq = {
        **_fixed_squares(st.board)[index],
        "tax": _tax(st, s),
        "owner": None if owner == NO_OWNER else players[owner],
        "mortgaged": mortgaged,
        "houses": range(level if level != HOTEL else 0), "hotel": level == HOTEL, "level": level,
        "rent": rent, "rent_dice": rent_dice,
        "tokens": [p for p in players if not p["bankrupt"] and p["pos"] == index],
        "target": index in (targets or ()), "here": not st.over and players[st.current]["pos"] == index,
    }
    sq["facts"] = square_facts(st, sq)
    return sq


def square_marks(st: GameState, players: list[dict[str, Any]], *, targets: set[int] | None = None) -> list[tuple]:
    """For each square, what its markup (board/square.html) shows that can change in a game,
    as a tuple: two positions' squares draw alike exactly when their marks are equal. A move's
    answer compares these (move_parts.py), not whole views: of the owner and the tokens the
    square draws only a few fields of their player views, so a player's cash changing redraws
    their card, not every square they own. (Its name, place, colour and price never change.
    tests/games/test_square_marks.py holds the marks to ``square_view``, and test_move_parts.py
    the answers to the markup.)"""
    targets = targets or set()
    tokens: dict[int, list[tuple]] = {}
    for p in players:
        if not p["bankrupt"]:
            tokens.setdefault(p["pos"], []).append(_token_mark(p))
    here = None if st.over else players[st.current]["pos"]
    marks = []
    for s in st.board.squares:
        owner, level, mortgaged, rent, rent_dice = _square_state(st, s)
        i = s.index
        marks.append((_tax(st, s), None if owner == NO_OWNER else _owner_mark(players[owner]), mortgaged, level,
                      rent, rent_dice, tuple(tokens.get(i, ())), i in targets, i == here))
    return marks


def marks_of(sq: dict[str, Any]) -> tuple:
    """``square_marks``' tuple, read off a square's view (``square_view``)."""
    return (sq["tax"], sq["owner"] and _owner_mark(sq["owner"]), sq["mortgaged"], sq["level"], sq["rent"],
            sq["rent_dice"], tuple(_token_mark(p) for p in sq["tokens"]), sq["target"], sq["here"])


def _owner_mark(p: dict[str, Any]) -> tuple:
    return p["colour"], p["initial"], p["name"]


def _token_mark(p: dict[str, Any]) -> tuple:
    return p["current"], p["colour"], p["name"], p["initial"], p["in_jail"]


def _tax(st: GameState, s) -> int | None:
    if s.kind != "tax":
        return None
    return st.rules.income_tax if s.tax == "income" else st.rules.luxury_tax


def _square_state(st: GameState, s) -> tuple[int, int, bool, int | None, int | None]:
    """The owner (or NO_OWNER), buildings, mortgage and what landing on square ``s`` costs now:
    an amount, or for a utility the multiple of the dice."""
    i = s.index
    owner = st.owner[i] if s.is_deed else NO_OWNER
    level = st.level[i] if s.kind == "street" else 0
    mortgaged = s.is_deed and st.mortgaged[i]
    rent = rent_dice = None
    if owner != NO_OWNER and not st.mortgaged[i]:
        if s.kind == "utility":
            rent_dice = rent_of(st, i, dice_total=1)
        else:
            rent = rent_of(st, i)
    return owner, level, mortgaged, rent, rent_dice


@lru_cache(maxsize=64)
def _fixed_squares(board) -> tuple[dict[str, Any], ...]:
    """What of each square of ``board`` never changes in a game (its place, name, colour,
    price), for board_view: one copy per board (and so per language: board_words)."""
    out = []
    for s in board.squares:
        row, col, side = grid_place(s.index)
        info = board.group_info.get(s.group or "", {})
        out.append({
            "index": s.index, "name": s.name, "kind": s.kind, "row": row, "col": col, "side": side,
            "corner": CORNERS.get(s.index), "group": s.group or "",
            "colour": info.get("color") if s.kind == "street" else None,
            "price": s.price if s.is_deed else None, "short": s.short,
        })
    return tuple(out)


def square_facts(st: GameState, sq: dict[str, Any]) -> list[str]:
    """What the board shows of a square besides its name and price, in words: the owner, the
    mortgage, the buildings and the rent landing there costs now. The square's title (a tap on
    a small board shows it) and the text a screen reader reads (issue 12) both say it."""
    facts = []
    if sq["owner"]:
        facts.append(_("owned by %(name)s") % {"name": sq["owner"]["name"]})
    if sq["mortgaged"]:
        facts.append(_("mortgaged"))
    if sq["level"]:
        facts.append(_level_label(st, sq["level"]))  # (a hotel, or so many houses or branches)
    if sq["rent"] is not None:
        facts.append(_("rent %(amount)s") % {"amount": money(sq["rent"])})
    elif sq["rent_dice"]:
        facts.append(_("rent %(n)s times the dice") % {"n": sq["rent_dice"]})
    return facts


def dice_view(dice: list) -> list[dict[str, Any]]:
    """Dice faces: numbers get pips; the speed die's BUS and M1 faces are words."""
    out = []
    for d in dice or []:
        if isinstance(d, int):
            out.append({"value": d, "pips": range(d), "text": str(d)})
        else:
            out.append({"value": d, "pips": None, "text": "BUS" if d == "bus" else "M1"})
    return out


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


# ---------------------------------------------------------------------------------------------
# The trade builder
# ---------------------------------------------------------------------------------------------

def tradeable(st: GameState, giver: int, receiver: int) -> list[dict[str, Any]]:
    """The deeds ``giver`` may put in a trade with ``receiver`` (RULES.md 9), as the engine's
    trade check decides (``tradeable_deeds``), with what the trade builder shows of each."""
    board = st.board
    out = []
    for sq in tradeable_deeds(st, giver, receiver):
        s = board[sq]
        info = board.group_info.get(s.group or "", {})
        out.append({"sq": sq, "name": s.name, "price": s.price, "mortgaged": st.mortgaged[sq],
                    "colour": info.get("color", "#999")})
    return out


def builder_view(st: GameState, me: int, other: int, *, prefill: dict | None = None,
                 counter: int | None = None) -> dict[str, Any]:
    prefill = prefill or {}
    give = prefill.get("give") or {}
    take = prefill.get("take") or {}
    mine, theirs = st.players[me], st.players[other]

    def side(p, pl, chosen, receiver):
        deeds = tradeable(st, p, receiver)
        picked = set(chosen.get("squares") or [])
        for d in deeds:
            d["checked"] = d["sq"] in picked
            # (issue 12) The deed alone would complete its group for whoever receives it.
            d["completes"] = completes_alone(st, receiver, d["sq"])
        return {"cash_max": pl.cash, "cash": chosen.get("cash") or 0, "cards_max": len(pl.jail_cards),
                "cards": chosen.get("cards") or 0, "deeds": deeds}

    give_side, take_side = side(me, mine, give, other), side(other, theirs, take, me)
    picked = {k: [d["sq"] for d in s["deeds"] if d["checked"]] for k, s in (("give", give_side), ("take", take_side))}
    return {
        # Each side's value and the balance rule's verdict, as the form stands (trade_values.py).
        "summary": trade_summary(st, me, other, {"cash": give_side["cash"], "squares": picked["give"],
                                                 "cards": give_side["cards"]},
                                 {"cash": take_side["cash"], "squares": picked["take"], "cards": take_side["cards"]}),
        "to": other, "to_name": theirs.name, "counter": counter,
        "give": give_side, "take": take_side,
        "balance": st.rules.trade_balance and not st.teammates(me, other),
        "card_value": JAIL_CARD_VALUE,
        "mortgage_fee": st.rules.trade_mortgaged == "yes",
    }


def default_builder(st: GameState, acting: int | None, choices: Choices, *,
                    partner: int | None = None) -> dict[str, Any] | None:
    """The trade builder as the page draws it when no offer is countered and no form refused:
    with the opponent ``partner`` (the tab the player picked: ``?trade_with=``), else the first,
    the others as tabs; None when the viewer may not propose now."""
    if acting is None or "propose" not in choices.types:
        return None
    others = opponents(st, acting)
    if not others:
        return None
    pick = next((o for o in others if o["seat"] == partner), others[0])
    builder = builder_view(st, acting, pick["seat"])
    builder["others"] = others
    return builder


def opponents(st: GameState, me: int) -> list[dict[str, Any]]:
    return [{"seat": i, "name": p.name, "colour": PLAYER_COLOURS[i % len(PLAYER_COLOURS)]}
            for i, p in enumerate(st.players) if i != me and not p.bankrupt]


# ---------------------------------------------------------------------------------------------
# The economy and the log
# ---------------------------------------------------------------------------------------------

def economy_view(st: GameState) -> dict[str, Any]:
    r = st.rules
    return {
        "round": st.round, "jackpot": st.jackpot if r.casino else None,
        "free_parking": st.free_parking if r.free_parking_jackpot else None,
        "bank_houses": st.bank_houses, "bank_hotels": st.bank_hotels,
        "salary_stopped": not salary_active(st), "rent_tax": rent_tax_rate(st),
        "speed_die": r.speed_die_from_round is not None and st.round >= r.speed_die_from_round,
    }


def log_entries(rows: list[dict[str, Any]], names: list[str], board, *,
                viewer: int | None = None) -> list[dict[str, Any]]:
    """Game log rows (newest first) in words: who acted and what happened, as the player at
    ``viewer`` (None: a spectator) may read it. A secret event (RULES.md 15: a maximum bid) is
    left out for everyone but its player, and so is a row with nothing else in it: nobody
    learns that someone left a maximum."""
    out = []
    for row in rows:
        events = row.get("events") or []
        shown = [e for e in events if visible_to(e, viewer)]
        if events and not shown:
            continue
        events = shown
        dice = next((e["dice"] for e in events if e.get("e") == "roll"), None)
        seat = row.get("seat")
        who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
        lines = _site_lines(row, who) + event_lines(events, names, board, reason=row.get("reason"))
        out.append({
            "seq": row["seq"], "source": row.get("source", ""),
            "who": who,
            "colour": PLAYER_COLOURS[seat % len(PLAYER_COLOURS)] if isinstance(seat, int) else None,
            "lines": lines,
            # The same as markup, each player's name isolated (<bdi>: issue 26), for the page.
            "marked": [isolated(line, names) for line in lines],
            "dice": dice_view(dice) if dice else None,
            "at": row.get("created_at"),
        })
    return out


def event_lines(events: list[dict[str, Any]], names: list[str], board, *, reason: str | None = None) -> list[str]:
    """The events of one action in words. ``reason`` is the action's (GameAction.REASONS): the
    surrender the site played for a moderator's removal is said as the removal, not as the
    player's surrender (the engine's event is the same: RULES.md 10)."""
    lines = []
    for e in events:
        if reason == GameAction.REASON_MODERATOR_REMOVED and e.get("e") == "surrender":
            p = e.get("p")
            name = names[p] if isinstance(p, int) and 0 <= p < len(names) else "?"
            lines.append(_("%(name)s is removed from the game by a moderator.") % {"name": name})
        else:
            lines.append(describe(e, names, board, gettext=_, number=number, ngettext=ngettext))
    return lines


def action_label(action: dict[str, Any]) -> str:
    """The name of an action of a game record (the replay viewer), in the reader's language: a
    moderator's removal is named as such, not as the player's surrender."""
    if action.get("reason") == GameAction.REASON_MODERATOR_REMOVED:
        return pgettext("move", "removed by a moderator")
    return move_label(str(action.get("type", "")))


def _site_lines(row: dict[str, Any], who: str = "") -> list[str]:
    """What the site says of an action it played itself (GameAction.action["reason"])."""
    if row.get("source") == "system" and row.get("reason") == GameAction.REASON_ACCOUNT_DELETED:
        return [_("The player deleted their account: the seat is forfeited.")]
    if row.get("source") == "standing":
        # RULES.md 15: the site played it by the player's standing order.
        return [_("By %(name)s's standing order:") % {"name": who}]
    return []


def move_label(kind: str) -> str:
    """The name of a move of a game record (the replay viewer), in the reader's language."""
    labels = {
        "roll": pgettext("move", "roll"),
        "end_turn": pgettext("move", "end turn"),
        "buy": pgettext("move", "buy"),
        "decline": pgettext("move", "decline"),
        "bid": pgettext("move", "bid"),
        "pass": pgettext("move", "pass"),
        "pay_fine": pgettext("move", "pay fine"),
        "use_card": pgettext("move", "use card"),
        "build": pgettext("move", "build"),
        "sell": pgettext("move", "sell"),
        "sell_all": pgettext("move", "sell all"),
        "mortgage": pgettext("move", "mortgage"),
        "unmortgage": pgettext("move", "unmortgage"),
        "keep_mortgaged": pgettext("move", "keep mortgaged"),
        "propose": pgettext("move", "propose"),
        "accept": pgettext("move", "accept"),
        "reject": pgettext("move", "reject"),
        "cancel": pgettext("move", "cancel"),
        "surrender": pgettext("move", "surrender"),
        "income_tax": pgettext("move", "income tax"),
        "casino": pgettext("move", "casino"),
        "casino_skip": pgettext("move", "casino skip"),
        "bus": pgettext("move", "bus"),
        "teleport": pgettext("move", "teleport"),
        "destroy": pgettext("move", "destroy"),
        "auction_own": pgettext("move", "auction own"),
        "max_bid": pgettext("move", "maximum bid"),
        "timeout": pgettext("move", "timeout"),
    }
    return labels.get(kind, kind.replace("_", " "))


def last_card(events: list[dict], names: list[str]) -> str | None:
    from games.engine import card_text

    for e in reversed(events or []):
        if e.get("e") == "card":
            return _(card_text(e["card"]))
    return None
