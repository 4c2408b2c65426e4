"""Typed errors of the engine, in the spirit of python-chess's ``IllegalMoveError``."""

from __future__ import annotations

from typing import Any

from .refusals import MESSAGES, Refusal


class EngineError(ValueError):
    """Base class: every error the engine raises on bad input is one of these."""


class Refused(EngineError):
    """An error with a stable reason: ``refusal`` (its ``code`` and ``params``, see refusals.py);
    ``str()`` is the English sentence. Raised with a ``Refusal`` or with a code and its
    parameters: ``IllegalAction("game_over")``."""

    def __init__(self, refusal: Refusal | str, /, **params: Any) -> None:
        if not isinstance(refusal, Refusal):
            refusal = Refusal(refusal, **params)
        if refusal.code not in MESSAGES:
            raise LookupError(f"no message for the refusal code {refusal.code!r} (refusals.MESSAGES)")
        super().__init__(str(refusal))
        self.refusal = refusal

    @property
    def code(self) -> str:
        return self.refusal.code

    @property
    def params(self) -> dict[str, Any]:
        return self.refusal.params


class IllegalAction(Refused):
    """The action is not allowed in this position. The state is left untouched."""


class InvalidRules(Refused):
    """A rule-set option is unknown or has an invalid value."""


class RandomnessExhausted(EngineError):
    """A scripted generator was asked for a value that was not scripted."""
