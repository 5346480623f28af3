"""Suits, ranks and cards, with their ASCII and Unicode notations.

The letters, labels and symbols come from ``vocabulary.json``; the enums name
the same suits and ranks, in the same order (a test holds them together).

>>> Card.parse("TD")
Card.parse('TD')
>>> Card.parse("10♦").unicode
'10♦'
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from scorpion_shared.vocabulary import RANK_LABELS, RANKS, RED_SUITS, SUIT_OUTLINES, SUIT_SYMBOLS, SUITS

from .errors import NotationError

__all__ = ["DECK", "Card", "Rank", "Suit"]


class Suit(enum.Enum):
    """The four suits, in the order of the protocol's letters."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol, for example ``♦``."""
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self.value in RED_SUITS

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read ``"D"``, ``"d"`` or ``"♦"``; raises :class:`NotationError`."""
        suit = _SUIT_BY_TEXT.get(text.strip().upper()) if isinstance(text, str) else None
        if suit is None:
            raise NotationError(f"{text!r} is not a suit (use {_SUITS_SAID})")
        return suit

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SYMBOLS = {Suit(letter): symbol for letter, symbol in SUIT_SYMBOLS.items()}
_SUIT_BY_TEXT: dict[str, Suit] = {s.value: s for s in Suit}
_SUIT_BY_TEXT.update({sym: s for s, sym in _SYMBOLS.items()})
# The outlined symbols some fonts and keyboards produce.
_SUIT_BY_TEXT.update({o: Suit(s) for s, o in SUIT_OUTLINES.items()})
_SUIT_NUMBER = {suit: number for number, suit in enumerate(Suit)}
_SUITS_SAID = f"{', '.join(SUITS)} or {' '.join(SUIT_SYMBOLS.values())}"


class Rank(enum.IntEnum):
    """Ranks from Ace (1, low) to King (13)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The one-character ASCII notation: ``A 2 … 9 T J Q K``."""
        return _RANK_LETTERS[self - 1]

    @property
    def label(self) -> str:
        """The notation people write: ``10`` for the ten, else :attr:`letter`."""
        return RANK_LABELS[_RANK_LETTERS[self - 1]]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read ``"T"``, ``"10"``, ``"q"``; raises :class:`NotationError`."""
        key = text.strip().upper() if isinstance(text, str) else ""
        rank = _RANK_BY_TEXT.get(key)
        if rank is None:
            raise NotationError(f"{text!r} is not a rank (use {' '.join(_RANK_LETTERS)})")
        return rank

    def __repr__(self) -> str:
        return f"Rank.{self.name}"


_RANK_LETTERS = RANKS
_RANK_BY_TEXT: dict[str, Rank] = {letter: Rank(i) for i, letter in enumerate(RANKS, start=1)}
_RANK_BY_TEXT.update({label: Rank(i) for i, label in enumerate(RANK_LABELS.values(), start=1)})


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One card of the single 52-card deck.

    ``str(card)`` is the two-character ASCII form (``"TD"``) used by the
    protocol; :attr:`unicode` is the form used in scenarios and docs.
    """

    rank: Rank
    suit: Suit
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The same number in every process (0 to 55), made once: a search hashes the cards of
        # every position it looks up, and a suit hashes its name in Python.
        object.__setattr__(self, "_hash", 4 * self.rank + _SUIT_NUMBER[self.suit])

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``"TD"``, ``"10D"``, ``"10♦"`` or ``"K♥"``.

        Raises :class:`NotationError` naming the token when it is not a card.

        >>> Card.parse("K♥") == Card(Rank.KING, Suit.HEARTS)
        True
        """
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a card: expected text such as 'TD' or '10♦'")
        token = text.strip()
        if len(token) < 2 or len(token) > 3 or any(ch.isspace() for ch in token):
            raise NotationError(f"{text!r} is not a card: expected rank then suit, as 'TD' or '10♦'")
        try:
            return _CARD_CACHE[(Rank.parse(token[:-1]), Suit.parse(token[-1]))]
        except NotationError as error:
            raise NotationError(f"{text!r} is not a card: {error}") from None

    @property
    def unicode(self) -> str:
        """The card with its suit symbol: ``"10♦"``."""
        return f"{self.rank.label}{self.suit.symbol}"

    def __str__(self) -> str:
        return f"{self.rank.letter}{self.suit.value}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


_CARD_CACHE: dict[tuple[Rank, Suit], Card] = {
    (rank, suit): Card(rank, suit) for suit in Suit for rank in Rank
}

#: The 52 cards, suit by suit in C D H S order, each from Ace to King.
DECK: tuple[Card, ...] = tuple(_CARD_CACHE[(rank, suit)] for suit in Suit for rank in Rank)
