"""Win rates with their uncertainty: the Wilson score interval, and bounds for the unknowns.

A campaign decides most games and leaves a few *unknown* (the budget ran
out). The rate among the decided games comes with a 95% Wilson interval
(Wilson 1927), which, unlike the normal approximation, stays inside 0..1 and
behaves at rates near 0. The unknowns are not a random sample (hard games
are unknown more often), so :class:`Rates` also gives the rate if every
unknown turned out lost and if every one turned out won.

>>> low, high = wilson(1, 10)
>>> round(low, 4), round(high, 4)
(0.0179, 0.4042)
>>> print(Rates(won=12, lost=85, unknown=3).describe().replace("; ", "\\n"))
12.37% won of 97 decided (95% Wilson interval 7.22%-20.39%)
3 unknown: 12.00% if all were lost, 15.00% if all were won
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Z95", "Rates", "wilson"]

#: The standard normal quantile of 0.975: a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion, ``(low, high)``; ``(0, 1)`` with no trials.

    Raises :class:`ValueError` unless ``0 <= successes <= trials``.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie between 0 and trials, not {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def _pct(value: float) -> str:
    return f"{100 * value:.2f}%"


@dataclass(frozen=True)
class Rates:
    """How many games were won, lost and left unknown, and the rates that follow."""

    won: int
    lost: int
    unknown: int = 0

    @property
    def decided(self) -> int:
        """Games won or lost."""
        return self.won + self.lost

    @property
    def total(self) -> int:
        """Every game counted, unknowns too."""
        return self.decided + self.unknown

    @property
    def rate(self) -> float | None:
        """The share of decided games that were won (None with none decided)."""
        return self.won / self.decided if self.decided else None

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate`."""
        return wilson(self.won, self.decided)

    @property
    def bounds(self) -> tuple[float, float]:
        """The rate over every game if each unknown was lost, and if each was won."""
        if not self.total:
            return 0.0, 1.0
        return self.won / self.total, (self.won + self.unknown) / self.total

    @property
    def outer(self) -> tuple[float, float]:
        """The widest 95% interval: Wilson's low limit with the unknowns lost, high limit with them won."""
        return wilson(self.won, self.total)[0], wilson(self.won + self.unknown, self.total)[1]

    def short(self) -> str:
        """``"12.4% [7.2-20.4]"``, for a progress bar."""
        if self.rate is None:
            return "-"
        low, high = self.interval
        return f"{100 * self.rate:.1f}% [{100 * low:.1f}-{100 * high:.1f}]"

    def describe(self) -> str:
        """One sentence: the rate, its interval, and the bounds for the unknowns."""
        if self.rate is None:
            text = "no game decided yet"
        else:
            low, high = self.interval
            text = (f"{_pct(self.rate)} won of {self.decided} decided "
                    f"(95% Wilson interval {_pct(low)}-{_pct(high)})")
        if self.unknown:
            low, high = self.bounds
            text += (f"; {self.unknown} unknown: {_pct(low)} if all were lost, "
                     f"{_pct(high)} if all were won")
        return text
