"""``check-line``: where a line of play threw a winnable game away.

Winnability can only be lost along a line, never regained: every position
reachable from a lost position is lost too. So the positions of a line are
winnable up to some action and lost after it, and the boundary can be
found by bisection. :func:`check_line` first solves the last position (if
it is winnable, so was every one before it); otherwise it bisects between
the last position known winnable and the first known lost. A position the
budget leaves unknown stops the bisection, and the positions between the
bounds are then solved one by one, so the answer is always exact about
what it claims and names what it could not decide.

>>> from scorpion_ref import Position, get_ruleset, parse_action
>>> start = Position.build(["KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "AS"], collected="CDH")
>>> verdict = check_line(start, get_ruleset("standard"), [parse_action("AS>1")])
>>> verdict.lost_after is None, verdict.last_winnable
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scorpion_ref import Action, IllegalAction, Position, RuleSet, apply
from scorpion_ref.solver import Budget, Solution, solve

from .inputs import BadInput
from .lines import show_action

__all__ = ["LineVerdict", "check_line", "replay"]


@dataclass
class LineVerdict:
    """What the solver could say about each position of a line (position *i* follows action *i*).

    ``lost_after``: the number of the first action after which the game is proven lost
    (0: lost from the start), None if no position was proven lost. ``last_winnable``:
    the number of actions played before the last position proven winnable (0: the start),
    None if none was proven winnable; ``line`` wins from there. ``unknown``: the positions
    the budget left undecided, between those two.
    """

    actions: list[Action]
    positions: list[Position]
    solutions: dict[int, Solution] = field(default_factory=dict)
    lost_after: int | None = None
    last_winnable: int | None = None
    line: tuple[Action, ...] = ()
    unknown: list[int] = field(default_factory=list)

    @property
    def nodes(self) -> int:
        """Positions expanded over every search."""
        return sum(s.nodes for s in self.solutions.values())

    @property
    def seconds(self) -> float:
        """Seconds over every search."""
        return sum(s.seconds for s in self.solutions.values())


def replay(start: Position, rules: RuleSet, actions: Sequence[Action]) -> list[Position]:
    """The start and the position after each action; raises :class:`BadInput` for an illegal action."""
    positions = [start]
    for number, action in enumerate(actions, start=1):
        try:
            positions.append(apply(positions[-1], rules, action).position)
        except IllegalAction as error:
            raise BadInput(f"move {number} ({show_action(action)}) is illegal there: {error}") from None
    return positions


def check_line(start: Position, rules: RuleSet, actions: Sequence[Action], budget: Budget | None = None,
               *, progress: Callable[[int], None] | None = None) -> LineVerdict:
    """Find the first action after which the game is proven lost, and the last winnable position."""
    verdict = LineVerdict(list(actions), replay(start, rules, actions))

    def decide(i: int) -> str:
        if i not in verdict.solutions:
            verdict.solutions[i] = solve(verdict.positions[i], rules, budget, progress=progress)
        return verdict.solutions[i].outcome

    # low: the last position proven winnable (or -1); high: the first proven lost (or past the end)
    low, high = -1, len(verdict.positions)
    last = len(verdict.positions) - 1
    outcome = decide(last)
    if outcome == "won":
        low = last
    else:
        if outcome == "lost":
            high = last
        while high - low > 1:
            middle = (low + high) // 2 if outcome == "lost" else low + 1
            found = decide(middle)
            if found == "won":
                low = middle
            elif found == "lost":
                high = middle
            else:
                break
        for i in range(low + 1, high):  # only after an unknown: one by one, upwards
            found = decide(i)
            if found == "won":
                low = i
            elif found == "lost":
                high = i
                break
    verdict.unknown = sorted(i for i in verdict.solutions if verdict.solutions[i].outcome == "unknown"
                             and low < i < high)
    verdict.lost_after = high if high <= last else None
    if low >= 0:
        verdict.last_winnable = low
        verdict.line = verdict.solutions[low].line
    return verdict
