"""Invariants every reachable game state satisfies, as one reusable check.

``check(state)`` returns a list of readable problems (empty when all hold). The simulator runs it
after every action and the property tests use it, so a rule change that breaks conservation of
money, the building supply or the decision protocol is caught by random play.
"""

from __future__ import annotations

from .cards import DECKS, JAIL_CARDS, card_deck
from .rules import DECISIONS, waiting_on
from .rules.auctions import auction_min_bid  # (the lowest bid an auction frame takes now)
from .state import HOTEL, NO_OWNER, GameState

# The decision kinds `state.pending()` may report (SCENARIOS.md): the turn's own phases and the
# decision frames, with a building auction told apart from a deed auction.
PENDING_KINDS = frozenset(DECISIONS | {"roll", "end_turn", "building_auction"})


def check(state: GameState) -> list[str]:
    """Every broken invariant of ``state``, as readable messages."""
    st = state
    problems: list[str] = []
    problems += _money(st)
    problems += _squares(st)
    problems += _supply(st)
    problems += _cards(st)
    problems += _decision(st)
    problems += _maxima(st)
    return problems


def _money(st: GameState) -> list[str]:
    out = []
    total = sum(p.cash for p in st.players) + st.jackpot + st.free_parking + st.bank
    if total != st.money:
        out.append(
            f"money ledger: sum(cash) {sum(p.cash for p in st.players)} + jackpot {st.jackpot} "
            f"+ free parking {st.free_parking} + bank {st.bank} = {total}, not {st.money}"
        )
    if st.jackpot < 0 or st.free_parking < 0:
        out.append(f"negative pot: jackpot {st.jackpot}, free parking {st.free_parking}")
    debtors = {f["p"] for f in st.stack if f["k"] == "debt"}
    for i, p in enumerate(st.players):
        if p.cash < 0 and i not in debtors:
            out.append(f"seat {i} has cash {p.cash} < 0 without a pending debt")
        if p.bankrupt and (p.cash or p.jail_cards):
            out.append(
                f"seat {i} is bankrupt but still holds cash {p.cash} or jail cards {p.jail_cards}"
            )
    return out


def _squares(st: GameState) -> list[str]:
    """Each deed has at most one owner, still in the game; buildings stand only on whole,
    unmortgaged groups, evenly where the rule set says so (RULES.md 8)."""
    out = []
    board = st.board
    n = len(st.players)
    hbh = st.rules.houses_before_hotel
    # RULES.md 5: the duel's w_destroy_building may take a level off any deed of a group, so
    # where that card is in play a group may be uneven until its owner builds it up again.
    destroys = any(
        effect[0] == "destroy" for cards in DECKS[st.rules.deck].values() for _, _, effect in cards
    )
    for sq in range(40):
        o, lv, m = st.owner[sq], st.level[sq], st.mortgaged[sq]
        if not board.is_deed[sq]:
            if o != NO_OWNER or lv or m:
                out.append(
                    f"square {sq} is not a deed but has owner {o}, level {lv}, mortgaged {m}"
                )
            continue
        if o != NO_OWNER and not (0 <= o < n and not st.players[o].bankrupt):
            out.append(f"deed {sq} is owned by seat {o}, who is not in the game")
        if m and o == NO_OWNER:
            out.append(f"deed {sq} is mortgaged but has no owner")
        if lv not in (0, 1, 2, 3, 4, HOTEL) or (lv != HOTEL and lv > hbh):
            out.append(f"deed {sq} has an impossible level {lv}")
        if lv and board.kind[sq] != "street":
            out.append(f"deed {sq} is not a street but has buildings")
    for group in board.groups.values():
        levels = [st.level[sq] for sq in group]
        if not any(levels):
            continue
        owners = {st.owner[sq] for sq in group}
        if len(owners) != 1 or NO_OWNER in owners:
            out.append(f"group {list(group)} has buildings but is not held whole by one player")
        if any(st.mortgaged[sq] for sq in group):
            out.append(f"group {list(group)} has buildings and a mortgaged deed")
        if st.rules.even_building and not destroys:
            eff = [hbh + 1 if lv == HOTEL else lv for lv in levels]
            if max(eff) - min(eff) > 1:
                out.append(f"group {list(group)} is built unevenly: levels {levels}")
    return out


