"""How long real games get: the number of actions (and the record's bytes) of whole bot games,
for every preset, every seat count it allows and three bot mixes, over many seeds.

    python bench/record_lengths.py [--games 200] [--seed 1] [--jobs 2] [--smoke]

The longest game seen sets the cap on the actions an uploaded record may hold
(games/records.py, MAX_RECORD_ACTIONS), with a wide margin. Prints, per preset, seat count and
mix, the games played and the median, 99th percentile and longest action count, then the longest
record over all of them, in actions and in bytes as the site writes it (one action per entry,
with the play clock the site stamps on live games). Games still running after GIVE_UP actions
are listed apart. Figures, never assertions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import make_bot
from games.engine.ruleset import PRESET_NAMES, RuleSet
from games.engine.simulate import SimulationError, play_game

MIXES = {"strategy": ["strategy"], "random": ["random"], "mixed": ["strategy", "random"]}
# A game still running after this many actions counts as one that does not end (random bots
# can trade the same deeds back and forth for ever); it is counted apart, not as a length.
GIVE_UP = 100_000


def _record_bytes(rules: RuleSet, log: list[dict], players: int, seed: int) -> int:
    """The size of the record the site would offer for this game: every action carries the
    play clock (live tables), names are realistic, separators compact."""
    record = {"format": "monopoly-record/1", "rules": rules.to_json(), "seed": seed,
              "names": [f"Player number {i}" for i in range(players)], "teams": None,
              "actions": [{**a, "clock": 12345} for a in log]}
    return len(json.dumps(record, separators=(",", ":")).encode())


def _one(job: tuple[str, int, str, int, int]) -> tuple[str, int, str, list[int], int, int, list[int]]:
    preset, players, mix, seed, games = job
    rules = RuleSet.build(preset)
    kinds = MIXES[mix]
    lengths, endless = [], []
    longest, longest_bytes = 0, 0
    for i in range(games):
        bots = [make_bot(kinds[s % len(kinds)]) for s in range(players)]
        try:
            result = play_game(rules, bots, seed + i, keep_log=True, max_actions=GIVE_UP)
        except SimulationError:
            endless.append(seed + i)
            continue
        lengths.append(result.actions)
        if result.actions > longest:
            longest = result.actions
            longest_bytes = _record_bytes(rules, result.log, players, seed + i)
    return preset, players, mix, lengths, longest, longest_bytes, endless


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per preset, seat count and mix")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--smoke", action="store_true",
                    help="one game per preset and mix, at the preset's fewest seats (tests/test_bench.py)")
    args = ap.parse_args(argv)
    jobs = []
    for preset in PRESET_NAMES:
        lo, hi = RuleSet.build(preset).seats
        for players in range(lo, (lo if args.smoke else hi) + 1):
            for mix in MIXES:
                # Random bots' games are long: a fifth as many of them.
                games = args.games if mix != "random" else max(10, args.games // 5)
                jobs.append((preset, players, mix, args.seed, 1 if args.smoke else games))
    overall = (0, 0, "")
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for preset, players, mix, lengths, longest, size, endless in pool.map(_one, jobs):
            if lengths:
                p99 = sorted(lengths)[max(0, int(len(lengths) * 0.99) - 1)]
                figures = (f"median {statistics.median(lengths):7.0f}  p99 {p99:6}  longest {longest:6} "
                           f"({size:,} bytes)")
            else:
                figures = "none ended"  # (a run of few games, all of them endless)
            print(f"{preset:14} {players} {mix:8} games {len(lengths):4}  {figures}"
                  + (f"  not ending within {GIVE_UP:,}: seeds {endless}" if endless else ""), flush=True)
            if longest > overall[0]:
                overall = (longest, size, f"{preset}/{players}/{mix}")
    print(f"longest game: {overall[0]} actions, {overall[1]:,} bytes of record ({overall[2]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
