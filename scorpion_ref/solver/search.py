"""The solver's search: depth-first, over the compact states of :mod:`.fast`, with the
reductions of :mod:`.reductions`.

The search keeps the real state along its path and the real moves, so the
line it returns is in the engine's column numbers; only the transposition
table's keys forget the order of the columns the stock cannot reach.

A :class:`Search` can go on: :meth:`Search.run` searches until a number of
positions, and a later call with a bigger number continues from where the
first stopped, with the same table, instead of starting again. It answers
exactly what a new search with the bigger budget would (the same outcome,
proof, node count and line): the search is deterministic, and it stops
before expanding a position, which the next call expands first.

There are two cores for the loop after the root checks, held equal by
``tests/test_solver_core.py`` (the same outcome, proof, node count and line
wherever neither runs out of memory): the Python loop of :mod:`.loop`, and the
compiled :mod:`._core` (``_core.c``), built when the package is installed
on a machine with a C compiler (``benchmarks/solve.py`` measures it).
``core="auto"`` takes the compiled one when it can be imported, else the
Python loop; the environment variable ``SCORPION_SOLVER_CORE`` (``python``,
``compiled`` or ``auto``) sets what ``"auto"`` means, so
``SCORPION_SOLVER_CORE=python`` forces the Python loop everywhere.

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> solution = search(start, get_ruleset("standard"), Budget())
>>> solution.outcome, [str(a) for a in solution.line]
('won', ['AS>1'])
"""

from __future__ import annotations

import os
import time
from typing import Literal

from ..actions import Action
from ..position import Position
from ..rules import RuleSet
from .fast import (
    DEAL,
    FastMove,
    Flags,
    apply_move,
    encode,
    legal,
    to_action,
    won,
)
from .fast import (
    latent_run as _latent_run,
)
from .loop import CHECK_EVERY, FRAME_BYTES, Answer, Progress, PythonLoop, all_empty, table_bytes
from .outcome import Budget, Solution
from .reductions import (
    empty_targets,
    face_down_cycle,
    missing_cards,
    order_moves,
    safe_move,
)

try:
    from . import _core

    _CORE_MISSING: ImportError | None = None
except ImportError as error:  # built without a C compiler: the Python loop only
    _core = None  # type: ignore[assignment]
    _CORE_MISSING = error

__all__ = [
    "CHECK_EVERY",
    "CORES",
    "CORE_VARIABLE",
    "FRAME_BYTES",
    "Search",
    "chosen_core",
    "flag_bits",
    "search",
    "table_bytes",
]

#: The values of ``core``.
CORES = ("auto", "python", "compiled")
#: The environment variable that says what ``core="auto"`` means.
CORE_VARIABLE = "SCORPION_SOLVER_CORE"
Core = Literal["auto", "python", "compiled"]


def chosen_core(core: str = "auto") -> Literal["python", "compiled"]:
    """The core a search with ``core`` runs: ``"compiled"`` or ``"python"``.

    ``"auto"`` reads :data:`CORE_VARIABLE` (unset means ``auto``), then takes
    the compiled core if it was built. Raises :class:`ValueError` for a value
    not in :data:`CORES`, and :class:`ImportError` when the compiled core is
    asked for and was not built.

    >>> chosen_core("python")
    'python'
    """
    if core not in CORES:
        raise ValueError(f"core is one of {', '.join(CORES)}, not {core!r}")
    if core == "auto":
        core = os.environ.get(CORE_VARIABLE, "auto") or "auto"
        if core not in CORES:
            raise ValueError(f"{CORE_VARIABLE} is one of {', '.join(CORES)}, not {core!r}")
    if core == "python":
        return "python"
    if _CORE_MISSING is None:
        return "compiled"
    if core == "auto":
        return "python"
    raise ImportError(
        "the compiled core of the solver (scorpion_ref.solver._core) was not built on this machine: "
        "the package was installed where no C compiler was found, or the build failed; reinstall it "
        "where one is (pip install -e . or pip install .), or ask for core='python'"
    ) from _CORE_MISSING


def flag_bits(flags: Flags) -> int:
    """The flags as one integer, as the compiled core reads them (the one place that says which bit
    is which; ``_core.c`` names the same bits ``F_COLLECT`` to ``F_RUNS_IGNORED``).

    >>> from scorpion_ref import get_ruleset
    >>> flag_bits(Flags.of(get_ruleset("standard")))
    3
    """
    return (
        flags.collect | flags.any_time << 1 | flags.empty_any << 2 | flags.whole_allowed << 3
        | flags.one_per_column << 4 | flags.runs_ignored << 5
    )


