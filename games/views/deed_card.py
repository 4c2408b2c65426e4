"""A deed's card, as the board and the players' panels open it (issue 12, conveniences): the
rents by level, the build cost, the mortgage value and what lifting it costs, the owner, and
how much of its group that owner holds. Every figure comes from the engine through its door
(``games.engine``): the printed tables of the board data and the engine's own rent functions,
never a copy of a rule.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import HOTEL, NO_OWNER, GameState, rent_of, street_rents, unmortgage_cost
from games.views.contrast import ink
from games.views.page.board import _building_word, _level_label
from games.views.page.players import PLAYER_COLOURS, token_letters


def deed_card(st: GameState, sq: int) -> dict[str, Any] | None:
    """The card of square ``sq``, or None when it is not a deed."""
    board = st.board
    if not 0 <= sq < len(board.squares) or not board.squares[sq].is_deed:
        return None
    s = board.squares[sq]
    info = board.group_info.get(s.group or "", {})
    colour = info.get("color") if s.kind == "street" else None
    owner = st.owner[sq]
    letters = token_letters([p.name for p in st.players])
    group = board.groups[s.group]
    held = sum(1 for x in group if owner != NO_OWNER and st.owner[x] == owner)

    rows: list[dict[str, Any]] = []
    if s.kind == "street":
        # RULES.md 2, 8: the printed rents, the unimproved one doubled for a whole group (the
        # engine's street_rents), then each house up to the rule set's limit, then the hotel.
        alone = street_rents(s.rents, False)
        whole = street_rents(s.rents, True)
        rows.append({"label": _("Rent"), "amount": alone[0], "level": 0})
        rows.append({"label": _("With the whole group"), "amount": whole[0], "level": 0, "whole": True})
        for level in range(1, st.rules.houses_before_hotel + 1):
            rows.append({"label": _level_label(st, level), "amount": whole[level], "level": level})
        rows.append({"label": _building_word(st, True), "amount": whole[HOTEL], "level": HOTEL})
    elif s.kind == "railroad":
        # RULES.md 2: the rent grows with the number of the group its owner holds.
        for n, amount in enumerate(s.rents, start=1):
            rows.append({"label": ngettext("%(n)d owned", "%(n)d owned", n) % {"n": n}, "amount": amount,
                         "count": n})
    else:
        for n, times in enumerate(s.multipliers, start=1):
            rows.append({"label": ngettext("%(n)d owned", "%(n)d owned", n) % {"n": n}, "amount": None,
                         "times": times, "count": n})

    level = st.level[sq] if s.kind == "street" else 0
    current = None
    if owner != NO_OWNER and not st.mortgaged[sq]:
        # The row that applies now: the building level, or without buildings, whether the
        # owner holds the whole group; for a railroad or utility, how many of them.
        whole_group = held == len(group)
        for row in rows:
            if s.kind != "street":
                row["now"] = row["count"] == held
            elif level:
                row["now"] = row["level"] == level
            else:
                row["now"] = row["level"] == 0 and bool(row.get("whole")) == whole_group
        if s.kind != "utility":
            current = rent_of(st, sq)

    return {
        "sq": sq, "name": s.name, "kind": s.kind, "colour": colour, "ink": ink(colour) if colour else None,
        "price": s.price, "build_cost": s.build_cost if s.kind == "street" else None,
        "building": _building_word(st, False), "mortgage": s.mortgage, "unmortgage": unmortgage_cost(st, sq),
        "rows": rows, "current_rent": current,
        "owner": None if owner == NO_OWNER else {
            "seat": owner, "name": st.players[owner].name, "initial": letters[owner],
            "colour": PLAYER_COLOURS[owner % len(PLAYER_COLOURS)],
        },
        "mortgaged": st.mortgaged[sq], "level": level, "level_label": _level_label(st, level) if level else None,
        "group_name": info.get("name", s.group), "group_size": len(group), "group_held": held,
        "group": [{"sq": x, "name": board.squares[x].name, "this": x == sq,
                   "owner": None if st.owner[x] == NO_OWNER else st.players[st.owner[x]].name}
                  for x in group],
    }
