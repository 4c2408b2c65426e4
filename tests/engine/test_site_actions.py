"""The site's RULES.md 16 actions in the engine (rules/site.py): a note changes nothing but the
count of actions, a note the engine does not know is refused, the end by agreement ranks by net
worth (section 12); a reseed (a sandbox's fresh dice, issue 30) starts the generator again from
its seed and shuffles the decks; none is ever a legal action a player or a bot could choose."""

from __future__ import annotations

import json

import pytest

from games.engine import IllegalAction, RuleSet, apply, describe, legal_actions, net_worth, new_game
from games.engine.dice import StateRng


def _game():
    state, _events = new_game(RuleSet.build("classic"), ["A", "B", "C"], 7)
    return state


def test_a_note_changes_nothing_but_the_count_of_actions():
    state = _game()
    before = json.loads(json.dumps(state.to_json()))
    seq = state.seq
    state, events = apply(state, {"type": "note", "player": 1, "choice": "end_proposed"})
    assert events == [{"e": "note", "p": 1, "what": "end_proposed"}]
    after = state.to_json()
    assert after["seq"] == seq + 1
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}


def test_a_note_the_engine_does_not_know_is_refused():
    state = _game()
    before = state.to_json()
    with pytest.raises(IllegalAction):
        apply(state, {"type": "note", "player": 0, "choice": "anything"})
    assert state.to_json() == before


def test_a_nudge_names_two_seats_and_changes_nothing_but_the_count_of_actions():
    # Issue 29: seat 0 nudged seat 2; a nudger out of the game (bankrupt) may still have nudged.
    state = _game()
    state.players[0].bankrupt = True
    before = json.loads(json.dumps(state.to_json()))
    state, events = apply(state, {"type": "note", "player": 2, "choice": "nudge", "by": 0})
    assert events == [{"e": "note", "p": 2, "what": "nudge", "by": 0}]
    assert describe(events[0], ["Ann", "Bob", "Cy"], state.board) == "Ann nudged Cy."
    after = state.to_json()
    assert after["seq"] == before["seq"] + 1
    assert {k: v for k, v in after.items() if k != "seq"} == {k: v for k, v in before.items() if k != "seq"}


@pytest.mark.parametrize("by", [None, 2, 3, -1, True, "0", 0.0])
def test_a_nudge_without_another_seat_as_its_nudger_is_refused(by):
    state = _game()
    before = state.to_json()
    action = {"type": "note", "player": 2, "choice": "nudge"} | ({} if by is None else {"by": by})
    with pytest.raises(IllegalAction):
        apply(state, action)
    assert state.to_json() == before


def test_every_note_has_its_line_and_the_catalogue_test_knows_it():
    from games.engine.rules.site import NOTES
    from tests.games.test_i18n import NOTE_KINDS

    board = _game().board
    for what in NOTES:
        assert describe({"e": "note", "p": 1, "what": what, "by": 0}, ["Ann", "Bob"], board) != "?", what
    # (tests/games/test_i18n.py looks every note's words up in the catalogues.)
    assert set(NOTE_KINDS) | {"nudge"} == NOTES


def test_the_end_by_agreement_ranks_by_net_worth():
    state = _game()
    state.players[2].cash += 500
    state, events = apply(state, {"type": "end_agreed", "player": 0})
    assert state.over and state.winner == 2
    assert max(range(3), key=lambda p: net_worth(state, p)) == 2
    assert [e["e"] for e in events] == ["agreed_end", "game_over"]


def test_neither_is_ever_a_legal_action():
    state = _game()
    for p in range(3):
        assert not {a["type"] for a in legal_actions(state, p)} & {"note", "end_agreed", "reseed"}


def _rolls(state, n: int = 8) -> list:
    """The next n rolls the game's own generator holds (on a copy)."""
    copy = state.copy()
    rng = StateRng(copy)
    return [rng.dice() for _ in range(n)]


def test_a_reseed_gives_fresh_dice_and_cards_and_replays_exactly():
    state = _game()
    old_rolls, old_decks = _rolls(state), {k: list(v) for k, v in state.decks.items()}
    seq = state.seq
    state, events = apply(state, {"type": "reseed", "player": 2, "amount": 12345})
    assert events == [{"e": "reseed", "p": 2}] and state.seq == seq + 1
    assert _rolls(state) != old_rolls
    for name, pile in state.decks.items():
        assert sorted(pile) == sorted(old_decks[name]) and pile != old_decks[name]  # the same cards, anew
    # The same seed from the same position: the very same dice and cards (a record replays).
    again, _ = apply(_game(), {"type": "reseed", "player": 2, "amount": 12345})
    assert again.to_json() == state.to_json()
    other, _ = apply(_game(), {"type": "reseed", "player": 2, "amount": 12346})
    assert _rolls(other) != _rolls(state)


@pytest.mark.parametrize("amount", [None, -1, 2**64, 1.5, "7", True])
def test_a_reseed_without_a_whole_seed_is_refused_and_changes_nothing(amount):
    state = _game()
    before = state.to_json()
    with pytest.raises(IllegalAction):
        apply(state, {"type": "reseed", "player": 0, "amount": amount})
    assert state.to_json() == before
