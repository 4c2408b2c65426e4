"""The board's squares as the game page draws them: each one names itself in full (for screen
readers and wide boards) and by a short label (for phones, where full names do not fit), and
its title tells what a tap on a phone shows: price, owner, buildings, rent."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from games.engine import HOTEL, GameState, load_board
from games.engine.boards import SHORT_LENGTH as MAX_LENGTH
from tests.games.play_helpers import autoplay, start_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SQUARE = re.compile(
    r'<li class="sq [^"]*"\n style="[^"]*"\n title="([^"]*)" tabindex="-1"[^>]*>(.*?)</li>', re.S
)
CARD_KINDS = {"chance", "chest", "luck"}  # several squares alike, one label


def rendered_squares(client, game) -> list[tuple[str, str]]:
    """(title, inner markup) of each square of the game's board, in board order."""
    url = reverse("games:game_poll", args=[game.pk])
    html = client.get(url, {"v": 0}, **HTMX).content.decode()
    board = html[html.index('<div class="board '):html.index('<div class="centre">')]
    squares = SQUARE.findall(board)
    assert len(squares) == 40
    return squares


def text(markup: str, css_class: str) -> str | None:
    found = re.search(rf'<span class="{css_class}"[^>]*>([^<]*)</span>', markup)
    return unescape(found.group(1)) if found else None


@pytest.mark.parametrize(
    ("preset", "board_name"), [("classic", "classic"), ("world-classic", "world")]
)
def test_every_square_has_a_short_label_and_its_full_name(client, alice, bob, preset, board_name):
    game = start_game(alice, bob, preset=preset)
    board = load_board(board_name)
    client.force_login(alice)

    squares = rendered_squares(client, game)

    labels = {}
    for s, (title, markup) in zip(board.squares, squares, strict=True):
        assert unescape(title).startswith(s.name), (s.index, title)
        if s.index in (0, 10, 20, 30):
            # The corners keep their own big words (GO, the jail, the parking, go to jail),
            # and no short label.
            assert "sq-short" not in markup
            words = [text(markup, c) for c in ("go-text", "corner-text", "jail-visit")]
            assert any(words), s.name
            continue
        full, short = text(markup, "sq-name"), text(markup, "sq-short")
        # The full name is text of the square (hidden from sight only on a small board), the
        # short label is hidden from screen readers (they read the full name).
        assert full == s.name
        assert short and len(short) <= MAX_LENGTH and short.strip() == short, (s.name, short)
        assert '<span class="sq-short" aria-hidden="true">' in markup
        if s.kind not in CARD_KINDS:
            labels.setdefault(short, []).append(s.name)
    assert {k: v for k, v in labels.items() if len(v) > 1} == {}, "two squares share a label"


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("Mediterranean Avenue", "Med"),
        ("Baltic Avenue", "Balt"),
        ("St. Charles Place", "St.Ch"),
        ("New York Avenue", "N.Y."),
        ("B. & O. Railroad", "B&O"),
        ("Pennsylvania Railroad", "PRR"),
        ("Pennsylvania Avenue", "Penn"),
        ("Water Works", "Water"),
        ("Community Chest", "Chest"),
        ("Income Tax", "Inc"),
        ("Boardwalk", "Board"),
        ("Chance", "Chan"),  # ("Chnce" did not fit a phone's square)
        ("FreshCart", "Fresh"),
        ("Ironforge Industries", "Iron"),
    ],
)
def test_short_labels_come_from_the_board_data(name, label):
    squares = [s for b in ("classic", "world") for s in load_board(b).squares if s.name == name]

    assert squares and {s.short for s in squares} == {label}


@pytest.mark.parametrize("board_name", ["classic", "world"])
def test_every_square_of_the_board_data_has_a_short_label_of_its_own(board_name):
    board = load_board(board_name)
    labels = {}
    for s in board.squares:
        assert 1 <= len(s.short) <= MAX_LENGTH and s.short.strip() == s.short, (s.name, s.short)
        if s.kind not in CARD_KINDS:
            labels.setdefault(s.short, []).append(s.name)
    assert {k: v for k, v in labels.items() if len(v) > 1} == {}, "two squares share a label"


