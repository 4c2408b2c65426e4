"""Helpers of the end-to-end tests that measure what the game page shows: window sizes, the
page's width, game states set up through the services, and the pixels of a screenshot."""

from __future__ import annotations

import struct
import zlib
from unittest import mock

from games import services
from games.engine import GameState
from games.models import Game
from tests.games.play_helpers import play_until

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 320, "height": 640}


def width_id(viewport: dict) -> str:
    return str(viewport["width"])


def reload(page) -> None:
    page.reload()
    page.locator("#game .board").wait_for()


def page_width(page) -> int:
    """How wide the page's content is, whatever the window (a phone's browser widens its
    window to fit a page that overflows: tests compare with the width they asked for)."""
    return page.evaluate("document.documentElement.scrollWidth")


def set_state(game: Game, state: GameState) -> None:
    game.state = state.to_json()
    game.save(update_fields=["state"])


def speed_die_game(alice, bob) -> Game:
    """A world game with the speed die from the first round, played to its first roll of three
    dice."""
    table = services.table_create(host=alice, name="Speed", preset="world-classic",
                                  options={"speed_die_from_round": 1}, pace="live", seat_count=2)
    services.table_join(table=table, user=bob)
    with mock.patch("secrets.randbits", return_value=20240601):
        game = services.table_start(table=table, by=alice)
    return play_until(game, lambda st: len(st.last_dice) == 3)


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGBA bytes) of a PNG as Chromium writes screenshots: 8 bits a
    channel, RGB or RGBA, not interlaced."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and not interlace, header
    bpp = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if bpp == 4:
            rows.append(bytes(line))
        else:
            rows.append(bytes(v for i in range(width) for v in (*line[i * 3:i * 3 + 3], 255)))
        prev = line
    return width, height, rows


def mean_colour(data: bytes) -> tuple[float, float, float]:
    """The mean red, green and blue of a PNG screenshot."""
    width, height, rows = png_pixels(data)
    totals = [0, 0, 0]
    for row in rows:
        for i in range(width):
            for k in range(3):
                totals[k] += row[i * 4 + k]
    return tuple(t / (width * height) for t in totals)


def changed_share(a: bytes, b: bytes) -> float:
    """The share of pixels that differ clearly between two screenshots of the same size."""
    wa, ha, ra = png_pixels(a)
    wb, hb, rb = png_pixels(b)
    assert (wa, ha) == (wb, hb)
    changed = sum(
        1 for y in range(ha) for x in range(wa)
        if max(abs(ra[y][x * 4 + k] - rb[y][x * 4 + k]) for k in range(3)) > 40
    )
    return changed / (wa * ha)
