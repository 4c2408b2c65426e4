"""board.square_marks (games/views/page/board.py), what a move's answer compares to know which
squares to redraw, is each square's view reduced to what its markup shows that can change: held
to square_view (and so to board_view) over whole games of both rule families, with and without
squares to pick. (That the reduction misses nothing the markup shows: test_move_parts.py,
against the markup itself.)"""

from __future__ import annotations

import contextlib

import pytest

from games.engine import RuleSet, make_bot
from games.engine.simulate import SimulationError, play_game
from games.views.page.board import board_view, marks_of, square_marks, square_view
from games.views.page.decision import choices_for
from games.views.page.players import players_view


@pytest.mark.parametrize("preset", ["classic", "world-classic", "world-quick"])
def test_the_marks_are_the_views_reduced(preset):
    rules = RuleSet.build(preset)
    seen = {"positions": 0, "targets": 0, "owned": 0}

    def watch(st, _action):
        if st.seq % 5:
            return
        me = st.current
        players = players_view(st, me=me)
        targets = choices_for(st, None if st.over else me).targets
        for picks in ({}, targets, {0, 5, 39}):
            squares = board_view(st, players, targets=picks)
            assert square_marks(st, players, targets=picks) == [marks_of(sq) for sq in squares]
            assert squares == [square_view(st, players, i, targets=picks) for i in range(40)]
        seen["positions"] += 1
        seen["targets"] += bool(targets)
        seen["owned"] += any(o >= 0 for o in st.owner)

    play_game(rules, [make_bot("strategy") for _ in range(3)], 5, on_action=watch, max_actions=1200)
    assert seen["positions"] > 50 and seen["owned"] > 25


def test_what_the_marks_tell_apart():
    rules = RuleSet.build("classic")
    marks = {}

    def watch(st, _action):
        # (Read as the game goes: the simulation plays on in the same state.)
        if st.seq in (1, 200):
            players = players_view(st, me=0)
            marks[st.seq] = (square_marks(st, players), square_marks(st, players, targets={3}))

    with contextlib.suppress(SimulationError):  # (only its first 200 actions are wanted)
        play_game(rules, [make_bot("strategy") for _ in range(2)], 9, on_action=watch, max_actions=250)
    assert marks[1][0] != marks[200][0]
    # The squares that may be picked are marks too.
    assert marks[200][1] != marks[200][0]


@pytest.mark.parametrize("preset", ["classic", "world-classic"])
def test_a_cards_marks_tell_everything_its_markup_shows(preset):
    """players.card_marks: two player views with the same marks draw the same card, over whole
    games (so the page's mark of a card changes whenever its markup does, page/parts.py)."""
    from games.views.page.players import card_marks
    from tests.games.parts_helpers import card_html

    rules = RuleSet.build(preset)
    drawn: dict[tuple, str] = {}
    told = set()

    def watch(st, _action):
        if st.seq % 3:
            return
        for me in (0, 1, None):
            for p in players_view(st, me=me):
                html = card_html(p, deed_base="/d/")
                assert drawn.setdefault(card_marks(p), html) == html, p["name"]
                told.add(html)

    play_game(rules, [make_bot("strategy") for _ in range(3)], 7, on_action=watch, max_actions=900)
    assert len(told) > 100 and len(drawn) == len(told)


@pytest.mark.parametrize(("preset", "options"), [("classic", {"free_parking_jackpot": True}), ("world-classic", {})])
def test_a_squares_marks_tell_everything_its_markup_shows(preset, options):
    """Two views of a square with the same marks (and, on the free parking corner, the same pool)
    draw the same markup, over whole games: what a move's answer compares (page/parts.py)."""
    from games.views.page.board import economy_view
    from tests.games.parts_helpers import square_html

    rules = RuleSet.build(preset, options)
    pools = set()
    drawn: dict[tuple, str] = {}
    told = set()

    def watch(st, _action):
        if st.seq % 3:
            return
        economy = economy_view(st)
        for me in (0, 1, None):
            players = players_view(st, me=me)
            targets = choices_for(st, None if st.over or me is None else me).targets
            for i, (sq, marks) in enumerate(zip(board_view(st, players, targets=targets),
                                                square_marks(st, players, targets=targets), strict=True)):
                pool = (economy.get("free_parking"), economy.get("jackpot")) if sq["corner"] == "parking" else None
                pools.add(pool)
                html = square_html(sq, economy=economy, act_url="/games/1/act/")
                assert drawn.setdefault((i, marks, pool), html) == html, (i, sq["name"])
                told.add(html)

    play_game(rules, [make_bot("strategy") for _ in range(3)], 7, on_action=watch, max_actions=900)
    assert len(told) > 100
    if options:
        assert len(pools) > 3  # (the pool grew and was won: the corner drawn with each)
