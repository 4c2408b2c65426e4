"""Win chances by simulated playouts (issue 30): play the rest of the game from a position many
times with the strategy bots and count who wins.

    from games.engine.analysis import win_chances, compare
    est = win_chances(state, playouts=2000, seed=7, target=0.03)   # stops once within ±3 points
    est.chances[0].p, est.chances[0].low, est.chances[0].high     # seat 0 (or team 0): 95%
    cmp = compare(without_trade, with_trade, playouts=2000, seed=7, target=0.03)
    cmp.differences[1].delta                                      # seat 1's gain from the trade

**What a playout knows.** Only what every player can know (``public_position``): the future
dice come from the analysis's own ``seed`` (never from the game's generator, ``state.rng``);
the cards not yet seen are shuffled anew in every playout (a classic deck's bottom cards,
whose order everyone saw as they were drawn, stay where they are when the caller says how many
were seen: ``seen``); nobody's maximum bid (RULES.md 15) is kept, and standing orders, which
live on the site, never reach the engine. Every seat is played by a fresh strategy bot.

**When a playout stops.** At the end of the game, or when ``round_cap`` more rounds have begun:
a game still going then is ranked by net worth (RULES.md 12), the richest player (team) still in
winning; equal richest share the win. ``Estimate`` says how many playouts ended each way.

**The late-game shortcut** (``decisive``; off unless asked, DECISIVE_RATIO is the checked
ratio): as a round begins, a player (team) whose net worth is at least ``decisive`` times the
others' together is counted the winner there, and the playout stops. Games are all but over by
then (the rest is the others going bankrupt one by one). A change of the rollout policy, allowed
only as validated: bench/analysis.py (section ``policy``) plays the same playouts (the same random
numbers) on to the end and prints, for 200 positions of real bot games, how far the chances moved
(at most 1.33 points). It skips about a seventh of a playout's turns from a mid-game position,
but those are the cheap ones (two or three players left, every deed owned, no auctions): the
estimate's CPU time fell by 2-6% against a null A/B's ±2%, not enough to take on a bias, however
small, so it is off by default.

**Truncated playouts** (``leaf``; off unless asked, LEAF_ROUNDS is None): each playout is played
``leaf`` rounds with the strategy bots, then the position is scored by ``value``, a softmax fitted
on bot games (bench/fit_value.py) of each side's net worth, rent per round (markov's exact
landing chances), cash, monopolies and houses; the interval is then the mean value's (CLT). It is
fast (leaf=10 reached ±3 points in 0.65 s CPU p50 over bench/analysis.py's 50 positions, against
3.97 s played to the end, load 3) but measured biased: on bench/analysis.py's 200 positions
(section ``leaf``, 600 paired playouts each, the value taken on the way of a playout played to its
end) the chances moved by 2.1 points on average, up to 20.7; the true differences' spread was 3.5
points (4.8 from round 10, 2.6 from round 40), 74 positions shown beyond 2 points at 95%. Its
errors are the position's own (no shrinkage toward an even split to correct). leaf=20: spread
1.41 points, 14 of 200 shown beyond (300 playouts each), and 1.51 s p50: it stays off.

**Intervals.** 95% Wilson score intervals, one per player (team). Playouts drawn in antithetic
pairs are not independent one by one: the pair is the unit, and the Wilson interval is taken
with the effective number of playouts that the pairs' observed variance implies (never more
than the playouts run). ``target``: stop as soon as every interval's half-width (the larger of
its two sides) is within it, checked after each batch; ``playouts`` is then the most that run.

**Variance reduction.** Every die is drawn from the stream of the player whose turn it is,
indexed by how many dice that player has drawn in the playout, and each deck's shuffles from a
stream of their own (``PlayoutRng``): the same playout from two positions (``compare``: common
random numbers) gives each player the same dice even when the bots' choices differ, so the
difference of two positions has far less noise than either chance. ``antithetic`` pairs each
playout with its mirror, every die d turned into 7 - d (the same doubles, the same mean).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from .bots import make_bot
from .cards import JAIL_CARDS, card_deck
from .errors import IllegalAction
from .rules import Ctx, _step, net_worth, set_clock, waiting_on
from .rules.queries import rent_of
from .state import BANK, GameState

Z95 = 1.959963984540054  # the normal distribution's 97.5th percentile
DEFAULT_ROUND_CAP = 100
# The late-game shortcut: a net worth at least 3 times the others' together counts as a win. Chosen
# on 3,000 playouts of positions of games seeded 5000-5024 (rounds 10, 20 and 30): 1 playout in
# 3,000 had another winner, 13% of the turns skipped (4 times: none, 8.5%; 2 times: 0.6%, 24%);
# validated on other games by bench/analysis.py.
DECISIVE_RATIO = 3.0
DECISIVE_SIDES = 3  # the shortcut is asked only once at most this many sides are still in
DEFAULT_BATCH = 64
MIN_PLAYOUTS = 128  # sequential stopping looks no earlier: small samples misjudge the spread
MAX_ACTIONS = 50_000  # per playout: a bot that loops is a bug, not a long game
_M64 = (1 << 64) - 1
_SPEED_FACES = (1, 2, 3, "bus", "m1", "m1")


class AnalysisError(ValueError):
    """Bad arguments, or a playout that broke (a bot's illegal action, a game that loops)."""


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chance:
    """One player's (team's) chance to win: ``p`` within [``low``, ``high``] at 95%."""

    seats: tuple[int, ...]
    wins: float  # playouts won; a playout won by k tied players counts 1/k to each
    p: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return max(self.p - self.low, self.high - self.p)


@dataclass(frozen=True)
class Estimate:
    chances: list[Chance]  # one per player, or per team in a team game
    playouts: int
    finished: int  # playouts the rules ended (last player or team standing, or the preset's end)
    capped: int  # playouts stopped at the round cap and ranked by net worth
    tied: int  # capped playouts whose richest were equal (the win shared)
    round_cap: int
    antithetic: bool
    seed: int
    turns: int = 0  # player turns played in all the playouts (for speed figures)
    decided: int = 0  # playouts stopped by the late-game shortcut (``decisive``)
    decisive: float | None = None
    valued: int = 0  # truncated playouts scored by the value function (``leaf``)
    leaf: int | None = None

    @property
    def half_width(self) -> float:
        return max((c.half_width for c in self.chances), default=0.0)


@dataclass(frozen=True)
class Difference:
    """Position b's chance minus position a's for one player (team), with its 95% interval."""

    seats: tuple[int, ...]
    delta: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


@dataclass(frozen=True)
class Comparison:
    a: Estimate
    b: Estimate
    differences: list[Difference]

    @property
    def half_width(self) -> float:
        return max((d.half_width for d in self.differences), default=0.0)


# ---------------------------------------------------------------------------------------------
# Randomness of a playout
# ---------------------------------------------------------------------------------------------


def _mix(z: int) -> int:
    """SplitMix64's finaliser: a well-spread 64-bit value from any 64-bit value."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def playout_key(seed: int, index: int) -> int:
    """The 64-bit key of playout ``index`` of an analysis with ``seed`` (nothing of the game)."""
    return _mix((_mix(seed & _M64) + 0x9E3779B97F4A7C15 * (index + 1)) & _M64)


class PlayoutRng:
    """The engine's generator interface (``dice.StateRng``'s methods) for one playout.

    Each die comes from the stream of the player whose turn it is, at that player's own count
    of dice drawn; shuffles, speed dice, jackpots and ``below`` have streams of their own. So
    what a player rolls does not depend on how many random numbers other choices used before
    (the common random numbers of ``compare``). ``mirror`` turns every die d into 7 - d
    (antithetic playouts). A stream is a ``random.Random`` seeded from the playout's key and
    the stream's number; dice are read from its bytes, 252 of every 256 values kept (an even
    share for each face), a block at a time."""

    __slots__ = ("state", "key", "faces", "dice_left", "gens", "main")

    def __init__(self, state: GameState, key: int, mirror: bool = False):
        self.state = state
        self.key = key
        self.faces = faces = _MIRRORED if mirror else _FACES
        self.gens: dict[int, random.Random] = {}
        # Every player's first block of dice from one generator (one made per playout, not one
        # per player: a generator costs about what a few dozen actions do); later blocks, rarely
        # needed, from the player's own stream. ``main`` then serves the bots' choices.
        self.main = random.Random(key)
        n = len(state.players)
        raw = self.main.randbytes(n * _DICE_BLOCK)
        self.dice_left: dict[int, list] = {  # player -> [block of faces, next index]
            p: [raw[p * _DICE_BLOCK : (p + 1) * _DICE_BLOCK].translate(faces, _REJECTED), 0] for p in range(n)
        }

    def _gen(self, stream: int) -> random.Random:
        gen = self.gens.get(stream)
        if gen is None:
            gen = self.gens[stream] = random.Random(self.key << 16 | stream)
        return gen

    def die(self) -> int:
        p = self.state.current
        left = self.dice_left.get(p)
        if left is None or left[1] >= len(left[0]):
            block = self._gen(p).randbytes(_DICE_BLOCK).translate(self.faces, _REJECTED)
            left = self.dice_left[p] = [block, 0]
        i = left[1]
        left[1] = i + 1
        return left[0][i]

    def dice(self) -> tuple[int, int]:
        return self.die(), self.die()

    def speed_die(self) -> int | str:
        return _SPEED_FACES[self._gen(1000 + self.state.current).randrange(6)]

    def jackpot(self) -> bool:
        return self._gen(2000).randrange(20) == 0  # RULES.md 11: 1 in 20

    def below(self, n: int) -> int:
        return self._gen(3000).randrange(n)

    def shuffle(self, items: list) -> None:
        # A stream per pile, named by its smallest card id, so that one deck's reshuffles never
        # move another's cards.
        stream = 4000 + (sum(map(ord, min(items))) % 1000 if items else 0)
        self._gen(stream).shuffle(items)


_DICE_BLOCK = 256
_FACES = bytes(1 + b % 6 for b in range(256))
_MIRRORED = bytes(6 - b % 6 for b in range(256))
_REJECTED = bytes(range(252, 256))


# ---------------------------------------------------------------------------------------------
# The public position
# ---------------------------------------------------------------------------------------------


def public_position(state: GameState, seen: dict[str, int] | None = None) -> GameState:
    """A copy of ``state`` holding only what every player knows.

    ``seen[deck]``: how many cards at the bottom of a classic deck (drawn cards go to the bottom,
    RULES.md 5) all players saw drawn, in order; the site counts them from the log. The rest of
    each deck, and the whole of a world deck (drawn without replacement: its discards are open),
    is unknown: it is put in a fixed order here, the same whatever the game's real order, and
    each playout shuffles it. Maximum bids are dropped, and the game's generator state too."""
    seen = seen or {}
    unknown = set(seen) - set(state.decks)
    if unknown:
        raise AnalysisError(f"seen names decks this game does not have: {sorted(unknown)}")
    pub = state.copy()
    for name, pile in pub.decks.items():
        k = seen.get(name, 0)
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise AnalysisError(f"seen[{name!r}] must be a whole number of cards, not {k!r}")
        if pub.rules.deck_without_replacement:
            k = 0
        k = min(k, len(pile))
        pile[:] = sorted(pile[: len(pile) - k]) + pile[len(pile) - k :]
    for frame in pub.stack:
        frame.pop("max", None)  # RULES.md 15: secret until the auction ends
    pub.rng = 0
    return pub


