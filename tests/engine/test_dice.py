"""The game's own generator: StateRng.dice (two SplitMix64 lanes packed in one integer) gives
what two die() calls give."""

from __future__ import annotations

import random

from games.engine.dice import StateRng


class _Holder:
    def __init__(self, rng: int):
        self.rng = rng


def test_dice_gives_two_die_calls_values_and_generator_state():
    r = random.Random(7)
    top = (1 << 64) - 1
    states = [0, 1, top, top - 0x9E3779B97F4A7C15, top - 2 * 0x9E3779B97F4A7C15 + 1]
    states += [r.getrandbits(64) for _ in range(20000)] + [top - r.getrandbits(16) for _ in range(2000)]
    for s in states:
        a, b = _Holder(s), _Holder(s)
        one = StateRng(b)
        assert StateRng(a).dice() == (one.die(), one.die()), s
        assert a.rng == b.rng, s


def test_shuffle_draws_as_next_does():
    r = random.Random(8)
    for n in (0, 1, 2, 16, 28):
        for _ in range(50):
            s = r.getrandbits(64)
            a, b = _Holder(s), _Holder(s)
            got = list(range(n))
            StateRng(a).shuffle(got)
            want = list(range(n))
            ref = StateRng(b)
            for i in range(n - 1, 0, -1):  # the Fisher-Yates walk over _next, as it was written
                j = ref._next() % (i + 1)
                want[i], want[j] = want[j], want[i]
            assert got == want and a.rng == b.rng
