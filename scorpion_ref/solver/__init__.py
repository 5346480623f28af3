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
transfer that only relabels, safe moves played without branching (every
position it keeps is *settled*: no move that can never hurt is left to
play), move ordering, and two dead-deal theorems asked at the start,
``face-down-cycle`` and ``missing-cards`` (:mod:`.reductions`, each with its
soundness argument). A rule set with an option value that
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

A search can go on with a bigger budget instead of starting again
(:class:`.search.Search`); :func:`climb` climbs a ladder of budgets that way.

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> solve(start, get_ruleset("standard")).outcome
'won'
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence

from ..engine import Status, apply, status
from ..position import Position
from ..rules import RuleSet
from .fast import knows
from .outcome import Budget, Outcome, Solution
from .plain import plain_solve
from .search import Search, chosen_core

__all__ = ["SOLVER_VERSION", "Budget", "Outcome", "Solution", "climb", "plain_solve", "solve"]

#: Bumped whenever the answers (outcomes, lines, proofs or node counts) could change.
SOLVER_VERSION = "2.0"


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
    budget = budget or Budget()
    if not knows(rules):  # an option the compact representation was not written for
        return plain_solve(position, rules, budget, progress=progress)
    found = Search(position, rules, budget.memory_mb, core=core).run(budget.nodes, progress)
    return _replayed(position, rules, found)


def climb(
    position: Position,
    rules: RuleSet,
    budgets: Sequence[int],
    memory_mb: int = Budget().memory_mb,
    *,
    core: str = "auto",
) -> Iterator[tuple[Solution, int]]:
    """Solve ``position`` at each budget of ``budgets`` (smallest first) until it is decided, with one
    search that goes on from rung to rung: yields each rung's solution, and how many of its
    positions were searched already for the rung before (0 for the first, and wherever the search
    had to start again: under a rule set the compact representation was not written for, where
    :func:`plain_solve` searches).

    It stops after a won or lost answer, or an unknown one for memory (a bigger budget of
    positions would not help). A ``won`` line is replayed as :func:`solve` replays it. Raises
    :class:`ValueError` for budgets that are not increasing.

    >>> from scorpion_ref import deal_game, get_ruleset
    >>> [(s.outcome, s.nodes, carried) for s, carried in climb(deal_game(27), get_ruleset("standard"),
    ...                                                       [1000, 4000])]
    [('unknown', 1000, 0), ('unknown', 4000, 1000)]
    """
    chosen_core(core)
    if any(b <= a for a, b in itertools.pairwise(budgets)):
        raise ValueError(f"the budgets of a ladder go up: {list(budgets)}")
    going = Search(position, rules, memory_mb, core=core) if knows(rules) else None
    before = 0
    for nodes in budgets:
        if going is None:
            found = plain_solve(position, rules, Budget(nodes=nodes, memory_mb=memory_mb))
            carried = 0
        else:
            found = _replayed(position, rules, going.run(nodes))
            carried = min(before, found.nodes)
        yield found, carried
        if found.outcome != "unknown" or found.proof == "memory":
            return
        before = found.nodes


def _replayed(position: Position, rules: RuleSet, solution: Solution) -> Solution:
    """``solution``, after replaying a ``won`` line through the engine; a line that does not win
    raises :class:`AssertionError` (a bug of the solver, never an answer)."""
    if solution.outcome == "won":
        here = position
        for action in solution.line:
            here = apply(here, rules, action).position
        if status(here, rules) is not Status.WON:
            raise AssertionError(f"the solver's line does not win: {[str(a) for a in solution.line]}")
    return solution
