"""Lines of play as the suite writes them: ``9♦ to column 5, deal``.

A line is read in the suite's notation (:mod:`scorpion_conformance.notation`)
or in the engine's short form (``9D>5``, ``deal``), one action per comma or
line; it is written in the suite's notation, the way scenarios say actions.

>>> from scorpion_ref import parse_action
>>> show_line([parse_action("9D>5"), parse_action("deal")])
'9♦ to column 5, deal'
>>> [str(a) for a in read_line("9♦ to column 5, KS>1\\ndeal")]
['9D>5', 'KS>1', 'deal']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorpion_ref import Action, NotationError, parse_action
from scorpion_ref.serial import action_from_json, action_to_json

from .. import notation

__all__ = ["read_action", "read_line", "show_action", "show_line"]


def show_action(action: Action) -> str:
    """One action in the suite's notation: ``"9♦ to column 5"`` or ``"deal"``."""
    return notation.show_action(action_to_json(action))


def show_line(line: Iterable[Action]) -> str:
    """A line of actions in the suite's notation, comma-separated (``""`` for none)."""
    return ", ".join(show_action(action) for action in line)


def read_action(text: str) -> Action:
    """``"9♦ to column 5"``, ``"9D>5"`` or ``"deal"`` → an action; raises :class:`NotationError`."""
    words = text.strip()
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
            raise NotationError(f"action {number}: {error}") from None
    return actions
