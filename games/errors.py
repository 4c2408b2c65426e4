"""Refusals in the reader's language: the engine's, from their stable code, and the site's own.

The rules engine knows no Django: when it refuses an action it raises ``IllegalAction`` (or
``InvalidRules`` for a rule set) carrying a ``Refusal``, a stable ``code`` and its ``params``
(games/engine/refusals.py, where every message is marked for translation). ``translate_refusal``
words it in the active language through the catalogs under locale/, amounts with the currency
sign as the rest of the page shows them; player and square names stay as the board and the log
show them (a renamed player by the current name, when ``names`` says so). Programs get the code
and params (the JSON answer of a refused move, games/views/api.py ``refusal_json``) and the
English (``str()`` of a refusal).

The site's own refusals (a table that is full, a page drawn before the last move) are
``SiteRefusal`` exceptions: their words are gettext messages from the start; an engine's refusal
passed on (``GameError(e)``) keeps its code and is worded as above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext

from games.engine import Refusal, Refused, refusal_text
from games.formats import money


def engine_refusal_text(refusal: Refusal, *, names: Mapping[str, str] | None = None) -> str:
    """An engine refusal in the active language. A catalog entry whose placeholders do not fit
    gives the English rather than an error page."""
    try:
        return refusal_text(refusal, gettext=gettext, ngettext=ngettext, pgettext=pgettext,
                            money=money, names=names)
    except (KeyError, IndexError, ValueError, TypeError):
        with translation.override(None):
            return refusal_text(refusal, money=money, names=names)


class SiteRefusal(Exception):
    """A refusal in the site's own words: a ``gettext_lazy`` message, its ``%(name)s``
    placeholders filled from ``params`` (which may be lazy too); or an engine's refusal passed
    on (an ``IllegalAction``/``InvalidRules``, whose ``refusal`` carries the code). ``str()`` is
    the English, what logs show; ``localized()`` the active language."""

    def __init__(self, message: str | Promise | Refused, /, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.params = params

    @property
    def refusal(self) -> Refusal | None:
        """The engine's refusal this passes on, or None for the site's own words."""
        return self.message.refusal if isinstance(self.message, Refused) else None

    def _render(self) -> str:
        text = str(self.message)
        if not self.params:
            return text
        return text % {k: str(v) if isinstance(v, Promise) else v for k, v in self.params.items()}

    def __str__(self) -> str:
        with translation.override(None):  # no catalog: every message as its msgid, English
            return self._render()

    def localized(self, names: Mapping[str, str] | None = None) -> str:
        """The refusal in the active language."""
        if self.refusal is not None:
            return engine_refusal_text(self.refusal, names=names)
        try:
            return self._render()
        except (KeyError, ValueError, TypeError):
            return str(self)  # a translation whose placeholders do not fit


def translate_refusal(message: object, *, names: Mapping[str, str] | None = None) -> str:
    """An engine refusal (the exception itself), or a ``SiteRefusal``, in the active language;
    anything else comes back as its ``str()``. ``names`` maps a player's name as the engine's
    state has it to the name the page shows now (selectors.live_names)."""
    if isinstance(message, SiteRefusal):
        return message.localized(names)
    if isinstance(message, Refused):
        return engine_refusal_text(message.refusal, names=names)
    if isinstance(message, Refusal):
        return engine_refusal_text(message, names=names)
    return str(message)


class GameError(SiteRefusal):
    """A refused request, with a message for the person who made it: the site's own words as a
    lazy gettext message (``str()`` gives the English, ``localized()`` the reader's language),
    or an engine refusal passed on with its code (games.errors translates it)."""


class StaleVersion(GameError):
    pass


class NotAllowed(GameError):
    pass


class NotSeated(NotAllowed):
    """The user has no seat in the game they tried to move in."""


class LockedOut(NotAllowed):
    """The player's account is suspended or banned: their games go on without them (the view
    words why: moderation.selectors.lockout_refusal)."""
