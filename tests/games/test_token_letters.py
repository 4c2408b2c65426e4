"""The letters on the players' tokens tell every player apart (games.views.page.decision)."""

from __future__ import annotations

import pytest

from games.views.page.players import token_letters


@pytest.mark.parametrize(
    ("names", "letters"),
    [
        (["Alice", "Bob", "Charlie"], ["A", "B", "C"]),
        # Bots are named by their kind and seat: the seat tells them apart.
        (["Alice", "Strategy bot 2", "Strategy bot 3"], ["A", "S2", "S3"]),
        (["Random bot 1", "Strategy bot 2", "Random bot 3"], ["R1", "S", "R3"]),
        # The same name twice gets the seat in brackets (services.table_start).
        (["Ann (1)", "Ann (2)"], ["A1", "A2"]),
        # People whose names start alike: their first two letters, else the letter and seat.
        (["Bob", "Bea", "Carl"], ["Bo", "Be", "C"]),
        (["Alice", "Alba", "Sam", "Strategy bot 4"], ["A1", "A2", "Sa", "St"]),
        (["alice", "Alice"], ["A1", "A2"]),
        # A name that starts with no letter or is only punctuation.
        (["_zed", "Zoe", "!!"], ["Ze", "Zo", "?"]),
    ],
)
def test_every_player_gets_letters_of_their_own(names, letters):
    assert token_letters(names) == letters


def test_letters_are_distinct_for_any_table_of_eight():
    names = ["Ann", "Anna", "Annie", "Strategy bot 4", "Strategy bot 5", "Random bot 6", "X", "Ann"]
    letters = token_letters(names)
    assert len(set(letters)) == len(names)
    assert all(1 <= len(label) <= 3 for label in letters)
