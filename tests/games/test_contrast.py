"""Colour contrast by WCAG's measure (games/views/contrast.py): the deed chips' text colour,
the owners' marks on the board and the tokens' letters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.engine import load_board
from games.views.contrast import contrast_ratio, ink, relative_luminance
from games.views.page.players import PLAYER_COLOURS

GAME_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "game.css"


def test_relative_luminance_and_contrast_follow_wcag():
    assert relative_luminance("#000000") == 0
    assert relative_luminance("#ffffff") == pytest.approx(1)
    # WCAG's own figures: black on white is 21:1; #777 on white just misses 4.5:1.
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21)
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)
    with pytest.raises(ValueError):
        relative_luminance("red")


def test_ink_takes_the_colour_with_the_larger_contrast():
    assert ink("#fef200") == "#000000"  # yellow
    assert ink("#0072bb") == "#ffffff"  # dark blue
    # The red and the pink: a brightness formula picked white (4.4:1, too little); by luminance
    # black reads better.
    assert ink("#ed1b24") == "#000000"
    assert ink("#d93a96") == "#000000"
    assert ink("not a colour") == "#000000"


@pytest.mark.parametrize("board_name", ["classic", "world"])
def test_every_deed_chip_reaches_4_5_to_1(board_name):
    board = load_board(board_name)
    colours = {info["color"] for info in board.group_info.values() if info.get("color")}
    assert colours
    for colour in colours:
        assert contrast_ratio(ink(colour), colour) >= 4.5, colour


def _css_colours(name: str) -> set[str]:
    return set(re.findall(rf"--{name}: (#[0-9a-f]{{6}})", GAME_CSS.read_text()))


def _mix(a: str, b: str, share: float) -> str:
    """CSS color-mix(in srgb, a share, b)."""
    return "#" + "".join(
        f"{round(int(a[i:i + 2], 16) * share + int(b[i:i + 2], 16) * (1 - share)):02x}" for i in (1, 3, 5)
    )


def test_owner_marks_reach_3_to_1_on_both_boards_and_tokens_read():
    papers = _css_colours("paper")
    assert len(papers) == 2  # the classic board and the world board
    tint = re.search(r"\.sq\.is-owned \{ background: color-mix\(in srgb, var\(--owner\) (\d+)%", GAME_CSS.read_text())
    share = int(tint.group(1)) / 100
    for colour in PLAYER_COLOURS:
        assert contrast_ratio(colour, "#ffffff") >= 4.5, colour  # the token's white letter
        for paper in papers:
            assert contrast_ratio(colour, paper) >= 3, (colour, paper)
            # The strip also stands out from its own square's tint.
            assert contrast_ratio(colour, _mix(colour, paper, share)) >= 3, (colour, paper)
