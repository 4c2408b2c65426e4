"""What a finished game's record says: the finishing order, the net worth of every player over
the rounds, the rent paid between players, the trades, who bankrupted whom, and the facts the
achievements and quests look at.

Pure Python over the engine's public door (``games.engine``) and the record the site keeps
(the rule set, seed, names and teams of the start row, then every applied action): the game is
replayed, so everything here can be recomputed from the record alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine import GameState, RuleSet, apply, net_worth, new_game, set_clock

BANK = -1


@dataclass
class Trade:
    number: int
    from_seat: int
    to_seat: int
    give: dict[str, Any]
    take: dict[str, Any]
    value: int  # cash of both sides + printed price of every deed that changed hands
    round: int
    squares: dict[str, str] = field(default_factory=dict)  # the deeds' names, by square


@dataclass
class GameFacts:
    names: list[str]
    teams: list[list[int]] | None
    board: str
    winner: int | None
    rounds: int  # the round the game ended in (RULES.md 1: rounds are numbered from 1)
    ranks: list[int]  # 1 is first; equal numbers are ties (competition ranking, "1224")
    forfeited: set[int]
    final_worth: list[int]
    # Net worth at the start of every round (round 1: the start position) and at the end.
    worth_rounds: list[int] = field(default_factory=list)
    worth: list[list[int]] = field(default_factory=list)  # worth[i][seat], beside worth_rounds[i]
    rent: dict[tuple[int, int], int] = field(default_factory=dict)  # (payer, owner) -> dollars
    rent_received: list[int] = field(default_factory=list)  # rents collected, counted per seat
    trades: list[Trade] = field(default_factory=list)
    bankruptcies: list[dict[str, Any]] = field(default_factory=list)  # {"p", "to", "round"}
    builds: list[int] = field(default_factory=list)  # buildings built, per seat
    hotels: set[int] = field(default_factory=set)  # seats that built a hotel (world: corporation)
    surrendered: set[int] = field(default_factory=set)  # seats that left by surrendering (RULES.md 10)
    groups_owned: list[set[str]] = field(default_factory=list)  # colour groups held whole, per seat
    was_lowest: set[int] = field(default_factory=set)  # lowest net worth at some round's start
    # How a game ended early (RULES.md 16), e.g. ["round_limit", 40]; None for any other end.
    ended: list | None = None

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def completed_rounds(self) -> int:
        """Rounds every remaining player finished: the last one counts if the game ended as it
        closed (the next round had begun), which the engine shows as ``round`` unchanged."""
        return self.rounds - 1

    @property
    def biggest_trade(self) -> Trade | None:
        return max(self.trades, key=lambda t: (t.value, -t.number), default=None)

    def bankrupted_by(self, seat: int) -> int:
        return sum(1 for b in self.bankruptcies if b["to"] == seat)


def _trade_value(state: GameState, give: dict, take: dict) -> int:
    price = state.board.price
    total = 0
    for side in (give, take):
        total += int(side.get("cash", 0) or 0)
        total += sum(price[sq] for sq in side.get("squares", []) or [])
    return total


def _square_names(state: GameState, proposal: dict) -> dict[str, str]:
    squares = [*proposal["give"].get("squares", []), *proposal["take"].get("squares", [])]
    return {str(sq): state.board.name_of(sq) for sq in squares}


def _colour_groups(state: GameState) -> dict[str, tuple[int, ...]]:
    """The groups one builds on (RULES.md 8), not railroads and utilities."""
    board = state.board
    return {g: squares for g, squares in board.groups.items() if board[squares[0]].build_cost}


def _worths(state: GameState) -> list[int]:
    return [0 if p.bankrupt else net_worth(state, i) for i, p in enumerate(state.players)]


def standings(state: GameState, forfeited: set[int]) -> list[int]:
    """The finishing order of RULES.md 12 as ranks: the winner first; players still in at a
    second-bankruptcy or time-limit end by net worth; the bankrupt in reverse order of their
    bankruptcy (the last to go did best); a forfeited player (surrender, or bankrupt by missed
    turns, RULES.md 10 and 11) last, whatever the order. Teams finish as teams."""
    n = len(state.players)
    if state.teams:
        winning = next((t for t in state.teams if state.winner in t), None)
        return [1 if winning is not None and p in winning else 2 for p in range(n)]
    keys: dict[int, tuple] = {}
    order = list(state.bankrupt_order)
    for p, pl in enumerate(state.players):
        if p in forfeited:
            keys[p] = (3,)
        elif p == state.winner:
            keys[p] = (0,)
        elif not pl.bankrupt:
            keys[p] = (1, -net_worth(state, p))
        else:
            # A player bankrupt before the record began (none on this site) counts as first out.
            keys[p] = (2, -(order.index(p) if p in order else -1))
    ranks = []
    for p in range(n):
        ranks.append(1 + sum(1 for q in range(n) if keys[q] < keys[p]))
    return ranks


def analyse(record: dict[str, Any], *, forfeited: set[int] | frozenset[int] = frozenset()) -> GameFacts:
    """Replay a record (``rules``, ``seed``, ``names``, ``teams``, ``actions``) and gather its
    facts. ``forfeited``: seats the site knows forfeited without a trace in the record (RULES.md
    15: a seat a bot took over). Raises the engine's errors on a record it refuses."""
    rules = RuleSet.from_json(record["rules"])
    names = [str(n) for n in record["names"]]
    state, _events = new_game(rules, names, record["seed"], teams=record.get("teams"))
    n = len(names)
    groups = _colour_groups(state)
    facts = GameFacts(names=names, teams=record.get("teams"), board=state.board.name, winner=None, rounds=1,
                      ranks=[1] * n, forfeited=set(), final_worth=[0] * n,
                      rent_received=[0] * n, builds=[0] * n, groups_owned=[set() for _ in range(n)])
    proposals: dict[int, dict] = {}
    limit = rules.missed_turns_limit

    def sample(round_no: int) -> None:
        worth = _worths(state)
        facts.worth_rounds.append(round_no)
        facts.worth.append(worth)
        active = [p for p in range(n) if not state.players[p].bankrupt]
        if round_no >= 2 and len(active) >= 2:
            low = min(worth[p] for p in active)
            lowest = [p for p in active if worth[p] == low]
            if len(lowest) == 1:
                facts.was_lowest.add(lowest[0])

    sample(1)
    for action in record["actions"]:
        if action.get("clock") is not None:
            set_clock(state, action["clock"])
        before_round = state.round
        state, events = apply(state, {k: v for k, v in action.items() if k != "clock"})
        for e in events:
            kind = e.get("e")
            if kind == "rent":
                payer, owner = e["p"], e["owner"]
                amount = int(e.get("amount", 0)) - int(e.get("tax", 0) or 0)
                if owner is not None and owner >= 0 and amount > 0:
                    facts.rent[(payer, owner)] = facts.rent.get((payer, owner), 0) + amount
                    facts.rent_received[owner] += 1
            elif kind == "build":
                facts.builds[e["p"]] += 1
                if e.get("level") == 5:
                    facts.hotels.add(e["p"])
            elif kind == "trade_proposed":
                proposals[e["trade"]] = e
            elif kind == "trade_accepted":
                prop = proposals.get(e["trade"])
                if prop is not None:
                    facts.trades.append(Trade(number=e["trade"], from_seat=prop["p"], to_seat=prop["to"],
                                              give=prop["give"], take=prop["take"],
                                              value=_trade_value(state, prop["give"], prop["take"]),
                                              round=state.round, squares=_square_names(state, prop)))
            elif kind == "bankrupt":
                to = e.get("to")
                facts.bankruptcies.append({"p": e["p"], "to": None if to is None or to == BANK else to,
                                           "round": state.round})
            elif kind == "round_limit":
                facts.ended = ["round_limit", e["round"]]
            elif kind == "agreed_end":
                # RULES.md 16: ended by agreement; the order is by net worth, as at the limit.
                facts.ended = ["agreement", e["round"]]
            elif kind == "surrender" or (kind == "missed" and e.get("count", 0) >= limit):
                facts.forfeited.add(e["p"])
                if kind == "surrender":
                    facts.surrendered.add(e["p"])
        for g, squares in groups.items():
            owner = state.owner[squares[0]]
            if owner >= 0 and all(state.owner[sq] == owner for sq in squares):
                facts.groups_owned[owner].add(g)
        if state.round != before_round and not state.over:
            sample(state.round)
    facts.winner = state.winner
    facts.rounds = state.round
    facts.final_worth = _worths(state)
    if not facts.worth_rounds or facts.worth[-1] != facts.final_worth:
        facts.worth_rounds.append(state.round)
        facts.worth.append(facts.final_worth)
    facts.forfeited |= set(forfeited)
    facts.ranks = standings(state, facts.forfeited)
    return facts