def seen_cards(events) -> dict[str, int]:
    """How many cards at the bottom of each classic deck every player saw go there, in order,
    from a game's events since its start (``seen`` of ``public_position``): each card drawn and
    obeyed goes to the bottom (RULES.md 5), and so does a jail card used. A jail card returned
    by a bankruptcy to the bank goes there too, but its event does not say which: the count of
    both decks starts again from 0 then (less known, never more)."""
    seen: dict[str, int] = {}
    for e in events:
        kind = e.get("e")
        if (kind == "card" and e["card"] not in JAIL_CARDS) or (kind == "leave_jail" and e.get("how") == "card"):
            deck = card_deck(e["card"])
            seen[deck] = seen.get(deck, 0) + 1
        elif kind == "reshuffle":
            seen[e["deck"]] = 0
        elif kind == "bankrupt" and e.get("to") in (None, BANK):
            seen = dict.fromkeys(seen, 0)
    return seen


def unseen_counts(pub: GameState, seen: dict[str, int] | None) -> dict[str, int]:
    seen = seen or {}
    out = {}
    for name, pile in pub.decks.items():
        k = 0 if pub.rules.deck_without_replacement else min(seen.get(name, 0), len(pile))
        out[name] = len(pile) - k
    return out


# ---------------------------------------------------------------------------------------------
# One playout
# ---------------------------------------------------------------------------------------------


