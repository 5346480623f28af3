"""Deals by game number, the same cards PySolFC deals for Scorpion.

The procedure, so that anyone can reproduce "game 1":

1. Create the 52 cards in the order of the ``pysol-cards`` package (suits
   clubs, spades, hearts, diamonds; each from Ace to King).
2. Shuffle them as PySolFC does: game numbers below 32000 use the
   Microsoft-FreeCell-style linear congruential generator (with the card
   order rearranged the same way MS FreeCell does); game 32000 and above use
   Python's Mersenne Twister seeded with the game number. ``pysol-cards``'s
   own ``shuffle`` switches one game later (it treats 32000 as an MS deal),
   so we pick the generator ourselves.
3. Reverse the shuffled list: index 0 is the first card dealt.
4. Deal card k (k < 49) to column k mod 7, row k div 7, face down when the
   row is below 3 and the column is among the first four (the first three
   for the Scorpion II deal). Cards 49, 50 and 51 are the stock, in dealing
   order: card 49 goes to column 1.

>>> position = deal_game(1)
>>> sum(len(column.down) for column in position.columns), len(position.stock)
(12, 3)
"""

from __future__ import annotations

from typing import Literal

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from .cards import Card, Rank, Suit
from .errors import ScorpionError
from .position import COLUMNS, Column, Position

__all__ = ["DEAL_KINDS", "FACE_DOWN_ROWS", "MS_DEALS_BELOW", "deal_game", "shuffled_deck"]

#: Game numbers below this use the MS-style generator, as in PySolFC.
MS_DEALS_BELOW = 32000
#: Which columns start with face-down cards, per deal kind.
DEAL_KINDS: dict[str, int] = {"scorpion": 4, "scorpion-ii": 3}
#: How many rows of the hidden columns a deal puts face down.
FACE_DOWN_ROWS = 3
_SUITS = {"C": Suit.CLUBS, "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS}
_MAX_GAME = 10**20
#: The last game number there is (PySolFC's own limit on game numbers).
LAST_GAME = _MAX_GAME - 1


def shuffled_deck(game: int) -> list[Card]:
    """The 52 cards of game ``game`` in dealing order (index 0 is dealt first).

    Raises :class:`ScorpionError` for a game number out of PySolFC's range.
    """
    if isinstance(game, bool) or not isinstance(game, int) or not 1 <= game < _MAX_GAME:
        raise ScorpionError(f"game numbers run from 1 to {_MAX_GAME - 1}, not {game!r}")
    cards = createCards(1)
    if game < MS_DEALS_BELOW:
        generator = LCRandom31()
        generator.setSeed(game)
        shuffled = generator.shuffle(ms_rearrange(cards))
    else:
        generator = MTRandom()
        generator.setSeed(game)
        shuffled = generator.shuffle(cards)
    shuffled.reverse()
    return [Card(Rank(c.rank), _SUITS[c.suit_s()]) for c in shuffled]


def deal_game(game: int, kind: Literal["scorpion", "scorpion-ii"] | str = "scorpion") -> Position:
    """The start position of game ``game``; ``kind`` is ``scorpion`` or ``scorpion-ii``."""
    if kind not in DEAL_KINDS:
        raise ScorpionError(f"unknown deal {kind!r}; known: {', '.join(DEAL_KINDS)}")
    hidden_columns = DEAL_KINDS[kind]
    cards = shuffled_deck(game)
    down: list[list[Card]] = [[] for _ in range(COLUMNS)]
    up: list[list[Card]] = [[] for _ in range(COLUMNS)]
    for k, card in enumerate(cards[: COLUMNS * COLUMNS]):
        column, row = k % COLUMNS, k // COLUMNS
        hidden = row < FACE_DOWN_ROWS and column < hidden_columns
        (down if hidden else up)[column].append(card)
    return Position(
        tuple(Column(tuple(d), tuple(u)) for d, u in zip(down, up, strict=True)),
        tuple(cards[COLUMNS * COLUMNS :]),
    )
