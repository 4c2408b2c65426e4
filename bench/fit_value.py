"""Fit the value function of truncated playouts (games.engine.analysis.VALUE_COEF, issue 30).

    python bench/fit_value.py [--games 400] [--first-seed 7000] [--every 1] [--from-round 5]

Plays classic four-player games of strategy bots (seeds ``--first-seed`` on: 7000-7399 by default,
never the games bench/analysis.py validates on, 1000..), takes each side's features
(``value_features``) as each round from ``--from-round`` began, and fits a conditional logit
(a softmax over the sides of coef . features, the same coefficients for every side) to who won
the game, by Newton's method in pure Python (no numpy in requirements.txt). Prints the
coefficients to paste into analysis.py, the log loss against the equal split's, and the
calibration on held-out games (the last fifth of the seeds): the mean value against the share
won, in tenths of the value.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.analysis import VALUE_FEATURES, softmax_value, value_features
from games.engine.bots import make_bot
from games.engine.ruleset import RuleSet
from games.engine.simulate import play_game

RULES = RuleSet.build("classic")


def samples(seed: int, from_round: int, every: int) -> list[tuple[list, int]]:
    """(features of every side, the winner's side) as each wanted round of game ``seed`` began."""
    got: list = []
    done: set = set()

    def keep(st, action) -> None:
        r = st.round
        wanted = r >= from_round and (r - from_round) % every == 0 and r not in done
        if wanted and not st.stack and st.phase == "roll" and not st.over:
            done.add(r)
            got.append(value_features(st))

    result = play_game(RULES, [make_bot("strategy") for _ in range(4)], seed, on_action=keep)
    win = result.state.winner
    if not result.state.over or win is None:
        return []
    return [(f, win) for f in got if f[win] is not None]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            m[c][c] = 1e-12
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def log_loss(data, coef) -> float:
    total = 0.0
    for feats, win in data:
        total -= math.log(max(1e-12, softmax_value(feats, coef)[win]))
    return total / len(data)


def fit(data, ridge: float = 1e-3, steps: int = 30) -> list[float]:
    k = len(VALUE_FEATURES)
    coef = [0.0] * k
    for _ in range(steps):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for feats, win in data:
            p = softmax_value(feats, coef)
            mu = [0.0] * k
            for f, pi in zip(feats, p, strict=True):
                if f is not None:
                    for j in range(k):
                        mu[j] += pi * f[j]
            for j in range(k):
                grad[j] += feats[win][j] - mu[j]
            for f, pi in zip(feats, p, strict=True):
                if f is None or pi == 0:
                    continue
                for j in range(k):
                    dj = f[j] - mu[j]
                    for m in range(k):
                        hess[j][m] += pi * dj * (f[m] - mu[m])
        for j in range(k):
            grad[j] -= ridge * len(data) * coef[j]
            hess[j][j] += ridge * len(data)
        step = _solve(hess, grad)
        coef = [c + s for c, s in zip(coef, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return coef


def calibration(data, coef, bins: int = 10) -> list[tuple[int, float, float]]:
    """Per tenth of the value: (sides, mean value, share that won)."""
    sums = [[0, 0.0, 0.0] for _ in range(bins)]
    for feats, win in data:
        for i, v in enumerate(softmax_value(feats, coef)):
            if feats[i] is None:
                continue
            b = sums[min(bins - 1, int(v * bins))]
            b[0] += 1
            b[1] += v
            b[2] += 1.0 if i == win else 0.0
    return [(n, s / n, w / n) for n, s, w in sums if n]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--first-seed", type=int, default=7000)
    ap.add_argument("--from-round", type=int, default=5)
    ap.add_argument("--every", type=int, default=1)
    args = ap.parse_args(argv)
    cpu = time.process_time()
    seeds = list(range(args.first_seed, args.first_seed + args.games))
    held = max(1, len(seeds) // 5)
    train, test = [], []
    for s in seeds[:-held]:
        train.extend(samples(s, args.from_round, args.every))
    for s in seeds[-held:]:
        test.extend(samples(s, args.from_round, args.every))
    print(
        f"{len(train)} positions of games {seeds[0]}-{seeds[-held - 1]} to fit, {len(test)} of "
        f"{seeds[-held]}-{seeds[-1]} held out ({time.process_time() - cpu:.0f} s of play)"
    )
    coef = fit(train)
    print("VALUE_COEF = (" + ", ".join(f"{c:.4f}" for c in coef) + ")  # " + ", ".join(VALUE_FEATURES))
    equal = [0.0] * len(coef)
    print(
        f"log loss: fitted {log_loss(train, coef):.4f} (held out {log_loss(test, coef):.4f}); "
        f"equal split {log_loss(train, equal):.4f} ({log_loss(test, equal):.4f})"
    )
    print("held-out calibration (sides, mean value, share won):")
    for n, v, w in calibration(test, coef):
        print(f"  {n:>6}  {v:.3f}  {w:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