def _sides(state: GameState) -> list[tuple[int, ...]]:
    """The sides that win together: each player, or each team."""
    if state.teams:
        return [tuple(t) for t in state.teams]
    return [(i,) for i in range(len(state.players))]


def playout(
    pub: GameState | dict,
    unseen: dict[str, int],
    key: int,
    round_cap: int,
    *,
    mirror: bool = False,
    minutes_per_round: float = 1.0,
    marks: dict[int, tuple] | None = None,
    decisive: float | None = None,
    verdict: list | None = None,
    leaf: int | None = None,
) -> tuple[list[float], str, int]:
    """Play the game on from the public position ``pub`` (left unchanged; or its JSON, which
    spares a copy) with strategy bots.

    Returns each side's share of the win (1 for the winner; 1/k each for k tied richest at the
    cap), how the playout ended (``finished``, ``capped``, ``tied`` or ``decided``: the late-game
    shortcut, when ``decisive`` is given) and the player turns it played. ``marks`` (for
    measuring the cap): for each of its keys c, set to (shares, turns) as if the cap were c,
    which the same playout tells at no extra cost. ``verdict`` (for validating the shortcut):
    a list that receives the shortcut's (shares, turns) when it would stop the playout, which
    then plays on to its end (as with ``decisive=None``) instead of stopping. ``leaf`` (a
    truncated playout): once that many rounds have begun, stop and score the position by the
    value function (``value``: each side's estimated chance, summing to 1); ends ``valued``.
    With ``verdict`` too, the value is appended there instead and the playout plays on to its
    end (bench/analysis.py's ``leaf`` check). Give ``verdict`` with one of the two only."""
    st = GameState.from_json(pub) if isinstance(pub, dict) else pub.copy()
    rng = PlayoutRng(st, key, mirror)
    for name, k in unseen.items():
        if k > 1:
            head = st.decks[name][:k]
            rng.shuffle(head)
            st.decks[name][:k] = head
    bots = [make_bot("strategy") for _ in st.players]
    choose = [b.choose for b in bots]
    brng = rng.main
    ctx = Ctx(st, rng, None)
    start_round = st.round
    start_clock = st.clock
    last_round = start_round + round_cap
    round_ = start_round
    turn = st.turn
    turns = 0
    for _ in range(MAX_ACTIONS):
        if st.over:
            break
        who = waiting_on(st)
        seat = who[0] if len(who) == 1 else who[brng.randrange(len(who))]
        action = choose[seat](st, seat, brng)
        try:
            _step(ctx, action)
        except IllegalAction as e:  # pragma: no cover - a bot bug
            raise AnalysisError(f"playout {key:#x}: the bot of seat {seat} chose {action}: {e}") from None
        if st.turn is turn:
            continue
        turn = st.turn
        turns += 1
        if st.round != round_:
            round_ = st.round
            if marks is not None and round_ - start_round in marks:
                marks[round_ - start_round] = (_shares(st)[0], turns)
            if round_ >= last_round:
                break
            if (
                leaf is not None
                and round_ - start_round >= leaf
                and not st.over
                and not (verdict is not None and verdict)
            ):
                if verdict is None:
                    return value(st), "valued", turns
                verdict.append((value(st), turns))
            if decisive is not None and not st.over and not (verdict is not None and verdict):
                lead = _decisive_side(st, decisive)
                if lead is not None:
                    share = [0.0] * len(_sides(st))
                    share[lead] = 1.0
                    if verdict is None:
                        if marks is not None:
                            for c, got in marks.items():
                                if got is None:
                                    marks[c] = (share, turns)
                        return share, "decided", turns
                    verdict.append((share, turns))
            if minutes_per_round:
                # As simulate.play_game: the play clock drives the world presets' economy.
                set_clock(st, start_clock + int((round_ - start_round) * minutes_per_round))
    else:  # pragma: no cover - a bot bug
        raise AnalysisError(f"playout {key:#x} did not end within {MAX_ACTIONS} actions")
    share, end = _shares(st)
    if marks is not None:
        for c, got in marks.items():
            if got is None:
                marks[c] = (share, turns)
    return share, end, turns


