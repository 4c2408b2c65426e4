"""Play whole games between bots, check the invariants after every action, report figures.

    python -m games.engine.simulate --preset classic --players 4 --games 100 --seed 1 \\
        --bots strategy,random
    python -m games.engine.simulate --landing-study --turns 100000 --jail long --json

The first form prints games/s, actions/s, player turns/s, mean rounds and the win share of each
seat and each bot kind (bots are given to seats cyclically). It exits non-zero, with a message,
when an invariant breaks (``games.engine.invariants``), a bot chooses an illegal action, or a
game does not end within the action cap. The second form is the landing study (see
``landing_study``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field

from . import invariants
from .bots import make_bot
from .errors import EngineError, IllegalAction
from .rules import (
    Ctx,
    _step,
    apply,
    legal_actions,
    new_game,
    set_clock,
    stepper,
    waiting_on,
)
from .ruleset import PRESET_NAMES, RuleSet
from .state import GameState

MAX_ACTIONS = 200_000
# Roughly how long a round of a live table lasts; it drives the world presets' dynamic economy
# (salaries stop, rents are taxed), which is what makes their games end.
MINUTES_PER_ROUND = 1.0


class SimulationError(Exception):
    """An invariant broke, a bot chose an illegal action, or a game did not end."""


@dataclass
class GameResult:
    state: GameState
    actions: int
    turns: int
    winners: list[int]
    log: list[dict] = field(default_factory=list)


def default_names(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


def play_game(
    rules: RuleSet,
    bots: list,
    seed: int,
    *,
    check: bool = False,
    events: bool = False,
    max_actions: int = MAX_ACTIONS,
    minutes_per_round: float = MINUTES_PER_ROUND,
    keep_log: bool = False,
    on_action=None,
) -> GameResult:
    """Play one game to its end. ``bots[i]`` plays seat i. The game's dice come from its own
    seeded generator; the bots' choices and the order in which an open auction asks its bidders
    come from a ``random.Random`` seeded from the same seed, so a game is reproducible.

    Bots play at no human pace, so the play clock (dynamic economy, RULES.md 11) is set from the
    round: ``minutes_per_round`` minutes per round (0 keeps it at 0, as if no time passed).
    ``check`` runs the invariants after every action; ``on_action(state, action)`` is called
    after each one (tests use it). Raises SimulationError when something breaks.
    """
    n = len(bots)
    state, _ = new_game(rules, default_names(n), seed=seed, events=events)
    rng = random.Random(seed)
    if check:
        _check(state, seed, 0, None)
    turns = 0
    turn = state.turn
    round_ = state.round
    log: list[dict] = []
    choose = [bot.choose for bot in bots]  # (bound once, not looked up on every action)
    ctx = Ctx(state, None, None)  # (as rules.stepper: the game's generator, the state's rules)
    watch = check or on_action is not None
    # A for loop over the action cap: cheaper than counting the actions and testing the cap on
    # every one. ``actions`` is how many have been applied before this one.
    for actions in range(max_actions):
        if state.over:
            break
        # An open auction waits on several bidders: the one asked is drawn.
        who = waiting_on(state)
        seat = who[0] if len(who) == 1 else who[rng.randrange(len(who))]
        action = choose[seat](state, seat, rng)
        if events:
            ctx.events = []
        try:
            _step(ctx, action)
        except IllegalAction as e:
            raise SimulationError(
                f"game with seed {seed}, action {actions}: the {bots[seat].name} bot of "
                f"seat {seat} chose an illegal action {action}: {e}"
            ) from None
        if keep_log:
            log.append(action)
        if state.turn is not turn:
            turn = state.turn
            turns += 1
            if state.round != round_:
                round_ = state.round
                _tick(state, minutes_per_round)
        if watch:
            if check:
                _check(state, seed, actions + 1, action)
            if on_action is not None:
                on_action(state, action)
    else:
        actions = max_actions
        if not state.over:
            raise SimulationError(
                f"game with seed {seed} did not end within {max_actions} actions "
                f"(round {state.round})"
            )
    return GameResult(state, actions, turns, winners_of(state), log)


def _tick(state: GameState, minutes_per_round: float) -> None:
    """Set the play clock from the round (see ``play_game``)."""
    if minutes_per_round:
        set_clock(state, int((state.round - 1) * minutes_per_round))


def replay(
    rules: RuleSet,
    players: int,
    seed: int,
    actions: list[dict],
    *,
    minutes_per_round: float = MINUTES_PER_ROUND,
    events: bool = False,
) -> GameState:
    """The state after ``actions`` from the start of the game ``play_game`` plays with these
    rules, players and seed (the clock is set the same way). Raises IllegalAction."""
    state, _ = new_game(rules, default_names(players), seed=seed, events=events)
    return play_actions(state, actions, minutes_per_round=minutes_per_round, events=events)


def play_actions(
    state: GameState,
    actions: list[dict],
    *,
    minutes_per_round: float = MINUTES_PER_ROUND,
    events: bool = False,
) -> GameState:
    """Apply ``actions`` to ``state``, setting the clock as ``play_game`` does."""
    round_ = state.round
    step = stepper(state, events)
    for action in actions:
        step(action)
        if state.round != round_:
            round_ = state.round
            _tick(state, minutes_per_round)
    return state


def winners_of(state: GameState) -> list[int]:
    """The winning seats: the winner, or the winner's whole team."""
    if state.winner is None:
        return []
    if state.teams:
        return next(list(t) for t in state.teams if state.winner in t)
    return [state.winner]


