"""The solver: exact winnability of a Scorpion position under any rule set.

:func:`solve` answers ``won`` (with a line that replays to a won status
through :func:`scorpion_ref.apply`), ``lost`` (the reachable space is
exhausted, or a dead-deal theorem fired) or ``unknown`` (the budget ran out).
The solver knows every face-down card. It sits beside the engine and knows
nothing of the protocol.

How it searches: depth first over a compact representation of its own
(:mod:`.fast`, held equal to the engine by a property test), with a
transposition table whose keys treat the columns the stock cannot reach as a
multiset, one target per class of equivalent empty columns, no whole-column
transfer that only relabels, move ordering, and two dead-deal theorems asked
at the start, ``face-down-cycle`` and ``missing-cards`` (:mod:`.reductions`,
each with its soundness argument). A rule set with an option value that
representation was not written for (:func:`.fast.knows`) is searched by
:func:`plain_solve` over the engine instead: slower, never wrong. A position whose status is lost ends the
game there. :func:`plain_solve` (:mod:`.plain`) is the plain search the
solver is measured and checked against.

The loop after the root checks has two cores, held equal by
``tests/test_solver_core.py`` (the same outcome, proof, node count and line):
the compiled :mod:`._core`, used when it was built (a C compiler at install
time), and the pure-Python loop of :mod:`.search`, used otherwise, or when
asked for with ``core="python"`` or ``SCORPION_SOLVER_CORE=python``. The
Python loop's table costs about 130 bytes a position, the compiled one's
65 to 80; each stops with ``unknown`` (proof ``"memory"``) before what it
counts passes ``budget.memory_mb``.

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> solve(start, get_ruleset("standard")).outcome
'won'
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine import Status, apply, status
from ..position import Position
from ..rules import RuleSet
from .fast import knows
from .outcome import Budget, Outcome, Solution
from .plain import plain_solve
from .search import chosen_core
from .search import search as _search

__all__ = ["SOLVER_VERSION", "Budget", "Outcome", "Solution", "plain_solve", "solve"]

#: Bumped whenever the answers (outcomes, lines, proofs or node counts) could change.
SOLVER_VERSION = "1.0"


def solve(
    position: Position,
    rules: RuleSet,
    budget: Budget | None = None,
    *,
    progress: Callable[[int], None] | None = None,
    core: str = "auto",
) -> Solution:
    """Decide whether ``position`` can be won under ``rules`` within ``budget``.

    ``progress`` is called now and then with the number of positions expanded.
    ``core`` is ``"auto"``, ``"python"`` or ``"compiled"``: which loop searches
    (see :func:`.search.chosen_core`; a bad value raises :class:`ValueError`,
    ``"compiled"`` where it was not built :class:`ImportError`).
    A ``won`` line is replayed through the engine before it is returned; a
    line that does not win there raises :class:`AssertionError` (a bug of the
    solver, never an answer).
    """
    chosen_core(core)  # a bad value is an error whichever search runs
    if not knows(rules):  # an option the compact representation was not written for
        return plain_solve(position, rules, budget, progress=progress)
    solution = _search(position, rules, budget or Budget(), progress, core=core)
    if solution.outcome == "won":
        here = position
        for action in solution.line:
            here = apply(here, rules, action).position
        if status(here, rules) is not Status.WON:
            raise AssertionError(f"the solver's line does not win: {[str(a) for a in solution.line]}")
    return solution