def _decisive_side(st: GameState, decisive: float) -> int | None:
    """The side whose net worth is at least ``decisive`` times the other sides' together (those
    of its players still in the game; a negative worth counts as nothing), or None. Only asked
    once at most DECISIVE_SIDES sides are still in: before that the shortcut all but never
    applies (11 of 2,818 times in the playouts it was chosen on), and the net worths cost more
    than the few turns it would save (asked every round, 10 positions x 120 playouts, twice, took 2.4%
    longer than without the shortcut; asked from three sides on, 3.9% less)."""
    sides = _sides(st)
    players = st.players
    alive = []
    for seats in sides:
        alive.append([p for p in seats if not players[p].bankrupt])
    if sum(1 for a in alive if a) > DECISIVE_SIDES:
        return None
    worth = []
    for seats in alive:
        w = 0
        for p in seats:
            w += net_worth(st, p)
        worth.append(max(0, w))
    best = max(worth)
    if best <= 0:
        return None
    lead = worth.index(best)
    if best >= decisive * (sum(worth) - best):
        return lead
    return None


def _shares(st: GameState) -> tuple[list[float], str]:
    """Each side's share of the win now: the winner's, or by net worth at the cap."""
    sides = _sides(st)
    share = [0.0] * len(sides)
    if st.over:
        win = st.winner
        for i, seats in enumerate(sides):
            if win in seats:
                share[i] = 1.0
        return share, "finished"
    # RULES.md 12: the richest player (team) still in the game wins.
    worth = []
    for seats in sides:
        alive = [p for p in seats if not st.players[p].bankrupt]
        worth.append(sum(net_worth(st, p) for p in alive) if alive else None)
    best = max(w for w in worth if w is not None)
    top = [i for i, w in enumerate(worth) if w == best]
    for i in top:
        share[i] = 1.0 / len(top)
    return share, "capped" if len(top) == 1 else "tied"


