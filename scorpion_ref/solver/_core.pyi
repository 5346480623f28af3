"""The compiled core of the solver's search (``_core.c``): the loop of :mod:`.search` in C."""

from collections.abc import Callable, Sequence

#: The length of the table's keys, in bytes (one per card).
KEY_LENGTH: int
#: The size of one chunk of the arena that holds the keys, in bytes.
CHUNK_SIZE: int

class Search:
    """The search from the root's ordered moves, which can go on with a bigger budget."""

    def __init__(
        self,
        columns: tuple[bytes, ...],
        stock: bytes,
        collected: int,
        flags: int,
        reduced: bool,
        latent: bool,
        root_moves: Sequence[tuple[int, int, int]],
        memory_limit: int,
    ) -> None: ...
    def run(
        self, max_nodes: int, progress: Callable[[int], object] | None, check_every: int
    ) -> tuple[str, str | None, int, list[tuple[int, int, int]], int, int]:
        """Search until ``max_nodes`` positions in all: (outcome, proof, nodes, line of fast moves,
        positions in the table, peak bytes allocated)."""
