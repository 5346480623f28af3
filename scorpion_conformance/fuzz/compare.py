"""The fuzzer's record of a difference, and the helpers that put the reference's
side of a comparison in the protocol's terms.

The comparison itself (states, legal actions, in words) is the one that perft,
check-adapter and the suite share: :mod:`scorpion_conformance.compare`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorpion_ref import Action, Position, RuleSet, status
from scorpion_ref.serial import action_to_json, position_to_json

from ..errors import AdapterError
from ..notation import show_action


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


def _reference_state(position: Position, rules: RuleSet) -> dict[str, Any]:
    return {**position_to_json(position), "status": status(position, rules).value}


def _say(action: Action) -> str:
    return show_action(action_to_json(action))


def _fault(error: AdapterError, index: int, phase: str) -> Difference:
    return Difference("fault", index, phase, str(error), fault=type(error).__name__)
