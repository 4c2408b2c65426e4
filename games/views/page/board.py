"""The board as the game page shows it: each square's place on the grid, owner, buildings,
mortgage, tokens and facts in words, their marks (what a square's markup shows), the dice and
the economy of the centre (round, bank, pool). Reads a ``GameState``, never writes."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import (
    HOTEL,
    NO_OWNER,
    GameState,
    rent_of,
    rent_tax_rate,
    salary_active,
)
from games.formats import money

CORNERS = {0: "go", 10: "jail", 20: "parking", 30: "gotojail"}




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
    (``square_marks``, page/parts.py)."""
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
    answer compares these (page/parts.py), not whole views: of the owner and the tokens the
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



def economy_view(st: GameState) -> dict[str, Any]:
    r = st.rules
    return {
        "round": st.round, "jackpot": st.jackpot if r.casino else None,
        "free_parking": st.free_parking if r.free_parking_jackpot else None,
        "bank_houses": st.bank_houses, "bank_hotels": st.bank_hotels,
        "salary_stopped": not salary_active(st), "rent_tax": rent_tax_rate(st),
        "speed_die": r.speed_die_from_round is not None and st.round >= r.speed_die_from_round,
    }
