"""Walking an adapter's action tree through the protocol, and finding where it first
differs from the reference's.

:class:`AdapterTree` counts perft through an adapter from one start position;
:func:`find_divergence` divides a mismatch down to the first position whose
legal actions differ, and :class:`Divergence` reports it, with the position
drawn and in JSON. Actions are named in the engine's notation (``9D>5``,
``deal``) throughout.

>>> from scorpion_ref import Position, get_ruleset
>>> found = Divergence(["deal"], Position.build(["TD", "9D"]), missing=["9D>1"], extra=[], twice=[])
>>> for line in found.report(get_ruleset("standard")).splitlines()[:2]:
...     print(line)
first difference after: deal
  the rules allow, the adapter does not list: 9D>1
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorpion_ref import Position, RuleSet, apply, legal_actions, parse_action, status
from scorpion_ref.serial import action_to_json, draw_position, position_to_json

from ..compare import action_key, legal_difference, state_difference
from .count import divide

if TYPE_CHECKING:
    from ..client import AdapterClient
    from ..protocol import Response

__all__ = ["AdapterTree", "Divergence", "PerftMismatch", "find_divergence"]


def _notation(action: dict[str, Any]) -> str:
    """A protocol action in the engine's notation (``"9D>5"``, ``"deal"``)."""
    return action_key(action).notation


def _refusal(response: Response) -> str:
    error = response.error
    return f"{error.code} {error.message}" if error is not None else "(no error given)"


class PerftMismatch(Exception):
    """The adapter's counts differ from the reference's."""


class AdapterTree:
    """Walks an adapter's action tree through the protocol, from one start position.

    It goes back up the tree with ``undo`` when the adapter offers it, else by
    starting the start position again and replaying the path.
    """

    def __init__(self, client: AdapterClient, rules: str, start: Position, *, use_undo: bool) -> None:
        self.client = client
        self.rules = rules
        self.start_json = position_to_json(start)
        self.use_undo = use_undo
        self.path: list[dict[str, Any]] = []
        self.requests = 0
        self.client.start(rules, self.start_json)

    def legal(self) -> list[dict[str, Any]]:
        self.requests += 1
        return list(self.client.legal())

    def play(self, action: dict[str, Any]) -> None:
        self.requests += 1
        response = self.client.play(action)
        if not response.ok:
            where = " ".join(_notation(a) for a in self.path) or "the start"
            raise PerftMismatch(
                f"the adapter listed {_notation(action)} after {where} but refused to play it: "
                f"{_refusal(response)}"
            )
        self.path.append(action)

    def back(self) -> None:
        self.path.pop()
        if self.use_undo:
            self.requests += 1
            response = self.client.undo()
            if not response.ok:
                message = response.error.message if response.error is not None else "(no error given)"
                raise PerftMismatch(f"the adapter refused undo: {message}")
            return
        path, self.path = self.path, []
        self.requests += 1
        self.client.start(self.rules, self.start_json)
        for action in path:
            self.play(action)

    def count(self, depth: int) -> int:
        """perft from the current node."""
        if depth <= 0:
            return 1
        actions = self.legal()
        if depth == 1:
            return len(actions)
        total = 0
        for action in actions:
            self.play(action)
            total += self.count(depth - 1)
            self.back()
        return total

    def divide(self, depth: int) -> Counter[str]:
        """The count under each first action from the current node (by notation)."""
        result: Counter[str] = Counter()
        for action in self.legal():
            if depth <= 1:
                result[_notation(action)] += 1
                continue
            self.play(action)
            result[_notation(action)] += self.count(depth - 1)
            self.back()
        return result


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where an adapter's tree first differs from the reference's."""

    path: list[str]
    position: Position
    missing: list[str]
    extra: list[str]
    twice: list[str]
    table: str | None = None  # how the adapter's table differs there, if it does

    def report(self, rules: RuleSet) -> str:
        lines = [
            "first difference after: " + (" ".join(self.path) or "(the start position)"),
        ]
        if self.extra:
            lines.append("  the adapter lists, the rules refuse: " + ", ".join(self.extra))
        if self.missing:
            lines.append("  the rules allow, the adapter does not list: " + ", ".join(self.missing))
        if self.twice:
            lines.append("  the adapter lists more than once: " + ", ".join(self.twice))
        if self.table:
            lines.append("  the adapter's table differs there: " + self.table)
        lines.append(f"the position there ({rules.name}, reference engine):")
        lines.extend("  " + row for row in draw_position(self.position).splitlines())
        compact = json.dumps(position_to_json(self.position), separators=(",", ":"))
        lines.append("  JSON: " + compact)
        return "\n".join(lines)


def find_divergence(
    tree: AdapterTree, position: Position, rules: RuleSet, depth: int
) -> Divergence | None:
    """Divide down from the tree's current node: follow the first action (in notation
    order) whose counts differ, down to the node whose legal actions differ.

    None when the counts agree all the way down.
    """
    path: list[str] = []
    while depth >= 1:
        listed = tree.legal()
        found = legal_difference(map(action_to_json, legal_actions(position, rules)), listed)
        if found is not None:
            expected = {**position_to_json(position), "status": status(position, rules).value}
            return Divergence(
                path, position,
                missing=sorted(key.notation for key in found.missing),
                extra=sorted(key.notation for key in found.extra),
                twice=sorted(key.notation for key in found.twice),
                table=state_difference(expected, tree.client.state()),
            )
        if depth == 1:
            return None
        theirs = tree.divide(depth)
        reference = dict(divide(position, rules, depth))
        differing = sorted(k for k in reference if reference[k] != theirs[k])
        if not differing:
            return None
        step = differing[0]
        tree.play(next(a for a in listed if _notation(a) == step))
        position = apply(position, rules, parse_action(step)).position
        path.append(step)
        depth -= 1
    return None
