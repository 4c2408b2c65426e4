"""Randomness, injected. A game's own generator keeps its state inside the game state, so a game
replays exactly from its seed and its actions; scenarios use a scripted generator instead.
"""

from __future__ import annotations

from .errors import RandomnessExhausted

_M64 = (1 << 64) - 1
SPEED_FACES = (1, 2, 3, "bus", "m1", "m1")


def seed_to_state(seed: int | str) -> int:
    """A 64-bit generator state from any seed (ints or strings)."""
    if isinstance(seed, str):
        value = 1469598103934665603
        for ch in seed.encode():
            value = ((value ^ ch) * 1099511628211) & _M64
        return value
    return seed & _M64


class StateRng:
    """SplitMix64 whose whole state is one integer in ``state.rng``."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def _next(self) -> int:
        s = (self.state.rng + 0x9E3779B97F4A7C15) & _M64
        self.state.rng = s
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self._next() % n

    def die(self) -> int:
        return 1 + self._next() % 6

    def dice(self) -> tuple[int, int]:
        """Two dice: the same values and sequence as two ``die()`` calls, in one call (the
        roll's hot path).

        Both SplitMix64 mixes run at once on one packed integer, the first state in bits 0-63
        and the second in bits 128-191: each operation of the mix then costs one big-integer
        operation for both. A 64-bit lane times a 64-bit constant stays below bit 128, so the
        multiplications never mix the lanes; what a right shift moves from the upper lane into
        the gap is masked off before the next multiplication, and the last shift's is left out
        when the lanes are read. The masks are written out: a constant load costs less than a
        global one (_M64 is 0xFFFFFFFFFFFFFFFF)."""
        st = self.state
        s1 = (st.rng + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        s2 = (s1 + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        st.rng = s2
        x = s1 | s2 << 128
        x = (x ^ (x >> 30)) & 0xFFFFFFFFFFFFFFFF_0000000000000000_FFFFFFFFFFFFFFFF
        x = (x * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF_0000000000000000_FFFFFFFFFFFFFFFF
        x = (x ^ (x >> 27)) & 0xFFFFFFFFFFFFFFFF_0000000000000000_FFFFFFFFFFFFFFFF
        x = (x * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF_0000000000000000_FFFFFFFFFFFFFFFF
        x ^= x >> 31
        return 1 + (x & 0xFFFFFFFFFFFFFFFF) % 6, 1 + (x >> 128) % 6

    def speed_die(self) -> int | str:
        return SPEED_FACES[self._next() % 6]

    def jackpot(self) -> bool:
        # RULES.md section 11: the casino's pool is won with probability 1/20.
        return self._next() % 20 == 0

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self._next() % (i + 1)
            items[i], items[j] = items[j], items[i]


class ScriptedRng:
    """Returns scripted values in order (scenario files); asking for more is an error.

    Shuffles keep the order (a scenario states its decks explicitly) and ``below`` returns 0.
    """

    def __init__(self, dice=(), jackpot=None):
        self.values = list(dice)
        self.jackpot_value = jackpot
        self.used = 0

    def _take(self, what: str):
        if self.used >= len(self.values):
            raise RandomnessExhausted(f"the step needs another {what} value, but the script has no more")
        value = self.values[self.used]
        self.used += 1
        return value

    def below(self, n: int) -> int:
        return 0

    def die(self) -> int:
        value = self._take("die")
        if isinstance(value, bool) or value not in (1, 2, 3, 4, 5, 6):
            raise RandomnessExhausted(f"scripted die value {value!r} is not 1-6")
        return value

    def dice(self) -> tuple[int, int]:
        return self.die(), self.die()

    def speed_die(self) -> int | str:
        value = self._take("speed die")
        if isinstance(value, str):
            value = value.lower()
        if value not in (1, 2, 3, "bus", "m1") or isinstance(value, bool):
            raise RandomnessExhausted(f"scripted speed die value {value!r} is not 1, 2, 3, bus or m1")
        return value

    def jackpot(self) -> bool:
        if self.jackpot_value is None:
            raise RandomnessExhausted("the step needs the casino's jackpot draw, but `jackpot` is not scripted")
        return bool(self.jackpot_value)

    def shuffle(self, items: list) -> None:
        return None
