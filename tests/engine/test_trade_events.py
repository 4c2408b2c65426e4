"""The events of a trade say what each side gives, so that the log can tell it (RULES.md 9)."""

from __future__ import annotations

from games.engine import apply
from games.engine.cards import JAIL_CARDS


def _owned(state, seat: int, *squares: int) -> None:
    for sq in squares:
        state.owner[sq] = seat


def test_accepting_a_trade_records_its_contents_in_the_event(classic_game):
    state = classic_game
    _owned(state, 0, 1, 3)
    _owned(state, 1, 39)
    card = sorted(JAIL_CARDS)[0]
    for deck in state.decks.values():
        if card in deck:
            deck.remove(card)
    state.players[1].jail_cards.append(card)
    give = {"cash": 200, "squares": [3, 1], "cards": 0}
    take = {"squares": [39], "cards": 1}

    _s, proposed = apply(state, {"type": "propose", "player": 0, "to": 1, "give": give, "take": take})
    _s, accepted = apply(state, {"type": "accept", "player": 1, "trade": 1})

    offer = next(e for e in proposed if e["e"] == "trade_proposed")
    done = next(e for e in accepted if e["e"] == "trade_accepted")
    assert done == {"e": "trade_accepted", "trade": 1, "p": 1, "proposer": 0,
                    "give": {"cash": 200, "squares": [1, 3], "cards": 0},
                    "take": {"cash": 0, "squares": [39], "cards": 1}}
    assert (offer["give"], offer["take"]) == (done["give"], done["take"])
    assert state.owner[1] == state.owner[3] == 1 and state.owner[39] == 0
    assert state.players[0].jail_cards == [card]

