"""Typed errors of the engine, in the spirit of python-chess's ``IllegalMoveError``."""


class EngineError(ValueError):
    """Base class: every error the engine raises on bad input is one of these."""


class IllegalAction(EngineError):
    """The action is not allowed in this position. The state is left untouched."""


class InvalidRules(EngineError):
    """A rule-set option is unknown or has an invalid value."""


class RandomnessExhausted(EngineError):
    """A scripted generator was asked for a value that was not scripted."""
