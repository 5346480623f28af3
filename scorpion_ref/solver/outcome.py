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

__all__ = ["Budget", "Outcome", "Solution"]

#: What a search found: a winning line, a proof of loss, or neither within the budget.
Outcome = Literal["won", "lost", "unknown"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a search may spend: positions expanded, and the table's estimated size."""

    nodes: int = 2_000_000
    memory_mb: int = 1024

    def __post_init__(self) -> None:
        for name in ("nodes", "memory_mb"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"a budget's {name} is a whole number of at least 0, not {value!r}")


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