# ---------------------------------------------------------------------------------------------
# The value of a position (truncated playouts, ``leaf``)
# ---------------------------------------------------------------------------------------------

# Each side's features (its players still in the game together), in this order:
#   log_worth   ln(net worth in $100s), at least ln(1): a share of e**coef * worth**c
#   worth_share its net worth over all sides' (negative worths as 0)
#   rent        the rent it may expect per round, in $100s: each of its unmortgaged deeds'
#               rent (dice 7 for a utility) times its landings per turn (markov's exact
#               chances), times the opponents still in
#   cash_share  its cash over all sides'
#   monopolies  whole street groups it owns
#   houses      its buildings in houses (a hotel 5), in tens
# V(side) = softmax of coef . features over the sides still in; a side out gets 0.
VALUE_FEATURES = ("log_worth", "worth_share", "rent", "cash_share", "monopolies", "houses")
# Fitted by bench/fit_value.py (conditional logit, Newton) on 86,748 positions (every round from the
# 5th) of classic 4-player games of strategy bots seeded 7000-8599; 8600-8999 held out to check the
# calibration; never the games bench/analysis.py validates on (1000..).
VALUE_COEF = (1.7657, 0.5778, 2.1691, 0.2891, 0.0418, 0.1239)
# The truncated playout's length in rounds, when on by default (None: every playout to its end).
# Off: bench/analysis.py's section ``leaf`` measured leaf=10 3.5 points (rms) from the full
# playouts' chances, position by position, against the 2 points allowed (see the docstring).
LEAF_ROUNDS: int | None = None


def _landings(board) -> tuple[float, ...] | None:
    if len(board.squares) != 40:
        return None
    from .markov import landings_per_turn

    return landings_per_turn("long")


def value_features(st: GameState) -> list[list[float] | None]:
    """Each side's features (VALUE_FEATURES), None for a side with no player still in."""
    sides = _sides(st)
    board = st.board
    land = _landings(board) or (1 / 40,) * len(board.squares)
    players = st.players
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    alive_sides = sum(1 for seats in sides if any(not players[p].bankrupt for p in seats))
    out: list[list[float] | None] = []
    worths, cashes = [], []
    for seats in sides:
        alive = [p for p in seats if not players[p].bankrupt]
        if not alive:
            out.append(None)
            worths.append(0.0)
            cashes.append(0.0)
            continue
        worth = sum(net_worth(st, p) for p in alive)
        cash = sum(players[p].cash for p in alive)
        rent = 0.0
        monopolies = 0
        houses = 0
        for sq in board.deeds:
            if owner[sq] in alive and not mortgaged[sq]:
                rent += land[sq] * rent_of(st, sq, 7)
                houses += level[sq]
        for squares in board.groups.values():
            if board.kind[squares[0]] == "street" and all(owner[x] in alive for x in squares):
                monopolies += 1
        worths.append(max(0.0, float(worth)))
        cashes.append(max(0.0, float(cash)))
        out.append(
            [
                math.log(max(1.0, worth / 100)),
                0.0,
                rent * (alive_sides - 1) / 100,
                0.0,
                float(monopolies),
                houses / 10,
            ]
        )
    tw, tc = sum(worths), sum(cashes)
    for i, f in enumerate(out):
        if f is not None:
            f[1] = worths[i] / tw if tw > 0 else 0.0
            f[3] = cashes[i] / tc if tc > 0 else 0.0
    return out


def softmax_value(features: list[list[float] | None], coef=None) -> list[float]:
    """The softmax of ``coef`` . features over the sides with features; 0 for the others."""
    coef = VALUE_COEF if coef is None else coef
    scores = [None if f is None else sum(c * x for c, x in zip(coef, f, strict=True)) for f in features]
    top = max((x for x in scores if x is not None), default=0.0)
    ex = [0.0 if x is None else math.exp(x - top) for x in scores]
    total = sum(ex)
    return [e / total for e in ex] if total > 0 else [0.0] * len(ex)


def value(st: GameState, coef=None) -> list[float]:
    """Each side's (player's or team's) chance to win from ``st`` as the value function estimates
    it: in [0, 1], summing to 1, 0 for a side out of the game, equal for equal sides. A game over
    gives its result."""
    if st.over:
        return _shares(st)[0]
    return softmax_value(value_features(st), coef)


