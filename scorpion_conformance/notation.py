"""The notation of the scenarios: cards, columns drawn as tables, action lists.

Cards are written as on a card (``9♦``, ``10♥``, ``K♠``) or in the protocol's
ASCII form (``9D``, ``TH``); a face-down card is written in brackets (``[4♠]``).
A position is a data table whose header names the columns (``| 1 | 2 | 5 |``);
each row below is one layer of cards, the first row being the bottom of the
column, so the table reads like the cards on the screen.

This module is the suite's own reader: the steps never import the engine.

>>> parse_card("10♦")
Card('T', 'D')
>>> str(parse_card("TD")), parse_card("TD").code
('10♦', 'TD')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from scorpion_shared import vocabulary

__all__ = [
    "SUIT_LETTERS",
    "SUIT_SYMBOLS",
    "Card",
    "NotationError",
    "parse_action",
    "parse_action_list",
    "parse_card",
    "parse_column",
    "parse_suit",
    "parse_table",
    "show_action",
    "show_card",
    "show_column",
]

# The card alphabet is the vocabulary's.
SUIT_SYMBOLS: Mapping[str, str] = vocabulary.SUIT_SYMBOLS
SUIT_LETTERS = MappingProxyType({symbol: letter for letter, symbol in SUIT_SYMBOLS.items()})
SUIT_BY_NAME = MappingProxyType({name: letter for letter, name in vocabulary.SUIT_NAMES.items()})
RANKS = vocabulary.RANKS
_RANK_BY_LABEL = {label: letter for letter, label in vocabulary.RANK_LABELS.items() if label != letter}
_SUITS_SAID = " ".join(SUIT_SYMBOLS.values())
COLUMNS = 7


class NotationError(ValueError):
    """Scenario text that is not in the suite's notation."""


class Card(NamedTuple):
    """A card as the steps see it: a rank letter and a suit letter."""

    rank: str
    suit: str

    @property
    def code(self) -> str:
        """The protocol's two-character form, ``"TD"``."""
        return self.rank + self.suit

    def __str__(self) -> str:
        return vocabulary.RANK_LABELS[self.rank] + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.rank!r}, {self.suit!r})"


def parse_suit(text: str) -> str:
    """``"♠"``, ``"S"`` or ``"spades"`` → ``"S"``; raises :class:`NotationError`."""
    key = text.strip()
    letter = SUIT_LETTERS.get(key) or SUIT_BY_NAME.get(key.lower()) or (
        key.upper() if key.upper() in SUIT_SYMBOLS else None
    )
    if letter is None:
        raise NotationError(f"{text!r} is not a suit: write {_SUITS_SAID} or {' '.join(SUIT_SYMBOLS)}")
    return letter


def parse_card(text: str) -> Card:
    """``"10♦"``, ``"TD"``, ``"K♥"`` → :class:`Card`; raises :class:`NotationError`."""
    token = text.strip()
    rank_text, suit_text = token[:-1], token[-1:]
    rank = _RANK_BY_LABEL.get(rank_text, rank_text.upper())
    if len(rank) != 1 or rank not in RANKS:
        raise NotationError(f"{text!r} is not a card: the rank must be one of A 2-10 J Q K")
    try:
        suit = parse_suit(suit_text)
    except NotationError:
        raise NotationError(f"{text!r} is not a card: the suit must be one of {_SUITS_SAID}") from None
    return Card(rank, suit)


def show_card(code: str) -> str:
    """The protocol's ``"TD"`` drawn as ``"10♦"`` (unknown text is returned as it is)."""
    try:
        return str(parse_card(code))
    except NotationError:
        return code


def _cell(text: str) -> tuple[Card, bool] | None:
    """A table cell: None when blank, else (card, face_down)."""
    token = text.strip()
    if not token:
        return None
    if token.startswith("[") and token.endswith("]"):
        return parse_card(token[1:-1]), True
    if "[" in token or "]" in token:
        raise NotationError(f"{text!r}: a face-down card is written in brackets, as [4♠]")
    return parse_card(token), False


