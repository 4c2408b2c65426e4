"""The words of the engine's boards in the reader's language.

The board data (games/engine/data/*.json) is English and the engine knows no Django, so the
site translates it at display time: ``localized_board`` gives a copy of a board whose square
and colour-group names are in the active language, and the pages, the log and the replay draw
from that copy (never the engine's rules, which read prices and groups, not names).

The messages are the data's own names, with the context "board" (a square called "Chance" is
not the word "chance" elsewhere). Each is written below as a literal ``pgettext_lazy`` call so
that makemessages finds it; a name without an entry (a street, a world brand) stays as it is.
tests/games/test_board_words.py checks that every generic name of every board is here.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.translation import get_language, pgettext, pgettext_lazy

from games.engine import load_board

# The squares every edition names in its own language: the corners, the decks, the taxes, the
# railroads and the utilities (classic board); the world board's corners, Luck and Casino.
SQUARES = (
    pgettext_lazy("board", "GO"),
    pgettext_lazy("board", "Community Chest"),
    pgettext_lazy("board", "Income Tax"),
    pgettext_lazy("board", "Reading Railroad"),
    pgettext_lazy("board", "Chance"),
    pgettext_lazy("board", "Jail / Just visiting"),
    pgettext_lazy("board", "Electric Company"),
    pgettext_lazy("board", "Pennsylvania Railroad"),
    pgettext_lazy("board", "Free Parking"),
    pgettext_lazy("board", "B. & O. Railroad"),
    pgettext_lazy("board", "Water Works"),
    pgettext_lazy("board", "Go to Jail"),
    pgettext_lazy("board", "Short Line"),
    pgettext_lazy("board", "Luxury Tax"),
    pgettext_lazy("board", "Start"),
    pgettext_lazy("board", "Luck"),
    pgettext_lazy("board", "Casino"),
)

# The colour groups (the deed cards, the board's titles, the trade builder).
GROUPS = (
    pgettext_lazy("board", "Brown"),
    pgettext_lazy("board", "Light blue"),
    pgettext_lazy("board", "Pink"),
    pgettext_lazy("board", "Orange"),
    pgettext_lazy("board", "Red"),
    pgettext_lazy("board", "Yellow"),
    pgettext_lazy("board", "Green"),
    pgettext_lazy("board", "Dark blue"),
    pgettext_lazy("board", "Railroads"),
    pgettext_lazy("board", "Utilities"),
    pgettext_lazy("board", "Supermarkets"),
    pgettext_lazy("board", "Fashion"),
    pgettext_lazy("board", "Cosmetics"),
    pgettext_lazy("board", "Drinks"),
    pgettext_lazy("board", "Airlines"),
    pgettext_lazy("board", "Fast Food"),
    pgettext_lazy("board", "Travel"),
    pgettext_lazy("board", "Technology"),
    pgettext_lazy("board", "Finance companies"),
    pgettext_lazy("board", "Industrial companies"),
)


# The short labels of those squares that a small board shows instead of their names (the board
# data's "short"), where the reader's language needs its own: "Caja" for "Chest".
SHORTS = {
    "Chest": pgettext_lazy("board short label", "Chest"),
    "Chan": pgettext_lazy("board short label", "Chan"),
    "Luck": pgettext_lazy("board short label", "Luck"),
    "Inc": pgettext_lazy("board short label", "Inc"),
    "Lux": pgettext_lazy("board short label", "Lux"),
    "Elec": pgettext_lazy("board short label", "Elec"),
    "Water": pgettext_lazy("board short label", "Water"),
}


def short_word(short: str) -> str:
    """A square's short label in the active language (itself when it has no entry)."""
    word = SHORTS.get(short)
    return str(word) if word is not None else short


def board_word(name: str) -> str:
    """A name from the board data in the active language (itself when it has no entry)."""
    return pgettext("board", name) if name else name


# The fields a square is made from (games/engine/boards.py, Square.__init__).
_SQUARE_FIELDS = ("index", "kind", "name", "short", "group", "price", "rents", "build_cost", "multipliers",
                  "deck", "tax")


@lru_cache(maxsize=16)
def _localized(board_name: str, language: str | None):
    board = load_board(board_name)
    data = {
        "name": board.name, "level_names": list(board.level_names), "currency": board.currency,
        "groups": {key: {**info, "name": board_word(info.get("name", ""))}
                   for key, info in board.group_info.items()},
        "squares": [{**{f: getattr(sq, f) for f in _SQUARE_FIELDS}, "name": board_word(sq.name),
                     "short": short_word(sq.short)}
                    for sq in board.squares],
    }
    return type(board)(data)


def localized_board(board):
    """``board`` (an engine Board) with its names in the active language: one copy per board
    and language."""
    return _localized(board.name, get_language())
