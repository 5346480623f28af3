"""The solver's search loop in Python: the loop after the root checks, which
:class:`~.search.Search` runs where the compiled core (``_core.c``) is not
built or not asked for. ``tests/test_solver_core.py`` holds the two equal.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from .fast import ALL_SUITS, DEAL, SEP, FastMove, Flags, State, apply_move, moves_of, won
from .reductions import canonical_key, empty_targets, order_moves, settle

__all__ = ["CHECK_EVERY", "FRAME_BYTES", "Answer", "Progress", "PythonLoop", "all_empty", "plain_key",
           "table_bytes"]

#: How often (in positions expanded) progress is reported and the memory estimated.
CHECK_EVERY = 4096
#: A generous estimate of one frame of the search's path (a state and its children's states).
FRAME_BYTES = 6000
_BYTES_HEADER = sys.getsizeof(b"")
Progress = Callable[[int], None]
#: What a loop answers: (outcome, proof, positions expanded, line of fast moves).
Answer = tuple[str, str | None, int, list[FastMove]]


def table_bytes(seen: set[bytes], key_length: int) -> int:
    """An estimate, from above, of what a transposition table of byte keys costs.

    Each key costs a bytes object's header and its characters; the set's own
    array is counted twice, for the resize that the next insertions may cause.
    """
    return len(seen) * (_BYTES_HEADER + key_length) + 2 * sys.getsizeof(seen)


def plain_key(state: State) -> bytes:
    """The whole state as bytes, the columns in their order."""
    columns, stock, collected = state
    return bytes((len(stock), collected)) + stock + SEP.join(columns)


def all_empty(columns: tuple[bytes, ...], reach: int) -> list[int]:
    return [d for d in range(7) if not columns[d]]


class PythonLoop:
    """The search's loop after its root checks, in Python; :meth:`run` goes on from where it stopped.

    Children are made (and, in the reduced search, settled), checked for a
    win and entered in the table when their parent is expanded; each is
    expanded later, once, from the frame that holds it.
    """

    def __init__(self, root: State, flags: Flags, memory_limit: int, reduced: bool, latent: bool,
                 ordered: list[FastMove]) -> None:
        self.flags = flags
        self.reduced = reduced
        self.memory_limit = memory_limit
        self.key_of = canonical_key if reduced else plain_key
        self.targets_of = empty_targets if reduced else all_empty
        root_key = self.key_of(root)
        self.key_length = len(root_key)
        self.seen = {root_key}
        self.states: list[State] = [root]
        self.frames: list[list[tuple[FastMove, State]]] = [[]]
        self.cursors: list[int] = [0]
        self.path: list[FastMove] = []
        self.nodes = 1
        self.next_check = CHECK_EVERY
        self.answer: Answer | None = None
        if table_bytes(self.seen, self.key_length) + FRAME_BYTES > memory_limit:
            self.answer = ("unknown", "memory", 0, [])
            return
        for move in ordered:
            child = apply_move(root, flags, move, latent)
            if reduced:
                child = settle(child, flags)[0]
            if child[2] == ALL_SUITS if flags.collect else won(child, flags):
                self.answer = ("won", None, 1, [move])
                return
            key = self.key_of(child)
            if key not in self.seen:
                self.seen.add(key)
                self.frames[0].append((move, child))

    def run(self, max_nodes: int, progress: Progress | None) -> Answer:
        """The answer within ``max_nodes`` positions, going on from the last call."""
        if self.answer is not None:
            return self.answer
        flags, reduced, seen, key_of = self.flags, self.reduced, self.seen, self.key_of
        collect, any_time, targets_of = flags.collect, flags.any_time, self.targets_of
        frames, cursors, path, states = self.frames, self.cursors, self.path, self.states
        nodes = self.nodes
        try:
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
                    cursors[-1] = i  # expanded first when the search goes on
                    return "unknown", "nodes", nodes, []
                nodes += 1
                if nodes >= self.next_check:
                    self.next_check += CHECK_EVERY
                    if progress is not None:
                        progress(nodes)
                    if table_bytes(seen, self.key_length) + len(states) * FRAME_BYTES > self.memory_limit:
                        self.answer = ("unknown", "memory", nodes, [])
                        return self.answer
                deal = bool(stock) and (any_time or not available)
                if reduced:
                    ordered = order_moves(here, moves, deal)
                else:
                    moves.sort()
                    ordered = [*moves, DEAL] if deal else moves
                kept: list[tuple[FastMove, State]] = []
                for step in ordered:
                    child = apply_move(here, flags, step)
                    if reduced:
                        child = settle(child, flags)[0]
                    if child[2] == ALL_SUITS if collect else won(child, flags):
                        self.answer = ("won", None, nodes, [*path, move, step])
                        return self.answer
                    key = key_of(child)
                    if key not in seen:
                        seen.add(key)
                        kept.append((step, child))
                states.append(here)
                frames.append(kept)
                cursors.append(0)
                path.append(move)
            self.answer = ("lost", "exhausted", nodes, [])
            return self.answer
        finally:
            self.nodes = nodes
