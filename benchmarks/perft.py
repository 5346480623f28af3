"""How fast the reference engine counts perft (run by hand, not a test).

    .venv/bin/python benchmarks/perft.py [--leaves 3000] [--repeat 3]

For every named rule set and the fixed deals of the perft files (games 1, 2,
617, 32000, 123456; the files are in ``scorpion_conformance/perft/data/``),
perft is counted at the deepest depth whose count stays under ``--leaves``,
and timed:

* ``perft``: :func:`scorpion_conformance.perft.perft` (``perft/count.py``),
  which lists the legal actions with ``legal_actions`` and bulk-counts the
  last level;
* a baseline measured in the same run, on the same trees: the naive counter the
  tests use as the second counting path (every face-up card to every column,
  and the deal, kept when ``is_legal`` accepts it), so the ratio says how much
  the engine's generator saves over trying every candidate.

Rates are leaves (counted action sequences) per second, best of ``--repeat``
for perft; the naive counter, some sixty times slower, runs once. Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable

from scorpion_conformance.perft import perft
from scorpion_ref import (
    RULESETS,
    Action,
    Deal,
    Move,
    Position,
    RuleSet,
    apply,
    deal_game,
    is_legal,
)

GAMES = (1, 2, 617, 32000, 123456)


def naive(position: Position, rules: RuleSet, depth: int) -> int:
    """Perft by trying every candidate action with ``is_legal``."""
    if depth == 0:
        return 1
    candidates: list[Action] = [
        Move(card, to) for column in position.columns for card in column.up for to in range(1, 8)
    ]
    candidates.append(Deal())
    total = 0
    for action in candidates:
        if is_legal(position, rules, action):
            total += 1 if depth == 1 else naive(apply(position, rules, action).position,
                                                 rules, depth - 1)
    return total


def best_rate(count: Callable[[], int], repeat: int) -> float:
    best = 0.0
    for _ in range(repeat):
        began = time.perf_counter()
        leaves = count()
        best = max(best, leaves / (time.perf_counter() - began))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=3_000,
                        help="count each deal at the deepest depth under this many leaves")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, games "
          f"{', '.join(map(str, GAMES))}, up to {args.leaves:,} leaves each, "
          f"best of {args.repeat}")
    header = f"{'rule set':<10} {'leaves':>9} {'perft/s':>10} {'naive/s':>10} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for name, rules in RULESETS.items():
        trees: list[tuple[Position, int]] = []
        for game in GAMES:
            position, depth = deal_game(game), 1
            while depth < 12 and perft(position, rules, depth + 1) <= args.leaves:
                depth += 1
            trees.append((position, depth))
        leaves = sum(perft(p, rules, d) for p, d in trees)
        fast = best_rate(lambda: sum(perft(p, rules, d) for p, d in trees), args.repeat)  # noqa: B023
        slow = best_rate(lambda: sum(naive(p, rules, d) for p, d in trees), 1)  # noqa: B023
        print(f"{name:<10} {leaves:>9,} {fast:>10,.0f} {slow:>10,.0f} {fast / slow:>5.1f}x")
    print("ratio: how many times faster perft counts than the naive candidate filter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
