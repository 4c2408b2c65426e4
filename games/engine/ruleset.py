"""Rule sets: a preset of RULES.md section 1 plus the host's overrides.

Every rule of the book is a field here; the engine reads fields and never branches on a preset
name. Option keys are public names (custom tables, game records and scenario files use them).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from .errors import InvalidRules

PRESET_NAMES = ("classic", "classic-short", "world-classic", "world-quick", "world-duel", "world-teams")

_CLASSIC: dict[str, Any] = dict(
    board="classic", seats=(2, 8), start_cash=1500, salary=200, start_bonus=0, deal_at_start="none",
    jail_fine=50, rent_in_jail=True, auction_decliner_bids=True, auction_opening=1, auction_step=1,
    auction_style="open", houses=32, hotels=12, building_auctions=True, even_building=True,
    houses_before_hotel=4, build_before_roll=False, builds_per_turn=None, sell_back=0.5,
    unmortgage="mortgage_plus_10", mortgage_expiry_rounds=None, auction_own=False,
    trade_mortgaged="yes", trade_windows="any_time", trades_per_turn=None, trade_balance=False,
    income_tax=200, luxury_tax=100, income_tax_choice=False, free_parking_jackpot=False,
    casino=False, speed_die_from_round=None, deck="classic", salary_stops_minutes=None,
    rent_tax_minutes=None, salary_stops_round=None, rent_tax_round=None, rent_tax_step_rounds=None,
    turn_seconds=75, missed_turns_limit=3, teams=False, end="last_standing", time_limit_minutes=None,
    # RULES.md 16: the game ends when this round is over, net worth ranking the players (a table
    # option of the site, carried in the rule set so that the game replays from its record).
    round_limit=None,
    # Not in the table of section 1, but a rule of section 10 that differs between the families:
    # what happens to the deeds of a player bankrupt to the bank.
    bank_bankruptcy="auction",
)
_WORLD: dict[str, Any] = dict(
    _CLASSIC, board="world", seats=(2, 5), start_cash=15000, salary=2000, start_bonus=1000,
    jail_fine=500, rent_in_jail=False, auction_decliner_bids=False, auction_opening="price",
    auction_step=100, auction_style="rotating", houses=None, hotels=None, building_auctions=False,
    build_before_roll=True, builds_per_turn=1, sell_back=1.0, unmortgage="sixty_percent",
    mortgage_expiry_rounds=7, trade_mortgaged="no", trade_windows="own_turn", trades_per_turn=3,
    trade_balance=True, income_tax=2000, luxury_tax=1000, casino=True, deck="world",
    salary_stops_minutes=46, rent_tax_minutes=61, bank_bankruptcy="unowned",
)
PRESETS: dict[str, dict[str, Any]] = {
    "classic": _CLASSIC,
    "classic-short": dict(_CLASSIC, deal_at_start="two_paid", houses_before_hotel=3, end="second_bankruptcy"),
    "world-classic": _WORLD,
    "world-quick": dict(_WORLD, start_cash=17500, even_building=False, speed_die_from_round=8,
                        salary_stops_minutes=30, rent_tax_minutes=40, turn_seconds=45),
    "world-duel": dict(_WORLD, seats=(3, 3), start_cash=25000, deal_at_start="all_free",
                       builds_per_turn=None, sell_back=0.75, auction_own=True, speed_die_from_round=8,
                       deck="world_duel", salary_stops_minutes=30, rent_tax_minutes=40, turn_seconds=45),
    "world-teams": dict(_WORLD, seats=(4, 4), trade_mortgaged="teammates", teams=True),
}

# key -> (kind, allowed). Kinds: int (allowed = minimum), nint (int or null), bool, enum,
# frac (0..1), seats, opening (int or "price").
_SPEC: dict[str, tuple[str, Any]] = {
    "board": ("enum", ("classic", "world")),
    "seats": ("seats", None),
    "start_cash": ("int", 0), "salary": ("int", 0), "start_bonus": ("int", 0),
    "deal_at_start": ("enum", ("none", "two_paid", "all_free")),
    "jail_fine": ("int", 0), "rent_in_jail": ("bool", None), "auction_decliner_bids": ("bool", None),
    "auction_opening": ("opening", None), "auction_step": ("int", 1),
    "auction_style": ("enum", ("open", "rotating")),
    "houses": ("nint", 0), "hotels": ("nint", 0), "building_auctions": ("bool", None),
    "even_building": ("bool", None), "houses_before_hotel": ("int", 1),
    "build_before_roll": ("bool", None), "builds_per_turn": ("nint", 1), "sell_back": ("frac", None),
    "unmortgage": ("enum", ("mortgage_plus_10", "sixty_percent")),
    "mortgage_expiry_rounds": ("nint", 1), "auction_own": ("bool", None),
    "trade_mortgaged": ("enum", ("yes", "no", "teammates")),
    "trade_windows": ("enum", ("any_time", "own_turn")), "trades_per_turn": ("nint", 1),
    "trade_balance": ("bool", None), "income_tax": ("int", 0), "luxury_tax": ("int", 0),
    "income_tax_choice": ("bool", None), "free_parking_jackpot": ("bool", None),
    "casino": ("bool", None), "speed_die_from_round": ("nint", 1),
    "deck": ("enum", ("classic", "world", "world_duel")),
    "salary_stops_minutes": ("nint", 0), "rent_tax_minutes": ("nint", 0),
    "salary_stops_round": ("nint", 1), "rent_tax_round": ("nint", 1), "rent_tax_step_rounds": ("nint", 1),
    "turn_seconds": ("int", 1), "missed_turns_limit": ("int", 1), "teams": ("bool", None),
    "end": ("enum", ("last_standing", "second_bankruptcy")), "time_limit_minutes": ("nint", 1),
    "round_limit": ("nint", 1),
    "bank_bankruptcy": ("enum", ("auction", "unowned")),
}


def _check(key: str, value: Any) -> Any:
    kind, allowed = _SPEC[key]
    bad = InvalidRules("option_invalid", key=repr(key), option=key, value=repr(value))
    if kind in ("int", "nint"):
        if value is None and kind == "nint":
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidRules("option_not_int_or_null" if kind == "nint" else "option_not_int",
                               key=repr(key), option=key, value=repr(value))
        if value < allowed:
            raise InvalidRules("option_too_small", key=repr(key), option=key, minimum=allowed, value=value)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise InvalidRules("option_not_bool", key=repr(key), option=key, value=repr(value))
        return value
    if kind == "enum":
        if value not in allowed:
            raise InvalidRules("option_not_choice", key=repr(key), option=key, choices=", ".join(allowed),
                               value=repr(value))
        return value
    if kind == "frac":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InvalidRules("option_not_fraction", key=repr(key), option=key, value=repr(value))
        return float(value)
    if kind == "opening":
        if value == "price":
            return value
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidRules("option_not_int_or_price", key=repr(key), option=key, value=repr(value))
        return value
    if kind == "seats":
        if isinstance(value, str) and "-" in value:
            value = value.split("-", 1)
            try:
                value = [int(v) for v in value]
            except ValueError:
                raise bad from None
        if isinstance(value, int) and not isinstance(value, bool):
            value = (value, value)
        if (not isinstance(value, (list, tuple)) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
            raise InvalidRules("option_seats_shape", option="seats", value=repr(value))
        lo, hi = value
        if not 2 <= lo <= hi <= 8:
            raise InvalidRules("option_seats_range", option="seats", lo=lo, hi=hi)
        return (lo, hi)
    raise AssertionError(kind)  # pragma: no cover


@dataclass(frozen=True, slots=True)
class RuleSet:
    preset: str
    board: str
    seats: tuple[int, int]
    start_cash: int
    salary: int
    start_bonus: int
    deal_at_start: str
    jail_fine: int
    rent_in_jail: bool
    auction_decliner_bids: bool
    auction_opening: int | str
    auction_step: int
    auction_style: str
    houses: int | None
    hotels: int | None
    building_auctions: bool
    even_building: bool
    houses_before_hotel: int
    build_before_roll: bool
    builds_per_turn: int | None
    sell_back: float
    unmortgage: str
    mortgage_expiry_rounds: int | None
    auction_own: bool
    trade_mortgaged: str
    trade_windows: str
    trades_per_turn: int | None
    trade_balance: bool
    income_tax: int
    luxury_tax: int
    income_tax_choice: bool
    free_parking_jackpot: bool
    casino: bool
    speed_die_from_round: int | None
    deck: str
    salary_stops_minutes: int | None
    rent_tax_minutes: int | None
    salary_stops_round: int | None
    rent_tax_round: int | None
    rent_tax_step_rounds: int | None
    turn_seconds: int
    missed_turns_limit: int
    teams: bool
    end: str
    time_limit_minutes: int | None
    bank_bankruptcy: str
    round_limit: int | None

    @classmethod
    def build(cls, preset: str = "classic", overrides: dict[str, Any] | None = None) -> RuleSet:
        """The preset with the host's overrides; unknown keys and bad values are refused."""
        if preset not in PRESETS:
            raise InvalidRules("unknown_preset", preset=repr(preset), choices=", ".join(PRESET_NAMES))
        if overrides is not None and not isinstance(overrides, dict):
            raise InvalidRules("options_not_mapping", value=repr(overrides))
        values = dict(PRESETS[preset])
        for key, value in (overrides or {}).items():
            if key not in _SPEC:
                raise InvalidRules("unknown_option", key=repr(key), option=key)
            values[key] = _check(key, value)
        rules = cls(preset=preset, **values)
        rules._validate()
        return rules

    def _validate(self) -> None:
        if self.houses_before_hotel > 4:
            raise InvalidRules("option_houses_before_hotel", option="houses_before_hotel")
        if (self.deck == "classic") != (self.board == "classic"):
            raise InvalidRules("option_deck_board", option="deck", deck=repr(self.deck), board=self.board)
        if self.casino and self.board != "world":
            raise InvalidRules("option_casino_board", option="casino")
        if self.teams and self.seats != (4, 4):
            raise InvalidRules("option_teams_seats", option="teams")
        if self.trade_mortgaged == "teammates" and not self.teams:
            raise InvalidRules("option_trade_mortgaged_teams", option="trade_mortgaged")

    def overrides(self) -> dict[str, Any]:
        """Every option that differs from the preset (what a custom table's card lists)."""
        base = PRESETS[self.preset]
        out = {}
        for f in fields(self):
            if f.name != "preset" and getattr(self, f.name) != base[f.name]:
                value = getattr(self, f.name)
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "options": self.overrides()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSet:
        return cls.build(data["preset"], data.get("options") or {})

    def with_options(self, **changes: Any) -> RuleSet:
        merged = self.overrides()
        merged.update(changes)
        return RuleSet.build(self.preset, merged)

    # Derived values used on hot paths.
    @property
    def deck_without_replacement(self) -> bool:
        # RULES.md section 5: world decks are drawn without replacement and reshuffled when empty.
        return self.deck != "classic"


OPTION_KEYS = tuple(k for k in _SPEC)


def option_spec(key: str) -> tuple[str, Any]:
    """Kind and allowed values of an option, for forms that edit custom tables."""
    return _SPEC[key]


__all__ = ["OPTION_KEYS", "PRESETS", "PRESET_NAMES", "RuleSet", "option_spec", "replace"]