def _check(state: GameState, seed: int, actions: int, action) -> None:
    problems = invariants.check(state)
    if problems:
        raise SimulationError(
            f"game with seed {seed}, after action {actions} {action}: " + "; ".join(problems)
        )


# ---------------------------------------------------------------------------------------------
# Many games
# ---------------------------------------------------------------------------------------------


@dataclass
class Summary:
    games: int = 0
    seconds: float = 0.0
    actions: int = 0
    turns: int = 0
    rounds: int = 0
    seat_wins: list[float] = field(default_factory=list)
    kind_wins: dict[str, float] = field(default_factory=dict)
    kinds: list[str] = field(default_factory=list)

    def figures(self) -> dict:
        s = self.seconds or 1e-9
        g = self.games or 1
        shares = {kind: self.kinds.count(kind) / len(self.kinds) for kind in self.kind_wins}
        return {
            "games": self.games,
            "seconds": round(self.seconds, 3),
            "games_per_s": round(self.games / s, 1),
            "actions_per_s": round(self.actions / s),
            "turns_per_s": round(self.turns / s),
            "mean_rounds": round(self.rounds / g, 1),
            "mean_actions": round(self.actions / g, 1),
            "seat_win_share": [round(w / g, 3) for w in self.seat_wins],
            "kind_win_share": {k: round(w / g, 3) for k, w in self.kind_wins.items()},
            "kind_seat_share": {k: round(v, 3) for k, v in shares.items()},
        }


def run(
    preset: str,
    players: int,
    games: int,
    seed: int,
    bot_names: list[str],
    *,
    check: bool = True,
    events: bool = False,
    max_actions: int = MAX_ACTIONS,
    minutes_per_round: float = MINUTES_PER_ROUND,
    options: dict | None = None,
) -> Summary:
    """Play ``games`` games; game i uses seed ``seed + i``. Raises SimulationError."""
    rules = RuleSet.build(preset, options)
    kinds = [bot_names[i % len(bot_names)] for i in range(players)]
    summary = Summary(
        seat_wins=[0.0] * players, kind_wins={k: 0.0 for k in dict.fromkeys(kinds)}, kinds=kinds
    )
    start = time.perf_counter()
    for i in range(games):
        bots = [make_bot(k) for k in kinds]
        result = play_game(
            rules,
            bots,
            seed + i,
            check=check,
            events=events,
            max_actions=max_actions,
            minutes_per_round=minutes_per_round,
        )
        summary.games += 1
        summary.actions += result.actions
        summary.turns += result.turns
        summary.rounds += result.state.round
        # One point per game, shared by the winning seats (a team).
        for w in result.winners:
            summary.seat_wins[w] += 1 / len(result.winners)
            summary.kind_wins[kinds[w]] += 1 / len(result.winners)
    summary.seconds = time.perf_counter() - start
    return summary