# ---------------------------------------------------------------------------------------------
# Intervals
# ---------------------------------------------------------------------------------------------


def wilson(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed over ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    spread = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - spread), min(1.0, centre + spread)


def _effective_n(units: list[float], playouts: int) -> float:
    """The number of independent playouts the units' (pairs') observed spread is worth."""
    m = len(units)
    p = sum(units) / m
    var_binomial = p * (1 - p)
    if m < 2 or var_binomial <= 0:
        return playouts
    var_mean = sum((u - p) ** 2 for u in units) / (m - 1) / m
    if var_mean <= 0:
        return playouts
    return min(playouts, var_binomial / var_mean)


def _chance(seats: tuple[int, ...], units: list[float], playouts: int, paired: bool, valued: bool = False) -> Chance:
    p = sum(units) / len(units)
    if valued:
        # Truncated playouts score a value in [0, 1], not a win: the interval is the mean's
        # (central limit theorem), with the units' (playouts' or pairs') observed spread.
        m = len(units)
        # With no spread to measure (every playout ended alike), the Wilson interval of as many
        # outcomes, never a point.
        var = sum((u - p) ** 2 for u in units) / (m - 1) if m > 1 else 0.0
        if var <= 0:
            low, high = wilson(p, playouts)
            return Chance(seats, p * playouts, p, min(low, p), max(high, p))
        half = Z95 * math.sqrt(var / m)
        return Chance(seats, p * playouts, p, max(0.0, p - half), min(1.0, p + half))
    n = _effective_n(units, playouts) if paired else playouts
    low, high = wilson(p, n)
    return Chance(seats, p * playouts, p, min(low, p), max(high, p))


def _difference(seats: tuple[int, ...], diffs: list[float], same: bool) -> Difference:
    """The mean of the paired differences with its normal 95% interval. When every pair agreed
    (no spread to measure) between two positions that differ, the interval is the rule of
    three's, ±3/m: no pair differing in m is what a difference in fewer than 3 in m pairs
    gives at 95%. The same position twice plays the same playouts: exactly 0."""
    m = len(diffs)
    d = sum(diffs) / m
    var = sum((x - d) ** 2 for x in diffs) / (m - 1) if m > 1 else 1.0
    half = Z95 * math.sqrt(var / m)
    if var == 0 and not same:
        half = min(1.0, 3 / m)
    return Difference(seats, d, max(-1.0, d - half), min(1.0, d + half))


# ---------------------------------------------------------------------------------------------
# The estimates
# ---------------------------------------------------------------------------------------------


class _Run:
    """The playouts of one position so far: each side's share per unit (a playout, or an
    antithetic pair's mean) and how they ended."""

    def __init__(
        self,
        state: GameState,
        seen,
        round_cap: int,
        antithetic: bool,
        seed: int,
        decisive: float | None = None,
        leaf: int | None = None,
    ):
        self.pub = public_position(state, seen)
        self.unseen = unseen_counts(self.pub, seen)
        self.pub_json = self.pub.to_json()
        self.sides = _sides(state)
        self.round_cap = round_cap
        self.antithetic = antithetic
        self.seed = seed
        self.decisive = decisive
        self.leaf = leaf
        self.units: list[list[float]] = [[] for _ in self.sides]
        self.ends = {"finished": 0, "capped": 0, "tied": 0, "decided": 0, "valued": 0}
        self.playouts = 0
        self.turns = 0

    def add(self, index: int) -> None:
        key = playout_key(self.seed, index)
        shares, end, turns = playout(
            self.pub_json, self.unseen, key, self.round_cap, decisive=self.decisive, leaf=self.leaf
        )
        self.ends[end] += 1
        self.turns += turns
        if self.antithetic:
            mirrored, end2, turns = playout(
                self.pub_json, self.unseen, key, self.round_cap, mirror=True, decisive=self.decisive, leaf=self.leaf
            )
            self.ends[end2] += 1
            self.turns += turns
            shares = [(a + b) / 2 for a, b in zip(shares, mirrored, strict=True)]
        for i, s in enumerate(shares):
            self.units[i].append(s)
        self.playouts += 2 if self.antithetic else 1

    def estimate(self) -> Estimate:
        valued = self.leaf is not None
        chances = [
            _chance(seats, self.units[i], self.playouts, self.antithetic, valued) for i, seats in enumerate(self.sides)
        ]
        return Estimate(
            chances,
            self.playouts,
            self.ends["finished"],
            self.ends["capped"],
            self.ends["tied"],
            self.round_cap,
            self.antithetic,
            self.seed,
            self.turns,
            self.ends["decided"],
            self.decisive,
            self.ends["valued"],
            self.leaf,
        )


