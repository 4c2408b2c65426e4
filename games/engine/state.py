"""The game state: plain data that round-trips through JSON losslessly.

Per-square data lives in flat lists indexed by square (owner, level, mortgage) so the hot path
never searches; the pending decisions and the work still to do live in one stack of small dicts.
"""

from __future__ import annotations

from typing import Any

from .boards import Board, load_board
from .ruleset import RuleSet

NO_OWNER = -1
BANK = -1
HOTEL = 5


class Player:
    __slots__ = ("name", "cash", "pos", "in_jail", "jail_turns", "jail_cards", "bankrupt", "missed", "team")

    def __init__(self, name: str, cash: int, team: int | None = None):
        self.name = name
        self.cash = cash
        self.pos = 0
        self.in_jail = False
        self.jail_turns = 0
        self.jail_cards: list[str] = []
        self.bankrupt = False
        self.missed = 0
        self.team = team

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cash": self.cash, "pos": self.pos, "in_jail": self.in_jail,
                "jail_turns": self.jail_turns, "jail_cards": list(self.jail_cards),
                "bankrupt": self.bankrupt, "missed": self.missed, "team": self.team}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Player:
        p = cls(d["name"], d["cash"], d.get("team"))
        p.pos = d["pos"]
        p.in_jail = d["in_jail"]
        p.jail_turns = d["jail_turns"]
        p.jail_cards = list(d["jail_cards"])
        p.bankrupt = d["bankrupt"]
        p.missed = d["missed"]
        return p


# doubles: doubles rolled this turn; rolled: the player has rolled at least once; builds:
# buildings bought per group; proposals: trades proposed; timed_out: players who already had a
# miss counted during this turn (RULES.md section 11: at most one per turn); dice: the last roll.
_TURN = {"doubles": 0, "rolled": False, "builds": None, "proposals": 0, "timed_out": None, "dice": None}


def _new_turn() -> dict[str, Any]:
    # (Once a turn: copying the template, keys in the same order, and putting in fresh
    # containers costs less than building the six-key dict from a literal.)
    turn = _TURN.copy()
    turn["builds"] = {}
    turn["timed_out"] = []
    turn["dice"] = []
    return turn


