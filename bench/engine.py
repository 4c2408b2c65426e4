"""Engine benchmark: complete games between four strategy bots, one process, fixed seeds.

    python bench/engine.py [--games 200] [--seed 1] [--profile]

For classic and world-classic, with and without event records, prints games/s, player turns/s
and actions/s, and the size of a finished game's JSON state and of its action log (JSON).
Rates are per second of this process's CPU time, best of ``--repeat`` runs, so other work on
the machine skews them as little as possible (the wall-clock time is shown too). ``--profile``
prints a cProfile of the games instead.
Figures, never assertions: tests must not time things.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import make_bot
from games.engine.ruleset import RuleSet
from games.engine.simulate import play_game

PRESETS = ("classic", "world-classic")


def _size(data) -> int:
    return len(json.dumps(data, separators=(",", ":")).encode())


def bench(preset: str, games: int, seed: int, events: bool) -> dict:
    rules = RuleSet.build(preset)
    actions = turns = rounds = 0
    state_sizes, log_sizes = [], []
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        bots = [make_bot("strategy") for _ in range(4)]
        result = play_game(rules, bots, seed + i, events=events, keep_log=True)
        actions += result.actions
        turns += result.turns
        rounds += result.state.round
        state_sizes.append(result.state)
        log_sizes.append(result.log)
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    # Sizes are measured after the clock stops.
    state_sizes = [_size(s.to_json()) for s in state_sizes]
    log_sizes = [_size(log) for log in log_sizes]
    return {
        "preset": preset,
        "events": events,
        "games": games,
        "cpu_s": cpu,
        "wall_s": wall,
        "games_per_s": games / cpu,
        "turns_per_s": turns / cpu,
        "actions_per_s": actions / cpu,
        "mean_rounds": rounds / games,
        "mean_actions": actions / games,
        "state_bytes_mean": sum(state_sizes) / games,
        "state_bytes_max": max(state_sizes),
        "log_bytes_mean": sum(log_sizes) / games,
        "log_bytes_max": max(log_sizes),
    }


def _print(r: dict) -> None:
    print(
        f"{r['preset']:<14} events {'on ' if r['events'] else 'off'}  {r['games']} games in "
        f"{r['cpu_s']:.2f} s cpu ({r['wall_s']:.2f} s wall): {r['games_per_s']:7.1f} games/s  "
        f"{r['turns_per_s']:8.0f} player turns/s  {r['actions_per_s']:8.0f} actions/s  "
        f"(mean {r['mean_rounds']:.1f} rounds, {r['mean_actions']:.0f} actions)"
    )
    print(
        f"{'':<14} finished game: state JSON {r['state_bytes_mean']:.0f} B mean, "
        f"{r['state_bytes_max']} B max; action log JSON {r['log_bytes_mean']:.0f} B mean, "
        f"{r['log_bytes_max']} B max"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--repeat", type=int, default=3, help="runs of each configuration; the fastest counts"
    )
    ap.add_argument(
        "--preset", action="append", choices=PRESETS, help="only this preset (repeatable)"
    )
    ap.add_argument("--profile", action="store_true", help="cProfile the games (events off)")
    args = ap.parse_args(argv)
    presets = args.preset or PRESETS
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        for preset in presets:
            bench(preset, args.games, args.seed, events=False)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(35)
        return 0
    print(
        f"4 strategy bots, seeds {args.seed}..{args.seed + args.games - 1}, one process, "
        f"best of {args.repeat}"
    )
    for preset in presets:
        for events in (False, True):
            runs = [bench(preset, args.games, args.seed, events) for _ in range(args.repeat)]
            _print(min(runs, key=lambda r: r["cpu_s"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
