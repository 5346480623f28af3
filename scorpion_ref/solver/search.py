"""The solver's search: depth-first, over the compact states of :mod:`.fast`, with the
reductions of :mod:`.reductions`.

The search keeps the real state along its path and the real moves, so the
line it returns is in the engine's column numbers; only the transposition
table's keys forget the order of the columns the stock cannot reach.

>>> from scorpion_ref import Position, get_ruleset
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> solution = search(start, get_ruleset("standard"), Budget())
>>> solution.outcome, [str(a) for a in solution.line]
('won', ['AS>1'])
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

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

__all__ = ["CHECK_EVERY", "FRAME_BYTES", "search", "table_bytes"]

#: How often (in positions expanded) progress is reported and the memory estimated.
CHECK_EVERY = 4096
#: A generous estimate of one frame of the search's path (a state and its children's states).
FRAME_BYTES = 6000
_BYTES_HEADER = sys.getsizeof(b"")


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
) -> Solution:
    """Decide ``position``; see :func:`scorpion_ref.solver.solve` for the contract.

    With ``reduced`` false, the same search over the same representation runs
    with none of the reductions: the key is the whole state with the columns
    in order, every legal action is tried in the engine's order, and no
    dead-deal theorem is asked. The tests hold the two equal.
    """
    began = time.perf_counter()

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
    root_moves = [m for m in root_moves if m != DEAL]
    root_moves = [m for m in root_moves if root[0][m[2]] or m[2] in targets_of(root[0], len(root[1]))]
    deal = bool(root[1]) and (flags.any_time or not available)
    if reduced:
        ordered = order_moves(root, root_moves, deal, not latent)
    else:
        ordered = [*root_moves, DEAL] if deal else root_moves
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
