"""The solver's budget and its answer, as frozen values.

>>> Budget().nodes
2000000
>>> Solution("lost", (), "exhausted", 12, 0.01).outcome
'lost'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..actions import Action

__all__ = ["MAX_MEMORY_MB", "MAX_NODES", "Budget", "Outcome", "Solution"]

#: The most positions a budget may allow: the compiled core counts them in 64 bits.
MAX_NODES = 2**64 - 1
#: The most megabytes a budget may allow: the compiled core counts the table's bytes in 64 bits.
MAX_MEMORY_MB = MAX_NODES >> 20

#: What a search found: a winning line, a proof of loss, or neither within the budget.
Outcome = Literal["won", "lost", "unknown"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend: positions expanded, and the table's estimated size."""

    nodes: int = 2_000_000
    memory_mb: int = 1024

    def __post_init__(self) -> None:
        for name, most in (("nodes", MAX_NODES), ("memory_mb", MAX_MEMORY_MB)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"a budget's {name} is a whole number of at least 0, not {value!r}")
            if value > most:
                raise ValueError(f"a budget's {name} is at most {most:,}, not {value:,}")


@dataclass(frozen=True, slots=True)
class Solution:
    """The answer of a search.

    ``line`` replays from the start position through :func:`scorpion_ref.apply`
    to a won status when ``outcome`` is ``won``, and is empty otherwise.
    ``proof`` is ``"exhausted"`` or the name of a dead-deal theorem for
    ``lost``, ``"nodes"`` or ``"memory"`` for ``unknown``, and None for ``won``.
    """

    outcome: Outcome
    line: tuple[Action, ...]
    proof: str | None
    nodes: int
    seconds: float