def _print_summary(args, summary: Summary) -> None:
    f = summary.figures()
    print(
        f"{args.preset}, {args.players} players, bots {','.join(summary.kinds)}, seed {args.seed}, "
        f"invariants {'checked after every action' if args.check else 'not checked'}"
    )
    print(f"games: {f['games']} in {f['seconds']} s  ({f['games_per_s']} games/s)")
    print(f"actions/s: {f['actions_per_s']}  player turns/s: {f['turns_per_s']}")
    print(f"mean rounds: {f['mean_rounds']}  mean actions per game: {f['mean_actions']}")
    print(
        "win share per seat: "
        + "  ".join(
            f"{i}:{kind} {w:.3f}"
            for i, (kind, w) in enumerate(zip(summary.kinds, f["seat_win_share"], strict=False))
        )
    )
    print(
        "win share per bot: "
        + "  ".join(
            f"{k} {w:.3f} (holds {f['kind_seat_share'][k]:.3f} of the seats)"
            for k, w in f["kind_win_share"].items()
        )
    )


# ---------------------------------------------------------------------------------------------
# Landing study
# ---------------------------------------------------------------------------------------------

IN_JAIL = "in_jail"


def landing_study(turns: int, jail: str = "long", preset: str = "classic", seed: int = 1) -> dict:
    """How often a move ends on each square, over ``turns`` turns of one token.

    The study drives the real engine (its dice, cards, doubles, third doubles and jail rules)
    rather than a separate model of movement, so it measures the rules as implemented. A
    two-player game is set up and the second seat retired before play, so the lone token plays
    every turn; it never buys (it declines, and passes in the auction that follows), so no rent
    or building ever changes the board, and its cash is raised far above anything it can owe,
    so no debt interrupts it (the money ledger is adjusted to match).

    Counted, from the engine's events: the square each move ends on (a roll's move and every
    card's move: "advance", "nearest", "back 3"), and a separate ``in_jail`` for every move that
    ends in jail (square 30, a go-to-jail card, a third doubles) and for every turn spent in jail
    after a failed try for doubles. ``jail`` is ``short`` (pay the fine, or use a card, at once)
    or ``long`` (try for doubles for three turns).
    """
    if jail not in ("short", "long"):
        raise ValueError("jail must be 'short' or 'long'")
    rules = RuleSet.build(preset)
    state, _ = new_game(rules, ["token", "ghost"], seed=seed, roll_for_first=False)
    ghost = state.players[1]
    ghost.bankrupt = True
    state.money -= ghost.cash
    ghost.cash = 0
    token = state.players[0]
    extra = 10**12
    token.cash += extra
    state.money += extra
    counts = [0] * 40
    in_jail = 0
    done = 0
    while done < turns:
        p = state.pending()
        if p == "roll":
            acts = {a["type"] for a in legal_actions(state, 0)}
            if jail == "short" and "use_card" in acts:
                action = {"type": "use_card", "player": 0}
            elif jail == "short" and "pay_fine" in acts:
                action = {"type": "pay_fine", "player": 0}
            else:
                action = {"type": "roll", "player": 0}
        elif p == "end_turn":
            action = {"type": "end_turn", "player": 0}
            done += 1
        elif p == "buy":
            action = {"type": "decline", "player": 0}
        elif p == "auction":
            action = {"type": "pass", "player": 0}
        elif p == "casino":
            action = {"type": "casino_skip", "player": 0}
        elif p == "bus":
            action = {"type": "bus", "player": 0, "choice": "sum"}
        elif p == "teleport":
            action = {"type": "teleport", "player": 0, "square": state.stack[-1]["default"]}
        elif p == "income_tax":
            action = {"type": "income_tax", "player": 0, "choice": "flat"}
        else:
            raise SimulationError(f"landing study: unexpected decision {p!r}")
        _, events = apply(state, action)
        for e in events:
            kind = e["e"]
            if kind == "move":
                counts[e["to"]] += 1
            elif kind == "jail":
                in_jail += 1
            elif kind == "roll" and e.get("jail") and state.players[0].in_jail:
                in_jail += 1  # a failed try for doubles: the turn is spent in jail
        if state.over:  # pragma: no cover - the token cannot go bankrupt with that much cash
            raise SimulationError("landing study: the game ended")
    # A roll that ends on square 30 counts there, and the transfer to jail that follows counts
    # as a move ending in jail, like a go-to-jail card's.
    total = sum(counts) + in_jail
    board = state.board
    squares = [
        {
            "square": sq,
            "name": board.name_of(sq),
            "count": counts[sq],
            "frequency": counts[sq] / total,
        }
        for sq in range(40)
    ]
    return {
        "preset": preset,
        "turns": turns,
        "jail": jail,
        "moves": total,
        "squares": squares,
        "in_jail": {"count": in_jail, "frequency": in_jail / total},
    }


