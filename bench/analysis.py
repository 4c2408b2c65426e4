"""Win-chance analysis benchmark (issue 30): how fast games.engine.analysis answers.

    python bench/analysis.py [--positions 50] [--target 0.03] [--game-target 0.05]
    python bench/analysis.py --smoke          # tiny sizes (tests/test_bench.py)

Prints, with the machine's load average (other work slows every figure here):

* playouts per second (games and player turns) from mid-game positions, beside
  bench/engine.py's whole games per second on the same machine and moment;
* the time to a ±target (95%) estimate, p50 and p90, over mid-game positions of four-player
  classic games of strategy bots (round 15 of games seeded 1000..), with the playouts needed;
* compare()'s time for a position with and without a trade (common random numbers), to the
  same target on the differences;
* the trade meter as a player feels it (``meter``), on the same positions as ``compare`` and
  with the meter's own settings (games/meter.py: METER_PLAYOUTS, METER_TARGET, METER_BATCH, no
  shortcut): the time to the first figures it shows (its first batch, written at once), their
  ± on the change, and the time to the final figures;
* the whole-game analysis of a game of at least 60 rounds: an estimate as each round began,
  to ``--game-target``, and its total;
* antithetic dice against independent playouts (the variance of the estimate);
* what the round cap costs: the same playouts (common random numbers) played on to 400 more
  rounds, and the chances had they stopped at each cap (ranked by net worth), against them;
* the late-game shortcut (``decisive``) against the strategy bots playing every playout to its
  end, on 200 positions of real bot games (``policy``): see ``policy_check``.

``target`` and ``compare`` are timed with the shortcut (``--decisive``, 3 by default here) and
without it (the engine's default) on the same positions and seeds, side by side; ``game`` without.

Times are CPU seconds of this one process (one core), the wall-clock time beside them.
Targets of the issue: ±3 points p50 ≤ 1 s, compare ≤ 2 s, a 60-round game ≤ 2 min.
Figures, never assertions: tests must not time things.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import compute
from games.engine.analysis import (
    DECISIVE_RATIO,
    DEFAULT_ROUND_CAP,
    LEAF_ROUNDS,
    MIN_PLAYOUTS,
    bot_game_positions,
    compare,
    playout,
    playout_key,
    public_position,
    unseen_counts,
    win_chances,
)
from games.engine.bots import make_bot
from games.engine.ruleset import RuleSet
from games.engine.simulate import default_names, play_game

RULES = RuleSet.build("classic")
MID_ROUND = 15
GAME_ROUNDS = 60
# games/meter.py's settings (that module needs Django; tests/test_bench.py checks they agree).
METER_PLAYOUTS, METER_TARGET, METER_BATCH = 1500, 0.03, 64
# games/views/trade_meter.py POLL_FIRST_MS and POLL_MS: the part shows a write at its next poll.
METER_POLL_FIRST_S, METER_POLL_S = 0.75, 1.5


def _engine_bench():
    """bench/engine.py's own measurement, loaded from its file (no package here)."""
    spec = importlib.util.spec_from_file_location("bench_engine", Path(__file__).with_name("engine.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.bench


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return result, time.process_time() - cpu, time.perf_counter() - wall


def mid_game_positions(count: int) -> list:
    out = []
    seed = 1000
    while len(out) < count:
        got = bot_game_positions(RULES, 4, seed, [MID_ROUND])
        if MID_ROUND in got:
            out.append(got[MID_ROUND])
        seed += 1
    return out


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def binomial_upper(k: int, n: int, level: float = 0.95) -> float:
    """The one-sided upper ``level`` confidence bound (Clopper-Pearson, exact) of a proportion
    seen k times in n: the largest p with P(X <= k | n, p) >= 1 - level, by bisection."""
    if k >= n:
        return 1.0

    def cdf(p: float) -> float:
        term = (1 - p) ** n  # P(X = 0)
        total = term
        for i in range(1, k + 1):
            term *= (n - i + 1) / i * p / (1 - p)
            total += term
        return total

    lo, hi = k / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if cdf(mid) >= 1 - level:
            lo = mid
        else:
            hi = mid
    return lo


def policy_positions(count: int) -> list:
    """``count`` positions of real four-player classic games of strategy bots (seeds 1000..,
    none of the games the shortcut's ratio was chosen on: 5000-5024): the starts of rounds 10,
    20, 30 and 40 of each game that reached them."""
    out = []
    seed = 1000
    while len(out) < count:
        got = bot_game_positions(RULES, 4, seed, [10, 20, 30, 40])
        out.extend((seed, r, got[r]) for r in sorted(got))
        seed += 1
    return out[:count]


def policy_check(positions: list, playouts: int, seed: int, decisive: float, tolerance: float = 0.02) -> dict:
    """The late-game shortcut against the strategy bots' own playouts, paired: each playout is
    played once, to its end (the reference, as with ``decisive=None``), and the shortcut's verdict
    is taken on the way (``playout(..., verdict=)``): the two estimates share every random number
    and every move up to the shortcut, so they differ only where the shortcut named another
    winner than the game then had. Per position and player, the difference of the two chances
    (shortcut minus reference) is exact for these playouts; its noise is that of how often the
    shortcut is wrong. A position counts as within ``tolerance`` when the exact 95% upper bound
    (Clopper-Pearson) of the share of its playouts whose verdict differed is at most
    ``tolerance``: no player's chance can move by more than that share, so the difference is then
    within ``tolerance`` at 95% whatever the sign of each error."""
    rows = []
    wrong_total = stopped_total = turns_total = turns_saved = 0
    for j, (game, rnd, st) in enumerate(positions):
        pub = public_position(st)
        unseen = unseen_counts(pub, None)
        n = len(st.players)
        ref = [0.0] * n
        short = [0.0] * n
        wrong = 0
        for i in range(playouts):
            verdict: list = []
            share, _end, turns = playout(
                pub, unseen, playout_key(seed + j, i), DEFAULT_ROUND_CAP, decisive=decisive, verdict=verdict
            )
            turns_total += turns
            got = share
            if verdict:
                stopped_total += 1
                got, at = verdict[0]
                turns_saved += turns - at
                if got != share:
                    wrong += 1
            for p in range(n):
                ref[p] += share[p]
                short[p] += got[p]
        diffs = [(b - a) / playouts for a, b in zip(ref, short, strict=True)]
        worst = max(abs(d) for d in diffs)
        bound = binomial_upper(wrong, playouts)
        rows.append(
            {
                "game": game,
                "round": rnd,
                "diffs": diffs,
                "worst": worst,
                "wrong": wrong,
                "bound": bound,
                "within": bound <= tolerance,
                "ref": [x / playouts for x in ref],
            }
        )
        wrong_total += wrong
    total = playouts * len(positions)
    return {
        "rows": rows,
        "mean_abs": statistics.mean(abs(d) for r in rows for d in r["diffs"]),
        "max_abs": max(r["worst"] for r in rows),
        "within": sum(r["within"] for r in rows),
        "point_within": sum(r["worst"] <= tolerance for r in rows),
        "wrong": wrong_total,
        "wrong_bound": binomial_upper(wrong_total, total),
        "stopped": stopped_total / total,
        "saved": turns_saved / max(1, turns_total),
        "playouts": playouts,
    }


def leaf_check(positions: list, playouts: int, seed: int, leaf: int, tolerance: float = 0.02) -> dict:
    """Truncated playouts scored by the value function against the strategy bots' full playouts,
    paired: each playout is played once to its end (the reference), and the value of the position
    ``leaf`` rounds on is taken on the way (``playout(..., leaf=, verdict=)``), so the two share
    every random number and move up to there. Per position and player, the difference of the two
    estimates (leaf minus full) is the mean of the per-playout differences V - outcome; its 95%
    interval (normal, the differences' own spread) is what the reference's noise allows. A position
    is *shown within* ``tolerance`` when every player's interval lies inside ±tolerance, *shown
    beyond* when one lies wholly outside it, and otherwise undecided at this many playouts."""
    rows = []
    for j, (game, rnd, st) in enumerate(positions):
        pub = public_position(st)
        unseen = unseen_counts(pub, None)
        n = len(st.players)
        diffs: list[list[float]] = [[] for _ in range(n)]
        ref = [0.0] * n
        for i in range(playouts):
            verdict: list = []
            share, _end, _turns = playout(
                pub, unseen, playout_key(seed + j, i), DEFAULT_ROUND_CAP, leaf=leaf, verdict=verdict
            )
            got = verdict[0][0] if verdict else share
            for p in range(n):
                ref[p] += share[p]
                diffs[p].append(got[p] - share[p])
        means, halves = [], []
        for p in range(n):
            m = statistics.fmean(diffs[p])
            sd = statistics.stdev(diffs[p]) if playouts > 1 else 1.0
            means.append(m)
            halves.append(1.959964 * sd / playouts**0.5)
        inside = all(abs(m) + h <= tolerance for m, h in zip(means, halves, strict=True))
        beyond = any(abs(m) - h > tolerance for m, h in zip(means, halves, strict=True))
        rows.append(
            {
                "game": game,
                "round": rnd,
                "diffs": means,
                "halves": halves,
                "worst": max(abs(m) for m in means),
                "inside": inside,
                "beyond": beyond,
                "ref": [x / playouts for x in ref],
            }
        )
    worst = [r["worst"] for r in rows]
    # The spread of the true differences: the observed differences' mean square less their noise.
    ms = statistics.fmean(d * d for r in rows for d in r["diffs"])
    noise = statistics.fmean((h / 1.959964) ** 2 for r in rows for h in r["halves"])
    pooled = [statistics.fmean(r["diffs"][p] for r in rows) for p in range(len(rows[0]["diffs"]))]
    return {
        "rows": rows,
        "mean_abs": statistics.fmean(abs(d) for r in rows for d in r["diffs"]),
        "max_abs": max(worst),
        "point_within": sum(w <= tolerance for w in worst),
        "inside": sum(r["inside"] for r in rows),
        "beyond": sum(r["beyond"] for r in rows),
        "true_rms": max(0.0, ms - noise) ** 0.5,
        "noise_rms": noise**0.5,
        "pooled": pooled,
        "playouts": playouts,
    }


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


def _traded(state):
    """The position after a trade: the first deed of the player to move goes to the next player
    for its printed price (cash moves, no money made or lost)."""
    b = state.copy()
    p = b.current
    q = (p + 1) % len(b.players)
    deeds = [sq for sq in b.board.deeds if b.owner[sq] == p and not b.level[sq] and not b.mortgaged[sq]]
    if not deeds or b.players[q].cash < b.board.price[deeds[0]]:
        return None
    sq = deeds[0]
    b.owner[sq] = q
    b.board_log.append(sq)
    b.players[q].cash -= b.board.price[sq]
    b.players[p].cash += b.board.price[sq]
    return b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=50, help="mid-game positions timed")
    ap.add_argument("--target", type=float, default=0.03, help="half-width of the 95%% intervals")
    ap.add_argument("--game-target", type=float, default=0.05, help="the whole game's per-round target")
    ap.add_argument("--max-playouts", type=int, default=4000, help="the most playouts one estimate runs")
    ap.add_argument("--rate-playouts", type=int, default=300, help="playouts for the rate figure")
    ap.add_argument("--engine-games", type=int, default=100, help="bench/engine.py games beside it")
    ap.add_argument("--cap-positions", type=int, default=10, help="positions of the round-cap check")
    ap.add_argument("--cap-playouts", type=int, default=150, help="playouts per position of that check")
    ap.add_argument("--policy-positions", type=int, default=200, help="positions of the shortcut's check")
    ap.add_argument("--policy-playouts", type=int, default=300, help="playouts per position of that check")
    ap.add_argument("--swing-playouts", type=int, default=300, help="playouts a side of a candidate's swing")
    ap.add_argument("--decisive", type=float, default=DECISIVE_RATIO, help="the late-game shortcut's ratio")
    ap.add_argument("--leaf", type=int, default=LEAF_ROUNDS or 10, help="rounds of a truncated playout")
    ap.add_argument("--leaf-positions", type=int, default=200, help="positions of the truncated playouts' check")
    ap.add_argument("--leaf-playouts", type=int, default=600, help="paired playouts per position of that check")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="tiny sizes, to check that it runs")
    ap.add_argument(
        "--sections",
        default="rate,target,compare,meter,game,antithetic,cap,policy,leaf",
        help="which figures (comma-separated; default all)",
    )
    args = ap.parse_args(argv)
    sections = set(args.sections.split(","))
    if args.smoke:
        args.positions, args.target, args.game_target = 2, 0.2, 0.3
        args.max_playouts, args.rate_playouts, args.engine_games = 200, 20, 2
        args.cap_positions, args.cap_playouts = 1, 4
        args.policy_positions, args.policy_playouts = 2, 10
        args.swing_playouts = 4
        args.leaf_positions, args.leaf_playouts = 2, 10
    print(f"{_load()}; CPU seconds of one process (wall in brackets)")

    positions = mid_game_positions(args.positions)

    # -- playouts per second, beside whole games ----------------------------------------------
    if "rate" in sections:
        for label, decisive in (("with the shortcut", args.decisive), ("played to the end", None)):
            est, cpu, wall = _timed(
                lambda d=decisive: win_chances(positions[0], args.rate_playouts, args.seed, decisive=d)
            )
            print(
                f"playouts from round {MID_ROUND}, {label}: {est.playouts / cpu:.0f} games/s  "
                f"{est.turns / cpu:.0f} player turns/s ({est.playouts} playouts, {cpu:.2f} s [{wall:.2f} s]; "
                f"{est.capped + est.tied} at the round cap, {est.decided} by the shortcut)"
            )
        r = _engine_bench()("classic", args.engine_games, 1, False)
        print(
            f"bench/engine.py whole games: {r['games_per_s']:.0f} games/s  {r['turns_per_s']:.0f} player turns/s "
            f"({r['games']} games, {r['cpu_s']:.2f} s)"
        )

    # -- time to the target over mid-game positions --------------------------------------------
    if "target" in sections:
        # With and without the shortcut, position by position (the same seeds), so that a change
        # of the machine's load touches both alike.
        kinds = {
            "with the shortcut": {"decisive": args.decisive, "leaf": None},
            "played to the end": {"decisive": None, "leaf": None},
            f"truncated at {args.leaf} rounds + value": {"decisive": None, "leaf": args.leaf},
        }
        runs = {label: ([], [], []) for label in kinds}
        for i, st in enumerate(positions):
            for label, (times, walls, counts) in runs.items():
                est, cpu, wall = _timed(
                    lambda st=st, i=i, kw=kinds[label]: win_chances(
                        st, args.max_playouts, args.seed + i, target=args.target, **kw
                    )
                )
                times.append(cpu)
                walls.append(wall)
                counts.append(est.playouts)
        for label, (times, walls, counts) in runs.items():
            print(
                f"estimate to ±{100 * args.target:g} points (95%) over {len(positions)} positions, {label}: "
                f"p50 {_pct(times, 0.5):.2f} s  p90 {_pct(times, 0.9):.2f} s  [wall p50 {_pct(walls, 0.5):.2f} s]; "
                f"playouts p50 {int(_pct(counts, 0.5))} p90 {int(_pct(counts, 0.9))} "
                f"(target: p50 <= 1 s)"
            )
        full = runs["played to the end"][0]
        for label in list(runs)[::2]:
            ratio = statistics.median(x / y for x, y in zip(runs[label][0], full, strict=True))
            print(f"  {label}: time over the full playouts', per position: median {ratio:.2f}  ({_load()})")

    # The positions of ``compare`` and ``meter``: each with the trade of ``_traded``.
    pairs = [(st, b) for st in positions for b in [_traded(st)] if b is not None][: max(1, min(5, len(positions)))]

    # -- compare: with and without a trade -----------------------------------------------------
    if "compare" in sections:
        ctimes, cwalls, cwidth, ccount = [], [], [], []
        plain_times, leaf_times = [], []
        for j, (a, b) in enumerate(pairs):
            _cmp, plain_cpu, _wall = _timed(
                lambda a=a, b=b, j=j: compare(
                    a, b, args.max_playouts, args.seed + j, target=args.target, decisive=None, leaf=None
                )
            )
            plain_times.append(plain_cpu)
            _cmp, leaf_cpu, _wall = _timed(
                lambda a=a, b=b, j=j: compare(
                    a, b, args.max_playouts, args.seed + j, target=args.target, decisive=None, leaf=args.leaf
                )
            )
            leaf_times.append(leaf_cpu)
            cmp, cpu, wall = _timed(
                lambda a=a, b=b, j=j: compare(
                    a, b, args.max_playouts, args.seed + j, target=args.target, decisive=args.decisive, leaf=None
                )
            )
            ctimes.append(cpu)
            cwalls.append(wall)
            # Common random numbers against two separate estimates: the difference's interval
            # over the one the two chances' intervals would give.
            cwidth.append(
                statistics.mean(
                    d.half_width / max(1e-9, (x.half_width**2 + y.half_width**2) ** 0.5)
                    for d, x, y in zip(cmp.differences, cmp.a.chances, cmp.b.chances, strict=True)
                )
            )
            ccount.append(cmp.a.playouts)
        if ctimes:
            print(
                f"compare with/without a trade to ±{100 * args.target:g} points on the difference, "
                f"{len(ctimes)} positions: p50 {statistics.median(ctimes):.2f} s "
                f"[wall {statistics.median(cwalls):.2f} s], playouts per side p50 {int(statistics.median(ccount))}, "
                f"the difference's interval {statistics.mean(cwidth):.2f} of two separate estimates' "
                f"(target: <= 2 s); played to the end: p50 {statistics.median(plain_times):.2f} s; "
                f"truncated at {args.leaf} rounds + value: p50 {statistics.median(leaf_times):.2f} s"
            )

    # -- the trade meter as a player feels it ----------------------------------------------------
    if "meter" in sections:
        first_cpu, first_wall, first_pm, first_n, final_cpu, final_wall, final_n = [], [], [], [], [], [], []
        sure_cpu, sure_pm = [], []
        meter_target = args.target if args.smoke else METER_TARGET
        for j, (a, b) in enumerate(pairs):
            # The half-width shown: the widest of the trade's two sides' changes (the part's "±").
            shown = (a.current, (a.current + 1) % len(a.players))
            firsts = []
            cpu0, wall0 = time.process_time(), time.perf_counter()

            def on_batch(c, firsts=firsts, cpu0=cpu0, wall0=wall0, shown=shown):
                # The first batch (the first figures), and the first of MIN_PLAYOUTS (from which
                # the part may give a verdict while refining: games/meter.py ``decided``).
                if not firsts or (len(firsts) == 1 and c.a.playouts >= MIN_PLAYOUTS):
                    width = max(d.half_width for d in c.differences if set(d.seats) & set(shown))
                    firsts.append((time.process_time() - cpu0, time.perf_counter() - wall0, width, c.a.playouts))

            cmp, cpu, wall = _timed(
                lambda a=a, b=b, j=j, on_batch=on_batch: compare(
                    a, b, METER_PLAYOUTS, args.seed + j, target=meter_target, batch=METER_BATCH, on_batch=on_batch
                )
            )
            final_cpu.append(cpu)
            final_wall.append(wall)
            final_n.append(cmp.a.playouts)
            # (A comparison done within its first batch shows the final figures first.)
            end = (cpu, wall, cmp.half_width, cmp.a.playouts)
            firsts += [end] * (2 - len(firsts))
            first_cpu.append(firsts[0][0])
            first_wall.append(firsts[0][1])
            first_pm.append(100 * firsts[0][2])
            first_n.append(firsts[0][3])
            sure_cpu.append(firsts[1][0])
            sure_pm.append(100 * firsts[1][2])
        if final_cpu:
            print(
                f"trade meter ({METER_PLAYOUTS} playouts at most, ±{100 * meter_target:g} points, batch "
                f"{METER_BATCH}), {len(final_cpu)} positions: first figures shown at p50 "
                f"{statistics.median(first_cpu):.2f} s [wall {statistics.median(first_wall):.2f} s] "
                f"after {int(statistics.median(first_n))} playouts, ±{statistics.median(first_pm):.1f} points "
                f"on the change; a verdict possible from {MIN_PLAYOUTS} playouts at p50 "
                f"{statistics.median(sure_cpu):.2f} s, ±{statistics.median(sure_pm):.1f} points; "
                f"final at p50 {statistics.median(final_cpu):.2f} s "
                f"[wall {statistics.median(final_wall):.2f} s] after {int(statistics.median(final_n))} playouts "
                f"(the part asks after {METER_POLL_FIRST_S:g} s, then every {METER_POLL_S:g} s: a figure appears up to "
                f"that much later)"
            )

    # -- a whole game --------------------------------------------------------------------------
    if "game" in sections:
        # The first bot game (seeds 2000..) that lasted 60 to 66 rounds, each round's start.
        seed = 2000
        while True:
            result = play_game(RULES, [make_bot("strategy") for _ in range(4)], seed)
            if args.smoke or GAME_ROUNDS <= result.state.round <= GAME_ROUNDS + 6:
                break
            seed += 1
        rounds = list(range(1, (4 if args.smoke else result.state.round + 1)))
        states = bot_game_positions(RULES, 4, seed, rounds)
        per_round = []
        total_cpu = total_wall = 0.0
        chances = {}
        for rnd in rounds:
            est, cpu, wall = _timed(
                lambda rnd=rnd: win_chances(states[rnd], args.max_playouts, args.seed, target=args.game_target)
            )
            total_cpu += cpu
            total_wall += wall
            per_round.append(cpu)
            chances[rnd] = [c.p for c in est.chances]
        print(
            f"whole game of {result.state.round} rounds (seed {seed}), an estimate to ±{100 * args.game_target:g} "
            f"points as each of rounds 1-{rounds[-1]} began: {total_cpu:.1f} s [{total_wall:.1f} s], "
            f"per round p50 {statistics.median(per_round):.2f} s (target: <= 120 s)"
        )
        # Its turning points (analysis/compute.py), each explained by the candidate action whose
        # own swing (just before against just after it, common random numbers) was the largest.
        full = play_game(RULES, [make_bot("strategy") for _ in range(4)], seed, keep_log=True)
        record = {"rules": RULES.to_json(), "seed": seed, "names": default_names(4), "actions": full.log}
        replayed = compute.replay(record)
        points = [
            {"round": s.round, "step": s.step, "p": chances[s.round]} for s in replayed.starts if s.round in chances
        ]
        if not args.smoke:
            points.append(compute.end_point(replayed.final, replayed.sides, len(full.log)))
        asked = []

        def swing(step: int) -> list[float]:
            before, after, seen = compute.around(record, replayed, step)
            asked.append(step)
            cmp = compare(before, after, args.swing_playouts, 1_000_000 + step, seen=seen)
            return [d.delta for d in cmp.differences]

        turning, cpu, wall = _timed(
            lambda: compute.turning_points(points, replayed.events, replayed.sides, swing=swing)
        )
        plain = compute.turning_points(points, replayed.events, replayed.sides)
        print(
            f"  its turning points by measured swings: {len(asked)} candidate actions x {args.swing_playouts} "
            f"playouts a side, {cpu:.1f} s [{wall:.1f} s]; whole game with them {total_cpu + cpu:.1f} s"
        )
        for t, w in zip(turning, plain, strict=True):
            kind = replayed.events[t["step"] - 1][t["event"]].get("e") if t["step"] else "-"
            by_weight = replayed.events[w["step"] - 1][w["event"]].get("e") if w["step"] else "-"
            moved = "not measured" if t["swing"] is None else f"{100 * t['swing']:+.1f} points"
            print(
                f"    round {t['round']}, seat {t['side']} {100 * t['from']:.0f}% -> {100 * t['to']:.0f}%: "
                f"action {t['step']} ({kind}, its own swing {moved}); the weighting named action {w['step']} "
                f"({by_weight})"
            )

    # -- antithetic dice -----------------------------------------------------------------------
    if "antithetic" in sections:
        ratios = []
        for k, st in enumerate(positions[: args.cap_positions]):
            pairs = win_chances(st, 2 * args.cap_playouts, args.seed + k, antithetic=True)
            plain = win_chances(st, 2 * args.cap_playouts, args.seed + k)
            for x, y in zip(pairs.chances, plain.chances, strict=True):
                if 0 < y.p < 1:
                    # The same number of playouts: the intervals' widths squared are the variances.
                    ratios.append((x.high - x.low) ** 2 / (y.high - y.low) ** 2)
        figure = (
            f"{statistics.mean(ratios):.2f} of independent playouts' (min {min(ratios):.2f}, max {max(ratios):.2f})"
            if ratios
            else "not measured (every chance 0 or 1)"
        )
        print(
            f"antithetic dice (7 - d), {args.cap_positions} positions x {2 * args.cap_playouts} playouts: "
            f"variance {figure}; below 1 would help"
        )

    # -- what the round cap costs --------------------------------------------------------------
    if "cap" in sections:
        caps = sorted({20, 30, 40, 60, 100, 150, DEFAULT_ROUND_CAP})
        worst = {c: [] for c in caps}
        turns = dict.fromkeys(caps, 0)
        all_turns = 0
        for st in positions[: args.cap_positions]:
            pub = public_position(st)
            unseen = unseen_counts(pub, None)
            sums = {c: [0.0] * len(st.players) for c in caps}
            full = [0.0] * len(st.players)
            for i in range(args.cap_playouts):
                marks = dict.fromkeys(caps)
                share, _end, n = playout(pub, unseen, playout_key(args.seed, i), 400, marks=marks)
                all_turns += n
                for p, x in enumerate(share):
                    full[p] += x
                for c in caps:
                    turns[c] += marks[c][1]
                    for p, x in enumerate(marks[c][0]):
                        sums[c][p] += x
            for c in caps:
                worst[c].append(max(abs(a - b) for a, b in zip(sums[c], full, strict=True)) / args.cap_playouts)
        print(
            f"round cap, {args.cap_positions} positions x {args.cap_playouts} playouts, against play to 400 more "
            f"rounds (the largest chance moved, mean / max; the turns played):"
        )
        for c in caps:
            mark = " (default)" if c == DEFAULT_ROUND_CAP else ""
            print(
                f"  cap {c:>3}{mark}: {100 * statistics.mean(worst[c]):.1f} / {100 * max(worst[c]):.1f} points, "
                f"{turns[c] / max(1, all_turns):.2f} of the turns"
            )
    # -- the late-game shortcut against the strategy bots' full playouts ------------------------
    if "policy" in sections:
        check, cpu, _wall = _timed(
            lambda: policy_check(
                policy_positions(args.policy_positions), args.policy_playouts, args.seed, args.decisive
            )
        )
        print(
            f"late-game shortcut (a net worth {args.decisive:g} times the others' together wins) against the "
            f"strategy bots playing on to the end, {len(check['rows'])} positions of real games "
            f"(rounds 10/20/30/40 of games 1000..) x {check['playouts']} paired playouts ({cpu:.0f} s):"
        )
        for k, r in enumerate(check["rows"]):
            ds = " ".join(f"{100 * d:+.2f}" for d in r["diffs"])
            ref = " ".join(f"{100 * x:.1f}" for x in r["ref"])
            print(
                f"  {k + 1:>3} game {r['game']} round {r['round']:>2}: chances {ref}; shortcut - full {ds} points; "
                f"{r['wrong']} of {check['playouts']} verdicts differ, 95% bound {100 * r['bound']:.2f} "
                f"{'within' if r['within'] else 'NOT shown within'} 2"
            )
        print(
            f"  mean |difference| {100 * check['mean_abs']:.3f} points, max {100 * check['max_abs']:.2f}; "
            f"within 2 points: {check['within']} of {len(check['rows'])} shown at 95% (the bound on the "
            f"share of verdicts that differed), {check['point_within']} by the point difference; "
            f"{check['wrong']} of {check['playouts'] * len(check['rows'])} playouts' verdicts differed overall "
            f"(95% bound {100 * check['wrong_bound']:.3f}%); the shortcut stopped {100 * check['stopped']:.0f}% of the "
            f"playouts, skipping {100 * check['saved']:.1f}% of the turns"
        )
    # -- truncated playouts + value function against the strategy bots' full playouts -----------
    if "leaf" in sections:
        check, cpu, _wall = _timed(
            lambda: leaf_check(policy_positions(args.leaf_positions), args.leaf_playouts, args.seed, args.leaf)
        )
        print(
            f"truncated playouts ({args.leaf} rounds, then the value function) against the strategy bots playing "
            f"on to the end, {len(check['rows'])} positions of real games (rounds 10/20/30/40 of games 1000..) x "
            f"{check['playouts']} paired playouts ({cpu:.0f} s, {_load()}):"
        )
        for k, r in enumerate(check["rows"]):
            ds = " ".join(f"{100 * d:+.2f}±{100 * h:.2f}" for d, h in zip(r["diffs"], r["halves"], strict=True))
            ref = " ".join(f"{100 * x:.1f}" for x in r["ref"])
            verdict = "shown within" if r["inside"] else "SHOWN BEYOND" if r["beyond"] else "undecided"
            print(
                f"  {k + 1:>3} game {r['game']} round {r['round']:>2}: full {ref}; leaf - full {ds} points; {verdict} 2"
            )
        n = len(check["rows"])
        passes = check["beyond"] <= 0.05 * n and check["true_rms"] <= 0.02 / 1.959964
        print(
            f"  mean |difference| {100 * check['mean_abs']:.2f} points, max {100 * check['max_abs']:.2f}; per seat "
            f"over all positions {' '.join(f'{100 * x:+.2f}' for x in check['pooled'])}; the true differences' "
            f"spread (rms less noise) {100 * check['true_rms']:.2f} points against noise {100 * check['noise_rms']:.2f}"
        )
        print(
            f"  within 2 points: by the point difference {check['point_within']} of {n}; shown within at 95% "
            f"{check['inside']}, shown beyond {check['beyond']}, undecided {n - check['inside'] - check['beyond']}. "
            f"Passes (may be the default) only if at most 5% are shown beyond and the true differences' rms is at "
            f"most 1.02 points (then 95% lie within 2 if they spread normally): {'PASSES' if passes else 'FAILS'}"
        )
    print(_load())
    return 0


if __name__ == "__main__":
    sys.exit(main())
