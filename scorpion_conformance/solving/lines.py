"""Lines of play as the suite writes them (``9♦ to column 5, deal``) and as a player reads them.

A line is read in the suite's notation (:mod:`scorpion_conformance.notation`),
in the engine's short form (``9D>5``, ``deal``), or as the numbered moves
``solve`` prints (``12. 9♦ from column 2 to column 5 (turns up 4♣)``), one
action per comma or line. :func:`play_line` replays a line and says of each
move where it comes from, what it carries and what it turns up or collects;
:func:`show_moves` writes that one numbered move a line.

>>> from scorpion_ref import parse_action
>>> show_line([parse_action("9D>5"), parse_action("deal")])
'9♦ to column 5, deal'
>>> [str(a) for a in read_line("9♦ to column 5, KS>1\\ndeal")]
['9D>5', 'KS>1', 'deal']
>>> [str(a) for a in read_line(" 7. 9♦ from column 2 to column 5 (and the 1 card on it)\\n 8. deal")]
['9D>5', 'deal']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scorpion_ref import Action, Deal, NotationError, Position, RuleSet, apply, parse_action
from scorpion_ref.serial import action_from_json, action_to_json

from .. import notation

__all__ = ["PlayedMove", "moves_json", "play_line", "read_action", "read_line", "show_action",
           "show_line", "show_move", "show_moves"]

#: What :func:`show_moves` adds to an action, which :func:`read_action` reads past.
_NUMBER = re.compile(r"^\s*\d+\.\s+")
_REMARK = re.compile(r"\s*\([^()]*\)\s*$")
_SOURCE = re.compile(r" from column \d+ to column ")


@dataclass(frozen=True)
class PlayedMove:
    """One action of a line as it was played: its number, where its card came from, what it did.

    ``source`` is the column (1 to 7) the card left, None for a deal; ``carried``
    the cards above it that went along; ``to`` the columns a deal reached.
    """

    number: int
    action: Action
    source: int | None
    carried: int
    to: tuple[int, ...]
    turned_up: tuple[str, ...]
    collected: tuple[str, ...]


def play_line(start: Position, rules: RuleSet, line: Iterable[Action], first: int = 1) -> list[PlayedMove]:
    """Replay ``line`` from ``start``, numbering its moves from ``first``; raises
    :class:`scorpion_ref.IllegalAction` for an illegal action."""
    played: list[PlayedMove] = []
    position = start
    for number, action in enumerate(line, start=first):
        outcome = apply(position, rules, action)
        if isinstance(action, Deal):
            source, carried, to = None, 0, tuple(range(1, len(position.stock) + 1))
        else:
            found = position.locate(action.card)
            source = found[0] + 1 if found else None
            carried = len(position.columns[found[0]].up) - found[1] - 1 if found else 0
            to = (action.to,)
        played.append(PlayedMove(number, action, source, carried, to,
                                 tuple(str(card) for card in outcome.flipped),
                                 tuple(suit.value for suit in outcome.collected)))
        position = outcome.position
    return played


def _cards(codes: Sequence[str]) -> str:
    return " ".join(notation.show_card(code) for code in codes)


def _columns(columns: Sequence[int]) -> str:
    if len(columns) == 1:
        return f"column {columns[0]}"
    joint = " and " if len(columns) == 2 else " to "
    return f"columns {columns[0]}{joint}{columns[-1]}"


def show_move(move: PlayedMove) -> str:
    """One move in a player's words: ``"9♦ from column 2 to column 5 (turns up 4♣)"``."""
    notes = []
    if isinstance(move.action, Deal):
        head = "deal"
        if move.to:
            notes.append(f"onto {_columns(move.to)}")
    else:
        card = notation.show_card(str(move.action.card))
        head = f"{card} from column {move.source} to column {move.action.to}"
        if move.carried:
            notes.append(f"and the {move.carried} card{'s' * (move.carried != 1)} on it")
    if move.turned_up:
        notes.append(f"turns up {_cards(move.turned_up)}")
    if move.collected:
        notes.append(" and ".join(f"collects the {notation.SUIT_SYMBOLS[suit]} run"
                                  for suit in move.collected))
    return head + (f" ({'; '.join(notes)})" if notes else "")


def show_moves(moves: Sequence[PlayedMove], indent: str = "  ") -> list[str]:
    """One numbered line per move: ``" 1. 9♦ from column 2 to column 5 (turns up 4♣)"``."""
    width = len(str(moves[-1].number)) if moves else 1
    return [f"{indent}{move.number:>{width}}. {show_move(move)}" for move in moves]


def moves_json(moves: Sequence[PlayedMove]) -> list[dict[str, Any]]:
    """The moves for programs: ``{"number", "action", "card", "from", "to", "carried", "turned_up",
    "collected"}``, ``card`` and ``from`` None for a deal, ``to`` a list of columns."""
    return [{
        "number": move.number, "action": action_to_json(move.action),
        "card": None if isinstance(move.action, Deal) else str(move.action.card),
        "from": move.source, "to": list(move.to), "carried": move.carried,
        "turned_up": list(move.turned_up), "collected": list(move.collected),
    } for move in moves]


def show_action(action: Action) -> str:
    """One action in the suite's notation: ``"9♦ to column 5"`` or ``"deal"``."""
    return notation.show_action(action_to_json(action))


def show_line(line: Iterable[Action]) -> str:
    """A line of actions in the suite's notation, comma-separated (``""`` for none)."""
    return ", ".join(show_action(action) for action in line)


def read_action(text: str) -> Action:
    """``"9♦ to column 5"``, ``"9D>5"`` or ``"deal"`` → an action; raises :class:`NotationError`."""
    words = _SOURCE.sub(" to column ", _REMARK.sub("", _NUMBER.sub("", text))).strip()
    if " to column " in words or words.lower() in {"deal", "the deal", "deal the stock"}:
        try:
            return action_from_json(notation.parse_action(words))
        except notation.NotationError as error:
            raise NotationError(str(error)) from None
    try:
        return parse_action(words)
    except NotationError:
        raise NotationError(
            f"{text.strip()!r} is not an action: write '9♦ to column 5', '9D>5' or 'deal'"
        ) from None


def read_line(text: str | Sequence[str]) -> list[Action]:
    """Actions separated by commas or new lines (``#`` starts a comment); raises :class:`NotationError`
    naming the action by its number in the line."""
    pieces = [text] if isinstance(text, str) else list(text)
    words: list[str] = []
    for piece in pieces:
        for row in piece.splitlines():
            row = row.split("#", 1)[0]
            words += [word.strip() for word in row.split(",") if word.strip()]
    actions: list[Action] = []
    for number, word in enumerate(words, start=1):
        try:
            actions.append(read_action(word))
        except NotationError as error:
            raise NotationError(f"move {number}: {error}") from None
    return actions
