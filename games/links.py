"""Paths to the pages of a table and of a game, shared by views and e-mails."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse


def table_path(table_id: int) -> str:
    return reverse("games:table", kwargs={"table_id": table_id})


def game_path(game_id: int) -> str:
    return reverse("games:game", kwargs={"game_id": game_id})


def deed_cards_path(game_id: int) -> str:
    """The game's deed cards' address without the square ("/games/7/deeds/"): a deed's card is
    at this path plus its square and "/" (the players' panels link each deed to it)."""
    return reverse("games:game_deed", args=[game_id, 0]).removesuffix("0/")


def invite_path(code: str) -> str:
    return reverse("games:invite", kwargs={"code": code})


def absolute(path: str) -> str:
    """A link for an e-mail: the site's address (SITE_URL) and the path."""
    return f"{settings.SITE_URL}{path}"
