"""The win-rate arithmetic: Wilson intervals against published values, the bounds for unknowns."""

from __future__ import annotations

import math

import pytest

from scorpion_conformance.solving.stats import Rates, wilson

# Published values of the 95% Wilson score interval: the worked examples of Newcombe (1998),
# "Two-sided confidence intervals for the single proportion", Statistics in Medicine 17, Table I
# (81/263, 15/148, 0/20, 1/29), and the small cases statistics packages print
# (statsmodels' proportion_confint(method="wilson"), R's prop.test(correct=FALSE)).
KNOWN = [
    (0, 10, 0.0, 0.2775),
    (1, 10, 0.0179, 0.4042),
    (50, 100, 0.4038, 0.5962),
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (10, 10, 0.7225, 1.0),
]


@pytest.mark.parametrize(("won", "trials", "low", "high"), KNOWN)
def test_wilson_matches_known_values(won: int, trials: int, low: float, high: float) -> None:
    got = wilson(won, trials)
    assert got == pytest.approx((low, high), abs=6e-5)


def test_wilson_stays_inside_zero_and_one_and_holds_the_rate() -> None:
    for trials in (1, 2, 7, 100, 10_000):
        for won in sorted({0, 1, trials // 3, trials - 1, trials}):
            low, high = wilson(won, trials)
            assert 0.0 <= low <= won / trials <= high <= 1.0


def test_wilson_narrows_with_the_square_root_of_the_sample() -> None:
    small = wilson(100, 1_000)
    large = wilson(10_000, 100_000)
    assert (small[1] - small[0]) / (large[1] - large[0]) == pytest.approx(math.sqrt(100), rel=0.02)


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match="between 0 and trials"):
        wilson(11, 10)
    assert wilson(0, 0) == (0.0, 1.0)


def test_rates_bounds_put_every_unknown_one_way() -> None:
    rates = Rates(won=12, lost=85, unknown=3)
    assert rates.decided == 97 and rates.total == 100
    assert rates.rate == pytest.approx(12 / 97)
    assert rates.bounds == pytest.approx((0.12, 0.15))
    outer_low, outer_high = rates.outer
    assert outer_low == pytest.approx(wilson(12, 100)[0]) and outer_high == pytest.approx(wilson(15, 100)[1])
    text = rates.describe()
    assert "12.37% won of 97 decided" in text and "12.00% if all were lost" in text
    assert "15.00% if all were won" in text


def test_rates_with_nothing_decided_say_so() -> None:
    assert Rates(0, 0, 4).rate is None
    assert Rates(0, 0, 4).describe().startswith("no game decided yet")
    assert Rates(0, 0).short() == "-"
