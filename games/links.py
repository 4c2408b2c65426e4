"""Paths to the pages of a table and of a game, shared by views and e-mails."""

from __future__ import annotations

from django.conf import settings
from django.urls import NoReverseMatch, reverse


def table_path(table_id: int) -> str:
    return reverse("games:table", kwargs={"table_id": table_id})


def game_path(game_id: int, table_id: int) -> str:
    """The game page; the table page until the game page's route exists (it is built alongside,
    in games/urls_play.py, as ``games:game``)."""
    try:
        return reverse("games:game", kwargs={"game_id": game_id})
    except NoReverseMatch:
        return table_path(table_id)


def invite_path(code: str) -> str:
    return reverse("games:invite", kwargs={"code": code})


def absolute(path: str) -> str:
    """A link for an e-mail: the site's address (SITE_URL) and the path."""
    return f"{settings.SITE_URL}{path}"
