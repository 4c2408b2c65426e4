"""Boards are data files (``data/<name>.json``); this module turns them into fast lookup tables.

A localized edition only needs another data file with other names: nothing here depends on
the names of squares.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

DATA = Path(__file__).parent / "data"
DEED_KINDS = frozenset({"street", "railroad", "utility"})
BOARD_NAMES = ("classic", "world")
SHORT_LENGTH = 5


class Square:
    __slots__ = ("index", "kind", "name", "short", "group", "price", "rents", "build_cost",
                 "multipliers", "deck", "tax", "mortgage")

    def __init__(self, data: dict):
        self.index: int = data["index"]
        self.kind: str = data["kind"]
        self.name: str = data["name"]
        # The label a board too small for full names shows (phones): at most SHORT_LENGTH
        # characters, its own on the board but for the card squares ("Chan", "Chest").
        self.short: str = data["short"]
        self.group: str | None = data.get("group")
        self.price: int = data.get("price", 0)
        self.rents: tuple[int, ...] = tuple(data.get("rents", ()))
        self.build_cost: int = data.get("build_cost", 0)
        self.multipliers: tuple[int, ...] = tuple(data.get("multipliers", ()))
        self.deck: str | None = data.get("deck")
        self.tax: str | None = data.get("tax")
        # RULES.md section 2: the mortgage value is half the price.
        self.mortgage: int = self.price // 2

    @property
    def is_deed(self) -> bool:
        return self.kind in DEED_KINDS


class Board:
    """Precomputed tables for one board."""

    def __init__(self, data: dict):
        self.name: str = data["name"]
        self.level_names: tuple[str, str] = tuple(data.get("level_names", ("house", "hotel")))
        self.currency: str = data.get("currency", "$")
        self.group_info: dict[str, dict] = data["groups"]
        self.squares: tuple[Square, ...] = tuple(Square(s) for s in data["squares"])
        if len(self.squares) != 40 or any(s.index != i for i, s in enumerate(self.squares)):
            raise ValueError(f"board {self.name}: squares must be numbered 0-39 in order")
        self.deeds: tuple[int, ...] = tuple(s.index for s in self.squares if s.is_deed)
        self.streets: tuple[int, ...] = tuple(s.index for s in self.squares if s.kind == "street")
        self.railroads: tuple[int, ...] = tuple(s.index for s in self.squares if s.kind == "railroad")
        self.utilities: tuple[int, ...] = tuple(s.index for s in self.squares if s.kind == "utility")
        groups: dict[str, list[int]] = {}
        for s in self.squares:
            if s.is_deed:
                groups.setdefault(s.group, []).append(s.index)
        self.groups: dict[str, tuple[int, ...]] = {g: tuple(v) for g, v in groups.items()}
        # For every square, the squares of its group (empty for non-deeds).
        self.group_of: tuple[tuple[int, ...], ...] = tuple(
            self.groups[s.group] if s.is_deed else () for s in self.squares)
        self.is_deed: tuple[bool, ...] = tuple(s.is_deed for s in self.squares)
        self.kind: tuple[str, ...] = tuple(s.kind for s in self.squares)
        self.price: tuple[int, ...] = tuple(s.price for s in self.squares)

    def __getitem__(self, index: int) -> Square:
        return self.squares[index]

    def name_of(self, index: int) -> str:
        return self.squares[index].name


@cache
def load_board(name: str) -> Board:
    if name not in BOARD_NAMES:
        raise ValueError(f"unknown board {name!r}")
    with open(DATA / f"{name}.json", encoding="utf-8") as f:
        return Board(json.load(f))
