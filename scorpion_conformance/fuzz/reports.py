"""What the fuzzer prints for people: a found difference (with its shrunk
start position and steps) and the one-line summary of a run."""

from __future__ import annotations

import json
from typing import TextIO

from scorpion_ref import Position
from scorpion_ref.serial import draw_position, position_to_json

from .play import Failure, Stats


def _draw(position: Position) -> list[str]:
    return ["    " + line for line in draw_position(position).splitlines()]


def report(failure: Failure, original: Failure, tests: int, out: TextIO) -> None:
    """Print a found difference as people read it."""
    difference = failure.difference
    print(f"DIFFERENCE ({difference.kind}) in game #{failure.game}, from the "
          f"{failure.origin}:", file=out)
    print(f"  {difference.message}", file=out)
    print(f"shrunk from {len(original.steps)} steps and "
          f"{sum(1 for _ in original.start.cards())} cards to {len(failure.steps)} steps and "
          f"{sum(1 for _ in failure.start.cards())} cards ({tests} replays)", file=out)
    print("start position:", file=out)
    for line in _draw(failure.start):
        print(line, file=out)
    print("  JSON: " + json.dumps(position_to_json(failure.start), separators=(",", ":")),
          file=out)
    print("steps:" if failure.steps else "steps: none (the difference shows at the start)",
          file=out)
    for number, step in enumerate(failure.steps, start=1):
        print(f"  {number}. {step}", file=out)


def _summary(stats: Stats, elapsed: float, seed: int, out: TextIO) -> None:
    def rate(count: int) -> str:
        return f"{count / elapsed:,.0f}" if elapsed > 0 else "-"

    print(f"{stats.games:,} games, {stats.steps:,} steps, {stats.actions_compared:,} legal "
          f"actions compared in {elapsed:.1f} s ({rate(stats.games)} games/s, "
          f"{rate(stats.steps)} steps/s, {rate(stats.actions_compared)} actions/s); "
          f"seed {seed}", file=out)
    if stats.unsupported:
        print(f"{stats.unsupported:,} of them started from a synthetic position the adapter cannot hold "
              "(unsupported-position): not compared", file=out)
