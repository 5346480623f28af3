"""A protocol position and action checked without an engine, for adapters around other programs.

Programs that trust their own deals accept any layout they are handed; an
adapter around one refuses, before the program sees it, what the protocol
calls invalid (``invalid-position``) or malformed (``bad-request``).

>>> check_action({"type": "deal"})
{'type': 'deal'}
"""

from __future__ import annotations

from typing import Any

from .frontend import JsonObject, Refusal, show
from .vocabulary import CARD, SUITS

__all__ = ["check_action", "check_position"]


def _card_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and CARD.fullmatch(c) for c in value):
        raise Refusal("invalid-position", f"{where} is not a list of cards such as 9D")
    return value


def check_position(position: Any) -> JsonObject:
    """A protocol position as given, or :class:`Refusal` (``invalid-position``) saying what is wrong.

    For adapters around programs that trust their own deals: seven columns of
    face-down cards under face-up ones, a stock of at most three, no card
    twice, and no card of a removed suit.

    >>> check_position({"columns": [], "stock": [], "removed": []})
    Traceback (most recent call last):
    ...
    scorpion_shared.frontend.Refusal: a position has exactly seven columns
    """
    if not isinstance(position, dict) or set(position) != {"columns", "stock", "removed"}:
        raise Refusal("invalid-position", "a position is an object with exactly columns, stock and removed")
    columns = position["columns"]
    if not isinstance(columns, list) or len(columns) != 7:
        raise Refusal("invalid-position", "a position has exactly seven columns")
    seen: list[str] = []
    for number, column in enumerate(columns, 1):
        if not isinstance(column, dict) or set(column) != {"down", "up"}:
            raise Refusal("invalid-position", f"column {number} is not an object with exactly down and up")
        down = _card_list(column["down"], f"column {number} down")
        up = _card_list(column["up"], f"column {number} up")
        if down and not up:
            raise Refusal("invalid-position",
                          f"column {number} has face-down cards and no face-up card above them")
        seen += down + up
    stock = _card_list(position["stock"], "the stock")
    if len(stock) > 3:
        raise Refusal("invalid-position", f"the stock holds {len(stock)} cards; it holds at most three")
    seen += stock
    removed = position["removed"]
    if not isinstance(removed, list) or not all(isinstance(s, str) and len(s) == 1 and s in SUITS
                                                 for s in removed):
        raise Refusal("invalid-position", f"removed is not a list of suits ({', '.join(SUITS)})")
    if len(set(removed)) != len(removed):
        raise Refusal("invalid-position", "removed names a suit twice")
    twice = sorted({c for c in seen if seen.count(c) > 1})
    if twice:
        raise Refusal("invalid-position", f"{', '.join(twice)} appears twice")
    gone = sorted(c for c in seen if c[1] in removed)
    if gone:
        raise Refusal("invalid-position", f"{', '.join(gone)} is on the table, but its suit is removed")
    return position


def check_action(action: Any) -> JsonObject:
    """A well-formed protocol action as given, or :class:`Refusal` (``bad-request``).

    >>> check_action({"type": "move", "card": "9D", "to": 8})
    Traceback (most recent call last):
    ...
    scorpion_shared.frontend.Refusal: 8 is not a column from 1 to 7
    """
    if not isinstance(action, dict):
        raise Refusal("bad-request", "an action is an object")
    if action.get("type") == "deal" and set(action) == {"type"}:
        return action
    if action.get("type") == "move" and set(action) == {"type", "card", "to"}:
        card, to = action["card"], action["to"]
        if not isinstance(card, str) or not CARD.fullmatch(card):
            raise Refusal("bad-request", f"{show(card)} is not a card such as 9D")
        if type(to) is not int or not 1 <= to <= 7:
            raise Refusal("bad-request", f"{show(to)} is not a column from 1 to 7")
        return action
    raise Refusal("bad-request", "an action is {type: move, card, to} or {type: deal}")