def _over(state: GameState, seed: int, round_cap: int) -> Estimate:
    """A game already over: its result, certain."""
    chances = []
    for seats in _sides(state):
        p = 1.0 if state.winner in seats else 0.0
        chances.append(Chance(seats, 0.0, p, p, p))
    return Estimate(chances, 0, 0, 0, 0, round_cap, False, seed)


def _check_args(
    playouts: int,
    seed: int,
    target: float | None,
    round_cap: int,
    batch: int,
    decisive: float | None = None,
    leaf: int | None = None,
) -> None:
    for name, value in (("playouts", playouts), ("round_cap", round_cap), ("batch", batch)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise AnalysisError(f"{name} must be a whole number of at least 1, not {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise AnalysisError(f"seed must be a whole number, not {seed!r}")
    if target is not None and not (isinstance(target, (int, float)) and 0 < target < 0.5):
        raise AnalysisError(f"target must be a half-width between 0 and 0.5, not {target!r}")
    if decisive is not None and (
        isinstance(decisive, bool) or not isinstance(decisive, (int, float)) or not 1 < decisive < math.inf
    ):
        raise AnalysisError(f"decisive must be a ratio above 1 (or None: no shortcut), not {decisive!r}")
    if leaf is not None and (isinstance(leaf, bool) or not isinstance(leaf, int) or leaf < 1):
        raise AnalysisError(f"leaf must be a whole number of rounds of at least 1 (or None), not {leaf!r}")


def win_chances(
    state: GameState,
    playouts: int = 1000,
    seed: int = 0,
    *,
    target: float | None = None,
    seen: dict[str, int] | None = None,
    round_cap: int = DEFAULT_ROUND_CAP,
    antithetic: bool = False,
    batch: int = DEFAULT_BATCH,
    decisive: float | None = None,
    leaf: int | str | None = "default",
) -> Estimate:
    """Each player's (team's) chance to win from ``state``, by ``playouts`` playouts (see the
    module's docstring). ``state`` is left unchanged. With ``target`` (say 0.03), stop once
    every 95% interval is within ±target (at least MIN_PLAYOUTS first). ``decisive``: the
    late-game shortcut's ratio (say DECISIVE_RATIO; None, the default: every playout to its end).
    ``leaf``: truncated playouts of that many rounds scored by ``value`` (None: every playout
    to its end; the default: LEAF_ROUNDS). Raises AnalysisError on bad arguments."""
    leaf = LEAF_ROUNDS if leaf == "default" else leaf
    _check_args(playouts, seed, target, round_cap, batch, decisive, leaf)
    if state.over:
        return _over(state, seed, round_cap)
    run = _Run(state, seen, round_cap, antithetic, seed, decisive, leaf)
    step = 2 if antithetic else 1
    index = 0
    while run.playouts + step <= max(playouts, step):
        run.add(index)
        index += 1
        looks = target is not None and run.playouts >= MIN_PLAYOUTS and index % max(1, batch // step) == 0
        if looks and run.estimate().half_width <= target:
            break
    return run.estimate()


def compare(
    state_a: GameState,
    state_b: GameState,
    playouts: int = 1000,
    seed: int = 0,
    *,
    target: float | None = None,
    seen: dict[str, int] | None = None,
    round_cap: int = DEFAULT_ROUND_CAP,
    batch: int = DEFAULT_BATCH,
    decisive: float | None = None,
    on_batch: Callable[[Comparison], None] | None = None,
    leaf: int | str | None = "default",
) -> Comparison:
    """Two positions of one game (say before and after a trade), each with its own chances,
    and the difference b - a per player (team) with its 95% interval. Playout i of both uses
    the same random numbers (common random numbers: see ``PlayoutRng``), so the difference is
    far surer than the two chances. With ``target``, stop once every difference's interval is
    within ±target (the chances' own intervals may be wider).

    ``on_batch``: called with the comparison so far after every batch of ``batch`` playouts
    that is not the last (an interim result, for a caller that shows progress: the trade
    meter); the returned comparison is the final one. It sees exactly what the final one would
    at that point (the same playouts, nothing else), and an exception it raises ends the
    comparison there (a caller that no longer wants the result)."""
    leaf = LEAF_ROUNDS if leaf == "default" else leaf
    _check_args(playouts, seed, target, round_cap, batch, decisive, leaf)
    if on_batch is not None and not callable(on_batch):
        raise AnalysisError(f"on_batch must be callable (or None), not {on_batch!r}")
    if len(state_a.players) != len(state_b.players) or state_a.teams != state_b.teams:
        raise AnalysisError("compare needs two positions of the same players (and teams)")
    if state_a.rules.to_json() != state_b.rules.to_json():
        raise AnalysisError("compare needs two positions under the same rules")
    if state_a.over or state_b.over:
        kw = {"target": target, "seen": seen, "round_cap": round_cap, "decisive": decisive, "leaf": leaf}
        a = win_chances(state_a, playouts, seed, **kw)
        b = win_chances(state_b, playouts, seed, **kw)
        return Comparison(
            a,
            b,
            [
                Difference(ca.seats, cb.p - ca.p, cb.low - ca.high, cb.high - ca.low)
                for ca, cb in zip(a.chances, b.chances, strict=True)
            ],
        )
    ra = _Run(state_a, seen, round_cap, False, seed, decisive, leaf)
    rb = _Run(state_b, seen, round_cap, False, seed, decisive, leaf)
    index = 0
    while index < playouts:
        ra.add(index)
        rb.add(index)
        index += 1
        if index % batch or index >= playouts or (target is None and on_batch is None):
            continue
        diffs = _diffs(ra, rb)
        if target is not None and index >= MIN_PLAYOUTS and max(d.half_width for d in diffs) <= target:
            break
        if on_batch is not None:
            on_batch(Comparison(ra.estimate(), rb.estimate(), diffs))
    return Comparison(ra.estimate(), rb.estimate(), _diffs(ra, rb))


def _diffs(ra: _Run, rb: _Run) -> list[Difference]:
    same = ra.pub_json == rb.pub_json
    return [
        _difference(seats, [y - x for x, y in zip(ra.units[i], rb.units[i], strict=True)], same)
        for i, seats in enumerate(ra.sides)
    ]


# ---------------------------------------------------------------------------------------------
# Positions to analyse (tests, bench/analysis.py)
# ---------------------------------------------------------------------------------------------


def bot_game_positions(rules, players: int, seed: int, rounds: list[int]) -> dict[int, GameState]:
    """Copies of one game of strategy bots (``simulate.play_game`` with ``seed``) as each of
    ``rounds`` began (a round the game did not reach is missing)."""
    from .simulate import play_game

    wanted = set(rounds)
    got: dict[int, GameState] = {}

    def keep(st: GameState, action: dict) -> None:
        r = st.round
        if r in wanted and r not in got and not st.stack and st.phase == "roll" and not st.over:
            got[r] = st.copy()

    play_game(rules, [make_bot("strategy") for _ in range(players)], seed, on_action=keep)
    return got


# ---------------------------------------------------------------------------------------------
# The trade meter (issue 30): a trade offered, rejected against accepted
# ---------------------------------------------------------------------------------------------


def trade_outcomes(state: GameState) -> tuple[GameState, GameState]:
    """The two positions a trade offer leads to: ``state`` waits on its answer (a
    ``trade_response`` frame on top of the stack); the first copy has it rejected, the second
    accepted (RULES.md 9: checked again when accepted). ``state`` is left unchanged. Raises
    AnalysisError when no offer waits, or when it could not be accepted as it stands."""
    top = state.stack[-1] if state.stack else None
    if top is None or top.get("k") != "trade_response":
        raise AnalysisError("no trade offer waits for an answer here")
    out = []
    for answer in ("reject", "accept"):
        st = state.copy()
        ctx = Ctx(st, PlayoutRng(st, 0), None)
        try:
            _step(ctx, {"type": answer, "player": top["p"], "trade": top["trade"]})
        except IllegalAction as e:
            raise AnalysisError(f"the offer cannot be {answer}ed: {e}") from None
        out.append(st)
    return out[0], out[1]


def trade_meter(
    state: GameState,
    playouts: int = 1500,
    seed: int = 0,
    *,
    target: float | None = 0.03,
    seen: dict[str, int] | None = None,
    round_cap: int = DEFAULT_ROUND_CAP,
    decisive: float | None = None,
    batch: int = DEFAULT_BATCH,
    on_batch: Callable[[Comparison], None] | None = None,
    leaf: int | str | None = "default",
) -> Comparison:
    """Each side's win chance if the offer waiting in ``state`` is rejected (``a``) and if it is
    accepted (``b``), and the difference, by ``compare`` (common random numbers, sequential
    stopping at ``target`` on the differences). Both positions are made public first
    (``public_position``), so nothing but what every player knows reaches the playouts.
    ``on_batch``: each interim comparison, as ``compare`` gives it."""
    rejected, accepted = trade_outcomes(state)
    return compare(rejected, accepted, playouts, seed, target=target, seen=seen, round_cap=round_cap,
                   decisive=decisive, batch=batch, on_batch=on_batch, leaf=leaf)
