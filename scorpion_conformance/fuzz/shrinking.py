"""Shrinking a failing game by delta debugging: re-root it at the latest
position from which it still fails, cut the action list down, and take from
the start position every card, face-down card, stock card and collected suit
it can spare.

Why our own shrinker and not Hypothesis's: a game here is a start position
plus actions named by card and column, and the useful reductions are
domain moves (start later in the game, drop a card from the table, turn a
card face up) that keep every remaining action meaningful. Hypothesis
shrinks the choice sequence behind the draws, where deleting one card
renumbers every later choice and turns the game into another one; it also
owns the example budget and seeding, while this command must play exactly
``--games`` games reproducibly from ``--seed`` with a progress bar.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from scorpion_ref import Card, Column, Position, RuleSet

from .compare import Difference
from .play import Failure, Stats, Step, _Invalid, _positions_before, _valid, play_game


def _reduce(items: list[Any], test: Callable[[list[Any]], bool]) -> list[Any]:
    """Delete chunks (halves, quarters, ... single items) while ``test`` still holds."""
    chunk = max(len(items) // 2, 1)
    while items:
        i = 0
        while i < len(items):
            candidate = items[:i] + items[i + chunk:]
            if test(candidate):
                items = candidate
            else:
                i += chunk
        if chunk == 1:
            break
        chunk = max(chunk // 2, 1)
    return items


def _without(position: Position, keep: set[Card]) -> Position:
    """``position`` with only the table cards in ``keep`` (a column left with only
    face-down cards has its top one turned up)."""
    columns = []
    for column in position.columns:
        down = tuple(c for c in column.down if c in keep)
        up = tuple(c for c in column.up if c in keep)
        if down and not up:
            down, up = down[:-1], down[-1:]
        columns.append(Column(down, up))
    return Position(tuple(columns), position.stock, position.collected)


def _position_candidates(position: Position) -> Iterator[Position]:
    """Simpler variants of ``position``, the boldest first."""
    if position.stock:
        yield Position(position.columns, (), position.collected)
        for i in range(len(position.stock)):
            yield Position(position.columns, position.stock[:i] + position.stock[i + 1:],
                           position.collected)
    for suit in sorted(position.collected, key=lambda s: s.value):
        yield Position(position.columns, position.stock, position.collected - {suit})
    for i, column in enumerate(position.columns):
        if column.down:
            yield position.replace(i, Column((), column.down + column.up))
            yield position.replace(i, Column(column.down[:-1], column.down[-1:] + column.up))


class Shrinker:
    """Delta debugging of a failure: re-root, cut actions, simplify the position.

    Every candidate is first replayed on the reference alone (each step must
    keep the legality it had), then through the adapter; it is kept when it
    shows a difference of the same kind and is no longer than the best so far.
    """

    def __init__(self, client: Any, name: str, rules: RuleSet, failure: Failure,
                 seconds: float) -> None:
        self.client, self.name, self.rules = client, name, rules
        self.target = failure.difference
        self.best = Failure(failure.start, failure.steps[: failure.difference.step + 1],
                            failure.difference, failure.origin, failure.game)
        self.deadline = time.monotonic() + seconds
        self.cache: dict[tuple[Position, tuple[Step, ...]], Difference | None] = {}
        self.tests = 0
        self.stats = Stats()

    def test(self, start: Position, steps: Sequence[Step]) -> Difference | None:
        """The difference this candidate shows, if it is of the target's kind."""
        key = (start, tuple(steps))
        if key in self.cache:
            return self.cache[key]
        result = None
        if time.monotonic() < self.deadline and _valid(start, self.rules, steps):
            self.tests += 1
            try:
                _, found = play_game(self.client, self.name, self.rules, start, list(steps),
                                     self.stats, strict=True)
            except _Invalid:
                found = None
            if found is not None and found.same_kind(self.target):
                result = found
        self.cache[key] = result
        return result

    def keep(self, start: Position, steps: Sequence[Step]) -> bool:
        """Test a candidate and make it the best one if it fails the same way."""
        if len(steps) > len(self.best.steps):
            return False
        found = self.test(start, steps)
        if found is None:
            return False
        self.best = Failure(start, list(steps[: found.step + 1]), found,
                            self.best.origin, self.best.game)
        return True

    def keep_cards(self, kept: Sequence[Card]) -> bool:
        candidate = _without(self.best.start, set(kept))
        return candidate is not None and self.keep(candidate, self.best.steps)

    def shrink(self) -> Failure:
        best = self.best
        positions = _positions_before(best.start, self.rules, best.steps)
        for k in range(len(best.steps), 0, -1):  # the latest start that still fails
            if self.keep(positions[k], best.steps[k:]):
                break
        for _ in range(4):
            before = (self.best.start, tuple(self.best.steps))
            _reduce(list(self.best.steps), lambda steps: self.keep(self.best.start, steps))
            cards = [c for column in self.best.start.columns for c in column.cards()]
            _reduce(cards, self.keep_cards)
            while any(self.keep(p, self.best.steps) for p in _position_candidates(self.best.start)):
                pass
            if (self.best.start, tuple(self.best.steps)) == before:
                break
        return self.best


def shrink(client: Any, name: str, rules: RuleSet, failure: Failure,
           seconds: float = 60.0) -> tuple[Failure, int]:
    """The shortest failing game found within ``seconds``, and how many replays it took."""
    shrinker = Shrinker(client, name, rules, failure, seconds)
    return shrinker.shrink(), shrinker.tests