class GameState:
    __slots__ = ("rules", "board", "players", "owner", "level", "mortgaged", "mround", "bank_houses",
                 "bank_hotels", "decks", "discards", "current", "first", "round", "phase", "stack",
                 "turn", "trades", "next_trade", "jackpot", "free_parking", "clock", "winner", "over",
                 "rng", "bank", "money", "bankrupt_order", "teams", "seq", "last_dice", "proposed", "rejected",
                 # Not game data (never in the JSON): the board's change log (below) and
                 # readers' views of this game.
                 "board_log", "views")

    rules: RuleSet
    board: Board

    def __init__(self, rules: RuleSet, names: list[str], teams: list[list[int]] | None = None, rng_state: int = 0):
        self.rules = rules
        self.board = load_board(rules.board)
        self.teams = [list(t) for t in teams] if teams else None
        team_of = {}
        for t, members in enumerate(self.teams or []):
            for m in members:
                team_of[m] = t
        self.players = [Player(n, rules.start_cash, team_of.get(i)) for i, n in enumerate(names)]
        self.owner = [NO_OWNER] * 40
        self.level = [0] * 40
        self.mortgaged = [False] * 40
        self.mround: list[int | None] = [None] * 40
        self.bank_houses = rules.houses
        self.bank_hotels = rules.hotels
        self.decks: dict[str, list[str]] = {}
        self.discards: dict[str, list[str]] = {}
        self.current = 0
        self.first = 0
        self.round = 1
        self.phase = "roll"
        self.stack: list[dict[str, Any]] = []
        self.turn = _new_turn()
        self.trades: dict[str, dict[str, Any]] = {}
        self.next_trade = 1
        # What the game remembers of past trade offers, so that a player (a bot above all, made
        # afresh for every decision) can see what it already asked: proposed[a][b] is the round
        # of a's last proposal to b (0: never), and rejected lists the offers (trade records as
        # in ``trades``) their receivers turned down, bar those a later, better one covers.
        self.proposed = [[0] * len(names) for _ in names]
        self.rejected: list[dict[str, Any]] = []
        self.jackpot = 0
        self.free_parking = 0
        self.clock = 0
        self.winner: int | None = None
        self.over = False
        self.rng = rng_state
        # The bank's balance relative to the start: every payment to the bank adds, every payment
        # from it subtracts. sum(cash) + pots + bank == money is the conservation invariant.
        self.bank = 0
        self.money = rules.start_cash * len(names)
        self.bankrupt_order: list[int] = []
        self.seq = 0  # number of actions applied, but for secret maximum bids (RULES.md 15)
        self.last_dice: list = []
        # Every square whose owner, buildings or mortgage the engine changed, in order, since
        # this object was made (not game data: never in the JSON). A reader that keeps a view
        # of the board (the strategy bot's rents table) catches up from where it last read
        # instead of comparing the whole board.
        self.board_log: list[int] = []
        # What a reader keeps about this game object between its questions (the strategy
        # bot's rents table and ownership view): per game, so games in threads never share one.
        self.views: Any = None

    # -- queries used everywhere -------------------------------------------------------------
    def active(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.bankrupt]

    def pending(self) -> str | None:
        """The kind of decision the game waits for (SCENARIOS.md), or None when it is over."""
        if self.over:
            return None
        if self.stack:
            top = self.stack[-1]
            k = top["k"]
            if k == "auction" and top["what"] == "building":
                return "building_auction"
            return k
        return self.phase

    def pending_frame(self) -> dict[str, Any] | None:
        if self.over or not self.stack:
            return None
        return self.stack[-1]

    def teammates(self, a: int, b: int) -> bool:
        ta = self.players[a].team
        return ta is not None and a != b and ta == self.players[b].team

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(), "teams": self.teams,
            "players": [p.to_json() for p in self.players],
            "owner": list(self.owner), "level": list(self.level), "mortgaged": list(self.mortgaged),
            "mround": list(self.mround), "bank_houses": self.bank_houses, "bank_hotels": self.bank_hotels,
            "decks": {k: list(v) for k, v in self.decks.items()},
            "discards": {k: list(v) for k, v in self.discards.items()},
            "current": self.current, "first": self.first, "round": self.round, "phase": self.phase,
            "stack": _copy(self.stack), "turn": _copy(self.turn), "trades": _copy(self.trades),
            "next_trade": self.next_trade, "proposed": [list(r) for r in self.proposed],
            "rejected": _copy(self.rejected), "jackpot": self.jackpot, "free_parking": self.free_parking,
            "clock": self.clock, "winner": self.winner, "over": self.over, "rng": self.rng,
            "bank": self.bank, "money": self.money, "bankrupt_order": list(self.bankrupt_order),
            "seq": self.seq, "last_dice": list(self.last_dice),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> GameState:
        s = cls.__new__(cls)
        s.rules = RuleSet.from_json(d["rules"])
        s.board = load_board(s.rules.board)
        s.teams = d["teams"]
        s.players = [Player.from_json(p) for p in d["players"]]
        s.owner = list(d["owner"])
        s.level = list(d["level"])
        s.mortgaged = list(d["mortgaged"])
        s.mround = list(d["mround"])
        s.bank_houses = d["bank_houses"]
        s.bank_hotels = d["bank_hotels"]
        s.decks = {k: list(v) for k, v in d["decks"].items()}
        s.discards = {k: list(v) for k, v in d["discards"].items()}
        for key in ("current", "first", "round", "phase", "next_trade", "jackpot", "free_parking",
                    "clock", "winner", "over", "rng", "bank", "money", "seq"):
            setattr(s, key, d[key])
        s.stack = _copy(d["stack"])
        s.turn = _copy(d["turn"])
        s.trades = _copy(d["trades"])
        # (States saved before the game remembered past offers have neither key.)
        n = len(s.players)
        s.proposed = [list(r) for r in d["proposed"]] if "proposed" in d else [[0] * n for _ in range(n)]
        s.rejected = _copy(d.get("rejected", []))
        s.bankrupt_order = list(d["bankrupt_order"])
        s.last_dice = list(d["last_dice"])
        s.board_log = []
        s.views = None
        return s

    def copy(self) -> GameState:
        return GameState.from_json(self.to_json())


def _copy(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), faster than copy.deepcopy."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
