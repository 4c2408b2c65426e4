"""Where a token lands, exactly: a Markov model of the classic board (issue 30's independent
check of the playouts).

The chain's states are the moments before a roll: on a square with 0, 1 or 2 doubles already
rolled this turn, or in jail after 0, 1 or 2 failed tries. From each, the 36 throws of two dice
lead (RULES.md 3, 5, 7) through the square landed on, the card drawn there (each of the deck's
16 cards equally likely: a deck cycles, so each card comes up once in 16 draws; a jail card
drawn does nothing else: it is used and goes back to the deck in time), "go to jail" and the
third doubles, to the next moment.
Its stationary distribution, by power iteration, gives the expected landings on each square per
turn (``landings_per_turn``): the squares where a move *ends* and rent is charged, after a card
has moved the token on. ``study_frequencies`` counts as ``simulate.landing_study`` does (every
move's end, a card's square too, and the moves to and turns in jail), to check the model
against the engine's own rules.

``rent_per_opponent_turn`` multiplies those landings by a colour group's rents at each building
level (0: the whole group unbuilt, rent doubled; 1-4 houses; 5 a hotel): what the group's owner
may expect from each turn of each opponent.

Pure Python; no Django. Jail policy ``long`` (try for doubles three turns) or ``short`` (pay or
use a card at once).
"""

from __future__ import annotations

from functools import cache

from .boards import load_board
from .cards import CHANCE, CHEST

JAIL = 10
GO_TO_JAIL = 30
IN_JAIL = -1  # the study's "in jail" count
_THROWS = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def _card_moves(board, deck_cards, pos: int) -> list[tuple[float, int | None]]:
    """Where each card of a deck sends a token that drew it on ``pos``: (probability, square
    or None for jail); cards that do not move it leave it on ``pos``."""
    out = []
    p = 1 / len(deck_cards)
    for _cid, _text, effect in deck_cards:
        kind = effect[0]
        if kind == "move_to":
            out.append((p, effect[1]))
        elif kind == "nearest":
            squares = board.railroads if effect[1] == "railroad" else board.utilities
            out.append((p, min(squares, key=lambda sq: (sq - pos) % 40 or 40)))
        elif kind == "back":
            out.append((p, (pos - effect[1]) % 40))
        elif kind == "go_to_jail":
            out.append((p, None))
        else:
            out.append((p, pos))
    return out


def _resolve(board, square: int, decks) -> list[tuple[float, int | None, list[int]]]:
    """A move ending on ``square``: (probability, final square or None for jail, the squares
    where moves ended on the way, in order, for the study's count)."""
    if square == GO_TO_JAIL:
        return [(1.0, None, [square])]
    kind = board.kind[square]
    if kind in ("chance", "chest"):
        out = []
        for p, to in _card_moves(board, decks[kind], square):
            if to is None:
                out.append((p, None, [square]))
            elif to == square:
                out.append((p, square, [square]))
            else:
                # A card's move ends somewhere else, which may be another card square (back 3
                # from Chance 36 to Community Chest 33) or Go to Jail.
                for q, final, path in _resolve(board, to, decks):
                    out.append((p * q, final, [square, *path]))
        return out
    return [(1.0, square, [square])]


def _decks(cards_kept: bool) -> dict:
    if not cards_kept:
        return {"chance": CHANCE, "chest": CHEST}
    return {
        name: tuple(c for c in deck if c[2][0] != "jail_card") for name, deck in (("chance", CHANCE), ("chest", CHEST))
    }


