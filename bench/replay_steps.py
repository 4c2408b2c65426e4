"""What a step of the replay viewer costs, before and after checkpoints.

    python bench/replay_steps.py [--actions 60000] [--steps 20]

Builds a legal record of ``--actions`` actions (a classic-short game of six strategy bots that
never ends, seed 161, cut there), then prints for the old way (every step replays the whole
record and keeps a copy of every position, as games/views/play.py did) and the new one
(games/records.py: the record replayed once into a checkpoint every CHECKPOINT_EVERY actions;
a step starts from its checkpoint) the actions applied, the CPU time and the peak of Python's
memory (tracemalloc, in a second run) of preparing the record and of one step. Figures, never assertions.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from games import records  # noqa: E402
from games.engine import RuleSet, apply, new_game, set_clock  # noqa: E402
from games.engine.bots import make_bot  # noqa: E402
from games.engine.simulate import default_names, play_game  # noqa: E402

SEED = 161


class _Enough(Exception):
    pass


def long_record(n: int) -> dict:
    rules = RuleSet.build("classic-short")
    actions: list[dict] = []

    def keep(_state, action):
        actions.append(dict(action))
        if len(actions) >= n:
            raise _Enough

    with contextlib.suppress(_Enough):
        play_game(rules, [make_bot("strategy") for _ in range(6)], SEED, on_action=keep)
    return {"format": records.RECORD_FORMAT, "rules": rules.to_json(), "seed": SEED,
            "names": default_names(6), "teams": None, "actions": actions}


def old_step(record: dict, step: int) -> tuple[int, object]:
    """The old viewer's work for one step: every position of the record, copied."""
    state, _ = new_game(RuleSet.from_json(record["rules"]), record["names"], record["seed"], events=False)
    states = [state.copy()]
    for a in record["actions"]:
        if a.get("clock") is not None:
            set_clock(state, a["clock"])
        apply(state, {k: v for k, v in a.items() if k != "clock"}, events=False)
        states.append(state.copy())
    return len(record["actions"]), states[step]


def new_step(record: dict, chunks: list[records.Checkpoint], step: int) -> tuple[int, object]:
    pos = records.position(records.start_of(record), len(record["actions"]), chunks[records.chunk_index(step)],
                           step)
    return pos.replayed, pos.state


def measure(fn, *args) -> tuple[float, int, object]:
    """CPU time of a run, then the memory peak of another (tracing slows a run down)."""
    cpu = time.process_time()
    result = fn(*args)
    cpu = time.process_time() - cpu
    tracemalloc.start()
    fn(*args)
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return cpu, peak, result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--actions", type=int, default=60_000)
    ap.add_argument("--steps", type=int, default=20, help="random steps measured")
    args = ap.parse_args(argv)
    record = long_record(args.actions)
    raw = json.dumps(record, separators=(",", ":")).encode()
    n = len(record["actions"])
    print(f"record: {n:,} actions, {len(raw):,} bytes; checkpoint every {records.CHECKPOINT_EVERY} actions")

    cpu, peak, _ = measure(lambda: records.checkpoints(records.parse_record(raw)))
    chunks = records.checkpoints(record)
    stored = len(json.dumps([c.state for c in chunks], separators=(",", ":")))
    print(f"new, prepare once (parse, check, replay): {cpu * 1000:8.1f} ms CPU, peak {peak / 2**20:6.1f} MiB; "
          f"{len(chunks)} checkpoints, {stored / 2**20:.2f} MiB of positions")
    # The turn and round navigation (issue 12): the turn starts the Replay row keeps, and the
    # work of placing one step among them.
    turns = records.turn_starts(chunks)
    cpu = time.process_time()
    for s in range(n + 1):
        records.replay_nav(turns, s, n)
    nav = (time.process_time() - cpu) / (n + 1)
    print(f"turn starts: {len(turns):,} ({len(json.dumps(turns, separators=(',', ':'))) / 2**10:,.1f} KiB on "
          f"the Replay row); a step's turn and round controls: {nav * 1000:.3f} ms CPU")

    steps = random.Random(1).sample(range(n + 1), min(args.steps, n + 1))
    for name, fn in (("old", lambda s: old_step(record, s)), ("new", lambda s: new_step(record, chunks, s))):
        cpus, peaks, applied = [], [], []
        for s in steps[: 3 if name == "old" else len(steps)]:
            cpu, peak, (count, _state) = measure(fn, s)
            cpus.append(cpu)
            peaks.append(peak)
            applied.append(count)
        print(f"{name}, one step: {max(applied):7,} actions applied at most, "
              f"{sum(cpus) / len(cpus) * 1000:8.2f} ms CPU on average, peak {max(peaks) / 2**10:9,.0f} KiB "
              f"({len(cpus)} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