def _print_landing(study: dict) -> None:
    print(
        f"landing study: {study['preset']}, {study['turns']} turns, jail {study['jail']}, "
        f"{study['moves']} moves counted"
    )
    rows = sorted(study["squares"], key=lambda r: -r["count"])
    jail = study["in_jail"]
    rows.insert(
        next((i for i, r in enumerate(rows) if r["count"] < jail["count"]), len(rows)),
        {"square": "-", "name": "In jail", "count": jail["count"], "frequency": jail["frequency"]},
    )
    for r in rows:
        print(f"{r['square']!s:>3}  {r['name']:<28} {100 * r['frequency']:6.2f}%  {r['count']}")


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m games.engine.simulate", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("--preset", default="classic", choices=PRESET_NAMES)
    ap.add_argument(
        "--players", type=int, default=None, help="seats (default: 4, or the preset's only count)"
    )
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--bots", default="strategy,random", help="bot kinds, given to seats cyclically"
    )
    ap.add_argument(
        "--no-check", dest="check", action="store_false", help="skip the invariant checks"
    )
    ap.add_argument("--events", action="store_true", help="build event records (slower)")
    ap.add_argument(
        "--max-actions",
        type=int,
        default=MAX_ACTIONS,
        help="actions after which a game counts as not ending",
    )
    ap.add_argument(
        "--minutes-per-round",
        type=float,
        default=MINUTES_PER_ROUND,
        help="play clock per round, for the dynamic economy (0: the clock stays at 0)",
    )
    ap.add_argument("--landing-study", action="store_true")
    ap.add_argument("--turns", type=int, default=100_000, help="landing study: turns of the token")
    ap.add_argument(
        "--jail", choices=("short", "long"), default="long", help="landing study: jail policy"
    )
    ap.add_argument("--json", action="store_true", help="print JSON")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.landing_study:
        study = landing_study(args.turns, args.jail, args.preset, args.seed)
        if args.json:
            print(json.dumps(study, indent=1))
        else:
            _print_landing(study)
        return 0
    rules = RuleSet.build(args.preset)
    lo, hi = rules.seats
    if args.players is None:
        args.players = min(max(4, lo), hi)
    if not lo <= args.players <= hi:
        print(f"error: {args.preset} seats {lo}-{hi} players, not {args.players}", file=sys.stderr)
        return 2
    bot_names = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        summary = run(
            args.preset,
            args.players,
            args.games,
            args.seed,
            bot_names,
            check=args.check,
            events=args.events,
            max_actions=args.max_actions,
            minutes_per_round=args.minutes_per_round,
        )
    except SimulationError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (ValueError, EngineError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary.figures()))
    else:
        _print_summary(args, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