def _supply(st: GameState) -> list[str]:
    """Houses and hotels on the board plus the bank's stock equal the rule set's supply."""
    out = []
    houses = sum(lv for lv in st.level if lv != HOTEL)
    hotels = sum(1 for lv in st.level if lv == HOTEL)
    for what, limit, bank, placed in (
        ("houses", st.rules.houses, st.bank_houses, houses),
        ("hotels", st.rules.hotels, st.bank_hotels, hotels),
    ):
        if limit is None:
            if bank is not None:
                out.append(f"unlimited {what}, but the bank counts {bank}")
            continue
        if bank is None or not 0 <= bank <= limit or bank + placed != limit:
            out.append(f"{what}: {placed} placed + {bank} in the bank != supply {limit}")
    return out


def _cards(st: GameState) -> list[str]:
    """Every card of the rule set's decks is in exactly one place: a deck, its discards or a
    player's hand (a jail card)."""
    out = []
    seen: dict[str, int] = {}
    for pile in list(st.decks.values()) + list(st.discards.values()):
        for cid in pile:
            seen[cid] = seen.get(cid, 0) + 1
    for i, p in enumerate(st.players):
        for cid in p.jail_cards:
            if cid not in JAIL_CARDS:
                out.append(f"seat {i} holds {cid!r}, which is not a jail card")
            seen[cid] = seen.get(cid, 0) + 1
    expected = {c[0] for cards in DECKS[st.rules.deck].values() for c in cards}
    for cid in expected:
        if seen.get(cid, 0) != 1:
            out.append(f"card {cid!r} is in {seen.get(cid, 0)} places, not 1")
    for cid in seen:
        if cid not in expected:
            out.append(f"card {cid!r} does not belong to the {st.rules.deck} decks")
    for name, pile in st.decks.items():
        if any(card_deck(cid) != name for cid in pile):
            out.append(f"deck {name!r} holds a card of another deck")
    return out


def _decision(st: GameState) -> list[str]:
    """The game waits on exactly one well-defined decision, by players still in the game."""
    out = []
    if st.over:
        if st.winner is None or st.pending() is not None or st.stack:
            out.append(
                f"the game is over but winner={st.winner}, pending={st.pending()}, stack={st.stack}"
            )
        return out
    kind = st.pending()
    if kind not in PENDING_KINDS:
        out.append(f"the game waits on an unknown decision {kind!r} (stack top {st.stack[-1:]})")
    if st.players[st.current].bankrupt and not any(f["k"] == "next_turn" for f in st.stack):
        # A player who goes bankrupt in their own turn stays current while what their
        # bankruptcy opened (auctions of their deeds) runs; play then passes on.
        out.append(f"the current player {st.current} is bankrupt and no next turn is due")
    if not st.stack and st.phase not in ("roll", "end_turn"):
        out.append(f"nothing stacked but the phase is {st.phase!r}")
    who = waiting_on(st)
    if not who:
        out.append(f"the game waits on nobody (pending {kind!r})")
    for p in who:
        if p is None or not 0 <= p < len(st.players) or st.players[p].bankrupt:
            out.append(f"the game waits on seat {p}, who cannot act")
    for f in st.stack:
        if f["k"] == "trade_response" and str(f["trade"]) not in st.trades:
            out.append(f"a trade response waits on trade {f['trade']}, which does not exist")
    return out


def _maxima(st: GameState) -> list[str]:
    """RULES.md 15, maximum bids in the auction on top (while it is bidding): the game never
    waits on a holder (the engine has answered for them), and in an open auction the holders
    are settled: none but the leader could still bid within their maximum (counted as the
    smaller of it and their cash)."""
    f = st.stack[-1] if st.stack and not st.over else None
    if f is None or f["k"] != "auction" or f["stage"] != "bid" or "max" not in f:
        return []
    out = []
    held = {q: min(amount, st.players[q].cash) for q, amount in f["max"]}
    for p in waiting_on(st):
        if p in held:
            out.append(f"the auction waits on seat {p}, who holds a maximum")
    if f["style"] == "open":
        low = auction_min_bid(f)
        for q, limit in held.items():
            if q != f["leader"] and limit >= low:
                out.append(f"seat {q} holds a maximum of {limit} within cash, not below the lowest bid "
                           f"{low}, and does not lead")
    return out
