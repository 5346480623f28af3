"""The errors the reference engine raises.

Every error carries a message a player understands; illegal actions also carry
a stable reason code that tests and scenarios assert on, one of the codes that
``vocabulary.json`` lists.

>>> IllegalAction("stock-empty", "the stock has already been dealt").reason
'stock-empty'
"""

from __future__ import annotations

from scorpion_shared.vocabulary import REASONS
from scorpion_shared.words import ReasonCode

__all__ = [
    "IllegalAction",
    "InvalidPosition",
    "NotationError",
    "NothingToUndo",
    "ScorpionError",
    "UnknownRuleSet",
]


class ScorpionError(Exception):
    """Base class of every error raised by :mod:`scorpion_ref`."""


class NotationError(ScorpionError, ValueError):
    """A card, suit or action written in a form we cannot read."""


class InvalidPosition(ScorpionError, ValueError):
    """A position that cannot occur on a Scorpion table (a card twice, ...)."""


class UnknownRuleSet(ScorpionError, KeyError):
    """A rule set name or option that the engine does not define."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class NothingToUndo(ScorpionError):
    """Undo was asked for at the start of a game."""


class IllegalAction(ScorpionError):
    """An action the rules refuse in the current position.

    ``reason`` is a stable code such as ``"not-same-suit"``, one of
    :data:`scorpion_shared.vocabulary.REASONS` (any other raises :class:`ValueError`:
    a new reason is added to the vocabulary first); ``message`` says why in a
    player's words.
    """

    def __init__(self, reason: ReasonCode, message: str) -> None:
        if reason not in REASONS:
            raise ValueError(f"{reason!r} is not a reason code of vocabulary.json")
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.reason!r}, {self.message!r})"
