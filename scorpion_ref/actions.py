"""The two actions of Scorpion: move a face-up card (with its passengers), or deal the stock.

Notation: ``"9D>5"`` moves the 9♦ and everything above it to column 5;
``"deal"`` deals the stock.

>>> parse_action("9♦>5")
Move.parse('9D>5')
>>> parse_action("deal")
Deal()
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .errors import NotationError
from .position import COLUMNS

__all__ = ["Action", "Deal", "Move", "parse_action"]


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``card`` and every card above it onto column ``to`` (1 to 7)."""

    card: Card
    to: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise NotationError(f"a move names a card, not {self.card!r}")
        if isinstance(self.to, bool) or not isinstance(self.to, int) or not 1 <= self.to <= COLUMNS:
            raise NotationError(f"columns are numbered 1 to {COLUMNS}, not {self.to!r}")

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read ``"9D>5"`` (also ``"9♦>5"``); raises :class:`NotationError`."""
        card_text, arrow, to_text = text.partition(">")
        to_text = to_text.strip()
        if not arrow or not (to_text.isascii() and to_text.isdigit()):
            raise NotationError(f"{text!r} is not a move: write card>column, as '9D>5'")
        return cls(Card.parse(card_text), int(to_text))

    def __str__(self) -> str:
        return f"{self.card}>{self.to}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Deal:
    """Deal the stock: its cards land face up on columns 1, 2 and 3."""

    def __str__(self) -> str:
        return "deal"

    def __repr__(self) -> str:
        return "Deal()"


Action = Move | Deal


def parse_action(text: str) -> Action:
    """Read ``"deal"`` or a move such as ``"9D>5"``; raises :class:`NotationError`."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not an action")
    if text.strip().lower() == "deal":
        return Deal()
    return Move.parse(text.strip())
