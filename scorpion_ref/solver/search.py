"""The solver's search: depth-first, over the compact states of :mod:`.fast`, with the
reductions of :mod:`.reductions`.

The search keeps the real state along its path and the real moves, so the
line it returns is in the engine's column numbers; only the transposition
table's keys forget the order of the columns the stock cannot reach.

There are two cores for the loop after the root checks, held equal by
``tests/test_solver_core.py`` (the same outcome, proof, node count and line
wherever neither runs out of memory): this module's Python loop, and the
compiled :mod:`._core` (``_core.c``), about 11 times faster, built when the
package is installed on a machine with a C compiler. ``core="auto"`` takes the
compiled one when it can be imported, else the Python loop; the environment
variable ``SCORPION_SOLVER_CORE`` (``python``, ``compiled`` or ``auto``) sets
what ``"auto"`` means, so ``SCORPION_SOLVER_CORE=python`` forces the Python
loop everywhere.

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> solution = search(start, get_ruleset("standard"), Budget())
>>> solution.outcome, [str(a) for a in solution.line]
('won', ['AS>1'])
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Literal

from ..actions import Action
from ..position import Position
from ..rules import RuleSet
from .fast import (
    ALL_SUITS,
    DEAL,
    RUNS,
    SEP,
    FastMove,
    Flags,
    State,
    apply_move,
    encode,
    legal,
    moves_of,
    to_action,
    won,
)
from .outcome import Budget, Solution
from .reductions import canonical_key, empty_targets, face_down_cycle, missing_cards, order_moves

try:
    from . import _core

    _CORE_MISSING: ImportError | None = None
except ImportError as error:  # built without a C compiler: the Python loop only
    _core = None  # type: ignore[assignment]
    _CORE_MISSING = error

__all__ = ["CHECK_EVERY", "CORES", "CORE_VARIABLE", "FRAME_BYTES", "chosen_core", "search", "table_bytes"]

#: How often (in positions expanded) progress is reported and the memory estimated.
CHECK_EVERY = 4096
#: A generous estimate of one frame of the search's path (a state and its children's states).
FRAME_BYTES = 6000
_BYTES_HEADER = sys.getsizeof(b"")
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


def table_bytes(seen: set[bytes], key_length: int) -> int:
    """An estimate, from above, of what a transposition table of byte keys costs.

    Each key costs a bytes object's header and its characters; the set's own
    array is counted twice, for the resize that the next insertions may cause.
    """
    return len(seen) * (_BYTES_HEADER + key_length) + 2 * sys.getsizeof(seen)


def _latent_run(state: State) -> bool:
    """Whether a column ends in a complete run not yet collected (only a start position can)."""
    return any(len(c) >= 13 and c[-1] % 13 == 0 and c.endswith(RUNS[c[-1] // 13]) for c in state[0])


def _plain_key(state: State) -> bytes:
    """The whole state as bytes, the columns in their order."""
    columns, stock, collected = state
    return bytes((len(stock), collected)) + stock + SEP.join(columns)


def _all_empty(columns: tuple[bytes, ...], reach: int) -> list[int]:
    return [d for d in range(7) if not columns[d]]


def search(
    position: Position,
    rules: RuleSet,
    budget: Budget,
    progress: Callable[[int], None] | None = None,
    *,
    reduced: bool = True,
    core: str = "auto",
) -> Solution:
    """Decide ``position``; see :func:`scorpion_ref.solver.solve` for the contract.

    With ``reduced`` false, the same search over the same representation runs
    with none of the reductions: the key is the whole state with the columns
    in order, every legal action is tried in the engine's order, and no
    dead-deal theorem is asked. The tests hold the two equal. ``core`` picks
    the loop that runs after the root checks (see :func:`chosen_core`).
    """
    began = time.perf_counter()
    which = chosen_core(core)

    def done(outcome: str, line: tuple[Action, ...], proof: str | None, nodes: int) -> Solution:
        return Solution(outcome, line, proof, nodes, time.perf_counter() - began)  # type: ignore[arg-type]

    flags = Flags.of(rules)
    root = encode(position)
    if won(root, flags):
        return done("won", (), None, 0)
    root_moves, available = legal(root, flags)
    if not root[1] and not available:
        return done("lost", (), "exhausted", 0)
    if reduced and missing_cards(root, flags):
        return done("lost", (), "missing-cards", 0)
    if reduced and face_down_cycle(root, flags):
        return done("lost", (), "face-down-cycle", 0)
    if budget.nodes < 1:
        return done("unknown", (), "nodes", 0)
    latent = flags.collect and _latent_run(root)
    targets_of = empty_targets if reduced else _all_empty
    root_moves = [m for m in root_moves if m != DEAL]
    root_moves = [m for m in root_moves if root[0][m[2]] or m[2] in targets_of(root[0], len(root[1]))]
    deal = bool(root[1]) and (flags.any_time or not available)
    if reduced:
        ordered = order_moves(root, root_moves, deal, not latent)
    else:
        ordered = [*root_moves, DEAL] if deal else root_moves
    memory_limit = budget.memory_mb * 1024 * 1024
    if which == "compiled":
        outcome, proof, nodes, moves, _entries, _peak = _core.run(
            root[0], root[1], root[2], _flag_bits(flags), reduced, latent, ordered,
            budget.nodes, memory_limit, progress, CHECK_EVERY,
        )
        return done(outcome, _line(root, flags, latent, moves), proof, nodes)
    return _python_loop(root, flags, budget, progress, reduced, latent, ordered, done)


def _flag_bits(flags: Flags) -> int:
    """The flags as the compiled core reads them."""
    return (
        flags.collect | flags.any_time << 1 | flags.empty_any << 2 | flags.whole_allowed << 3
        | flags.one_per_column << 4 | flags.runs_ignored << 5
    )


def _line(root: State, flags: Flags, latent: bool, moves: list[FastMove]) -> tuple[Action, ...]:
    """The engine's actions of a line of fast moves from ``root`` (the first made with the sweep
    when ``latent``, as the search made it)."""
    line = []
    here = root
    for k, move in enumerate(moves):
        line.append(to_action(here, move))
        here = apply_move(here, flags, move, latent and k == 0)
    return tuple(line)


def _python_loop(
    root: State,
    flags: Flags,
    budget: Budget,
    progress: Callable[[int], None] | None,
    reduced: bool,
    latent: bool,
    ordered: list[FastMove],
    done: Callable[[str, tuple[Action, ...], str | None, int], Solution],
) -> Solution:
    """The search's loop after its root checks, in Python."""
    key_of = canonical_key if reduced else _plain_key
    targets_of = empty_targets if reduced else _all_empty
    root_key = key_of(root)
    key_length = len(root_key)
    memory_limit = budget.memory_mb * 1024 * 1024
    seen = {root_key}
    if table_bytes(seen, key_length) + FRAME_BYTES > memory_limit:
        return done("unknown", (), "memory", 0)

    collect = flags.collect
    any_time = flags.any_time
    max_nodes = budget.nodes
    # Children are made, checked for a win and entered in the table when their parent
    # is expanded; each is expanded later, once, from the frame that holds it.
    states: list[State] = [root]
    frames: list[list[tuple[FastMove, State]]] = [[]]
    for move in ordered:
        child = apply_move(root, flags, move, latent)
        if child[2] == ALL_SUITS if collect else won(child, flags):
            return done("won", (to_action(root, move),), None, 1)
        key = key_of(child)
        if key not in seen:
            seen.add(key)
            frames[0].append((move, child))
    cursors: list[int] = [0]
    path: list[FastMove] = []
    nodes = 1
    next_check = CHECK_EVERY
    while frames:
        children = frames[-1]
        i = cursors[-1]
        if i == len(children):
            states.pop()
            frames.pop()
            cursors.pop()
            if path:
                path.pop()
            continue
        cursors[-1] = i + 1
        move, here = children[i]
        columns, stock, _suits = here
        moves, available = moves_of(here, flags, targets_of(columns, len(stock)))
        if not available and not stock:
            continue  # the game is lost there
        if nodes >= max_nodes:
            return done("unknown", (), "nodes", nodes)
        nodes += 1
        if nodes >= next_check:
            next_check += CHECK_EVERY
            if progress is not None:
                progress(nodes)
            if table_bytes(seen, key_length) + len(states) * FRAME_BYTES > memory_limit:
                return done("unknown", (), "memory", nodes)
        deal = bool(stock) and (any_time or not available)
        if reduced:
            ordered = order_moves(here, moves, deal)
        else:
            moves.sort()
            ordered = [*moves, DEAL] if deal else moves
        kept: list[tuple[FastMove, State]] = []
        for step in ordered:
            child = apply_move(here, flags, step)
            if child[2] == ALL_SUITS if collect else won(child, flags):
                line = [to_action(s, m) for s, m in zip(states, path, strict=False)]
                line.append(to_action(states[-1], move))
                line.append(to_action(here, step))
                return done("won", tuple(line), None, nodes)
            key = key_of(child)
            if key not in seen:
                seen.add(key)
                kept.append((step, child))
        states.append(here)
        frames.append(kept)
        cursors.append(0)
        path.append(move)
    return done("lost", (), "exhausted", nodes)
