"""How fast the reference engine counts perft (run by hand, not a test).

    .venv/bin/python benchmarks/perft.py [--leaves 3000] [--repeat 3]

For every named rule set and the fixed deals of the perft files (games 1, 2,
617, 32000, 123456; the files are in ``scorpion_conformance/perft/data/``),
perft is counted at the deepest depth whose count stays under ``--leaves``,
and timed, on the same trees in the same run:

* ``perft``: :func:`scorpion_conformance.perft.perft` (``perft/count.py``),
  which counts on the solver's compact representation
  (``scorpion_ref.solver.fast``) and bulk-counts the last level;
* ``engine``: :func:`scorpion_conformance.perft.count.engine_perft`, the same
  count through the engine's ``legal_actions`` and ``apply`` (how perft
  counted before it used the compact representation);
* ``naive``: the naive counter the tests use as the second counting path
  (every face-up card to every column, and the deal, kept when ``is_legal``
  accepts it).

Rates are leaves (counted action sequences) per second, best of ``--repeat``
for perft and the engine; the naive counter, much slower, runs once. The
ratios are perft's rate over each of the others. Every count is checked
against the others (a difference is printed as a MISMATCH). Nothing is
asserted.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable

from scorpion_conformance.perft import perft
from scorpion_conformance.perft.count import engine_perft
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


def best_rate(count: Callable[[], int], repeat: int) -> tuple[float, int]:
    """The best rate of ``repeat`` timed counts, and the count."""
    best, leaves = 0.0, 0
    for _ in range(repeat):
        began = time.process_time()
        leaves = count()
        best = max(best, leaves / max(time.process_time() - began, 1e-9))
    return best, leaves


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--leaves", type=int, default=3_000,
                        help="count each deal at the deepest depth under this many leaves")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs; the best is kept")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.machine()}, games "
          f"{', '.join(map(str, GAMES))}, up to {args.leaves:,} leaves each, "
          f"best of {args.repeat}")
    header = (f"{'rule set':<10} {'leaves':>9} {'perft/s':>10} {'engine/s':>10} {'naive/s':>10} "
              f"{'/engine':>8} {'/naive':>8}")
    print(header)
    print("-" * len(header))
    wrong = 0
    for name, rules in RULESETS.items():
        trees: list[tuple[Position, int]] = []
        for game in GAMES:
            position, depth = deal_game(game), 1
            while depth < 12 and perft(position, rules, depth + 1) <= args.leaves:
                depth += 1
            trees.append((position, depth))
        fast, leaves = best_rate(lambda: sum(perft(p, rules, d) for p, d in trees), args.repeat)  # noqa: B023
        engine, by_engine = best_rate(lambda: sum(engine_perft(p, rules, d) for p, d in trees),  # noqa: B023
                                      args.repeat)
        slow, by_naive = best_rate(lambda: sum(naive(p, rules, d) for p, d in trees), 1)  # noqa: B023
        print(f"{name:<10} {leaves:>9,} {fast:>10,.0f} {engine:>10,.0f} {slow:>10,.0f} "
              f"{fast / engine:>7.1f}x {fast / slow:>7.1f}x", flush=True)
        if not leaves == by_engine == by_naive:
            wrong += 1
            print(f"MISMATCH under {name}: perft {leaves}, engine {by_engine}, naive {by_naive}")
    print("/engine, /naive: how many times faster perft counts than the engine's own generator and than "
          "the naive candidate filter (CPU time)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
