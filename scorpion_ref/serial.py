"""Positions and actions as the protocol's JSON values, and positions drawn as text.

The JSON form: ``{"columns": [{"down": [...], "up": [...]}, ...seven...],
"stock": [...], "removed": [...]}`` with cards as two-character strings.

>>> from scorpion_ref import Position
>>> p = Position.build(["4S | 9D KH"], stock=["2C"])
>>> position_from_json(position_to_json(p)) == p
True
"""

from __future__ import annotations

from typing import Any

from scorpion_shared.vocabulary import CARD, CARD_FORM, SUITS

from .actions import Action, Deal, Move
from .cards import Card, Suit
from .errors import InvalidPosition, NotationError
from .position import COLUMNS, Column, Position

__all__ = [
    "action_from_json",
    "action_to_json",
    "draw_position",
    "position_from_json",
    "position_to_json",
]

_SUIT_ORDER = {suit: i for i, suit in enumerate(Suit)}
_SUITS_SAID = f"{', '.join(SUITS[:-1])} or {SUITS[-1]}"


def position_to_json(position: Position) -> dict[str, Any]:
    """The protocol's JSON form of a position (``removed`` in C D H S order)."""
    return {
        "columns": [
            {"down": [str(c) for c in column.down], "up": [str(c) for c in column.up]}
            for column in position.columns
        ],
        "stock": [str(c) for c in position.stock],
        "removed": [s.value for s in sorted(position.collected, key=_SUIT_ORDER.__getitem__)],
    }


def _card(value: Any, where: str) -> Card:
    if not isinstance(value, str) or not CARD.fullmatch(value):
        raise InvalidPosition(f"{where}: {value!r} is not a card ({CARD_FORM}, as 'TD')")
    return Card.parse(value)


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidPosition(f"{where} must be a list of cards")
    return tuple(_card(v, f"{where}[{i}]") for i, v in enumerate(value))


def position_from_json(obj: Any) -> Position:
    """Read the protocol's JSON form; raises :class:`InvalidPosition` saying what is wrong."""
    if not isinstance(obj, dict):
        raise InvalidPosition("a position is a JSON object with columns, stock and removed")
    unknown = sorted(set(obj) - {"columns", "stock", "removed"})
    if unknown:
        raise InvalidPosition(f"a position has no field {', '.join(map(repr, unknown))}")
    missing = [name for name in ("columns", "stock", "removed") if name not in obj]
    if missing:
        raise InvalidPosition(f"a position needs the field {', '.join(missing)}")
    columns = obj.get("columns")
    if not isinstance(columns, list) or len(columns) != COLUMNS:
        raise InvalidPosition(f"columns must be a list of {COLUMNS} columns")
    built = []
    for i, column in enumerate(columns, start=1):
        if not isinstance(column, dict) or set(column) != {"down", "up"}:
            raise InvalidPosition(f"column {i} must be an object with down and up")
        down = _cards(column["down"], f"column {i} down")
        up = _cards(column["up"], f"column {i} up")
        try:
            built.append(Column(down, up))
        except InvalidPosition as error:
            raise InvalidPosition(f"column {i}: {error}") from None
    stock = _cards(obj["stock"], "stock")
    removed_json = obj["removed"]
    if not isinstance(removed_json, list):
        raise InvalidPosition("removed must be a list of suits")
    removed = []
    for value in removed_json:
        if not isinstance(value, str) or value not in {s.value for s in Suit}:
            raise InvalidPosition(f"removed: {value!r} is not a suit ({_SUITS_SAID})")
        removed.append(Suit(value))
    if len(set(removed)) != len(removed):
        raise InvalidPosition("removed lists a suit twice")
    return Position(tuple(built), stock, frozenset(removed))


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"type": "move", "card": "9D", "to": 5}`` or ``{"type": "deal"}``."""
    if isinstance(action, Deal):
        return {"type": "deal"}
    return {"type": "move", "card": str(action.card), "to": action.to}


def action_from_json(obj: Any) -> Action:
    """Read an action; raises :class:`NotationError` for a malformed one."""
    if not isinstance(obj, dict):
        raise NotationError("an action is a JSON object with a type")
    kind = obj.get("type")
    if kind == "deal":
        if set(obj) != {"type"}:
            raise NotationError("a deal action has no other field than type")
        return Deal()
    if kind != "move":
        raise NotationError(f"unknown action type {kind!r}: use 'move' or 'deal'")
    if set(obj) != {"type", "card", "to"}:
        raise NotationError("a move action has exactly the fields type, card and to")
    card, to = obj["card"], obj["to"]
    if not isinstance(card, str) or not CARD.fullmatch(card):
        raise NotationError(f"{card!r} is not a card ({CARD_FORM}, as 'TD')")
    return Move(Card.parse(card), to)


def draw_position(position: Position, *, unicode: bool = True) -> str:
    """The position drawn as on the table: one column of text per column,
    face-down cards in brackets, the stock and the collected suits below."""
    def label(card: Card, down: bool) -> str:
        text = card.unicode if unicode else str(card)
        return f"[{text}]" if down else text

    cells = [
        [label(c, True) for c in col.down] + [label(c, False) for c in col.up]
        for col in position.columns
    ]
    height = max((len(c) for c in cells), default=0)
    width = 6
    lines = ["".join(f"{i:^{width}}" for i in range(1, COLUMNS + 1)).rstrip()]
    for row in range(height):
        lines.append(
            "".join(f"{(c[row] if row < len(c) else ''):^{width}}" for c in cells).rstrip()
        )
    stock = " ".join(label(c, False) for c in position.stock) or "dealt"
    lines.append(f"stock: {stock}")
    if position.collected:
        suits = sorted(position.collected, key=_SUIT_ORDER.__getitem__)
        lines.append("collected: " + " ".join(s.symbol if unicode else s.value for s in suits))
    return "\n".join(lines)
