"""The step library: every step sentence the scenarios may use, in one table.

Each :class:`StepSpec` pairs a sentence pattern (``parse`` syntax, with a
``Card`` type for card arguments) with a builder that turns the parsed words
into an *instruction*: a plain JSON-ready dict such as
``{"do": "move", "card": "9D", "to": 5}`` or
``{"expect": "column", "column": 5, "down": [], "up": ["9H", "8H"]}``.
The pytest plugin executes instructions against an adapter
(:mod:`.execute`); ``scorpion-conformance export`` writes them out for other
languages. One table serves both, so they cannot drift apart.

>>> build_instruction("when", "the player moves 9♦ to column 5")
{'do': 'move', 'card': '9D', 'to': 5}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import parse  # type: ignore[import-untyped]

from ..notation import (
    Card,
    NotationError,
    parse_action,
    parse_action_list,
    parse_card,
    parse_column,
    parse_suit,
    parse_table,
)

__all__ = ["LIBRARY", "StepSpec", "UnknownStep", "build_instruction", "find_step"]

Instruction = dict[str, Any]
Table = Sequence[Sequence[str]] | None


class UnknownStep(ValueError):
    """A step sentence that no entry of the library reads."""


@parse.with_pattern(r"\S+")  # type: ignore[untyped-decorator]
def _card_type(text: str) -> Card:
    return parse_card(text)


@parse.with_pattern(r"\S+")  # type: ignore[untyped-decorator]
def _suit_type(text: str) -> str:
    return parse_suit(text)


@parse.with_pattern(r"won|lost|playing")  # type: ignore[untyped-decorator]
def _status_type(text: str) -> str:
    return text


@parse.with_pattern(r"up|down")  # type: ignore[untyped-decorator]
def _face_type(text: str) -> str:
    return text


TYPES = {"Card": _card_type, "Suit": _suit_type, "Status": _status_type, "Face": _face_type}


def _cards(text: str) -> list[str]:
    return [parse_card(t).code for t in text.replace(",", " ").split()]


@dataclass(frozen=True)
class StepSpec:
    """One step sentence: its keyword, its pattern, and how it becomes an instruction."""

    kind: str  # "given", "when" or "then"
    pattern: str
    build: Callable[..., Instruction]
    takes_table: bool = False
    example: str = ""

    def compiled(self) -> parse.Parser:
        return _compiled(self.pattern)


_CACHE: dict[str, parse.Parser] = {}


def _compiled(pattern: str) -> parse.Parser:
    if pattern not in _CACHE:
        _CACHE[pattern] = parse.compile(pattern, extra_types=TYPES, case_sensitive=True)
    return _CACHE[pattern]


def _given_table(table: Table) -> Instruction:
    if table is None:
        raise NotationError("'the table' needs a data table of columns below it")
    return {"given": "columns", "columns": parse_table(table)}


LIBRARY: tuple[StepSpec, ...] = (
    # -- the position ------------------------------------------------------
    StepSpec("given", "the table", lambda table: _given_table(table), takes_table=True,
             example="Given the table\n  | 1 | 2 |\n  | [4♠] | K♣ |\n  | 9♦ | |"),
    StepSpec("given", "an empty table", lambda: {"given": "columns",
             "columns": [{"down": [], "up": []} for _ in range(7)]}),
    StepSpec("given", "the stock holds {cards}", lambda cards: {"given": "stock",
             "stock": _cards(cards)}, example="And the stock holds 2♣ 3♦ 7♠"),
    StepSpec("given", "the stock has been dealt", lambda: {"given": "stock", "stock": []}),
    StepSpec("given", "the {suit:Suit} run has been collected",
             lambda suit: {"given": "removed", "suits": [suit]},
             example="And the ♠ run has been collected"),
    StepSpec("given", "the {first:Suit} and {second:Suit} runs have been collected",
             lambda first, second: {"given": "removed", "suits": [first, second]}),
    # -- actions -----------------------------------------------------------
    StepSpec("when", "the player moves {card:Card} to column {column:d}",
             lambda card, column: {"do": "move", "card": card.code, "to": column}),
    StepSpec("when", "the player deals the stock", lambda: {"do": "deal"}),
    StepSpec("when", "the player undoes the last action", lambda: {"do": "undo"}),
    StepSpec("when", "the player plays {actions}",
             lambda actions: {"do": "sequence", "actions": parse_action_list(actions)},
             example="When the player plays 9♦ to column 5, deal"),
    # -- outcomes ----------------------------------------------------------
    StepSpec("then", "the action is refused", lambda: {"expect": "refused", "reason": None}),
    StepSpec("then", "the action is refused as {reason}",
             lambda reason: {"expect": "refused", "reason": reason},
             example="Then the action is refused as not-same-suit"),
    StepSpec("then", "column {column:d} reads {cards}",
             lambda column, cards: {"expect": "column", "column": column, **parse_column(cards)},
             example="Then column 5 reads 10♦ 9♦ K♥ 4♣"),
    StepSpec("then", "column {column:d} ends with {cards}",
             lambda column, cards: {"expect": "column-ends", "column": column,
                                    "up": _cards(cards)}),
    StepSpec("then", "column {column:d} is empty",
             lambda column: {"expect": "column", "column": column, "down": [], "up": []}),
    StepSpec("then", "the legal actions are exactly {actions}",
             lambda actions: {"expect": "legal", "actions": parse_action_list(actions)},
             example="Then the legal actions are exactly 9♦ to column 5, deal"),
    StepSpec("then", "no action is legal", lambda: {"expect": "legal", "actions": []}),
    StepSpec("then", "{action} is legal",
             lambda action: {"expect": "listed", "action": parse_action(action), "listed": True},
             example="Then 9♦ to column 5 is legal"),
    StepSpec("then", "{action} is not legal",
             lambda action: {"expect": "listed", "action": parse_action(action), "listed": False}),
    StepSpec("then", "the game is {status:Status}",
             lambda status: {"expect": "status", "status": status}),
    StepSpec("then", "the {suit:Suit} run has been collected",
             lambda suit: {"expect": "collected", "suit": suit, "collected": True}),
    StepSpec("then", "the {suit:Suit} run has not been collected",
             lambda suit: {"expect": "collected", "suit": suit, "collected": False}),
    StepSpec("then", "no run has been collected", lambda: {"expect": "removed", "suits": []}),
    StepSpec("then", "{card:Card} is face {face:Face}",
             lambda card, face: {"expect": "face", "card": card.code, "face": face}),
    StepSpec("then", "the stock is empty", lambda: {"expect": "stock", "stock": []}),
    StepSpec("then", "the stock holds {cards}",
             lambda cards: {"expect": "stock", "stock": _cards(cards)}),
    StepSpec("then", "the table is unchanged", lambda: {"expect": "unchanged"}),
    StepSpec("then", "the table is as it was at the start", lambda: {"expect": "as-start"}),
)


def find_step(kind: str, text: str) -> tuple[StepSpec, dict[str, Any]] | None:
    """The library entry that reads ``text`` as a ``kind`` step, with its parsed words.

    Raises :class:`~.notation.NotationError` when the sentence fits a pattern but a
    card or suit in it is not in the notation.
    """
    # A bad card must be reported as such, not as an unknown sentence: match the
    # shape first (every typed field accepts any word), then convert.
    for spec in LIBRARY:
        if spec.kind != kind:
            continue
        result = spec.compiled().parse(text)
        if result is not None:
            return spec, dict(result.named)
    return None


def build_instruction(kind: str, text: str, table: Table = None) -> Instruction:
    """The instruction a step sentence stands for.

    Raises :class:`UnknownStep` for a sentence outside the library, and
    :class:`~.notation.NotationError` for bad notation inside a known one.
    """
    found = find_step(kind, text)
    if found is None:
        known = "\n  ".join(f"{s.kind.title()} {s.pattern}" for s in LIBRARY if s.kind == kind)
        raise UnknownStep(f"no {kind} step reads {text!r}; the {kind} steps are:\n  {known}")
    spec, words = found
    if spec.takes_table:
        return spec.build(table)
    if table is not None:
        raise NotationError(f"the step {text!r} takes no data table")
    return spec.build(**words)
