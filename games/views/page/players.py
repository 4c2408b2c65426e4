"""The players' panels: each seat's colour and token letters, cash, worth, square and deeds by
group, and the marks of what a card shows. Reads a ``GameState``, never writes."""

from __future__ import annotations

import re
from collections.abc import Collection
from operator import itemgetter
from typing import Any

from games.engine import (
    HOTEL,
    GameState,
    net_worth,
    waiting_on,
)
from games.views.contrast import ink

# One colour per seat, for tokens, owner markers and the players' panels. Each reaches 3:1
# against both boards' paper (an owner's strip is a graphic: WCAG 1.4.11) and 4.5:1 under the
# white letter of a token (tests/games/test_contrast.py).
PLAYER_COLOURS = ("#d62828", "#1d5fd8", "#15803d", "#a86400", "#7c3aed", "#0e7490", "#c2185b", "#57534e")

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


def players_view(st: GameState, *, me: int | None, labels: list[str] | None = None,
                 surrendered: Collection[int] = ()) -> list[dict[str, Any]]:
    """Each player's card. ``surrendered``: the seats out by surrendering (their card says so,
    not "bankrupt": selectors.surrendered_seats)."""
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
            "bankrupt": pl.bankrupt, "surrendered": pl.bankrupt and i in surrendered,
            "missed": pl.missed, "team": pl.team,
            "current": i == st.current and not st.over, "waiting": i in waiting, "me": i == me,
            "winner": st.over and st.winner == i,
            "away": None,  # (a correspondence game's page: when they are back from vacation, play.py)
            "groups": list(groups.values()),
        })
    return out


# The fields of a player's view and of its groups and deeds that their card (the template
# players/panels.html) shows: ``card_marks``.
_CARD = ("current", "waiting", "bankrupt", "surrendered", "me", "winner", "colour", "initial", "name", "team",
         "cash", "net_worth", "in_jail", "square", "jail_cards", "missed", "away")
_GROUP = ("complete", "colour", "ink", "name")
_DEED = ("sq", "name", "mortgaged", "level", "hotel")


_card_fields, _group_fields, _deed_fields = itemgetter(*_CARD), itemgetter(*_GROUP), itemgetter(*_DEED)


def card_marks(p: dict[str, Any]) -> tuple:
    """What a player's card shows of their view (``players_view``), as a tuple: two views draw
    alike exactly when their marks are equal (the page's marks, page/parts.py;
    tests/games/test_square_marks.py holds them to the markup)."""
    return _card_fields(p), group_marks(p["groups"])


def group_marks(groups: list[dict[str, Any]]) -> tuple:
    """What a player's deeds (their groups, ``players_view``) show, as a tuple (``card_marks``)."""
    return tuple((_group_fields(g), tuple(map(_deed_fields, g["deeds"]))) for g in groups)
