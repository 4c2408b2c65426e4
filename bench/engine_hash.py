"""Fingerprints of whole bot games, to show that a speed-up left every game unchanged.

    python bench/engine_hash.py [--games 100] > before.txt   # on the old code
    python bench/engine_hash.py [--games 100] > after.txt    # on the new code
    diff before.txt after.txt
    python bench/engine_hash.py --smoke                       # one game each (the suite's check)

For every preset and three bot mixes (strategy, random, strategy/random alternating; the preset's
default seat count), plays games with seeds 1000.. through ``simulate.play_game`` and prints one
SHA-256 prefix per preset and mix over each game's action log and final state (JSON). Random
bots play a fifth as many games (their games are long). A fingerprint, not a test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.bots import make_bot
from games.engine.ruleset import PRESET_NAMES, RuleSet
from games.engine.simulate import play_game

MIXES = {"strategy": ["strategy"], "random": ["random"], "mixed": ["strategy", "random"]}


def _dump(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--smoke", action="store_true",
                    help="one game per preset and mix, random bots' too (tests/test_bench.py)")
    args = ap.parse_args(argv)
    for preset in PRESET_NAMES:
        rules = RuleSet.build(preset)
        lo, hi = rules.seats
        players = min(max(4, lo), hi)
        for mix, kinds in MIXES.items():
            digest = hashlib.sha256()
            games = args.games if mix != "random" else max(10, args.games // 5)
            if args.smoke:
                games = 1
            for i in range(games):
                bots = [make_bot(kinds[s % len(kinds)]) for s in range(players)]
                result = play_game(rules, bots, 1000 + i, keep_log=True)
                digest.update(_dump(result.log))
                digest.update(_dump(result.state.to_json()))
            print(f"{preset}/{mix} {digest.hexdigest()[:16]}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
