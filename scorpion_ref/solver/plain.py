"""The plain search: the baseline every reduction of the solver is measured and checked against.

A depth-first search with a transposition table, over the engine's own API
and nothing else: :func:`~scorpion_ref.legal_actions` in the engine's order,
:func:`~scorpion_ref.apply`, :func:`~scorpion_ref.status`, and the
:class:`~scorpion_ref.Position` itself as the table's key. No symmetry, no
dead-deal test, no move ordering, no representation of its own. A position
whose status is won ends the search; one whose status is lost is a dead end
(the game is over there).

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"],
...                        collected="CDH")
>>> solution = plain_solve(start, get_ruleset("standard"))
>>> solution.outcome, [str(a) for a in solution.line]
('won', ['AS>1'])
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator

from ..actions import Action
from ..engine import Status, apply, legal_actions, status
from ..position import Position
from ..rules import RuleSet
from .outcome import Budget, Solution

__all__ = ["PLAIN_ENTRY_BYTES", "plain_solve"]

#: A rough cost of one table entry of the plain search: the Position, its
#: seven-tuple and the new Column objects an action makes, and the set's slot.
PLAIN_ENTRY_BYTES = 400
#: How often (in positions expanded) progress is reported and memory checked.
PROGRESS_EVERY = 10_000


def plain_solve(
    position: Position,
    rules: RuleSet,
    budget: Budget | None = None,
    *,
    progress: Callable[[int], None] | None = None,
) -> Solution:
    """Decide ``position`` under ``rules`` by the plain search (see the module doc)."""
    budget = budget or Budget()
    began = time.perf_counter()

    def done(outcome: str, line: tuple[Action, ...], proof: str | None, nodes: int) -> Solution:
        return Solution(outcome, line, proof, nodes, time.perf_counter() - began)  # type: ignore[arg-type]

    first = status(position, rules)
    if first is Status.WON:
        return done("won", (), None, 0)
    if first is Status.LOST:
        return done("lost", (), "exhausted", 0)
    if budget.nodes < 1:
        return done("unknown", (), "nodes", 0)
    memory_limit = budget.memory_mb * 1024 * 1024
    seen: set[Position] = {position}
    if PLAIN_ENTRY_BYTES + sys.getsizeof(seen) > memory_limit:
        return done("unknown", (), "memory", 0)
    stack: list[Iterator[Action]] = [iter(legal_actions(position, rules))]
    positions: list[Position] = [position]
    line: list[Action] = []
    nodes = 1
    while stack:
        here = positions[-1]
        for action in stack[-1]:
            child = apply(here, rules, action).position
            if child in seen:
                continue
            verdict = status(child, rules)
            if verdict is Status.WON:
                return done("won", (*line, action), None, nodes)
            seen.add(child)
            if verdict is Status.LOST:
                continue
            if nodes >= budget.nodes:
                return done("unknown", (), "nodes", nodes)
            nodes += 1
            if nodes % PROGRESS_EVERY == 0:
                if progress is not None:
                    progress(nodes)
                if len(seen) * PLAIN_ENTRY_BYTES + sys.getsizeof(seen) > memory_limit:
                    return done("unknown", (), "memory", nodes)
            stack.append(iter(legal_actions(child, rules)))
            positions.append(child)
            line.append(action)
            break
        else:
            stack.pop()
            positions.pop()
            if line:
                line.pop()
    return done("lost", (), "exhausted", nodes)
