"""Paths to the pages of a table and of a game, shared by views and e-mails."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def table_path(table_id: int) -> str:
    return reverse("games:table", kwargs={"table_id": table_id})


def game_path(game_id: int) -> str:
    return reverse("games:game", kwargs={"game_id": game_id})


def deed_cards_path(game_id: int) -> str:
    """The game's deed cards' address without the square ("/games/7/deeds/"): a deed's card is
    at this path plus its square and "/" (the players' panels link each deed to it)."""
    return game_url("games:game_deed", game_id, 0).removesuffix("0/")


def game_url(name: str, game_id: int, *more: int) -> str:
    """``reverse(name, args=[game_id, *more])`` for the game page's own addresses
    ("games:game_act", ...), which every move's answer draws several times: each reversed once
    per process (and script prefix, and URLconf)."""
    return _game_url(name, (int(game_id), *map(int, more)), get_script_prefix(), get_urlconf())


@lru_cache(maxsize=4096)
def _game_url(name: str, args: tuple[int, ...], _prefix: str, _urlconf) -> str:
    return reverse(name, args=args)


def invite_path(code: str) -> str:
    return reverse("games:invite", kwargs={"code": code})


def absolute(path: str) -> str:
    """A link for an e-mail: the site's address (SITE_URL) and the path."""
    return f"{settings.SITE_URL}{path}"
