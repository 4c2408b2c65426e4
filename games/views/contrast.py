"""Colour contrast as WCAG 2.x measures it (success criteria 1.4.3 and 1.4.11): the relative
luminance of an sRGB colour and the contrast ratio of two, and the text colour that reads best
on a coloured chip. https://www.w3.org/TR/WCAG22/#dfn-relative-luminance
"""

from __future__ import annotations

from functools import lru_cache

BLACK = "#000000"
WHITE = "#ffffff"


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """0 (black) to 1 (white), for ``#rrggbb``; ValueError for anything else."""
    if len(colour) != 7 or colour[0] != "#":
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast_ratio(a: str, b: str) -> float:
    """From 1 (the same luminance) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@lru_cache(maxsize=512)
def ink(colour: str) -> str:
    """Black or white, whichever has the larger contrast ratio with ``colour`` (#rrggbb); black
    for a colour that cannot be read. Pure black, not a dark grey: on the mid colours (a pink, a
    red) only pure black reaches 4.5:1. (Remembered: the board's few colours are asked for on
    every player card of every move's answer.)"""
    try:
        return BLACK if contrast_ratio(colour, BLACK) >= contrast_ratio(colour, WHITE) else WHITE
    except (ValueError, TypeError):
        return BLACK
