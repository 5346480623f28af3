"""How fast the reference engine generates and applies actions (run by hand, not a test).

    /work/venv/bin/python benchmarks/engine.py [--games 200] [--repeat 5]

For each named rule set, random games are played from fixed game numbers (the
choice of action is seeded by the game number, so every run plays the same
games). The positions and actions met are recorded first; then, separately timed:

* legal-action generations per second: ``legal_actions`` on every recorded position;
* actions applied per second: ``apply`` of every recorded action to its position;
* a baseline measured in the same run on the same machine: building, for every
  recorded position, a tuple of as many items as it has legal actions (and, for
  apply, a tuple of its seven columns), so that the ratio says how much slower the
  engine is than the cheapest thing that returns a result of the same size.

Nothing is asserted: the figures are for people comparing two versions of the
engine on one machine.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from scorpion_ref import (
    RULESETS,
    Action,
    Position,
    RuleSet,
    Status,
    apply,
    available_actions,
    deal_game,
    legal_actions,
    status,
)

#: Random games are cut off here (Wasp's spaces let a random player wander).
MAX_ACTIONS = 400


@dataclass
class Recording:
    positions: list[Position]
    steps: list[tuple[Position, Action]]
    legal_counts: list[int]
    games: int
    won: int


def record(rules: RuleSet, games: range) -> Recording:
    """Play one seeded random game per game number; keep what was met."""
    positions: list[Position] = []
    steps: list[tuple[Position, Action]] = []
    legal_counts: list[int] = []
    won = 0
    for game in games:
        rnd = random.Random(game)
        position = deal_game(game)
        for _ in range(MAX_ACTIONS):
            positions.append(position)
            legal_counts.append(len(legal_actions(position, rules)))
            choices = available_actions(position, rules)
            if not choices:
                break
            action = rnd.choice(choices)
            steps.append((position, action))
            position = apply(position, rules, action).position
        won += status(position, rules) is Status.WON
    return Recording(positions, steps, legal_counts, len(games), won)


def best_rate(run: Callable[[], int], repeat: int) -> float:
    """Items per second of the fastest of ``repeat`` runs (``run`` returns its item count)."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        items = run()
        elapsed = time.perf_counter() - start
        best = max(best, items / elapsed)
    return best


def measure(rules: RuleSet, recording: Recording, repeat: int) -> dict[str, float]:
    positions, steps, counts = recording.positions, recording.steps, recording.legal_counts

    def generate() -> int:
        for position in positions:
            legal_actions(position, rules)
        return len(positions)

    def play() -> int:
        for position, action in steps:
            apply(position, rules, action)
        return len(steps)

    def baseline_generate() -> int:
        for position, count in zip(positions, counts, strict=True):
            tuple(position.columns[i % 7] for i in range(count))
        return len(positions)

    def baseline_play() -> int:
        for position, _ in steps:
            tuple(column for column in position.columns)
        return len(steps)

    return {
        "legal_per_s": best_rate(generate, repeat),
        "apply_per_s": best_rate(play, repeat),
        "base_legal_per_s": best_rate(baseline_generate, repeat),
        "base_apply_per_s": best_rate(baseline_play, repeat),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per rule set (from game 1)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the best is kept")
    args = parser.parse_args(argv)
    games = range(1, args.games + 1)

    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"games 1-{args.games}, best of {args.repeat}")
    header = (f"{'rule set':<10} {'positions':>9} {'won':>4} {'legal/s':>10} {'base/s':>11} "
              f"{'ratio':>6} {'apply/s':>10} {'base/s':>11} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    for name, rules in RULESETS.items():
        recording = record(rules, games)
        rates = measure(rules, recording, args.repeat)
        print(
            f"{name:<10} {len(recording.positions):>9} {recording.won:>4} "
            f"{rates['legal_per_s']:>10,.0f} {rates['base_legal_per_s']:>11,.0f} "
            f"{rates['base_legal_per_s'] / rates['legal_per_s']:>5.1f}x "
            f"{rates['apply_per_s']:>10,.0f} {rates['base_apply_per_s']:>11,.0f} "
            f"{rates['base_apply_per_s'] / rates['apply_per_s']:>5.1f}x"
        )
    print("ratio: how many times faster the baseline (a tuple of the same size) is built")
    return 0


if __name__ == "__main__":
    sys.exit(main())
