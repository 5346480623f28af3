"""Setting the adapter's answers against the reference's: the record of a
difference, and the words that say one (states, legal actions, refusals)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorpion_ref import Action, Position, RuleSet, status
from scorpion_ref.serial import action_to_json, position_to_json

from ..errors import AdapterError
from ..suite.notation import SUIT_SYMBOLS, show_action, show_card, show_column


@dataclass
class Difference:
    """Where the adapter and the reference first disagree.

    ``step`` is the index of the step after which they disagree (-1: at the
    start); ``phase`` is the request that showed it (start, play, undo, state
    or legal); ``kind`` names the disagreement (start, accepted, refused,
    reason, unchanged, state, undo, legal, fault).
    """

    kind: str
    step: int
    phase: str
    message: str
    adapter_state: dict[str, Any] | None = None
    adapter_legal: list[dict[str, Any]] | None = None
    fault: str = ""

    def same_kind(self, other: Difference) -> bool:
        return self.kind == other.kind and self.fault == other.fault


def _action_key(action: dict[str, Any]) -> tuple[str, str, int]:
    return (str(action.get("type")), str(action.get("card", "")), int(action.get("to", 0) or 0))


def _reference_state(position: Position, rules: RuleSet) -> dict[str, Any]:
    return {**position_to_json(position), "status": status(position, rules).value}


def state_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """How an adapter's state differs from the reference's, in words; None if equal.

    >>> state_difference({"columns": [{"down": [], "up": ["9D"]}], "stock": [], "removed": [],
    ...                   "status": "lost"}, {"columns": [{"down": [], "up": []}], "stock": [],
    ...                   "removed": [], "status": "lost"})
    'column 1 reads (empty); the rules give 9♦'
    """
    problems = []
    columns = actual.get("columns") or []
    for number, want in enumerate(expected["columns"], start=1):
        got = columns[number - 1] if number <= len(columns) else {}
        if {"down": got.get("down"), "up": got.get("up")} != want:
            problems.append(
                f"column {number} reads {show_column(got)}; the rules give {show_column(want)}"
            )
    if list(actual.get("stock", [])) != expected["stock"]:
        problems.append(
            f"the stock holds {' '.join(map(show_card, actual.get('stock', []))) or 'nothing'};"
            f" the rules give {' '.join(map(show_card, expected['stock'])) or 'nothing'}"
        )
    if sorted(actual.get("removed", [])) != sorted(expected["removed"]):
        problems.append(
            f"the collected suits are {_suits(actual.get('removed', []))};"
            f" the rules give {_suits(expected['removed'])}"
        )
    if actual.get("status") != expected["status"]:
        problems.append(
            f"the status is {actual.get('status')}; the rules give {expected['status']}"
        )
    return "; ".join(problems) or None


def _suits(letters: Sequence[str]) -> str:
    return " ".join(SUIT_SYMBOLS.get(s, s) for s in sorted(letters)) or "none"


def _say(action: Action) -> str:
    return show_action(action_to_json(action))


def _show_key(key: tuple[str, str, int]) -> str:
    kind, card, to = key
    return show_action({"type": kind, "card": card, "to": to})


def _fault(error: AdapterError, index: int, phase: str) -> Difference:
    return Difference("fault", index, phase, str(error), fault=type(error).__name__)
