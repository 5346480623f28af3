"""Counting perft with the reference engine: the leaves of the legal-action tree.

The counts are made on the solver's compact representation
(:mod:`scorpion_ref.solver.fast`), whose legal moves, in the engine's order,
and their effects ``tests/test_solver_fast.py`` holds equal to the engine's
(``legal_actions`` and ``apply``) under every rule set; the last level is
counted without playing it. A rule set with an option value that
representation was not written for (:func:`~scorpion_ref.solver.fast.knows`)
is counted through the engine itself, action by action. ``tests/test_perft.py``
checks both against every shipped perft file and against a naive counter
that shares nothing with either.

>>> from scorpion_ref import deal_game, get_ruleset
>>> perft_counts(deal_game(1), get_ruleset("standard"), 3)
[6, 29, 123]
"""

from __future__ import annotations

import sys
from typing import TextIO

from scorpion_ref import Position, RuleSet, apply, legal_actions
from scorpion_ref.solver.fast import Flags, State, apply_move, encode, knows, legal, to_action
from scorpion_ref.solver.fast import latent_run as _latent_run

__all__ = ["divide", "engine_perft", "perft", "perft_counts", "perft_with_progress"]

#: How long a count runs before it shows a progress bar, in seconds.
PROGRESS_AFTER = 1.0


def _count(state: State, flags: Flags, depth: int, sweep: bool) -> int:
    """Perft of a compact state at ``depth >= 1``; ``sweep``: the state may hold a run not collected
    yet (only a start position can), which the first action collects wherever it lies."""
    moves = legal(state, flags)[0]
    if depth == 1:
        return len(moves)
    return sum(_count(apply_move(state, flags, move, sweep), flags, depth - 1, False) for move in moves)


def perft(position: Position, rules: RuleSet, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``position``.

    >>> from scorpion_ref import Position, get_ruleset
    >>> perft(Position.build(["KS", "QS"]), get_ruleset("standard"), 2)
    0
    """
    if depth <= 0:
        return 1
    if not knows(rules):
        return engine_perft(position, rules, depth)
    state = encode(position)
    return _count(state, Flags.of(rules), depth, _latent_run(state))


def engine_perft(position: Position, rules: RuleSet, depth: int) -> int:
    """:func:`perft` through the engine's own ``legal_actions`` and ``apply``, action by action.

    >>> from scorpion_ref import deal_game, get_ruleset
    >>> engine_perft(deal_game(1), get_ruleset("standard"), 3)
    123
    """
    if depth <= 0:
        return 1
    actions = legal_actions(position, rules)
    if depth == 1:
        return len(actions)
    return sum(engine_perft(apply(position, rules, a).position, rules, depth - 1) for a in actions)


def perft_counts(position: Position, rules: RuleSet, depth: int) -> list[int]:
    """``[perft(position, rules, d) for d in 1..depth]`` in one walk of the tree."""
    counts = [0] * (depth + 1)
    if depth <= 0:
        return counts[1:]
    if not knows(rules):

        def walk(node: Position, level: int) -> None:
            actions = legal_actions(node, rules)
            counts[level + 1] += len(actions)
            if level + 1 < depth:
                for action in actions:
                    walk(apply(node, rules, action).position, level + 1)

        walk(position, 0)
        return counts[1:]
    flags = Flags.of(rules)

    def walk_fast(state: State, level: int, sweep: bool) -> None:
        moves = legal(state, flags)[0]
        counts[level + 1] += len(moves)
        if level + 1 < depth:
            for move in moves:
                walk_fast(apply_move(state, flags, move, sweep), level + 1, False)

    start = encode(position)
    walk_fast(start, 0, _latent_run(start))
    return counts[1:]


def divide(position: Position, rules: RuleSet, depth: int) -> list[tuple[str, int]]:
    """``perft(child, depth - 1)`` for every first action, sorted by its notation.

    >>> from scorpion_ref import Position, get_ruleset
    >>> divide(Position.build(["TD", "3S | 9D"]), get_ruleset("standard"), 1)
    [('9D>1', 1)]
    """
    if not knows(rules):
        return sorted(
            (str(action), engine_perft(apply(position, rules, action).position, rules, depth - 1))
            for action in legal_actions(position, rules)
        )
    flags = Flags.of(rules)
    start = encode(position)
    sweep = _latent_run(start)
    found = []
    for move in legal(start, flags)[0]:
        child = apply_move(start, flags, move, sweep)
        count = 1 if depth <= 1 else _count(child, flags, depth - 1, False)
        found.append((str(to_action(start, move)), count))
    return sorted(found)


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
