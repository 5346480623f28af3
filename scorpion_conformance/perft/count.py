"""Counting perft with the reference engine: the leaves of the legal-action tree.

>>> from scorpion_ref import deal_game, get_ruleset
>>> perft_counts(deal_game(1), get_ruleset("standard"), 3)
[6, 29, 123]
"""

from __future__ import annotations

import sys
from typing import TextIO

from scorpion_ref import Position, RuleSet, apply, legal_actions

__all__ = ["divide", "perft", "perft_counts", "perft_with_progress"]

#: How long a count runs before it shows a progress bar, in seconds.
PROGRESS_AFTER = 1.0


def perft(position: Position, rules: RuleSet, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``position``.

    >>> from scorpion_ref import Position, get_ruleset
    >>> perft(Position.build(["KS", "QS"]), get_ruleset("standard"), 2)
    0
    """
    if depth <= 0:
        return 1
    actions = legal_actions(position, rules)
    if depth == 1:
        return len(actions)
    return sum(perft(apply(position, rules, a).position, rules, depth - 1) for a in actions)


def perft_counts(position: Position, rules: RuleSet, depth: int) -> list[int]:
    """``[perft(position, rules, d) for d in 1..depth]`` in one walk of the tree."""
    counts = [0] * (depth + 1)

    def walk(node: Position, level: int) -> None:
        actions = legal_actions(node, rules)
        counts[level + 1] += len(actions)
        if level + 1 < depth:
            for action in actions:
                walk(apply(node, rules, action).position, level + 1)

    if depth > 0:
        walk(position, 0)
    return counts[1:]


def divide(position: Position, rules: RuleSet, depth: int) -> list[tuple[str, int]]:
    """``perft(child, depth - 1)`` for every first action, sorted by its notation.

    >>> from scorpion_ref import Position, get_ruleset
    >>> divide(Position.build(["TD", "3S | 9D"]), get_ruleset("standard"), 1)
    [('9D>1', 1)]
    """
    return sorted(
        (str(action), perft(apply(position, rules, action).position, rules, depth - 1))
        for action in legal_actions(position, rules)
    )


def _frontier(position: Position, rules: RuleSet, levels: int) -> list[Position]:
    """The positions ``levels`` actions below ``position``, one per path."""
    nodes = [position]
    for _ in range(levels):
        nodes = [apply(node, rules, a).position for node in nodes for a in legal_actions(node, rules)]
    return nodes


def perft_with_progress(
    position: Position, rules: RuleSet, depth: int, *, out: TextIO | None = None
) -> int:
    """:func:`perft`, with a progress bar on ``out`` (standard error) once a count takes a while.

    The tree is cut two actions down and each subtree counted in turn, so the bar
    moves; it shows only after :data:`PROGRESS_AFTER` seconds and only on a terminal.

    >>> from scorpion_ref import deal_game, get_ruleset
    >>> perft_with_progress(deal_game(1), get_ruleset("standard"), 3)
    123
    """
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    if depth <= 2:
        return perft(position, rules, depth)
    levels = 2
    subtrees = _frontier(position, rules, levels)
    bar = tqdm(subtrees, desc=f"perft {depth}", unit="subtree", delay=PROGRESS_AFTER,
               file=out or sys.stderr, leave=False, disable=None)
    try:
        return sum(perft(node, rules, depth - levels) for node in bar)
    finally:
        bar.close()
