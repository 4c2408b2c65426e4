"""The site's own words, each looked up once per language (issue 12).

Django's ``gettext`` looks the request's active language up (a context-local read) and then each
catalogue in turn, at every call: the game page's Python (games/views/present.py: the choices'
labels, the log's lines, the decision) says some 40 of them per move, most of them the same
words as at the move before. ``gettext(message)`` here gives what Django's gives, kept per
language and message; ``keeper`` is the same keeping for another translation (the templates'
``_()``, which is markup: config/jinja2.py).

For literal messages only, the words of the code itself: more distinct messages than that
(``MAX_WORDS``) would be values being translated, and those are looked up every time, not kept.
Everything kept is forgotten when the languages or catalogues in the settings change, as
Django's own translations are.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation

Word = TypeVar("Word", bound=str)
MAX_WORDS = 2000
_KEEPERS: list[Any] = []  # (the cached functions whose words a change of settings forgets)


def keeper(translate: Callable[[str], Word]) -> Callable[[str], Word]:
    """``translate``, remembering what it gave for each message (up to MAX_WORDS of them)."""
    kept: dict[str, Word] = {}

    def word(message: str) -> Word:
        try:
            return kept[message]
        except KeyError:
            found = translate(message)
            if len(kept) < MAX_WORDS:
                kept[message] = found
            return found

    return word


def per_language(make: Callable[[str | None], Callable[[str], Word]]) -> Callable[[str | None], Callable[[str], Word]]:
    """``make(language)``, made once per language and forgotten with the catalogues."""
    made = cache(make)
    _KEEPERS.append(made)
    return made


@per_language
def words(language: str | None) -> Callable[[str], str]:
    """Django's gettext while ``language`` is active, kept."""
    return keeper(translation.gettext)


def gettext(message: str) -> str:
    """Django's ``gettext(message)`` in the active language."""
    return words(translation.get_language())(message)


@receiver(setting_changed)
def _forget(*, setting: str, **kwargs: Any) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"):
        for made in _KEEPERS:
            made.cache_clear()