def test_the_title_tells_owner_buildings_and_rent(client, alice, bob):
    game = autoplay(start_game(alice, bob), 10)
    state = GameState.from_json(game.state)
    board = state.board
    streets = [s for s in board.squares if s.kind == "street"]
    brown = [s for s in streets if s.group == streets[0].group]
    rails = [s for s in board.squares if s.kind == "railroad"]
    utility = next(s for s in board.squares if s.kind == "utility")
    for s in brown:
        state.owner[s.index], state.level[s.index], state.mortgaged[s.index] = 0, 0, False
    state.level[brown[0].index] = 3
    state.level[brown[1].index] = HOTEL
    for s in rails[:2]:
        state.owner[s.index], state.mortgaged[s.index] = 1, False
    state.owner[utility.index], state.mortgaged[utility.index] = 1, False
    state.owner[rails[2].index], state.mortgaged[rails[2].index] = 0, True
    game.state = state.to_json()
    game.save(update_fields=["state"])
    client.force_login(alice)

    titles = [unescape(title) for title, _markup in rendered_squares(client, game)]

    first, second = brown[0], brown[1]
    assert titles[first.index] == (
        f"{first.name} · ${first.price} · owned by Alice · 3 houses · rent ${first.rents[3]}"
    )
    assert titles[second.index] == (
        f"{second.name} · ${second.price} · owned by Alice · hotel · rent ${second.rents[5]}"
    )
    # Bob owns two railroads; a utility's rent is a multiple of the dice.
    assert titles[rails[0].index].endswith(f"owned by Bob · rent ${rails[0].rents[1]}")
    one_utility = utility.multipliers[0]
    assert titles[utility.index].endswith(f"owned by Bob · rent {one_utility} times the dice")
    assert titles[rails[2].index].endswith("owned by Alice · mortgaged")  # no rent while mortgaged
    unowned = next(s for s in streets if state.owner[s.index] < 0)
    assert titles[unowned.index] == f"{unowned.name} · ${unowned.price}"


def test_the_board_stays_light(client, alice, bob, charlie):
    """The squares are redrawn on every move: their markup stays near 16 kB after a busy game
    (12.6 kB before the short labels and rents, about 15 kB before each square said its owner,
    buildings and rent in text for screen readers, issue 12; each deed's square also carries
    its card's and its owner's hooks, data-deed and data-owner; and its id, by which a move's
    answer swaps it: issue 27)."""
    game = autoplay(start_game(alice, bob, charlie), 120)
    client.force_login(alice)
    html = client.get(reverse("games:game_poll", args=[game.pk]), {"v": 0}, **HTMX).content
    board = html[html.index(b'<div class="board '):html.index(b'<div class="centre">')]

    assert len(board) < 18_000, len(board)


def test_a_screen_reader_reads_the_board_as_a_list_of_squares_with_their_state(client, alice, bob):
    """Issue 12: the squares are a list; each says in text (not only in its title) who owns it,
    its buildings, its mortgage and its rent, and each token names its player."""
    game = autoplay(start_game(alice, bob), 10)
    state = GameState.from_json(game.state)
    board = state.board
    streets = [s for s in board.squares if s.kind == "street"]
    built, mortgaged = streets[0], streets[3]
    state.owner[built.index], state.level[built.index], state.mortgaged[built.index] = 1, 2, False
    state.owner[mortgaged.index], state.level[mortgaged.index] = 0, 0
    state.mortgaged[mortgaged.index] = True
    state.players[0].pos = state.players[1].pos = built.index
    game.state = state.to_json()
    game.save(update_fields=["state"])
    client.force_login(alice)

    html = client.get(reverse("games:game_poll", args=[game.pk]), {"v": 0}, **HTMX).content.decode()
    squares = rendered_squares(client, game)

    assert '<ul class="squares" role="list" aria-label="The board">' in html
    hidden = [text(markup, "visually-hidden") for _title, markup in squares]
    assert hidden[built.index] == f"owned by Bob, 2 houses, rent ${built.rents[2]}"
    assert hidden[mortgaged.index] == "owned by Alice, mortgaged"
    unowned = next(s for s in streets if state.owner[s.index] < 0)
    assert hidden[unowned.index] is None  # its name and price say it all
    tokens = re.findall(r'<span class="token[^"]*" style="[^"]*" role="img" title="([^"]*)">([^<]+)</span>',
                        squares[built.index][1])
    assert sorted(tokens) == [("Alice", "A"), ("Bob", "B")]
    # The picture of the buildings is hidden from screen readers: the words say it.
    assert '<span class="band" aria-hidden="true"><span class="house"></span><span class="house"></span></span>' in (
        squares[built.index][1])
