"""The reference adapter's ``solve`` command: the reference solver behind the protocol.

:mod:`scorpion_ref.adapter` hands a ``solve`` request here. The budget of the
request is the number of positions the solver may expand
(:class:`scorpion_ref.solver.Budget`); the answer is ``won`` with the line in
the protocol's action notation, ``lost`` with the proof's name, or
``unknown`` with what ran out. The solver is imported only when a ``solve``
arrives, so an adapter that is never asked to solve starts as fast as before.

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> answer = solve_answer(start, get_ruleset("standard"), read_budget({"cmd": "solve", "budget": 100}))
>>> answer["outcome"], answer["line"]
('won', [{'type': 'move', 'card': 'AS', 'to': 1}])
>>> read_budget({"cmd": "solve", "budget": 0})
Traceback (most recent call last):
...
ValueError: budget must be a whole number of positions from 1, not 0
"""

from __future__ import annotations

import json
from typing import Any

from .position import Position
from .rules import RuleSet
from .serial import action_to_json

__all__ = ["MEMORY_MB", "read_budget", "solve_answer"]

#: The transposition table's estimated size at most, in MiB; past it the answer is unknown.
MEMORY_MB = 512


def read_budget(request: dict[str, Any]) -> int:
    """The budget of a ``solve`` request; raises :class:`ValueError` saying what is wrong."""
    if "budget" not in request:
        raise ValueError("solve needs a budget field (the most positions to examine, from 1)")
    budget = request["budget"]
    if not isinstance(budget, int) or isinstance(budget, bool) or budget < 1:
        plain = isinstance(budget, int | float | str | None)
        shown = json.dumps(budget)[:60] if plain else type(budget).__name__
        raise ValueError(f"budget must be a whole number of positions from 1, not {shown}")
    return budget


def solve_answer(position: Position, rules: RuleSet, budget: int) -> dict[str, Any]:
    """The answer to ``solve`` for ``position`` under ``rules``, expanding at most ``budget`` positions."""
    from .solver import Budget, solve

    solution = solve(position, rules, Budget(nodes=budget, memory_mb=MEMORY_MB))
    answer: dict[str, Any] = {"ok": True, "outcome": solution.outcome, "nodes": solution.nodes}
    if solution.outcome == "won":
        answer["line"] = [action_to_json(action) for action in solution.line]
    elif solution.proof:
        answer["proof"] = solution.proof
    return answer