class Search:
    """A search of ``position`` under ``rules`` that can go on with a bigger budget of positions.

    The root checks (won already, lost already, the dead-deal theorems) are
    made at once; :meth:`run` searches. ``memory_mb`` bounds the table for
    the whole search. With ``reduced`` false, the same search over the same
    representation runs with none of the reductions: the key is the whole
    state with the columns in order, every legal action is tried in the
    engine's order, no position is settled and no dead-deal theorem is
    asked. The tests hold the two equal. ``core`` picks the loop that runs
    after the root checks (see :func:`chosen_core`).

    >>> from scorpion_ref import deal_game, get_ruleset
    >>> going = Search(deal_game(27), get_ruleset("standard"))
    >>> first = going.run(1000)
    >>> first.outcome, first.proof, first.nodes
    ('unknown', 'nodes', 1000)
    >>> going.run(5000).nodes == search(deal_game(27), get_ruleset("standard"), Budget(nodes=5000)).nodes
    True
    """

    def __init__(
        self,
        position: Position,
        rules: RuleSet,
        memory_mb: int = Budget().memory_mb,
        *,
        reduced: bool = True,
        core: str = "auto",
    ) -> None:
        began = time.perf_counter()
        self._core = chosen_core(core)
        self._flags = flags = Flags.of(rules)
        self._root = root = encode(position)
        self._reduced = reduced
        self._memory_limit = Budget(memory_mb=memory_mb).memory_mb * 1024 * 1024
        self._final: Answer | None = None
        self._budget = 0
        self._python: PythonLoop | None = None
        self._compiled: _core.Search | None = None
        self._latent = latent = flags.collect and _latent_run(root)
        self._seconds = 0.0
        self._ordered: list[FastMove] = []
        if won(root, flags):
            self._final = ("won", None, 0, [])
        else:
            root_moves, available = legal(root, flags)
            if not root[1] and not available:
                self._final = ("lost", "exhausted", 0, [])
            elif reduced and missing_cards(root, flags):
                self._final = ("lost", "missing-cards", 0, [])
            elif reduced and face_down_cycle(root, flags):
                self._final = ("lost", "face-down-cycle", 0, [])
            else:
                targets_of = empty_targets if reduced else all_empty
                moves = [m for m in root_moves if m != DEAL]
                moves = [m for m in moves if root[0][m[2]] or m[2] in targets_of(root[0], len(root[1]))]
                deal = bool(root[1]) and (flags.any_time or not available)
                if reduced:
                    self._ordered = order_moves(root, moves, deal, not latent)
                else:
                    self._ordered = [*moves, DEAL] if deal else moves
        self._seconds += time.perf_counter() - began

    @property
    def core(self) -> Literal["python", "compiled"]:
        """The loop that searches."""
        return self._core

    def run(self, nodes: int, progress: Progress | None = None) -> Solution:
        """The answer within ``nodes`` positions in all, going on from the last call.

        ``progress`` is called now and then with the number of positions
        expanded so far. A ``won`` or ``lost`` answer, or an ``unknown`` one
        for memory, is final: later calls return it again. Raises
        :class:`ValueError` for fewer positions than a previous call was given.
        """
        if nodes < self._budget:
            raise ValueError(f"a search that went on to {self._budget:,} positions "
                             f"cannot go back to {nodes:,}")
        began = time.perf_counter()
        self._budget = nodes
        if self._final is not None:
            answer = self._final
        elif nodes < 1:
            answer = ("unknown", "nodes", 0, [])
        else:
            answer = self._go_on(nodes, progress)
            if answer[0] != "unknown" or answer[1] == "memory":
                self._final = answer
                self._python = self._compiled = None  # the table is not needed any more
        self._seconds += time.perf_counter() - began
        outcome, proof, searched, moves = answer
        line = self._line(moves) if outcome == "won" else ()
        return Solution(outcome, line, proof, searched, self._seconds)  # type: ignore[arg-type]

    def _go_on(self, nodes: int, progress: Progress | None) -> Answer:
        """The loop's answer within ``nodes`` positions, the loop made at the first call."""
        root = self._root
        if self._core == "python":
            if self._python is None:
                self._python = PythonLoop(root, self._flags, self._memory_limit, self._reduced, self._latent,
                                           self._ordered)
            return self._python.run(nodes, progress)
        if self._compiled is None:
            self._compiled = _core.Search(root[0], root[1], root[2], flag_bits(self._flags), self._reduced,
                                          self._latent, self._ordered, self._memory_limit)
        outcome, proof, searched, moves, _entries, _peak = self._compiled.run(nodes, progress, CHECK_EVERY)
        return outcome, proof, searched, moves

    def _line(self, moves: list[FastMove]) -> tuple[Action, ...]:
        """The engine's actions of a line of fast moves from the root: the first made with the
        sweep when the root holds a run not yet collected, each followed (in the reduced search)
        by the safe moves that settle the position it makes."""
        line = []
        here = self._root
        for k, move in enumerate(moves):
            line.append(to_action(here, move))
            here = apply_move(here, self._flags, move, self._latent and k == 0)
            while self._reduced and (step := safe_move(here, self._flags)) is not None:
                line.append(to_action(here, step))
                here = apply_move(here, self._flags, step)
        return tuple(line)


def search(
    position: Position,
    rules: RuleSet,
    budget: Budget,
    progress: Progress | None = None,
    *,
    reduced: bool = True,
    core: str = "auto",
) -> Solution:
    """Decide ``position`` within ``budget``; see :func:`scorpion_ref.solver.solve` for the contract
    and :class:`Search` for ``reduced`` and ``core``."""
    return Search(position, rules, budget.memory_mb, reduced=reduced, core=core).run(budget.nodes, progress)