@cache
def _chain(jail: str, cards_kept: bool = False) -> tuple:
    """The transitions: for each state, a list of (probability, next state, landing square or
    None, the study's counted squares). States: (square, doubles) and ("jail", tries)."""
    if jail not in ("long", "short"):
        raise ValueError("jail must be 'long' or 'short'")
    board = load_board("classic")
    decks = _decks(cards_kept)
    states = [(sq, d) for sq in range(40) for d in range(3)] + [("jail", t) for t in range(3)]
    index = {s: i for i, s in enumerate(states)}
    trans = []
    for s in states:
        out = []
        for a, b in _THROWS:
            double = a == b
            if s[0] == "jail":
                tries = s[1]
                if jail == "short":
                    # Pay (or use a card) at once, then roll as any turn: doubles roll again.
                    start, doubles_after = JAIL, 1 if double else None
                elif double:
                    start, doubles_after = JAIL, None  # out by doubles, no further roll
                elif tries < 2:
                    out.append((1 / 36, index[("jail", tries + 1)], None, [IN_JAIL]))
                    continue
                else:
                    start, doubles_after = JAIL, None  # third failure: pay and move
            else:
                sq, d = s
                if double and d == 2:
                    out.append((1 / 36, index[("jail", 0)], None, [IN_JAIL]))  # third doubles
                    continue
                start, doubles_after = sq, (d + 1 if double else None)
            for p, final, path in _resolve(board, (start + a + b) % 40, decks):
                counted = path + ([IN_JAIL] if final is None else [])
                if final is None:
                    nxt = index[("jail", 0)]
                elif doubles_after is None:
                    nxt = index[(final, 0)]
                else:
                    nxt = index[(final, doubles_after)]
                out.append((p / 36, nxt, final, counted))
        trans.append(out)
    return states, trans


@cache
def _stationary(jail: str, cards_kept: bool = False) -> tuple[float, ...]:
    states, trans = _chain(jail, cards_kept)
    n = len(states)
    pi = [1 / n] * n
    for _ in range(2000):
        nxt = [0.0] * n
        for i, out in enumerate(trans):
            w = pi[i]
            if w:
                for p, j, _final, _counted in out:
                    nxt[j] += w * p
        delta = sum(abs(x - y) for x, y in zip(nxt, pi, strict=True))
        pi = nxt
        if delta < 1e-15:
            break
    return tuple(pi)


def _turn_starts(jail: str) -> float:
    """The share of rolls that begin a turn (the rest are rolls after doubles)."""
    states, _ = _chain(jail)
    pi = _stationary(jail)
    return sum(w for s, w in zip(states, pi, strict=True) if s[0] == "jail" or s[1] == 0)


@cache
def landings_per_turn(jail: str = "long") -> tuple[float, ...]:
    """Expected landings (moves ending there, rent charged) on each square per turn of one
    player; a turn in jail counts, whatever its rolls."""
    _, trans = _chain(jail)
    pi = _stationary(jail)
    per_roll = [0.0] * 40
    for i, out in enumerate(trans):
        for p, _j, final, _counted in out:
            if final is not None:
                per_roll[final] += pi[i] * p
    turns = _turn_starts(jail)
    return tuple(x / turns for x in per_roll)


def study_frequencies(jail: str = "long", cards_kept: bool = True) -> dict:
    """Each square's share of the moves counted as ``simulate.landing_study`` counts them
    (``in_jail`` apart), for a check against the engine. ``cards_kept``: the jail cards, once
    drawn, stay out of their decks (the study's token keeps them), 15 cards a deck."""
    _, trans = _chain(jail, cards_kept)
    pi = _stationary(jail, cards_kept)
    counts = [0.0] * 40
    in_jail = 0.0
    for i, out in enumerate(trans):
        for p, _j, _final, counted in out:
            for sq in counted:
                if sq == IN_JAIL:
                    in_jail += pi[i] * p
                else:
                    counts[sq] += pi[i] * p
    total = sum(counts) + in_jail
    return {"squares": [c / total for c in counts], "in_jail": in_jail / total}


def rent_per_opponent_turn(jail: str = "long") -> dict[str, list[float]]:
    """For each colour group of the classic board, the rent its owner may expect from one turn
    of one opponent, at each level: 0 (the whole group, unbuilt: rent doubled), 1-4 houses,
    5 a hotel (RULES.md 2)."""
    board = load_board("classic")
    land = landings_per_turn(jail)
    out = {}
    for group, squares in board.groups.items():
        if board.kind[squares[0]] != "street":
            continue
        levels = []
        for level in range(6):
            total = 0.0
            for sq in squares:
                rents = board[sq].rents
                total += land[sq] * (rents[level] if level else 2 * rents[0])
            levels.append(total)
        out[group] = levels
    return out