def parse_column(text: str) -> dict[str, list[str]]:
    """``"[4♠] [J♣] 9♦ K♥"`` → ``{"down": ["4S", "JC"], "up": ["9D", "KH"]}``.

    Raises :class:`NotationError` when a face-down card lies on a face-up one.
    """
    down: list[str] = []
    up: list[str] = []
    for token in text.split():
        cell = _cell(token)
        assert cell is not None
        card, face_down = cell
        if face_down:
            if up:
                raise NotationError(f"{text!r}: face-down card {card} lies on a face-up card")
            down.append(card.code)
        else:
            up.append(card.code)
    return {"down": down, "up": up}


def show_column(column: dict[str, Any]) -> str:
    """A protocol column drawn as ``"[4♠] 9♦ K♥"``, or ``"(empty)"``."""
    cards = [f"[{show_card(c)}]" for c in column.get("down", [])]
    cards += [show_card(c) for c in column.get("up", [])]
    return " ".join(cards) or "(empty)"


def parse_table(rows: Sequence[Sequence[str]]) -> list[dict[str, list[str]]]:
    """A data table of columns → the seven protocol columns.

    The header row names columns 1 to 7 (any of them, in increasing order);
    columns it leaves out are empty. Each later row is one layer, the first row
    being the bottom of every column. Raises :class:`NotationError` naming the
    row and column of a bad cell.
    """
    if not rows:
        raise NotationError("a position table needs a header row of column numbers")
    header = [h.strip() for h in rows[0]]
    numbers: list[int] = []
    for h in header:
        if not h.isdigit() or not 1 <= int(h) <= COLUMNS:
            raise NotationError(f"table header {h!r}: name columns 1 to {COLUMNS}")
        numbers.append(int(h))
    if numbers != sorted(set(numbers)):
        raise NotationError(f"table header {' | '.join(header)}: columns in increasing order, once each")
    columns: list[dict[str, list[str]]] = [{"down": [], "up": []} for _ in range(COLUMNS)]
    ended = [False] * len(numbers)
    for row_number, row in enumerate(rows[1:], start=2):
        if len(row) != len(numbers):
            raise NotationError(f"table row {row_number} has {len(row)} cells, not {len(numbers)}")
        for i, text in enumerate(row):
            where = f"table row {row_number}, column {numbers[i]}"
            try:
                cell = _cell(text)
            except NotationError as error:
                raise NotationError(f"{where}: {error}") from None
            if cell is None:
                ended[i] = True
                continue
            if ended[i]:
                raise NotationError(f"{where}: {text.strip()} lies below a gap in its column")
            card, face_down = cell
            column = columns[numbers[i] - 1]
            if face_down and column["up"]:
                raise NotationError(f"{where}: face-down {card} lies on a face-up card")
            column["down" if face_down else "up"].append(card.code)
    return columns


def parse_action(text: str) -> dict[str, Any]:
    """``"9♦ to column 5"`` or ``"deal"`` → a protocol action."""
    words = text.strip()
    if words.lower() in {"deal", "the deal", "deal the stock"}:
        return {"type": "deal"}
    card_text, sep, column_text = words.partition(" to column ")
    if not sep or not column_text.strip().isdigit():
        raise NotationError(f"{text!r} is not an action: write '9♦ to column 5' or 'deal'")
    return {"type": "move", "card": parse_card(card_text).code, "to": int(column_text)}


def parse_action_list(text: str) -> list[dict[str, Any]]:
    """``"9♦ to column 5, deal"`` → protocol actions (``"nothing"`` is the empty list)."""
    if text.strip().lower() in {"nothing", "none", ""}:
        return []
    return [parse_action(part) for part in text.split(",")]


def show_action(action: dict[str, Any]) -> str:
    """A protocol action in the notation: ``"9♦ to column 5"`` or ``"deal"``."""
    if action.get("type") == "move":
        return f"{show_card(str(action.get('card')))} to column {action.get('to')}"
    return str(action.get("type"))
