"""Rule scenarios (../shared/SCENARIOS.md): set up a position, play scripted steps, check.

    python -m games.engine.scenarios PATH [PATH ...]

Prints one line per failing scenario and a last line ``N passed, N failed``; exits 0 only when
none failed. A malformed file is a failure with a clear message, never a traceback.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .boards import load_board
from .cards import CARDS, JAIL_CARDS, deck_order
from .dice import ScriptedRng
from .errors import EngineError, IllegalAction
from .rules import ACTION_TYPES, apply, new_game, set_clock
from .ruleset import RuleSet
from .state import HOTEL, NO_OWNER, GameState

TOP_KEYS = {"name", "ruleset", "options", "players", "teams", "setup", "steps", "expect", "description", "notes"}
SETUP_KEYS = {"round", "players", "deeds", "bank", "decks", "jackpot", "free_parking", "clock_minutes"}
PLAYER_KEYS = {"cash", "position", "in_jail", "jail_turns", "jail_cards", "bankrupt", "missed_turns"}
DEED_KEYS = {"owner", "houses", "mortgaged", "mortgaged_round"}
EXPECT_KEYS = {"current_player", "pending", "round", "winner", "jackpot", "free_parking", "players", "deeds",
               "bank", "decks"}
STEP_PARAMS = {"amount", "square", "to", "give", "take", "trade", "choice", "numbers"}
STEP_META = {"player", "action", "dice", "jackpot", "error"}


class ScenarioError(Exception):
    """The file does not follow the format (or the scenario failed); the message says where."""


@dataclass
class Result:
    path: str
    name: str
    ok: bool
    message: str = ""


def _fail(msg: str) -> None:
    raise ScenarioError(msg)


def _mapping(value: Any, where: str) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        _fail(f"{where} must be a mapping")
    return value


def _unknown(d: dict, allowed: set, where: str) -> None:
    extra = [str(k) for k in d if k not in allowed]
    if extra:
        _fail(f"{where}: unknown key(s) {', '.join(sorted(extra))} (allowed: {', '.join(sorted(allowed))})")


def _square(key: Any, where: str) -> int:
    try:
        sq = int(key)
    except (TypeError, ValueError):
        _fail(f"{where}: {key!r} is not a square number")
    if isinstance(key, bool) or not 0 <= sq < 40:
        _fail(f"{where}: square {key!r} is not 0-39")
    return sq


class Scenario:
    def __init__(self, data: Any, path: str = "<scenario>"):
        if not isinstance(data, dict):
            _fail("the file must be a mapping with name, ruleset, players, steps and expect")
        _unknown(data, TOP_KEYS, "scenario")
        self.path = path
        self.data = data
        self.name = str(data.get("name") or Path(path).stem)
        names = data.get("players")
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            _fail("'players' must be a list of player names")
        if len(set(names)) != len(names):
            _fail("'players' lists a name twice")
        self.names: list[str] = names
        self.index = {n: i for i, n in enumerate(names)}
        preset = data.get("ruleset")
        if not isinstance(preset, str):
            _fail("'ruleset' must name a preset (classic, classic-short, world-classic, ...)")
        try:
            self.rules = RuleSet.build(preset, _mapping(data.get("options"), "options"))
        except EngineError as e:
            _fail(str(e))
        self.board = load_board(self.rules.board)
        steps = data.get("steps") or []
        if not isinstance(steps, list):
            _fail("'steps' must be a list")
        self.steps = steps
        self.expect = _mapping(data.get("expect"), "expect")

    # -- names ----------------------------------------------------------------------------------
    def player(self, name: Any, where: str) -> int:
        if name not in self.index:
            _fail(f"{where}: unknown player {name!r} (players: {', '.join(self.names)})")
        return self.index[name]

    def owner_name(self, idx: int) -> str | None:
        return None if idx == NO_OWNER else self.names[idx]

    # -- setup ----------------------------------------------------------------------------------
    def build(self) -> GameState:
        teams = None
        if self.data.get("teams") is not None:
            raw = self.data["teams"]
            if not isinstance(raw, list) or not all(isinstance(t, list) for t in raw):
                _fail("'teams' must be a list of lists of player names")
            teams = [[self.player(n, "teams") for n in t] for t in raw]
        setup = _mapping(self.data.get("setup"), "setup")
        _unknown(setup, SETUP_KEYS, "setup")
        try:
            st, _ = new_game(self.rules, self.names, 0, teams=teams, roll_for_first=False, shuffle=False,
                             events=False)
        except EngineError as e:
            _fail(str(e))
        if "round" in setup:
            r = setup["round"]
            if isinstance(r, bool) or not isinstance(r, int) or r < 1:
                _fail("setup.round must be a whole number >= 1")
            st.round = r
        held: dict[int, list[str]] = {}
        for name, spec in _mapping(setup.get("players"), "setup.players").items():
            i = self.player(name, "setup.players")
            spec = _mapping(spec, f"setup.players.{name}")
            _unknown(spec, PLAYER_KEYS, f"setup.players.{name}")
            pl = st.players[i]
            for key, attr in (("cash", "cash"), ("position", "pos"), ("jail_turns", "jail_turns"),
                              ("missed_turns", "missed")):
                if key in spec:
                    v = spec[key]
                    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                        _fail(f"setup.players.{name}.{key} must be a whole number >= 0")
                    if key == "position" and v > 39:
                        _fail(f"setup.players.{name}.position must be 0-39")
                    if key == "jail_turns" and v > 2:
                        _fail(f"setup.players.{name}.jail_turns must be 0-2")
                    setattr(pl, attr, v)
            for key in ("in_jail", "bankrupt"):
                if key in spec:
                    if not isinstance(spec[key], bool):
                        _fail(f"setup.players.{name}.{key} must be true or false")
                    setattr(pl, key, spec[key])
            if pl.in_jail and "position" not in spec:
                pl.pos = 10
            if "jail_cards" in spec:
                held[i] = self._jail_cards(spec["jail_cards"], f"setup.players.{name}.jail_cards")
        if "deeds" in setup:
            st.owner = [NO_OWNER] * 40
            st.level = [0] * 40
            st.mortgaged = [False] * 40
            st.mround = [None] * 40
            for key, spec in _mapping(setup["deeds"], "setup.deeds").items():
                sq = _square(key, "setup.deeds")
                where = f"setup.deeds.{sq}"
                if not self.board.is_deed[sq]:
                    _fail(f"{where}: square {sq} ({self.board.name_of(sq)}) is not a deed")
                spec = _mapping(spec, where)
                _unknown(spec, DEED_KEYS, where)
                owner = spec.get("owner")
                st.owner[sq] = NO_OWNER if owner is None else self.player(owner, where)
                houses = spec.get("houses", 0)
                if isinstance(houses, bool) or not isinstance(houses, int) or not 0 <= houses <= 5:
                    _fail(f"{where}.houses must be 0-5 (5 = hotel)")
                if houses and self.board.kind[sq] != "street":
                    _fail(f"{where}: only streets take buildings")
                if houses and st.owner[sq] == NO_OWNER:
                    _fail(f"{where}: an unowned deed cannot have buildings")
                st.level[sq] = houses
                mortgaged = spec.get("mortgaged", False)
                if not isinstance(mortgaged, bool):
                    _fail(f"{where}.mortgaged must be true or false")
                if mortgaged and houses:
                    _fail(f"{where}: a mortgaged deed cannot have buildings")
                if mortgaged and st.owner[sq] == NO_OWNER:
                    _fail(f"{where}: an unowned deed cannot be mortgaged")
                st.mortgaged[sq] = mortgaged
                mr = spec.get("mortgaged_round")
                if mr is not None and (isinstance(mr, bool) or not isinstance(mr, int) or mr < 1):
                    _fail(f"{where}.mortgaged_round must be a round number or null")
                st.mround[sq] = (mr if mr is not None else st.round) if mortgaged else None
        bank = _mapping(setup.get("bank"), "setup.bank")
        _unknown(bank, {"houses", "hotels"}, "setup.bank")
        for key, limit in (("houses", self.rules.houses), ("hotels", self.rules.hotels)):
            if limit is None:
                continue  # unlimited supply: the key is ignored (SCENARIOS.md)
            if key in bank:
                v = bank[key]
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    _fail(f"setup.bank.{key} must be a whole number >= 0")
            else:
                used = sum((0 if lv == HOTEL else lv) if key == "houses" else (lv == HOTEL) for lv in st.level)
                v = max(0, limit - used)
            if key == "houses":
                st.bank_houses = v
            else:
                st.bank_hotels = v
        self._decks(st, _mapping(setup.get("decks"), "setup.decks"), held)
        for key, attr in (("jackpot", "jackpot"), ("free_parking", "free_parking"), ("clock_minutes", "clock")):
            if key in setup:
                v = setup[key]
                if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                    _fail(f"setup.{key} must be a whole number >= 0")
                setattr(st, attr, v)
        # The position is the new starting point of the money ledger.
        st.bank = 0
        st.money = sum(p.cash for p in st.players) + st.jackpot + st.free_parking
        return st

    def _jail_cards(self, value: Any, where: str) -> list[str] | int:
        if isinstance(value, list):
            for cid in value:
                if cid not in JAIL_CARDS or cid not in {c for d in deck_order(self.rules.deck).values() for c in d}:
                    _fail(f"{where}: {cid!r} is not a jail card of this game's decks")
            return list(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            _fail(f"{where} must be a number of cards or a list of card ids")
        return value

    def _decks(self, st: GameState, decks: dict, held: dict[int, Any]) -> None:
        order = deck_order(self.rules.deck)
        for name in decks:
            if name not in order:
                _fail(f"setup.decks: this rule set has no deck {name!r} (decks: {', '.join(order)})")
        # Jail cards held by players leave the decks: named ones first, then counts take the
        # first free jail card in deck order.
        taken: set[str] = set()
        for i, cards in held.items():
            if isinstance(cards, list):
                for cid in cards:
                    if cid in taken:
                        _fail(f"setup.players: jail card {cid!r} is held twice")
                    taken.add(cid)
                st.players[i].jail_cards = list(cards)
        free = [c for d in order.values() for c in d if c in JAIL_CARDS]
        for i, cards in held.items():
            if isinstance(cards, int):
                pick = [c for c in free if c not in taken][:cards]
                if len(pick) < cards:
                    _fail(f"setup.players.{self.names[i]}.jail_cards: the decks hold only {len(free)} jail cards")
                taken.update(pick)
                st.players[i].jail_cards = pick
        for name, cards in order.items():
            top = decks.get(name) or []
            if not isinstance(top, list):
                _fail(f"setup.decks.{name} must be a list of card ids, top first")
            for cid in top:
                if cid not in CARDS:
                    _fail(f"setup.decks.{name}: unknown card {cid!r}")
                if cid not in cards:
                    _fail(f"setup.decks.{name}: card {cid!r} is not in the {name} deck")
                if cid in taken:
                    _fail(f"setup.decks.{name}: card {cid!r} is held by a player")
            if len(set(top)) != len(top):
                _fail(f"setup.decks.{name} lists a card twice")
            rest = [c for c in cards if c not in top and c not in taken]
            st.decks[name] = list(top) + rest
            st.discards[name] = []

    # -- steps ----------------------------------------------------------------------------------
    def action(self, step: dict, where: str) -> dict:
        kind = step.get("action")
        if kind not in ACTION_TYPES:
            _fail(f"{where}: unknown action {kind!r}")
        a: dict[str, Any] = {"type": kind, "player": self.player(step.get("player"), where)}
        for key in STEP_PARAMS:
            if key in step:
                a[key] = step[key]
        if "to" in a:
            a["to"] = self.player(a["to"], f"{where}.to")
        for side in ("give", "take"):
            if isinstance(a.get(side), dict) and "squares" in a[side] and isinstance(a[side]["squares"], list):
                a[side] = dict(a[side])
                a[side]["squares"] = [_square(x, f"{where}.{side}.squares") for x in a[side]["squares"]]
        return a

    def run(self) -> None:
        st = self.build()
        for n, step in enumerate(self.steps, 1):
            where = f"step {n}"
            if not isinstance(step, dict):
                _fail(f"{where}: a step must be a mapping")
            if "expect" in step:
                _unknown(step, {"expect"}, where)
                self.check(st, _mapping(step["expect"], where), where)
                continue
            if "clock_minutes" in step:
                _unknown(step, {"clock_minutes"}, where)
                try:
                    set_clock(st, step["clock_minutes"])
                except EngineError as e:
                    _fail(f"{where}: {e}")
                continue
            _unknown(step, STEP_META | STEP_PARAMS, where)
            a = self.action(step, where)
            dice = step.get("dice", [])
            if not isinstance(dice, list):
                _fail(f"{where}: dice must be a list")
            jackpot = step.get("jackpot")
            if jackpot is not None and not isinstance(jackpot, bool):
                _fail(f"{where}: jackpot must be true or false")
            rng = ScriptedRng(dice, jackpot)
            want_error = step.get("error", False)
            if not isinstance(want_error, bool):
                _fail(f"{where}: error must be true or false")
            before = st.to_json() if want_error else None
            try:
                apply(st, a, rng, events=False)
            except IllegalAction as e:
                if want_error:
                    if st.to_json() != before:
                        _fail(f"{where}: {a['type']} was refused but the state changed")
                    continue
                _fail(f"{where}: {a['type']} by {step.get('player')} was refused: {e}")
            except EngineError as e:  # scripted randomness ran out, etc.
                _fail(f"{where}: {e}")
            if want_error:
                _fail(f"{where}: {a['type']} by {step.get('player')} should have been refused")
        self.check(st, self.expect, "expect")

    # -- expectations ---------------------------------------------------------------------------
    def check(self, st: GameState, exp: dict, where: str) -> None:
        _unknown(exp, EXPECT_KEYS, where)
        diffs: list[str] = []

        def cmp(label: str, got: Any, want: Any) -> None:
            if got != want:
                diffs.append(f"{label}: expected {want!r}, got {got!r}")

        if "current_player" in exp:
            cmp("current_player", self.names[st.current], exp["current_player"])
        if "pending" in exp:
            cmp("pending", st.pending(), exp["pending"])
        if "round" in exp:
            cmp("round", st.round, exp["round"])
        if "winner" in exp:
            cmp("winner", None if st.winner is None else self.names[st.winner], exp["winner"])
        if "jackpot" in exp:
            cmp("jackpot", st.jackpot, exp["jackpot"])
        if "free_parking" in exp:
            cmp("free_parking", st.free_parking, exp["free_parking"])
        for name, spec in _mapping(exp.get("players"), f"{where}.players").items():
            i = self.player(name, f"{where}.players")
            spec = _mapping(spec, f"{where}.players.{name}")
            _unknown(spec, PLAYER_KEYS, f"{where}.players.{name}")
            pl = st.players[i]
            got = {"cash": pl.cash, "position": pl.pos, "in_jail": pl.in_jail, "jail_turns": pl.jail_turns,
                   "jail_cards": len(pl.jail_cards), "bankrupt": pl.bankrupt, "missed_turns": pl.missed}
            for key, want in spec.items():
                if key == "jail_cards" and isinstance(want, list):
                    cmp(f"{name}.jail_cards", pl.jail_cards, want)
                else:
                    cmp(f"{name}.{key}", got[key], want)
        for key, spec in _mapping(exp.get("deeds"), f"{where}.deeds").items():
            sq = _square(key, f"{where}.deeds")
            spec = _mapping(spec, f"{where}.deeds.{sq}")
            _unknown(spec, DEED_KEYS, f"{where}.deeds.{sq}")
            got = {"owner": self.owner_name(st.owner[sq]), "houses": st.level[sq], "mortgaged": st.mortgaged[sq],
                   "mortgaged_round": st.mround[sq]}
            for k2, want in spec.items():
                cmp(f"deed {sq}.{k2}", got[k2], want)
        bank = _mapping(exp.get("bank"), f"{where}.bank")
        _unknown(bank, {"houses", "hotels"}, f"{where}.bank")
        if "houses" in bank:
            cmp("bank.houses", st.bank_houses, bank["houses"])
        if "hotels" in bank:
            cmp("bank.hotels", st.bank_hotels, bank["hotels"])
        for name, top in _mapping(exp.get("decks"), f"{where}.decks").items():
            if name not in st.decks:
                _fail(f"{where}.decks: no deck {name!r}")
            if not isinstance(top, list):
                _fail(f"{where}.decks.{name} must be a list, top first")
            cmp(f"decks.{name}", st.decks[name][:len(top)], top)
        if diffs:
            _fail(f"{where}: " + "; ".join(diffs))


def run_file(path: Path) -> list[Result]:
    """One file may hold one scenario or a YAML list of them."""
    try:
        text = path.read_text(encoding="utf-8")
        docs = yaml.safe_load(text)
    except (OSError, UnicodeDecodeError) as e:
        return [Result(str(path), path.stem, False, f"cannot read the file: {e}")]
    except yaml.YAMLError as e:
        return [Result(str(path), path.stem, False, f"not valid YAML: {str(e).splitlines()[0]}")]
    items = docs if isinstance(docs, list) else [docs]
    results = []
    for i, doc in enumerate(items):
        label = str(path) if len(items) == 1 else f"{path}[{i}]"
        name = doc.get("name", path.stem) if isinstance(doc, dict) else path.stem
        try:
            Scenario(doc, str(path)).run()
            results.append(Result(label, str(name), True))
        except ScenarioError as e:
            results.append(Result(label, str(name), False, str(e)))
        except Exception as e:  # a bug of ours must still not hide the other scenarios
            results.append(Result(label, str(name), False, f"internal error: {type(e).__name__}: {e}"))
    return results


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*") if x.suffix in (".yaml", ".yml") and x.is_file()))
        else:
            files.append(p)
    return files


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args:
        print("usage: python -m games.engine.scenarios PATH [PATH ...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in collect(args):
        if not path.exists():
            print(f"{path}: no such file or directory")
            failed += 1
            continue
        for r in run_file(path):
            if r.ok:
                passed += 1
            else:
                failed += 1
                print(f"{r.path}: {r.message}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
